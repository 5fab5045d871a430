/// @file
/// The physically sensible ranges of the figures every reader checks (a flag, a device file, a
/// stack record, a price file): one table, so that a value just above zero or far beyond any
/// machine is refused by name everywhere instead of passing a "> 0" check and printing -nan or
/// 1e305 s later.
#pragma once

#include <array>
#include <cstdio>
#include <string>

namespace dlperf::plausible {

/// The least efficiency or share of a peak a figure may claim: a GEMM efficiency, a stack's
/// share of DRAM bandwidth, a measured fraction. A kernel family at less than 1 % of its
/// roofline is not a figure of the family but of a broken run (a debug build, a throttled
/// board, a unit slip), and 1e-308 would pass a "> 0" check only to divide a time by it.
inline constexpr double min_fraction = 0.01;

/// The most a fraction of a peak may be: the peak itself.
inline constexpr double max_fraction = 1.0;

/// Whether @p v is a plausible fraction of a peak: in [min_fraction, max_fraction] (NaN is not).
constexpr bool fraction(double v) { return v >= min_fraction && v <= max_fraction; }

/// Whether a measured rate @p measured is possible against the rate @p peak the hardware can
/// reach: a measurement above its hardware's peak is a unit slip or a wrong board, and would drive
/// estimates above what the device can do.
constexpr bool within_peak(double measured, double peak) { return measured <= peak; }

}  // namespace dlperf::plausible

namespace dlperf::detail {
/// A figure as given, to six significant digits ("1e-308", "0.72"; std::to_string writes 1e-308
/// as "0.000000"), for the messages that refuse it. printf's %g, as model/number_text.hpp falls
/// back to: the browser build's libc++ has no floating-point std::to_chars.
inline std::string figure_text(double v) {
  std::array<char, 32> text{};
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): the printf the standard refers to
  const int n = std::snprintf(text.data(), text.size(), "%g", v);
  return n > 0 ? std::string(text.data()) : std::string("?");
}
}  // namespace dlperf::detail
