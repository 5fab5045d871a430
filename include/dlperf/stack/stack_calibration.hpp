/// @file
/// A software stack measured on one device (docs/stacks.md, "Your own measurements"): figures of
/// a named stack that someone timed on their GPU, each with how it was measured, and the stack
/// they make, the named stack's record with each measured figure in place of its own. A device
/// file carries them (io/device_file.hpp, "stacks"), so a measured stack travels with the
/// measured device.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf {

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
    for (const auto& [figure, measured] : figures)
      write_figure(s, figure, measured.value, measured.method);
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

/// A named stack as measured on one device, for the estimates that compare devices (the buying
/// layer, through run_config::measured_stacks): an estimate on the device whose id is `device`,
/// under the stack `stack` measures, takes `stack`'s figures instead of the named stack's
/// (docs/stacks.md, "Your own measurements").
struct measured_stack {
  std::string_view device;                ///< id of the device the figures were measured on
  const software_stack* stack = nullptr;  ///< the named stack with the measured figures in place
                                          ///< (stack_calibration::apply_to)
};

}  // namespace dlperf
