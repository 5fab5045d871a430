/// @file
/// A software stack measured on one device (docs/stacks.md, "Your own measurements"): figures of
/// a named stack that someone timed on their GPU, each with how it was measured, and the stack
/// they make, the named stack's record with each measured figure in place of its own. A device
/// file carries them (io/device_file.hpp, "stacks"), so a measured stack travels with the
/// measured device.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf {

/// The figures of a software stack that a measurement can replace (software_stack's members of
/// the same names).
enum class stack_figure_id : std::uint8_t {
  gemm_efficiency,            ///< software_stack::gemm_efficiency
  conv_efficiency,            ///< software_stack::conv_efficiency
  tf32_conv_efficiency,       ///< software_stack::tf32_conv_efficiency
  gemv_dram_share,            ///< software_stack::gemv_dram_share
  quantized_gemv_dram_share,  ///< software_stack::quantized_gemv_dram_share
  attention_efficiency,       ///< software_stack::attention_efficiency
  streaming_dram_share,       ///< software_stack::streaming_dram_share
  host_overhead,              ///< software_stack::host_overhead
  optimizer_host_overhead     ///< software_stack::optimizer_host_overhead
};

/// The stack figures and their stable names: the member names, as a device file spells them.
template <>
struct enum_list<stack_figure_id> {
  static constexpr std::string_view kind = "stack figure";  ///< what the enum names
  /// Every figure, with its unit.
  static constexpr std::array values{
      enumerator{stack_figure_id::gemm_efficiency, "gemm_efficiency",
                 "compute-bound GEMMs: fraction of the ceiling"},
      enumerator{stack_figure_id::conv_efficiency, "conv_efficiency",
                 "convolutions: factor on gemm_efficiency"},
      enumerator{stack_figure_id::tf32_conv_efficiency, "tf32_conv_efficiency",
                 "TF32 convolutions: instead of conv_efficiency"},
      enumerator{stack_figure_id::gemv_dram_share, "gemv_dram_share",
                 "DRAM-bound GEMMs: share of the DRAM rate"},
      enumerator{stack_figure_id::quantized_gemv_dram_share, "quantized_gemv_dram_share",
                 "DRAM-bound GEMMs over quantised weights: share of the DRAM rate"},
      enumerator{stack_figure_id::attention_efficiency, "attention_efficiency",
                 "attention: fraction of the ceiling"},
      enumerator{stack_figure_id::streaming_dram_share, "streaming_dram_share",
                 "element-wise, norms, optimizer: share of the DRAM rate"},
      enumerator{stack_figure_id::host_overhead, "host_overhead", "s per kernel"},
      enumerator{stack_figure_id::optimizer_host_overhead, "optimizer_host_overhead",
                 "s per optimizer call"}};
};

/// Whether figure @p f is a host time (seconds per kernel or call) rather than a fraction in
/// (0, 1].
constexpr bool is_host_time(stack_figure_id f) {
  return f == stack_figure_id::host_overhead || f == stack_figure_id::optimizer_host_overhead;
}

/// The member of software_stack that figure @p f names.
constexpr stack_figure software_stack::*stack_figure_member(stack_figure_id f) {
  switch (f) {
    case stack_figure_id::gemm_efficiency:
      return &software_stack::gemm_efficiency;
    case stack_figure_id::conv_efficiency:
      return &software_stack::conv_efficiency;
    case stack_figure_id::tf32_conv_efficiency:
      return &software_stack::tf32_conv_efficiency;
    case stack_figure_id::gemv_dram_share:
      return &software_stack::gemv_dram_share;
    case stack_figure_id::quantized_gemv_dram_share:
      return &software_stack::quantized_gemv_dram_share;
    case stack_figure_id::attention_efficiency:
      return &software_stack::attention_efficiency;
    case stack_figure_id::streaming_dram_share:
      return &software_stack::streaming_dram_share;
    case stack_figure_id::host_overhead:
      return &software_stack::host_overhead;
    case stack_figure_id::optimizer_host_overhead:
      break;
  }
  return &software_stack::optimizer_host_overhead;
}

/// Figures of stack `stack` measured on one device, each with its method.
struct stack_calibration {
  stack_id stack = stack_id::ceiling;                               ///< the stack measured
  std::vector<std::pair<stack_figure_id, measured_value>> figures;  ///< what was measured

  /// Stack @p base (the record of `stack`) with every measured figure in place of its own; a
  /// figure's source becomes its method, so the result refers to this calibration's strings and
  /// must not outlive it. Throws invalid_argument naming the figure when a measurement is out of
  /// the figure's domain, or when @p base is another stack.
  [[nodiscard]] software_stack apply_to(const software_stack& base) const& {
    if (base.id != stack)
      detail::throw_invalid_argument("stack calibration: measured " + std::string(name(stack)) +
                                     ", applied to " + std::string(base.name()));
    if (stack == stack_id::ceiling)
      detail::throw_invalid_argument(
          "stack calibration: ceiling is the hardware model itself; measure a named stack");
    software_stack s = base;
    for (const auto& [figure, measured] : figures) {
      stack_figure& f = s.*stack_figure_member(figure);
      f.value = measured.value;
      f.source = measured.method;
      f.date = {};
    }
    try {
      s.validate();
    } catch (const dlperf::error& e) {
      detail::throw_invalid_argument("stack calibration: " + std::string(e.what()));
    }
    return s;
  }
  /// Deleted: the stack would refer to a calibration about to be destroyed.
  [[nodiscard]] software_stack apply_to(const software_stack&) const&& = delete;
};

}  // namespace dlperf
