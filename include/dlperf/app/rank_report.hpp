/// @file
/// `dlperf rank` as a typed request and report: catalog GPUs, and a device file's GPU in place of
/// the catalog entry of its id, ranked by relative performance and performance per dollar on a
/// guide task or a preset's run, each at its fastest split that fits (buying/rank.hpp;
/// docs/buying.md, "Ranking and performance per dollar"). The tool prints a report, and its
/// JSON (report_json.hpp) is the one every front end reads (docs/layers.md, "The application
/// layer").
#pragma once

#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// What to rank: the GPUs' runs of @p workload, priced by @p prices.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct rank_request {
  rank_workload workload;  ///< the task's or the preset's mix of runs
  rank_options options;    ///< GPUs per host, memory floor, reference (candidates: see device)
  price_table prices;      ///< the prices, at their basis
  stack_id stack = stack_id::ceiling;     ///< the stack the runs run under
  std::optional<measured_device> device;  ///< a device file's GPU that joins the ranking
  std::string device_file;                ///< the file it came from, or empty
};

/// The ranking of a rank_request.
struct rank_report {
  std::string task;                         ///< the workload's name (a task or a preset)
  std::vector<rank_entry> entries;          ///< best per dollar first
  const gpu_spec* reference = nullptr;      ///< the GPU whose relative performance is 1
  rank_options options;                     ///< the options ranked with (candidates point into
                                            ///< `device` and the catalog)
  price_basis basis = price_basis::launch;  ///< which catalog prices were used
  stack_id stack = stack_id::ceiling;       ///< the stack the runs ran under
  /// The device file's GPU, shared so that the entries' pointers stay valid as the report is
  /// copied; null without one.
  std::shared_ptr<const measured_device> device;
  std::string device_file;  ///< the file it came from, or empty
  /// The calibrations of the device file, which the stack's sources refer to.
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the device's GPU, if any
};

/// A ranking as the tool's flags (`dlperf rank --task ...`) and Python's keywords state it;
/// numbers stay text until make_rank_request reads them, so that a bad one is named by its flag.
struct rank_options_text {
  std::string task;              ///< --task: train16, infer16, infer8 or a model preset
  std::string gpus;              ///< --gpus: 1, 2, 4 or 8 (empty: the fewest that fit)
  std::string min_memory = "0";  ///< --min-memory GiB
  std::string prices;            ///< --prices FILE
  std::string host_cost;         ///< --host-cost USD
  std::string device;            ///< --device FILE
  price_basis prices_at = price_basis::launch;  ///< --prices-at
  run_options run;                              ///< the preset's run (and --stack)
};

/// `--gpus` of a priced system: 1, 2, 4 or 8 (the host costs' sizes). Throws request_error
/// naming --gpus otherwise.
long long parse_host_gpus(const std::string& text);

/// The ranking options `--gpus` (parse_host_gpus; empty: search 1, 2, 4, 8) and `--min-memory`
/// (GiB) give.
rank_options parse_rank_options(const std::string& gpus, const std::string& min_memory);

/// Whether @p task names one of the guide's tasks (train16, infer16, infer8), which fix their own
/// runs, rather than a model preset.
bool is_guide_task(std::string_view task);

/// Guide task @p t's mix under @p stack (make_workload). Throws request_error naming --stack
/// when the task trains and the stack is an inference engine.
rank_workload task_workload(rank_task t, stack_id stack);

/// The workload `--task` names: train16, infer16, infer8, or a model preset run with @p run.
/// Throws request_error listing the valid names.
rank_workload select_rank_workload(const std::string& task, const run_options& run);

/// The request @p o states. Throws request_error naming the flag at fault (--gpus, --min-memory,
/// an unknown task, a training task under an inference engine, a device file of a host CPU, a
/// bad price file or host cost), and dlperf's errors for a bad device file.
rank_request make_rank_request(const rank_options_text& o);

/// The keywords a rank request takes besides the run fields: task, gpus, min_memory, prices,
/// host_cost, device, prices_at.
std::span<const std::string_view> rank_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.rank` gives them:
/// the keywords of rank_keywords() and the run fields of a preset task's run. Throws
/// request_error for an unknown or repeated keyword, a run field beside a guide task (which fixes
/// its own runs; `stack` is one it takes), and as make_rank_request does.
rank_request rank_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Ranks @p q (rank_gpus, the device file's GPU on the stack figures the file measured).
rank_report estimate(const rank_request& q);

}  // namespace dlperf::app
