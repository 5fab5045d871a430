/// @file
/// One figure of a software stack (stack/stack.hpp): its value, its unit, and the measurement or
/// evidence rows it comes from; and the list of the figures a measurement can replace, with their
/// stable names and domains.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>

namespace dlperf {

/// One figure of a stack: its value, unit, where it comes from and when that was published.
struct stack_figure {
  double value = 1.0;       ///< the figure, in `unit`
  std::string_view unit;    ///< "fraction of the ceiling", "s per kernel", ...
  std::string_view source;  ///< a published measurement, or "fitted on the evidence: rows"
  std::string_view date{};  ///< when the source was published (YYYY-MM)
};

/// The figures of a software stack that a measurement can replace (software_stack's members of
/// the same names).
enum class stack_figure_id : std::uint8_t {
  gemm_efficiency,                    ///< software_stack::gemm_efficiency
  conv_efficiency,                    ///< software_stack::conv_efficiency
  tf32_conv_efficiency,               ///< software_stack::tf32_conv_efficiency
  gemv_dram_share,                    ///< software_stack::gemv_dram_share
  quantized_gemv_dram_share,          ///< software_stack::quantized_gemv_dram_share
  attention_efficiency,               ///< software_stack::attention_efficiency
  streaming_dram_share,               ///< software_stack::streaming_dram_share
  host_overhead,                      ///< software_stack::host_overhead
  optimizer_host_overhead,            ///< software_stack::optimizer_host_overhead
  gemv_bytes_per_sm_cycle,            ///< software_stack::gemv_bytes_per_sm_cycle
  quantized_gemv_bytes_per_sm_cycle,  ///< software_stack::quantized_gemv_bytes_per_sm_cycle
  dequantize_bytes_per_sm_cycle,      ///< software_stack::dequantize_bytes_per_sm_cycle
  softmax_bytes_per_sm_cycle,         ///< software_stack::softmax_bytes_per_sm_cycle
  strided_copy_bytes_per_sm_cycle     ///< software_stack::strided_copy_bytes_per_sm_cycle
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
                 "s per optimizer call"},
      enumerator{stack_figure_id::gemv_bytes_per_sm_cycle, "gemv_bytes_per_sm_cycle",
                 "16-bit GEMV kernels: weight bytes per SM per SM clock (0: not measured)"},
      enumerator{stack_figure_id::quantized_gemv_bytes_per_sm_cycle,
                 "quantized_gemv_bytes_per_sm_cycle",
                 "quantised GEMV kernels: weight bytes per SM per SM clock (0: not measured)"},
      enumerator{stack_figure_id::dequantize_bytes_per_sm_cycle, "dequantize_bytes_per_sm_cycle",
                 "dequantisation kernels: bytes read and written per SM per SM clock (0: not "
                 "measured)"},
      enumerator{stack_figure_id::softmax_bytes_per_sm_cycle, "softmax_bytes_per_sm_cycle",
                 "unfused attention's softmax: bytes per SM per SM clock (0: not measured)"},
      enumerator{stack_figure_id::strided_copy_bytes_per_sm_cycle,
                 "strided_copy_bytes_per_sm_cycle",
                 "strided copies (head merge, KV cache writes): bytes per SM per SM clock (0: not "
                 "measured)"}};
};

/// Whether figure @p f is a host time (seconds per kernel or call) rather than a fraction in
/// (0, 1].
constexpr bool is_host_time(stack_figure_id f) {
  return f == stack_figure_id::host_overhead || f == stack_figure_id::optimizer_host_overhead;
}

/// Whether figure @p f is a kernel's rate per SM clock (bytes per SM cycle; 0: not measured)
/// rather than a fraction in (0, 1].
constexpr bool is_sm_cycle_rate(stack_figure_id f) {
  return f == stack_figure_id::gemv_bytes_per_sm_cycle ||
         f == stack_figure_id::quantized_gemv_bytes_per_sm_cycle ||
         f == stack_figure_id::dequantize_bytes_per_sm_cycle ||
         f == stack_figure_id::softmax_bytes_per_sm_cycle ||
         f == stack_figure_id::strided_copy_bytes_per_sm_cycle;
}

/// The largest plausible rate per SM clock: 1 KiB per SM cycle is several times what any SM's
/// path to L2 carries (a figure above it is a unit slip, not a kernel).
inline constexpr double max_bytes_per_sm_cycle = 1024.0;

}  // namespace dlperf
