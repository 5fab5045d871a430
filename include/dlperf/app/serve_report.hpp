/// @file
/// `dlperf model ... --serve` as a typed request and report: continuous batching with a paged KV
/// cache (model/serve.hpp; docs/models.md, "Serving"), the offline maximum throughput under the
/// run's stack and its ceiling and, at a request rate, TTFT and TPOT, with the band the stack's
/// published serving runs put around it. The tool prints a report, and its JSON
/// (report_json.hpp) is the one every front end reads (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/model_report.hpp>
#include <dlperf/io/model_json.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/model/serve.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// The serving settings as the tool's flags (`--rate`, `--block-size`, ...) and Python's keywords
/// state them; numbers stay text until make_serve_request reads them, so that a bad one is named
/// by its flag.
struct serve_options_text {
  std::string rate;               ///< --rate: requests/s of the whole job (empty: saturation only)
  std::string block_size = "16";  ///< --block-size: tokens per KV-cache block
  std::string kv_fraction = "0.9";  ///< --kv-fraction: the KV cache's share of the memory left
  std::string step_tokens;          ///< --step-tokens (empty: the engine's)
  std::string max_seqs;             ///< --max-seqs (empty: the engine's; 0: no cap)
  std::string concurrency;          ///< --concurrency: requests in flight (empty: none)
  std::string prompt_min;    ///< --prompt-min: the shortest prompt (empty: all of --prompt's)
  std::string generate_min;  ///< --generate-min: the shortest output (empty: all of --generate's)
};

/// What to serve: a model request whose run is inference with tokens to generate, the engine's
/// settings, and a request rate or a number of requests in flight, if any.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct serve_request {
  model_request model;         ///< the model, the device and the run (inference)
  serve_config config;         ///< the engine's settings, checked; engine_default where left
  std::optional<double> rate;  ///< requests per second of the whole job; none: saturation only
  /// Requests in flight in the whole job, each client sending its next when its last finishes
  /// (a benchmark's --max-concurrency); none: saturation only.
  std::optional<long long> concurrency;
};

/// The saturation estimate under one stack and, with a rate or a concurrency, the load.
struct serving_figures {
  serve_estimate saturation;       ///< the offline maximum throughput and how it is reached
  std::optional<serve_load> load;  ///< TTFT and TPOT at the request's rate
  std::optional<serve_load> held;  ///< throughput, TTFT and TPOT at the request's concurrency
};

/// The serving estimate of a serve_request.
struct serve_report {
  model_spec model;               ///< the model served
  run_config run;                 ///< the run as given (inference)
  std::string device;             ///< device_label: a catalog id or the file's device name
  std::string gpu_name;           ///< the GPU's name
  byte_count capacity{};          ///< the GPU's memory
  vendor maker = vendor::nvidia;  ///< the GPU's vendor, whose band applies
  board_class boards = board_class::consumer;   ///< the GPU's class, whose band applies
  std::optional<power_limit_info> power_limit;  ///< the limit the GPU ran under, if any
  /// The calibrations of the device file, which the stack's sources refer to.
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the stack, if any
  software_stack stack;                         ///< the stack as the run used it
  serve_config config;                          ///< the engine's settings as requested
  std::optional<double> rate;                   ///< the request's rate of the whole job, if any
  std::optional<long long> concurrency;  ///< the request's requests in flight (whole job), if any
  serving_figures at_stack;              ///< under the stack
  serving_figures ceiling;               ///< the ceiling, under the stack's schedule (the bracket)
  /// Where the stack's published serving runs on the same vendor's boards of the same class fell
  /// against this model (docs/evidence.md, "Serving"); none under the ceiling, which is no engine.
  std::optional<serving_band> band;
  /// With a concurrency: where the stack's published closed-loop runs on the same vendor's boards
  /// of the same class fell against this model (docs/evidence.md, "Serving at a concurrency");
  /// none under the ceiling or without a concurrency.
  std::optional<serving_band> closed_loop_band;

  /// Whether the step's token budget was given (--step-tokens), not the engine's.
  [[nodiscard]] bool step_tokens_given() const {
    return config.step_tokens != serve_config::engine_default;
  }
  /// Whether the cap on sequences was given (--max-seqs), not the engine's.
  [[nodiscard]] bool max_sequences_given() const {
    return config.max_sequences != serve_config::engine_default;
  }
};

/// The serving request of @p model under the settings @p o states; @p batch_given says whether
/// the run's batch was given (under serving the KV memory sets it). Throws request_error naming
/// the flag at fault: a training run, a batch, no tokens to generate, a partial offload, a
/// setting out of range; dlperf's invalid_argument for settings serve_config refuses.
serve_request make_serve_request(model_request model, const serve_options_text& o,
                                 bool batch_given);

/// The keywords a serve request takes besides a model request's (request_keywords and the run
/// fields): rate, block_size, kv_fraction, step_tokens, max_seqs, concurrency, prompt_min,
/// generate_min.
std::span<const std::string_view> serve_keywords();

/// The request keyword and value pairs @p fields state, as Python's
/// `dlperf.model(serve=True, ...)` gives them: a model request's keywords (request_from_keywords;
/// the mode is inference unless given) and serve_keywords(). A model file's names are kept in
/// @p strings. Throws as request_from_keywords and make_serve_request do.
serve_request serve_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields, io::string_store& strings);

/// Serves @p q: the saturation estimate under its stack (with the device file's figures for it,
/// if any) and under the ceiling, each at the request's rate where one is given, and the
/// stack's band. Throws request_error for a host CPU or no device, or a concurrency that does not
/// spread evenly over the model copies; dlperf's invalid_argument for a rate at or above
/// saturation.
serve_report estimate(const serve_request& q);

}  // namespace dlperf::app
