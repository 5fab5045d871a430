#include "human_format.hpp"

#include <fmt/format.h>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include <dlperf/buying/reason_text.hpp>

namespace dlperf::cli {
namespace {

// @p v (> 0) rounded to three significant digits, halves up as its decimal form reads: 999.5e-9
// is stored as 999.4999...e-9, and the few ulps of nudge make it round as written.
double round3(double v) {
  const double scale = std::pow(10.0, 2 - std::floor(std::log10(v)));
  return std::round(v * scale * (1 + 8 * std::numeric_limits<double>::epsilon())) / scale;
}

// A value already rounded to three significant digits, scaled into [1, 1000) by its unit, with
// the decimals that keep three digits.
std::string digits_of(double mantissa) {
  if (mantissa >= 99.95) return fmt::format("{:.0f}", mantissa);
  if (mantissa >= 9.995) return fmt::format("{:.1f}", mantissa);
  if (mantissa >= 0.9995) return fmt::format("{:.2f}", mantissa);
  return fmt::format("{:#.3g}", mantissa);  // below the smallest unit: "0.500"
}

}  // namespace

std::string three_digits(double value) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : value < 0 ? "-inf" : "nan";
  if (value == 0.0) return "0";
  if (value < 0.0) return fmt::format("-{}", digits_of(round3(-value)));
  return digits_of(round3(value));
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return fmt::format("{} s", three_digits(seconds));
  if (seconds == 0.0) return "0 s";
  static constexpr std::array<std::pair<double, const char*>, 4> units{
      {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}};
  const char* const sign = seconds < 0.0 ? "-" : "";
  const double r = round3(std::abs(seconds));
  for (const auto& [scale, unit] : units) {
    // The tolerance keeps 1e-6 / 1e-6 = 0.9999999 in the unit it belongs to.
    if (r >= scale * (1 - 1e-9) || scale == units.back().first)
      return fmt::format("{}{} {}", sign, digits_of(r / scale), unit);
  }
  return {};  // unreachable: the last unit takes everything
}

std::string format_si(double value, std::string_view unit) {
  if (!std::isfinite(value) || value == 0.0) return fmt::format("{} {}", three_digits(value), unit);
  static constexpr std::array<std::pair<double, const char*>, 7> prefixes{
      {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1.0, ""}}};
  const char* const sign = value < 0.0 ? "-" : "";
  const double r = round3(std::abs(value));
  for (const auto& [scale, prefix] : prefixes) {
    if (r >= scale * (1 - 1e-9) || scale == 1.0)
      return fmt::format("{}{} {}{}", sign, digits_of(r / scale), prefix, unit);
  }
  return {};  // unreachable
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes)) return fmt::format("{} B", three_digits(bytes));
  return detail::bytes_text(dlperf::bytes(bytes));
}

std::string format_month(int year, int month) {
  static constexpr std::array<const char*, 12> names{
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  if (month < 1 || month > 12) return fmt::format("{}-{}", year, month);
  return fmt::format("{} {}", names.at(static_cast<std::size_t>(month - 1)), year);
}

std::string format_percent(double part, double whole) {
  if (whole == 0.0 || !std::isfinite(part / whole)) return "-";
  return fmt::format("{} %", three_digits(100.0 * part / whole));
}

std::string format_usd(double dollars) {
  if (!std::isfinite(dollars)) return fmt::format("${}", dollars);
  const std::string sign = dollars < 0 ? "-" : "";
  const double a = std::abs(dollars);
  if (a < 10) return fmt::format("{}${:.2f}", sign, a);
  // Thousands separators, written left to right (g++ 12 at -O3 misreads string::insert and
  // `"x" + std::string` as overlapping copies, -Wrestrict: GCC bug 105329).
  const std::string digits = fmt::format("{:.0f}", a);
  std::string grouped = sign + '$';
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

std::string format_value(std::string_view unit, double value) {
  if (unit == "s") return format_duration(value);
  if (unit == "%") return format_percent(value, 1.0);
  if (unit.empty()) return three_digits(value);
  if (unit == "B") return format_bytes(value);  // memory sizes, in GiB as the tool
  if (unit == "$") return format_usd(value);
  return format_si(value, unit);
}

}  // namespace dlperf::cli
