/// @file
/// Memory-bound operators: element-wise maps, row reductions (softmax, layer norm), and chains of
/// element-wise stages run unfused (one kernel each, every intermediate through DRAM) or fused
/// (one kernel, intermediates in registers). Operator fusion saves exactly the intermediate round
/// trips and the launches (docs/model.md, @ref model_hierarchy).
///
///     time = max(FLOP / FP32 CUDA-core peak, DRAM bytes / DRAM bandwidth) + launch overhead
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// One element-wise stage: reads its input (and `extra_inputs` more tensors of the same size),
/// does `flops_per_element` arithmetic, writes one output.
struct elementwise_stage {
  std::string_view name;         ///< what the stage is ("gelu", "bias_add", ...)
  double flops_per_element = 1;  ///< arithmetic per element, on CUDA cores
  int extra_inputs = 0;          ///< further same-sized tensors read (residual, mask)
};

namespace detail {

constexpr void check_elements(long long elements, const char* what) {
  if (elements <= 0)
    throw_invalid_argument(std::string(what) + ": element count must be positive, got " +
                           std::to_string(elements));
}

// Time of a memory-streaming kernel: arithmetic on FP32 CUDA cores overlapped with DRAM traffic.
template <class D>
constexpr op_estimate streaming_op(const D& d, std::string_view name, double work,
                                   double dram_bytes) {
  const double compute = work / d.peak(dtype::fp32, accumulator::fp32, sparsity::dense).value();
  const double memory = dram_bytes / d.memory(tier::global).throughput.value();
  op_estimate op;
  op.name = name;
  op.kind = op_kind::streaming;
  op.work = flops(work);
  op.dram = bytes(dram_bytes);
  op.bound = memory >= compute ? dlperf::bound::global : dlperf::bound::compute;
  op.time = seconds(std::max(compute, memory)) + d.launch_overhead();
  return op;
}

}  // namespace detail

/// One element-wise kernel over @p elements values of type @p t.
template <gemm_device D>
constexpr op_estimate estimate_elementwise(const D& d, long long elements, dtype t,
                                           const elementwise_stage& stage) {
  detail::check_elements(elements, "elementwise");
  if (stage.flops_per_element < 0 || stage.extra_inputs < 0)
    detail::throw_invalid_argument("elementwise: FLOP per element and extra inputs must be >= 0");
  const double n = static_cast<double>(elements);
  const double b = traits(t).storage().value();
  return detail::streaming_op(d, stage.name, n * stage.flops_per_element,
                              n * b * (2.0 + stage.extra_inputs));
}

/// A row-wise reduction kernel (softmax, layer norm): @p rows x @p cols values of type @p t read
/// once, @p flops_per_element arithmetic, and @p outputs_per_row values written per row (cols
/// for softmax or layer norm, 1 for a sum).
template <gemm_device D>
constexpr op_estimate estimate_row_reduction(const D& d, std::string_view name, long long rows,
                                             long long cols, dtype t, double flops_per_element,
                                             long long outputs_per_row) {
  detail::check_elements(rows * cols, "row reduction");
  if (outputs_per_row <= 0 || outputs_per_row > cols || flops_per_element < 0)
    detail::throw_invalid_argument("row reduction: outputs per row must be in [1, cols]");
  const double b = traits(t).storage().value();
  const double r = static_cast<double>(rows), c = static_cast<double>(cols);
  return detail::streaming_op(d, name, r * c * flops_per_element,
                              r * c * b + r * static_cast<double>(outputs_per_row) * b);
}

/// A chain of element-wise stages over @p elements values. Unfused: one kernel per stage, each
/// reading its input from and writing its output to DRAM. Fused: one kernel reading the chain's
/// input and every extra input once and writing only the final output.
template <gemm_device D>
constexpr op_estimate estimate_chain(const D& d, long long elements, dtype t,
                                     std::span<const elementwise_stage> stages, bool fused) {
  detail::check_elements(elements, "chain");
  if (stages.empty()) detail::throw_invalid_argument("chain: needs at least one stage");
  const double n = static_cast<double>(elements);
  const double b = traits(t).storage().value();
  if (!fused) {
    op_estimate total;
    total.name = "unfused chain";
    total.kind = op_kind::streaming;
    total.kernels = 0;
    duration slowest{};
    for (const elementwise_stage& s : stages) {
      const op_estimate op = estimate_elementwise(d, elements, t, s);
      total.time += op.time;
      total.work += op.work;
      total.dram += op.dram;
      total.kernels += 1;
      if (op.time > slowest) {
        slowest = op.time;
        total.bound = op.bound;
      }
    }
    return total;
  }
  double work = 0, extra = 0;
  for (const elementwise_stage& s : stages) {
    if (s.flops_per_element < 0 || s.extra_inputs < 0)
      detail::throw_invalid_argument("chain: FLOP per element and extra inputs must be >= 0");
    work += s.flops_per_element;
    extra += s.extra_inputs;
  }
  return detail::streaming_op(d, "fused chain", n * work, n * b * (2.0 + extra));
}

}  // namespace dlperf
