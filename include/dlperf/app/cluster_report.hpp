/// @file
/// `dlperf cluster` as a typed request and report: a training job on several GPUs, each a
/// catalog GPU or a device file's, joined by a named link, with the gradient all-reduce
/// overlapped bucket by bucket with the backward pass (buying/cluster.hpp; docs/buying.md,
/// "Multi-GPU"). The tool prints a report, and its JSON (report_json.hpp) is the one every front
/// end reads (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/error_bands.hpp>
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

/// What to estimate: a model's training step on run.gpus GPUs of the types in `gpus`, repeated
/// in order to fill the job, over `link`.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct cluster_request {
  model_spec model;                 ///< the model (a preset; names point into static storage)
  std::vector<device_choice> gpus;  ///< the GPU types, repeated in order over the job's ranks
  std::optional<power_limit_info> power_limit;  ///< the limit every GPU runs under, if one is set
  std::string device_file;  ///< the device file the GPU came from (its stacks' figures), or empty
  const link_spec* link = nullptr;    ///< the slowest link between the GPUs (refused when null)
  byte_count bucket = mebibytes(25);  ///< the gradient bucket (PyTorch DDP's default)
  run_config run;                     ///< the run; run.gpus GPUs, a multiple of gpus.size()
};

/// The estimate of a cluster_request, with what each front end shows of it.
struct cluster_report {
  std::string model;                 ///< the model's name
  std::vector<std::string> gpu_ids;  ///< the GPU of each rank: a catalog id or the file's name
  std::string gpu_names;             ///< the distinct GPUs' names, " + " between them
  std::optional<power_limit_info> power_limit;  ///< the limit the GPUs ran under, if any
  std::string device_file;                      ///< the device file the GPU came from, or empty
  run_config run;  ///< the run estimated (without the file's stacks: see `measured`)
  const link_spec* link = nullptr;  ///< the link between the GPUs
  cluster_estimate job;             ///< the job: its step, collectives, speed-up
  fit_verdict fit;        ///< memory per GPU: the first GPU's, or the first that does not fit
  std::string short_gpu;  ///< the first GPU the job does not fit; empty when it fits
  std::optional<long long> fitting_tp;  ///< the tp at which it would fit that GPU, if any
  double samples_per_s = 0;             ///< the job's rate: every replica's micro-batches a step
  double tokens_per_s = 0;              ///< samples_per_s x the sequence (transformers), else 0
  long long seq = 0;                    ///< the sequence as the model runs it (transformers)
  /// The class of board every rank's GPU is of, whose multi-GPU training band applies; none where
  /// they are of several classes.
  std::optional<board_class> boards;
  /// The calibrations of the device file, which the stack's sources refer to (shared, so that a
  /// report can be copied).
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the stack, if any

  /// Whether the job fits every GPU's memory.
  [[nodiscard]] bool fits() const { return short_gpu.empty(); }
};

/// A job as the tool's flags (`dlperf cluster --gpu ... --link ...`) and Python's keywords state
/// it; numbers stay text until make_cluster_request reads them, so that a bad one is named by its
/// flag. The run's defaults are the typical job's (buying/cluster.hpp: ResNet-50, batch 64,
/// FP16, SGD); --gpus defaults to one GPU of each type given.
struct cluster_options {
  std::string gpu;                                 ///< --gpu: ids, comma-separated
  std::string device;                              ///< --device FILE, instead of --gpu
  std::string link;                                ///< --link (required)
  std::string preset{typical_cluster_model.name};  ///< --preset
  std::string bucket = "25Mi";                     ///< --bucket
  std::string power_limit;                         ///< --power-limit W (empty: the board power)
  run_options run;                                 ///< the run flags, the typical job's by default
  cluster_options();
};

/// The request @p o states. Throws request_error naming the flag at fault (both or neither of
/// --gpu and --device, an unknown GPU, a power limit over mixed GPUs, a bad number), and
/// dlperf's errors for an unknown preset, link or device file.
cluster_request make_cluster_request(const cluster_options& o);

/// The keywords a cluster request takes besides the run fields: gpu, device, link, preset,
/// bucket, power_limit and mode.
std::span<const std::string_view> cluster_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.cluster` gives them:
/// the keywords of cluster_keywords() and the run fields, each value as the tool reads its flag.
/// Throws request_error for an unknown or repeated keyword and as make_cluster_request does.
cluster_request cluster_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Estimates @p q (buying/cluster.hpp, estimate_cluster_on), with each GPU type's memory fit.
/// Throws request_error for no GPU, no link, an inference run, a GPU count that is not a
/// multiple of the types, a job that mixes catalog GPUs with device files, tensor parallelism
/// for a model that is not a transformer, or a host CPU; and the library's errors for a run the
/// model cannot take.
cluster_report estimate(const cluster_request& q);

}  // namespace dlperf::app
