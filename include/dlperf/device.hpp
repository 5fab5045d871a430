/// @file
/// The `device` concept: what every estimator needs from hardware. Catalog GPUs model it, and so
/// does any type built at run time from measured figures, so both go through the same functions.
#pragma once

#include <concepts>
#include <string_view>

#include <dlperf/architecture.hpp>
#include <dlperf/datatype.hpp>
#include <dlperf/gpu.hpp>
#include <dlperf/memory_tier.hpp>
#include <dlperf/units.hpp>

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

static_assert(device<gpu_spec>, "gpu_spec must model dlperf::device");

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

static_assert(gemm_device<gpu_spec>, "gpu_spec must model dlperf::gemm_device");

/// Peak throughput of @p g for datatype tag @p T, accumulator tag and sparsity, checked at compile
/// time against the GPU's architecture: `peak(catalog::a100_sxm4_40gb, fp8_e4m3)` does not
/// compile, and the message says why.
template <architecture A, dtype T, accumulator Acc = default_accumulator(T),
          sparsity S = sparsity::dense>
constexpr flop_rate peak(const gpu<A>& g, datatype<T> /*type*/) {
  static_assert(A::spec.supports(T, Acc),
                "dlperf: this GPU's architecture cannot multiply this datatype with its default "
                "accumulator (FP8 needs Ada, Hopper or Blackwell; BF16 and TF32 need Ampere or "
                "later; FP4 needs Blackwell; INT4 has no tensor path on Hopper or Blackwell)");
  return g.peak(T, Acc, S);
}

/// Accumulator as a type, for the compile-time checked `peak` overloads.
template <accumulator A>
struct accumulate {
  static constexpr accumulator id = A;  ///< identity
};
inline constexpr accumulate<accumulator::fp16> accumulate_fp16{};    ///< FP16 accumulation
inline constexpr accumulate<accumulator::fp32> accumulate_fp32{};    ///< FP32 accumulation
inline constexpr accumulate<accumulator::int32> accumulate_int32{};  ///< INT32 accumulation

/// Sparsity as a type, for the compile-time checked `peak` overloads.
template <sparsity S>
struct sparsity_tag {
  static constexpr sparsity id = S;  ///< identity
};
inline constexpr sparsity_tag<sparsity::dense> dense_operands{};   ///< dense operands
inline constexpr sparsity_tag<sparsity::sparse_2_4> sparse_2_4{};  ///< 2:4 structured sparsity

/// Peak of @p g for @p T accumulating in @p Acc, checked at compile time.
template <architecture A, dtype T, accumulator Acc>
constexpr flop_rate peak(const gpu<A>& g, datatype<T> /*type*/, accumulate<Acc> /*acc*/) {
  static_assert(A::spec.supports(T, Acc),
                "dlperf: this GPU's architecture cannot multiply this datatype with this "
                "accumulator");
  return g.peak(T, Acc, sparsity::dense);
}

/// Peak of @p g for @p T accumulating in @p Acc with sparsity @p S, checked at compile time.
template <architecture A, dtype T, accumulator Acc, sparsity S>
constexpr flop_rate peak(const gpu<A>& g, datatype<T> /*type*/, accumulate<Acc> /*acc*/,
                         sparsity_tag<S> /*sparsity*/) {
  static_assert(A::spec.supports(T, Acc),
                "dlperf: this GPU's architecture cannot multiply this datatype with this "
                "accumulator");
  static_assert(A::spec.supports(T, Acc, S),
                "dlperf: 2:4 structured sparsity needs Ampere or later tensor cores that run "
                "this datatype");
  return g.peak(T, Acc, S);
}

/// Tier @p m of @p d (run-time or compile-time tier tag).
template <device D>
constexpr tier_spec memory(const D& d, tier m) {
  return d.memory(m);
}

}  // namespace dlperf
