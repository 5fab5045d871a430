// Numbers as people type them, and their plausible ranges (dlperf/app/amounts.hpp).
#include <dlperf/app/amounts.hpp>

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <cmath>
#include <dlperf/app/request_error.hpp>
#include <dlperf/model/number_text.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace dlperf::app {

double parse_amount(std::string_view option, std::string_view text) {
  const auto fail = [&](std::string_view why) {
    throw request_error(fmt::format("{} '{}' {}", option, text, why));
  };
  double value = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, ec] = detail::double_from_chars(first, last, value);
  if (ec != std::errc{} || end == first) fail("is not a number");
  if (std::isnan(value) || std::isinf(value)) fail("must be finite");

  static constexpr auto multipliers =
      std::to_array<std::pair<std::string_view, double>>({{"", 1.0},
                                                          {"k", 1e3},
                                                          {"K", 1e3},
                                                          {"M", 1e6},
                                                          {"G", 1e9},
                                                          {"T", 1e12},
                                                          {"P", 1e15},
                                                          {"Ki", 1024.0},
                                                          {"Mi", 1048576.0},
                                                          {"Gi", 1073741824.0},
                                                          {"Ti", 1099511627776.0}});
  const std::string_view suffix(end, static_cast<std::size_t>(last - end));
  for (const auto& [name, scale] : multipliers) {
    if (suffix == name) {
      value *= scale;
      if (value < 0.0) fail("must not be negative");
      if (std::isinf(value)) fail("is too large");
      return value;
    }
  }
  fail(
      "has an unknown suffix (use a number, optionally followed by k, M, G, T, P, Ki, Mi, Gi "
      "or Ti)");
  return 0.0;  // unreachable: fail throws
}

long long parse_count(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value < 1.0 || value != std::floor(value) || value > 9.0e15)
    throw request_error(fmt::format("{} '{}' must be a positive whole number", option, text));
  return static_cast<long long>(value);
}

long long parse_tokens(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value != std::floor(value) || value > 9.0e15)
    throw request_error(fmt::format("{} '{}' must be a whole number of tokens", option, text));
  return static_cast<long long>(value);
}

double parse_fraction(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value > 1.0) throw request_error(fmt::format("{} '{}' must be in [0, 1]", option, text));
  return value;
}

// Each range is wide enough for any machine one buys (a rack of GPUs, the dearest grid) and
// narrow enough that sums over it stay readable; docs/buying.md, "Plausible inputs", says why
// for each.
namespace {
constexpr auto range_table = std::to_array<plausible_range>({
    {"--budget", 0, 1e8, true, "USD"},          {"--host-cost", 0, 1e7, false, "USD"},
    {"--min-memory", 0, 1e4, false, "GiB"},     {"--count", 1, 16, false, "GPUs"},
    {"--rest-watts", 0, 1e4, false, "W"},       {"--gpu-watts", 0, 1e5, false, "W"},
    {"--other-watts", 0, 1e4, false, "W"},      {"--kwh-price", 0, 10, false, "USD per kWh"},
    {"--system-price", 0, 1e8, false, "USD"},   {"--cloud-hourly", 0, 1e4, false, "USD per hour"},
    {"--days", 0, 36500, true, "days"},         {"--grid-kg-per-kwh", 0, 2, false, "kg per kWh"},
    {"--ratio", 1e-3, 1e3, false, ""},          {"--batch-from", 1, 16777216, false, ""},
    {"--batch-to", 1, 16777216, false, ""},     {"--gpus-from", 1, 1048576, false, "GPUs"},
    {"--gpus-to", 1, 1048576, false, "GPUs"},   {"--bucket", 0, 1e11, true, "bytes"},
    {"--utilization", 1e-3, 1, false, ""},      {"--flops", 1, 1e30, false, "FLOP", true},
    {"--bytes", 1, 1e21, false, "bytes", true}, {"--overhead", 0, 1e13, false, "bytes"},
});
}  // namespace

const std::span<const plausible_range> plausible_ranges{range_table};

const plausible_range& plausible_range_of(std::string_view flag) {
  for (const plausible_range& r : plausible_ranges)
    if (r.flag == flag) return r;
  throw std::logic_error("no plausible range for " + std::string(flag));
}

namespace {
[[noreturn]] void outside(const plausible_range& r, std::string_view text) {
  throw request_error(fmt::format("{} '{}' must be {}in {}{}, {}]{}{}", r.flag, text,
                                  r.or_zero ? "0 or " : "", r.low_open ? "(" : "[", r.low, r.high,
                                  r.unit.empty() ? "" : " ", r.unit));
}
}  // namespace

double parse_plausible(std::string_view flag, std::string_view text) {
  const plausible_range& r = plausible_range_of(flag);
  const double v = parse_amount(flag, text);
  if (r.or_zero && v == 0.0) return v;
  if (r.low_open ? !(v > r.low) : !(v >= r.low)) outside(r, text);
  if (v > r.high) outside(r, text);
  return v;
}

long long parse_plausible_count(std::string_view flag, std::string_view text) {
  const plausible_range& r = plausible_range_of(flag);
  const double v = parse_amount(flag, text);
  if (v < r.low || v > r.high) outside(r, text);
  return parse_count(flag, text);
}

}  // namespace dlperf::app
