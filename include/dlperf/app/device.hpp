/// @file
/// The device a request runs on: a catalog GPU, or the GPU or host CPU a device file measured,
/// optionally under a power limit; and the stack records a device file measured for it
/// (docs/calibration.md, docs/buying.md "Power").
#pragma once

#include <dlperf/hardware/host_device.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace dlperf::app {

/// A catalog GPU (--gpu ID) or a device file's device (--device FILE).
using device_choice = std::variant<const gpu_spec*, measured_device, host_device>;

/// The device named by exactly one of @p gpu_id and @p device_file. Throws request_error when
/// both or neither are given, and dlperf errors for an unknown id or a bad file.
device_choice select_device(const std::string& gpu_id, const std::string& device_file);

/// Calls @p f with the device (a gpu_spec, measured_device or host_device).
template <class F>
decltype(auto) visit_device(const device_choice& d, F&& f) {
  return std::visit(
      [&](const auto& v) -> decltype(auto) {
        if constexpr (std::is_pointer_v<std::decay_t<decltype(v)>>)
          return f(*v);
        else
          return f(v);
      },
      d);
}

/// Throws request_error naming @p command when @p d is a null catalog GPU ("gemm: the request
/// names a null GPU"): a request built in code, not from flags or keywords.
void refuse_null_gpu(const device_choice& d, std::string_view command);

/// The catalog's GPUs, with @p mine (a device file's GPU) in place of the entry of its id, at the
/// end; the catalog alone when @p mine is null. The GPUs a buying command compares.
std::vector<const gpu_spec*> catalog_with(const gpu_spec* mine);

/// Stable label of a device for output: the catalog id, or the file's device name.
std::string device_label(const device_choice& d);

/// The GPU of the device file @p file that @p flag gives @p command. Throws request_error naming
/// the flag when the file describes a host CPU ("--device: cluster needs a GPU; ...").
measured_device gpu_device_file(std::string_view flag, std::string_view command,
                                const std::string& file);

/// The power limit @p text gives @p flag for a board of power @p tdp (catalog id @p id, for the
/// message). Throws request_error naming the flag unless it is within [tdp / 5, tdp] watts.
power parse_power_limit(std::string_view flag, std::string_view text, power tdp,
                        std::string_view id);

/// A power limit as applied to a run's GPU.
struct power_limit_info {
  power limit{};              ///< watts per board
  power tdp{};                ///< the board's power
  double clock_fraction = 1;  ///< (limit / tdp)^(1/3)
  frequency clock{};          ///< the SM clock it allows
};

/// The clock a long job's tensor work holds (model_estimate::clock_fraction of the quoted
/// tensor clock).
struct sustained_clock_info {
  double clock_fraction = 1.0;  ///< of the quoted tensor clock, in (0, 1)
  frequency clock{};            ///< the clock held: clock_fraction x the quoted tensor clock
  frequency quoted{};           ///< the tensor clock the peaks are quoted at
};

/// @p d under the power limit `--power-limit` gives as @p text (estimate/power_limit.hpp); @p d
/// itself when @p text is empty. What was applied goes to @p applied (reset when nothing).
/// Throws request_error for a host CPU or a limit out of range.
device_choice with_power_limit(device_choice d, const std::string& text,
                               std::optional<power_limit_info>* applied = nullptr);

/// The stack a run under @p id uses on the device of @p device_file (none: the catalog's GPU):
/// the named stack's record, with the figures the file measured for it ("stacks") in place of
/// its own. @p held keeps the file's calibrations, which the result's sources refer to; the one
/// applied, if any, is returned in @p applied.
software_stack stack_on_device(stack_id id, const std::string& device_file,
                               std::vector<stack_calibration>& held,
                               const stack_calibration** applied = nullptr);

/// The GPUs a buying command compares (rank, advise): the catalog, with a device file's GPU in
/// place of the catalog entry of its id, running on the figures the file measured for the run's
/// stack. What its members point into is shared, so a copy stays valid.
struct candidate_gpus {
  std::shared_ptr<const measured_device> device;  ///< the device file's GPU; null without one
  /// The file's calibrations, which the measured stack's sources refer to.
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the file's GPU, if any
  std::shared_ptr<const software_stack> stack;  ///< the stack the file's GPU runs, if measured
  /// What a run takes as run_config::measured_stacks: the file's GPU on `stack`, or nothing.
  std::vector<measured_stack> measured_stacks;
  std::vector<const gpu_spec*> list;  ///< the catalog, the file's GPU in its entry's place
};

/// The candidates of a comparison under stack @p id: the catalog (catalog_with), and @p device,
/// read from @p device_file, on the figures the file measured for @p id (stack_on_device).
candidate_gpus candidates_with(const std::optional<measured_device>& device,
                               const std::string& device_file, stack_id id);

/// An empty store for a device file's calibrations, which a report shares with its copies (the
/// `calibrations` of the cluster, power and rank reports). Made here, in one place: clang 14
/// does not emit the shared store's destructor in every file that makes one.
std::shared_ptr<std::vector<stack_calibration>> calibration_store();

}  // namespace dlperf::app
