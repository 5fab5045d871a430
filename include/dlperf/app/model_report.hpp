/// @file
/// `dlperf model` as a typed request and report: a whole model's training step or inference on
/// a GPU (or a job of several), under a software stack, with the memory it needs and whether it
/// fits. The tool prints a report, Python and the page read its JSON (report_json.hpp), a sweep
/// runs many requests (sweep.hpp); all of them call estimate() (docs/layers.md, "The
/// application layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/offload.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlperf::app {

/// What to estimate: a model, the device it runs on (under its power limit, if any) and the
/// run. The model's names point into storage the caller keeps (presets are static; a model file
/// read with io::read_model_file keeps its names in an io::string_store).
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct model_request {
  model_spec model;        ///< the model
  device_choice device{};  ///< the device (a null catalog GPU is refused by estimate)
  std::optional<power_limit_info> power_limit;  ///< the limit device runs under, if one was set
  std::string device_file;  ///< the device file device came from (its stacks' figures), or empty
  run_config run;           ///< the run, checked (app::make_run builds one from a front end's text)
};

/// A partial offload as a report shows it (run_config::gpu_layers >= 0).
struct offload_report {
  layer_placement placement;                 ///< where the layers are
  const host_memory_spec* memory = nullptr;  ///< the host memory the host layers are read from
  offload_host host{};                       ///< the rates the host side runs at
  long long most_that_fit = -1;              ///< the largest -ngl that fits; -1: not even 0
  byte_count host_weights{};                 ///< weights left in host memory, embeddings included
};

/// The estimate of a model_request, with what each front end shows of it.
struct model_report {
  model_spec model;      ///< the model estimated
  run_config run;        ///< the run estimated
  std::string device;    ///< device_label: a catalog id or the file's device name
  std::string gpu_name;  ///< the GPU's name
  std::string arch;      ///< its architecture's name
  /// The machine's unified memory where the GPU shares it (an Apple silicon Mac), of which the
  /// fit's capacity is the GPU's working set; 0 for a GPU with memory of its own.
  byte_count unified_memory{};
  std::optional<power_limit_info> power_limit;  ///< the limit the GPU ran under, if any
  /// Training on a board with a measured sustained tensor clock (estimate/sustained_clock.hpp):
  /// the clock its tensor work holds through the job, and that as a share of the quoted one.
  std::optional<sustained_clock_info> sustained_clock;
  /// The calibrations of the device file, which the stack's sources refer to (shared, so that a
  /// report can be copied).
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the stack, if any
  software_stack stack;                         ///< the stack as the run used it
  stacked_estimate estimate;                    ///< the stack's figures and the ceiling's
  fit_verdict fit;                              ///< memory per GPU and whether it fits
  std::optional<long long> fitting_tp;          ///< the tp at which a job that does not fit would
  const link_spec* link = nullptr;              ///< between the GPUs of one model copy, or of a job
  bool staged = false;  ///< that link goes through host memory (no peer-to-peer)
  /// the collective library's rings over that link go through host memory (nccl_through_host:
  /// NCCL over any PCIe; any library between GeForce boards)
  bool collectives_staged = false;
  board_class boards = board_class::consumer;  ///< the GPU's class, whose error bands apply
  bool split = false;                          ///< inference with one model copy over several GPUs
  std::optional<cluster_estimate> job;    ///< training over several GPUs: the job's collectives
  bool transformer = false;               ///< the model is a transformer
  bool generation = false;                ///< decoder inference: a prompt, then generated tokens
  long long seq = 0;                      ///< the sequence as the model runs it (transformers)
  double trainable = 0;                   ///< trainable parameters (training), else 0
  std::optional<offload_report> offload;  ///< a partial offload's placement and host side

  /// GPUs whose work the estimate holds in turn: an inference layer split's (each does 1/pp of
  /// it); 1 otherwise (a training pipeline's estimate holds one stage already).
  [[nodiscard]] double stages() const { return run.training() ? 1.0 : static_cast<double>(run.pp); }
  /// Achieved FLOP/s per GPU of @p e (the stack's or the ceiling's figures).
  [[nodiscard]] flop_rate per_gpu(const model_estimate& e) const { return e.achieved() / stages(); }
  /// Model FLOPs utilisation per GPU of @p e.
  [[nodiscard]] double mfu(const model_estimate& e) const { return e.mfu() / stages(); }
};

/// Estimates @p q: the model under its stack (with the device file's figures for it, if any),
/// its ceiling, its memory and fit, and for training on several GPUs the job's communication as
/// `dlperf cluster` prices it (buying/cluster.hpp). Throws request_error for a host CPU or no
/// device, and the library's errors for a run the model cannot take.
model_report estimate(const model_request& q);

}  // namespace dlperf::app
