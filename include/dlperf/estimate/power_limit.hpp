/// @file
/// A GPU under a power limit (`nvidia-smi -pl`): the SM clock the limit allows, and the device
/// that runs at it, which every estimator takes unchanged (docs/buying.md, "Power").
///
///     clock fraction f = (limit / TDP)^(1/3)       dynamic power ~ f V^2, V rising with f
///     SM clock domain  x f                         arithmetic peaks, registers, shared memory,
///                                                  L2, latencies in seconds
///     DRAM, Infinity Cache, links                  unchanged (their own clocks)
///
/// The fraction is relative to the clock the board holds at its full power, which the catalog's
/// peaks and GEMM efficiencies describe, so a limit at the TDP changes nothing.
///
/// Published deployments run capped: Meta's Grand Teton H100 at 500 W of 700 (torchtitan's
/// benchmarks, docs/evidence.md "Training on many GPUs").
#pragma once

#include <cmath>
#include <string>

#include <dlperf/core/error.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/measured_device.hpp>

namespace dlperf {

/// How power scales with the SM clock in the DVFS range: dynamic power ~ f V^2 with the
/// voltage rising in step with the clock, so P ~ f^3 (docs/buying.md, "Power").
inline constexpr double power_clock_exponent = 3.0;

/// The lowest power limit, as a share of the board power, that boards accept and the clock
/// model describes: nvidia-smi's "Min Power Limit" is a fifth to a third of the board's default
/// (docs/buying.md, "Plausible inputs"); below it the voltage cannot follow the clock down.
inline constexpr double lowest_power_limit_share = 0.2;

/// The lowest limit a board of power @p tdp takes: lowest_power_limit_share of it.
constexpr power lowest_power_limit(power tdp) { return lowest_power_limit_share * tdp; }

/// Whether a board of power @p tdp takes @p limit and the clock model describes it: within
/// [lowest_power_limit(tdp), tdp] (false for NaN).
constexpr bool power_limit_in_range(power limit, power tdp) {
  return limit >= lowest_power_limit(tdp) && limit <= tdp;
}

/// Throws invalid_argument unless @p limit is finite and within [a fifth of @p tdp, @p tdp]: a
/// limit above the board power is an overclock, which the DVFS model does not describe, and no
/// board takes one below a fifth of it.
constexpr void check_power_limit(power limit, power tdp) {
  detail::require_positive_finite("power limit", {{"limit", limit.value()}, {"TDP", tdp.value()}});
  if (power_limit_in_range(limit, tdp)) return;
  if (limit > tdp)
    detail::throw_invalid_argument("power limit: limit (" + detail::figure_text(limit.value()) +
                                   " W) must not exceed the board power (" +
                                   detail::figure_text(tdp.value()) + " W)");
  detail::throw_invalid_argument("power limit: limit (" + detail::figure_text(limit.value()) +
                                 " W) is below a fifth of the board power (" +
                                 detail::figure_text(tdp.value()) +
                                 " W), the lowest limit boards accept");
}

/// The SM clock, as a fraction of its clock at the board power, that a power limit allows:
/// (limit / TDP)^(1 / power_clock_exponent). Throws invalid_argument for a bad limit.
template <class = void>
double clock_fraction(power limit, power tdp) {
  check_power_limit(limit, tdp);
  return std::pow((limit / tdp).value(), 1.0 / power_clock_exponent);
}

/// @p d as it runs under a power limit of @p limit per board: its SM clock domain slowed by
/// clock_fraction(limit, TDP) (measured_device::slow_clock), its DRAM as it was. A device file's
/// measured throughputs, taken at full power, slow with it. Throws invalid_argument for a limit
/// outside [TDP / 5, TDP].
template <class = void>
measured_device under_power_limit(measured_device d, power limit) {
  const power tdp = d.facts().tdp;
  const double f = clock_fraction(limit, tdp);
  d.slow_clock(f, "power limit " + detail::figure_text(limit.value()) + " W of " +
                      detail::figure_text(tdp.value()) +
                      " W: (limit / TDP)^(1/3) = " + detail::figure_text(f) + " of the clock");
  return d;
}

/// Catalog GPU @p g under a power limit of @p limit (see above).
template <class = void>
measured_device under_power_limit(const gpu_spec& g, power limit) {
  return under_power_limit(measured_device(g), limit);
}

}  // namespace dlperf
