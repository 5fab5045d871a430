/// @file
/// `dlperf power` as a typed request and report: the power of N GPUs of one kind and the system
/// around them, the PSU it needs, and what a power limit saves and costs in speed
/// (buying/power.hpp; docs/buying.md, "Power"). The tool prints a report, and its JSON
/// (report_json.hpp) is the one every front end reads (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/power.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/model/model_spec.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// What to estimate: @p count GPUs @p gpu in one machine, optionally limited to @p limit watts
/// each, and how much of the work slows with the clock (given, or from @p model's estimate).
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct power_request {
  device_choice gpu;           ///< the GPU (a host CPU is refused)
  std::string device_file;     ///< the device file it came from (its stacks' figures), or empty
  long long count = 1;         ///< GPUs of the machine
  std::optional<power> rest;   ///< the rest of the system; empty: power_parameters' default
  std::optional<power> limit;  ///< the power limit per GPU; empty: the board power
  std::optional<double> compute_share;  ///< share of the time at the SM clock, given
  std::optional<model_spec> model;      ///< the model whose estimate gives the share instead
  run_config run;                       ///< that model's run
};

/// The estimate of a power_request, with what each front end shows of it.
struct power_report {
  std::string gpu;                  ///< the GPU's label: a catalog id or the file's device name
  std::string gpu_name;             ///< the GPU's name
  bool machine = false;             ///< a system-on-chip: its power is its machine's at the wall
  power tdp{};                      ///< the board power
  power_parameters params;          ///< the rest of the system, the PSU margin and the limits
  power_budget budget;              ///< the GPUs' and the system's power, the PSU, the warnings
  std::optional<power> limit;       ///< the power limit, if one is set
  power saving{};                   ///< what the limit saves over all GPUs (0 without one)
  double clock_fraction = 1;        ///< the SM clock under the limit, of its full-power clock
  double compute_share = 1;         ///< share of the time that runs at the SM clock
  double performance_fraction = 1;  ///< speed under the limit, of the speed at full power
  std::optional<stack_id> stack;    ///< the model's stack, when the share came from a model
  /// The calibrations of the device file, which the stack's sources refer to (shared, so that a
  /// report can be copied).
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the stack, if any
  std::string device_file;                      ///< the device file the GPU came from, or empty
};

/// A machine as the tool's flags (`dlperf power --gpu ... --count ...`) and Python's keywords
/// state it; numbers stay text until make_power_request reads them, so that a bad one is named
/// by its flag.
struct power_options {
  std::string gpu;            ///< --gpu ID
  std::string device;         ///< --device FILE, instead of --gpu
  std::string count = "1";    ///< --count
  std::string limit;          ///< --limit W (empty: the board power)
  std::string rest;           ///< --rest-watts W (empty: the default)
  std::string compute_share;  ///< --compute-share (empty: 1, or the preset's)
  std::string preset;         ///< --preset: the share from this model's estimate
  run_options run;            ///< the preset's run
};

/// The request @p o states. Throws request_error naming the flag at fault (both or neither of
/// --gpu and --device, a host CPU, a count, rest or limit out of range, a system-on-chip with a
/// count, rest or limit, both --compute-share and --preset), and dlperf's errors for an unknown
/// GPU, preset or device file.
power_request make_power_request(const power_options& o);

/// The keywords a power request takes besides the run fields: gpu, device, count, limit,
/// rest_watts, compute_share, preset.
std::span<const std::string_view> power_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.power` gives them:
/// the keywords of power_keywords() and the run fields of the preset's run. Throws request_error
/// for an unknown or repeated keyword, a run field without a preset, and as make_power_request
/// does.
power_request power_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Estimates @p q (buying/power.hpp). Throws request_error for a host CPU or a null GPU, a
/// system-on-chip with a count other than 1, a rest or a limit, and both a share and a model;
/// the library's errors for a limit out of range or a run the model cannot take.
power_report estimate(const power_request& q);

}  // namespace dlperf::app
