/// @file
/// `dlperf speedup` as a typed request and report: the speed-up of one GPU over another by the
/// guide's rule (bandwidth ratio x the architecture factors of the generations crossed) and, with
/// a model, by the ratio of the modelled steps (buying/speedup.hpp; docs/buying.md, "Speed-up
/// between two GPUs"). The tool prints a report, and its JSON (report_json.hpp) is the one every
/// front end reads (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/speedup.hpp>
#include <dlperf/hardware/vendor.hpp>
#include <dlperf/model/memory.hpp>
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

/// What to compare: @p to against @p from, and with @p model the modelled run on both.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct speedup_request {
  device_choice from;               ///< the GPU compared against (a host CPU is refused)
  device_choice to;                 ///< the GPU whose speed-up is asked
  std::string from_device;          ///< the device file `from` came from, or empty
  std::string to_device;            ///< the device file `to` came from, or empty
  std::optional<model_spec> model;  ///< the model run on both, if any
  run_config run;                   ///< its run
};

/// One side of a comparison as the report gives it.
struct speedup_side {
  std::string id;                                 ///< the GPU's label
  std::string name;                               ///< its name
  bandwidth dram{};                               ///< its DRAM bandwidth
  dlperf::vendor maker = dlperf::vendor::nvidia;  ///< its vendor (the stack's build for it)
  std::optional<fit_verdict> fit;               ///< whether the model's run fits it (with a model)
  std::string device_file;                      ///< the device file it came from, or empty
  const stack_calibration* measured = nullptr;  ///< the stack figures the file measured, if any
  /// The file's calibrations, which `measured` points into (shared, so that a report can be
  /// copied).
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
};

/// The comparison of a speedup_request.
struct speedup_report {
  speedup_side from;                      ///< the GPU compared against
  speedup_side to;                        ///< the GPU whose speed-up is asked
  std::optional<rule_speedup> rule;       ///< the guide's rule, where it applies
  std::string no_rule;                    ///< why the rule does not apply, where it does not
  std::optional<model_spec> model;        ///< the model run on both, if any
  run_config run;                         ///< its run (without the files' stacks: see `measured`)
  std::optional<model_speedup> modelled;  ///< the modelled steps under the run's stack
  std::optional<model_speedup> ceiling;   ///< the same under the hardware model, beside a stack
};

/// A comparison as the tool's flags (`dlperf speedup --from ... --to ...`) and Python's keywords
/// state it.
struct speedup_options {
  std::string from;         ///< --from ID
  std::string to;           ///< --to ID
  std::string from_device;  ///< --from-device FILE, instead of --from
  std::string to_device;    ///< --to-device FILE, instead of --to
  std::string preset;       ///< --preset: the model run on both
  run_options run;          ///< its run
};

/// The request @p o states. Throws request_error naming the flag at fault (both or neither of
/// --X and --X-device, a host CPU), and dlperf's errors for an unknown GPU, preset or device
/// file.
speedup_request make_speedup_request(const speedup_options& o);

/// The keywords a speedup request takes besides the run fields: from, to, from_device,
/// to_device, preset.
std::span<const std::string_view> speedup_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.speedup` gives them
/// (its `from_` arrives as `from`). Throws request_error for an unknown or repeated keyword and
/// as make_speedup_request does.
speedup_request speedup_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Compares @p q. Throws request_error for a host CPU, no rule and no model, a datatype one side
/// cannot run, and measured figures that would apply to both sides of one GPU id; the library's
/// errors for a run the model cannot take.
speedup_report estimate(const speedup_request& q);

}  // namespace dlperf::app
