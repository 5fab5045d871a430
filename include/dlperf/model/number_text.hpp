/// @file
/// Doubles to and from text for the messages, reasons and files of the model layer and above:
/// `std::to_chars` and `std::from_chars` for floating point, each with the smallest fallback
/// where the standard library lacks them (`__cpp_lib_to_chars`, never a version number).
/// libstdc++ 12 (g++ 12 and clang++ on Debian) has both, so those builds are unchanged; the
/// fallbacks serve libc++ 13, the library of Debian's emscripten 3.1.6, which builds the
/// WebAssembly page (docs/web.md). It lives in model/, the lowest layer that writes numbers, so
/// that the kernel layers (kernel.hpp) parse neither `<charconv>` nor `<system_error>`
/// (docs/layers.md, "Compile cost").
#pragma once

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>
#include <version>

namespace dlperf::detail {

/// `std::to_chars(first, last, v, format, precision)` through the printf conversion the standard
/// defines that call by ("%.*f" for fixed, "%.*e" for scientific, "%.*g" for general): the same
/// characters in the "C" locale, which dlperf never changes. The fallback of `double_to_chars`;
/// defined everywhere so that the tests hold it to `std::to_chars`.
inline std::to_chars_result printf_to_chars(char* first, char* last, double v,
                                            std::chars_format format, int precision) {
  const auto room = static_cast<std::size_t>(last - first);
  // NOLINTBEGIN(cppcoreguidelines-pro-type-vararg): the printf the standard refers to
  const int n =
      format == std::chars_format::fixed        ? std::snprintf(first, room, "%.*f", precision, v)
      : format == std::chars_format::scientific ? std::snprintf(first, room, "%.*e", precision, v)
                                                : std::snprintf(first, room, "%.*g", precision, v);
  // NOLINTEND(cppcoreguidelines-pro-type-vararg)
  if (n < 0 || static_cast<std::size_t>(n) >= room) return {last, std::errc::value_too_large};
  return {first + n, std::errc{}};
}

/// `std::from_chars(first, last, v)` for a double (the general format) through `std::strtod` on
/// a copy, held to what `from_chars` accepts: no leading space or '+', and no hexadecimal
/// ("0x1p3" reads as 0 and stops at 'x', as `from_chars` does); a value beyond the largest double
/// or below the smallest subnormal is `result_out_of_range`. The fallback of `double_from_chars`;
/// defined everywhere so that the tests hold it to `std::from_chars`.
inline std::from_chars_result strtod_from_chars(const char* first, const char* last, double& v) {
  const char* digits = first != last && *first == '-' ? first + 1 : first;
  if (digits == last || *digits == '+' || *digits == ' ' || (*digits >= '\t' && *digits <= '\r'))
    return {first, std::errc::invalid_argument};
  if (last - digits >= 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    v = first == digits ? 0.0 : -0.0;
    return {digits + 1, std::errc{}};
  }
  const std::string text(first, last);  // strtod needs the terminating NUL
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(text.c_str(), &end);
  const auto read = end - text.c_str();
  if (read == 0) return {first, std::errc::invalid_argument};
  // Out of range is overflow and underflow to zero; a subnormal result is a value.
  if (errno == ERANGE && (parsed == 0.0 || std::abs(parsed) > 1.0))
    return {first + read, std::errc::result_out_of_range};
  v = parsed;
  return {first + read, std::errc{}};
}

/// `std::to_chars(first, last, v, format, precision)` for a double, or `printf_to_chars` where
/// the library lacks floating-point `to_chars` (`__cpp_lib_to_chars`).
inline std::to_chars_result double_to_chars(char* first, char* last, double v,
                                            std::chars_format format, int precision) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  return std::to_chars(first, last, v, format, precision);
#else
  return printf_to_chars(first, last, v, format, precision);
#endif
}

/// @p v as text, as `std::to_chars(first, last, v, format, precision)` writes it
/// (`double_to_chars`): the one place dlperf's messages and reasons turn a double into characters.
/// The buffer holds the longest fixed-format double (309 digits) with 40 decimals; a precision
/// beyond that gives "?".
inline std::string double_text(double v, std::chars_format format, int precision) {
  std::array<char, 352> buf{};
  const auto [end, ec] = double_to_chars(buf.data(), buf.data() + buf.size(), v, format, precision);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

/// `std::from_chars(first, last, v)` for a double, or `strtod_from_chars` where the library lacks
/// floating-point `from_chars` (`__cpp_lib_to_chars`).
inline std::from_chars_result double_from_chars(const char* first, const char* last, double& v) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  return std::from_chars(first, last, v);
#else
  return strtod_from_chars(first, last, v);
#endif
}

}  // namespace dlperf::detail
