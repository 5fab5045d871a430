/// @file
/// The clock a board holds through a long job: a training run keeps its tensor cores busy for
/// hours, and a board whose dense tensor work draws more than its power limit at the quoted
/// clock settles where the draw meets the limit (docs/calibration.md, "Clocks under sustained
/// load"). The GEMM efficiencies the catalog carries were measured in short bursts, at about the
/// quoted tensor clock, so a long job's tensor work runs slower by the ratio of the two clocks.
///
///     P(f) = TDP x [ s (f / f_t)^3 + (1 - s) (f / f_b)^3 ]      power_clock_exponent = 3
///     f    = clock where P(f) = TDP:  (s / f_t^3 + (1 - s) / f_b^3)^(-1/3)
///     clock fraction = min(1, f / tensor clock)
///
/// with s the share of the job's time (at full clock) in tensor-bound operators, f_t the clock
/// measured under dense tensor load alone (gpu_facts::sustained_tensor_clock, which draws the
/// TDP there; for FP8 products gpu_facts::sustained_fp8_tensor_clock where one is measured, as
/// on the H200: 1350 MHz against BF16's 1470) and f_b the boost clock, which the rest of the job
/// (memory-bound kernels, which the lent H200 ran at 1980 MHz and 592 W) is taken to hold at the
/// TDP at most. A board with no measured clock keeps 1. A power limit below the TDP
/// (estimate/power_limit.hpp) slows the clock further, by its own law, on top of this one.
#pragma once

#include <algorithm>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/power_limit.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf {

namespace detail {
/// The real cube root of @p a in (0, 1], as a constant expression (Newton's method from 1,
/// which converges from above for these).
constexpr double cube_root_of_fraction(double a) {
  double y = 1.0;
  for (int i = 0; i < 40; ++i) y -= (y * y * y - a) / (3.0 * y * y);
  return y;
}
}  // namespace detail

/// The clock board @p f holds under dense tensor products of datatype @p t alone: the FP8
/// figure for an 8-bit float where one is measured, else the 16-bit one; 0 where none is.
constexpr frequency held_tensor_clock(const gpu_facts& f, dtype t) {
  const datatype_traits d = traits(t);
  const bool fp8 = d.storage_bits == 8 && d.is_floating();
  if (fp8 && f.sustained_fp8_tensor_clock.value() > 0) return f.sustained_fp8_tensor_clock;
  return f.sustained_tensor_clock;
}

/// The SM clock board @p f holds through a long job whose time at full clock is a share
/// @p tensor_share (in [0, 1]) of tensor-bound operators of datatype @p t, at its default power
/// limit: between the clock measured under those products alone (share 1, held_tensor_clock)
/// and the boost clock (share 0). The boost clock where no sustained clock is measured. Throws
/// invalid_argument for a share outside [0, 1].
constexpr frequency sustained_clock(const gpu_facts& f, double tensor_share,
                                    dtype t = dtype::bf16) {
  if (!(tensor_share >= 0.0 && tensor_share <= 1.0))
    detail::throw_invalid_argument("sustained clock: tensor share must be in [0, 1], got " +
                                   detail::figure_text(tensor_share));
  const frequency boost = f.boost_clock;
  const frequency held = held_tensor_clock(f, t);
  if (!(held.value() > 0)) return boost;
  static_assert(power_clock_exponent == 3.0, "the clock solve below takes a cube root");
  const double r = (boost / held).value();  // >= 1 (gpu_spec checks it)
  // (f / f_b)^3 = 1 / (s r^3 + 1 - s), a fraction in (0, 1].
  const double cube = 1.0 / (tensor_share * r * r * r + (1.0 - tensor_share));
  return boost * detail::cube_root_of_fraction(cube);
}

/// The share of its quoted clock that board @p f's tensor work runs at through a long job of
/// tensor share @p tensor_share in datatype @p t: sustained_clock over the tensor clock (the
/// boost clock where none is quoted apart), at most 1. 1 where no sustained clock is measured.
constexpr double sustained_clock_fraction(const gpu_facts& f, double tensor_share,
                                          dtype t = dtype::bf16) {
  return std::min(1.0, (sustained_clock(f, tensor_share, t) / quoted_tensor_clock(f)).value());
}

/// Catalog board @p g with its SM clock domain at @p fraction of its speed (the boost and
/// tensor clocks scaled, so the peaks and the on-chip bandwidths and latencies follow them;
/// DRAM keeps its own clock), as a constant expression. Throws invalid_argument unless
/// 0 < @p fraction <= 1.
constexpr gpu_spec at_clock_fraction(const gpu_spec& g, double fraction) {
  if (!(fraction > 0.0 && fraction <= 1.0))
    detail::throw_invalid_argument("clock fraction must be in (0, 1], got " +
                                   detail::figure_text(fraction));
  gpu_facts f = g.facts();
  f.boost_clock = fraction * f.boost_clock;
  f.tensor_clock = fraction * g.tensor_clock();
  f.base_clock = fraction * f.base_clock;
  // The measured clock is the board's at full speed; the slowed view has no further sustained
  // slowdown of its own.
  f.sustained_tensor_clock = frequency{};
  f.sustained_fp8_tensor_clock = frequency{};
  return {g.arch(), f};
}

}  // namespace dlperf
