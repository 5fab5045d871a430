/// @file
/// The `device` concept: what every estimator needs from hardware. Catalog GPUs model it, and so
/// does any type built at run time from measured figures, so both go through the same functions.
#pragma once

#include <concepts>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// A device an estimator can evaluate a workload on: it names itself, says which
/// (datatype, accumulator, sparsity) it can run and at what peak rate (throwing `unsupported`
/// otherwise), and reports capacity, bandwidth and latency per memory tier.
template <class D>
concept device = requires(const D& d, dtype t, accumulator a, sparsity s, tier m) {
  { d.name() } -> std::convertible_to<std::string_view>;
  { d.supports(t, a, s) } -> std::same_as<bool>;
  { d.peak(t, a, s) } -> std::same_as<flop_rate>;
  { d.memory(m) } -> std::same_as<tier_spec>;
};

/// A device the tile-level estimators (GEMM, attention, convolution) can evaluate: a `device`
/// that also exposes its architecture (SM resources, MMA shape, latencies), SM count and clock,
/// the fraction of peak large GEMMs reach per operand type, and the cost of a kernel launch.
/// Calibration replaces the last two with measurements.
template <class D>
concept gemm_device = device<D> && requires(const D& d, dtype t) {
  { d.arch() } -> std::convertible_to<const architecture_spec&>;
  { d.sm_count() } -> std::convertible_to<int>;
  { d.sm_clock() } -> std::same_as<frequency>;
  { d.gemm_efficiency(t) } -> std::convertible_to<double>;
  { d.launch_overhead() } -> std::same_as<duration>;
};

/// Tier @p m of @p d (run-time or compile-time tier tag).
template <device D>
constexpr tier_spec memory(const D& d, tier m) {
  return d.memory(m);
}

}  // namespace dlperf
