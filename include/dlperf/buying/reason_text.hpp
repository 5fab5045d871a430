/// @file
/// Numbers in the buying layer's reasons (advice, splits): three significant digits, dollars and
/// memory sizes for people, through std::to_chars (the estimators stay free of fmt; g++ 12 has no
/// `<format>`).
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string>

#include <dlperf/core/units.hpp>
#include <dlperf/model/number_text.hpp>

namespace dlperf::detail {

/// @p v with three significant digits, whole numbers from 1000 up (watts, dollars) without an
/// exponent.
template <class = void>
std::string sig3(double v) {
  return std::abs(v) >= 1000 ? detail::double_text(v, std::chars_format::fixed, 0)
                             : detail::double_text(v, std::chars_format::general, 3);
}

/// Whole dollars: "$1999".
template <class = void>
std::string dollars_text(money m) {
  // Appended rather than "$" + text: g++ 12 at -O3 reports a false -Wrestrict on that operator+.
  std::string text = "$";
  return text.append(detail::double_text(m.value(), std::chars_format::fixed, 0));
}

/// @p v with three significant digits and the zeros that say so ("0.0412", "0.230", "1.40",
/// "12.0"), whole numbers from 1000 up; below 1e-9 in magnitude, "0" (a share of a cent per task
/// that small is nothing), and below 1e-6 with an exponent ("2.50e-07"). The decimals follow the
/// value rounded to three digits, so 9.996 prints "10.0", not "10.00".
template <class = void>
std::string digits3(double v) {
  const double a = std::abs(v);
  if (!(a >= 1e-9)) return "0";
  if (a >= 1000) return sig3(v);
  if (a < 1e-6) return detail::double_text(v, std::chars_format::scientific, 2);
  const double scale = std::pow(10.0, 2 - static_cast<int>(std::floor(std::log10(a))));
  const double rounded = std::round(a * scale) / scale;
  if (rounded >= 1000) return detail::double_text(v, std::chars_format::fixed, 0);
  const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(rounded))));
  return detail::double_text(v, std::chars_format::fixed, decimals);
}

/// Dollars with three significant digits, for small sums per task: "$0.0412", "$1.40", "$1999".
template <class = void>
std::string cost_text(money m) {
  std::string text = "$";
  return text.append(digits3(m.value()));
}

/// A time for people in the unit that reads best, three significant digits: "850 ms", "12.0 s",
/// "4.50 min", "3.20 h", "2.10 days".
template <class = void>
std::string duration_text(double seconds) {
  const double a = std::abs(seconds);
  if (a < 1) return digits3(seconds * 1e3) + " ms";
  if (a < 60) return digits3(seconds) + " s";
  if (a < 3600) return digits3(seconds / 60) + " min";
  if (a < 86400 * 2) return digits3(seconds / 3600) + " h";
  return digits3(seconds / 86400) + " days";
}

/// @p v (>= 0) with three significant digits and the zeros that say so ("24.0", "1.50", "128"),
/// as the tool's other figures print (tools/dlperf/human_format.hpp).
template <class = void>
std::string fixed3(double v) {
  const int decimals = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
  return detail::double_text(v, std::chars_format::fixed, decimals);
}

/// A memory size in binary units labelled as such, the one unit of dlperf's memory figures for
/// people (docs/catalog.md, "Memory in GiB"): "24.0 GiB" for a card sold as 24 GB, "1.50 KiB",
/// "512 B", "0 B", "1.00 TiB" from 1023.5 GiB on (the unit is the largest one the value rounds to
/// at least 1 in); negative sizes (a shortfall) keep their sign. The tool's `format_bytes` is this.
template <class = void>
std::string bytes_text(byte_count b) {
  static constexpr std::array<const char*, 6> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (b.value() == 0.0) return "0 B";
  const double a = std::abs(b.value());
  std::size_t u = 0;
  double scaled = a;
  while (u + 1 < units.size() && scaled / 1024.0 >= 0.9995) {
    scaled /= 1024.0;
    ++u;
  }
  std::string text = b.value() < 0 ? "-" : "";
  return text.append(fixed3(scaled)).append(" ").append(units[u]);
}

}  // namespace dlperf::detail
