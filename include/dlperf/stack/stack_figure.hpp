/// @file
/// One figure of a software stack (stack/software_stack.hpp): the ids of the figures a
/// measurement can replace, the domains their values live in, and the figure itself, typed by
/// its domain: its value, its unit, and the measurement or evidence rows it comes from.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// The figures of a software stack that a measurement can replace (software_stack's members of
/// the same names). Their names, members and domains are one table, `stack_figure_fields` in
/// stack/software_stack.hpp, from which the enum's list is made.
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

/// Whether @p v, a figure of domain @p d in its unit, is in the domain: a share in [0.01, 1]
/// (core/plausible.hpp), a host time finite and >= 0, a rate per SM clock in
/// [0, max_bytes_per_sm_cycle]. NaN is in none.
constexpr bool in_domain(stack_figure_domain d, double v) {
  switch (d) {
    case stack_figure_domain::host_time:
      return v >= 0.0 && detail::is_finite(v);
    case stack_figure_domain::sm_cycle_rate:
      return v >= 0.0 && v <= max_bytes_per_sm_cycle;
    case stack_figure_domain::fraction:
      break;
  }
  return plausible::fraction(v);
}

/// The C++ type of a figure of domain @p D: a host time is a `duration`; a share and a rate
/// per SM clock are plain numbers (a share has no unit, and a clock cycle has no Boost.Units
/// dimension), kept apart from each other by the figure's own type.
template <stack_figure_domain D>
using stack_figure_value =
    std::conditional_t<D == stack_figure_domain::host_time, duration, double>;

/// One figure of a stack in domain @p D: its value, its unit as words, and the measurement or
/// evidence rows it comes from, with when that was published. The domain is the type: a host
/// time cannot be given where a share is asked for, nor a share where a rate is.
template <stack_figure_domain D>
struct basic_stack_figure {
  static constexpr stack_figure_domain domain = D;  ///< the values it may take, and its unit
  using value_type = stack_figure_value<D>;         ///< the type of its value
  /// The figure: a share is 1 (the ceiling's) and the others 0 (no host time; not measured)
  /// unless set.
  value_type value = [] {
    if constexpr (D == stack_figure_domain::fraction)
      return 1.0;
    else
      return value_type{};
  }();
  std::string_view unit;    ///< "fraction of the ceiling", "s per kernel", ...
  std::string_view source;  ///< a published measurement, or "fitted on the evidence: rows"
  std::string_view date{};  ///< when the source was published (YYYY-MM)

  /// The value as a plain number in its domain's unit: a share, seconds, or bytes per SM
  /// cycle (for device files, help text and the checks of the domain).
  [[nodiscard]] constexpr double number() const {
    if constexpr (D == stack_figure_domain::host_time)
      return value.value();
    else
      return value;
  }
  /// Whether the value is in the figure's domain (`in_domain`).
  [[nodiscard]] constexpr bool in_domain() const { return dlperf::in_domain(D, number()); }
  /// Sets the value from a plain number in the domain's unit (as number() gives it).
  constexpr void set_number(double v) {
    if constexpr (D == stack_figure_domain::host_time)
      value = seconds(v);
    else
      value = v;
  }
};

/// A share of a ceiling or of the DRAM rate, in [0.01, 1].
using stack_share = basic_stack_figure<stack_figure_domain::fraction>;
/// Host time per kernel or call, finite and >= 0.
using stack_host_time = basic_stack_figure<stack_figure_domain::host_time>;
/// Bytes per SM per SM clock, in [0, max_bytes_per_sm_cycle]; 0: not measured.
using stack_sm_rate = basic_stack_figure<stack_figure_domain::sm_cycle_rate>;

}  // namespace dlperf
