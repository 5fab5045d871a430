/// @file
/// The physically sensible ranges of the figures every reader checks (a flag, a device file, a
/// stack record, a price file): one table, so that a value just above zero or far beyond any
/// machine is refused by name everywhere instead of passing a "> 0" check and printing -nan or
/// 1e305 s later.
#pragma once

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

}  // namespace dlperf::plausible
