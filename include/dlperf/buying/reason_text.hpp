/// @file
/// Numbers in the buying layer's reasons (advice, splits): three significant digits, dollars and
/// gigabytes for people, through std::to_chars (the estimators stay free of fmt; g++ 12 has no
/// `<format>`).
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <string>

#include <dlperf/core/library_support.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf::detail {

/// @p v with three significant digits, whole numbers from 1000 up (watts, dollars) without an
/// exponent.
inline std::string sig3(double v) {
  std::array<char, 48> buf{};
  const auto [end, ec] = std::abs(v) >= 1000
                             ? detail::double_to_chars(buf.data(), buf.data() + buf.size(), v,
                                                       std::chars_format::fixed, 0)
                             : detail::double_to_chars(buf.data(), buf.data() + buf.size(), v,
                                                       std::chars_format::general, 3);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

/// Whole dollars: "$1999".
inline std::string dollars_text(money m) {
  std::array<char, 48> buf{};
  const auto [end, ec] = detail::double_to_chars(buf.data(), buf.data() + buf.size(), m.value(),
                                                 std::chars_format::fixed, 0);
  return ec == std::errc{} ? "$" + std::string(buf.data(), end) : std::string("$?");
}

/// Binary gigabytes, as GPU memory is marketed: "24 GB".
inline std::string gb_text(byte_count b) {
  return sig3(b.value() / (1024.0 * 1024 * 1024)) + " GB";
}

}  // namespace dlperf::detail
