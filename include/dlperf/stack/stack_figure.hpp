/// @file
/// One figure of a software stack (stack/stack.hpp): its value, its unit, and the measurement or
/// evidence rows it comes from; the ids of the figures a measurement can replace, and the domains
/// their values live in.
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
/// the same names). Their names, members and domains are one table, `stack_figure_fields` in
/// stack/stack.hpp, from which the enum's list is made.
enum class stack_figure_id : std::uint8_t {
  gemm_efficiency,
  conv_efficiency,
  tf32_conv_efficiency,
  gemv_dram_share,
  quantized_gemv_dram_share,
  attention_efficiency,
  streaming_dram_share,
  host_overhead,
  optimizer_host_overhead,
  gemv_bytes_per_sm_cycle,
  quantized_gemv_bytes_per_sm_cycle,
  dequantize_bytes_per_sm_cycle,
  softmax_bytes_per_sm_cycle,
  strided_copy_bytes_per_sm_cycle
};

/// What kind of number a stack figure is: it fixes the figure's unit and the values it may take.
enum class stack_figure_domain : std::uint8_t {
  fraction,      ///< a share of a ceiling or of the DRAM rate, in [0.01, 1]
  host_time,     ///< seconds of host time per kernel or call, finite and >= 0
  sm_cycle_rate  ///< bytes per SM per SM clock, in [0, max_bytes_per_sm_cycle]; 0: not measured
};

/// The domains and their units.
template <>
struct enum_list<stack_figure_domain> {
  static constexpr std::string_view kind = "stack figure domain";  ///< what the enum names
  /// Every domain, with its unit.
  static constexpr std::array values{
      enumerator{stack_figure_domain::fraction, "fraction",
                 "a share of the ceiling or of the DRAM rate, in [0.01, 1]"},
      enumerator{stack_figure_domain::host_time, "host_time", "s per kernel or call, >= 0"},
      enumerator{stack_figure_domain::sm_cycle_rate, "sm_cycle_rate",
                 "bytes per SM per SM clock (0: not measured)"}};
};

/// The largest plausible rate per SM clock: 1 KiB per SM cycle is several times what any SM's
/// path to L2 carries (a figure above it is a unit slip, not a kernel).
inline constexpr double max_bytes_per_sm_cycle = 1024.0;

}  // namespace dlperf
