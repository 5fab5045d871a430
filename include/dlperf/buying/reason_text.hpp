/// @file
/// Numbers in the buying layer's reasons (advice, splits): three significant digits, dollars and
/// gigabytes for people, through std::to_chars (the estimators stay free of fmt; g++ 12 has no
/// `<format>`).
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

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

/// @p v (>= 0) with three significant digits and the zeros that say so ("24.0", "1.50", "128"),
/// as the tool's other figures print (examples/dlperf/human_format.hpp).
template <class = void>
std::string fixed3(double v) {
  const int decimals = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
  return detail::double_text(v, std::chars_format::fixed, decimals);
}

/// Bytes in decimal units (GB = 10^9 bytes), the one byte unit of dlperf's output for people
/// (docs/buying.md, "Units"), printed as the tool prints every other byte figure: "25.8 GB" for
/// a card sold as 24 GB (24 GiB), "1.08 TB" from 1000 GB on, "512 MB" below 1 GB.
template <class = void>
std::string gb_text(byte_count b) {
  const double gb = b.value() / 1e9;
  if (gb >= 999.5) return fixed3(gb / 1e3) + " TB";
  if (gb < 0.9995) return fixed3(gb * 1e3) + " MB";
  return fixed3(gb) + " GB";
}

}  // namespace dlperf::detail
