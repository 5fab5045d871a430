/// @file
/// A grid of `model` requests, run on every core: each axis a keyword with its values (gpu,
/// preset, batch, seq, stack, weights, gpus, ...), every combination one model_request, each
/// answered with the figures `dlperf model --json` gives, bit for bit. A combination the model
/// refuses (bad value, a stack on the wrong vendor, a run the stack cannot take) comes back as a
/// row with its reason, not as an error for the whole grid (docs/python.md, "Sweeps").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dlperf::app {

/// One axis of a sweep: a keyword and its values, as text the tool would read ("8Ki", "bf16").
/// The keywords: `gpu` or `device` (a device file), `preset` or `config` (a model file) or a
/// transformer's shape (shape_keywords(): layers, hidden, heads, vocab, max_seq, ...; each
/// point's shape is the one its values give), `power_limit`, `link`, `mode` ("train" or
/// "infer") and every run field (run_fields(): batch, seq, prompt, generate, dtype, weights,
/// stack, gpus, tp, zero, ...).
struct sweep_axis {
  std::string keyword;              ///< "gpu", "preset", "batch", ...
  std::vector<std::string> values;  ///< its values, each a point of the axis
};

/// One point's figures, as `dlperf model --json` names them; empty where that JSON has null.
struct sweep_point {
  std::string error;                          ///< why the point did not run (empty: it ran)
  bool fits = false;                          ///< the run fits the GPU's memory
  std::optional<double> step_time_s;          ///< a step, batch or request, seconds
  std::optional<double> samples_per_s;        ///< samples (sequences, images) per second
  std::optional<double> tokens_per_s;         ///< tokens per second (transformers)
  std::optional<double> tflops;               ///< achieved TFLOP/s per GPU
  std::optional<double> mfu;                  ///< model FLOPs utilisation per GPU
  std::optional<double> prefill_s;            ///< time to first token (decoder inference)
  std::optional<double> decode_s_per_token;   ///< time per generated token
  std::optional<double> prompt_tokens_per_s;  ///< prompt processing alone
  std::optional<double> decode_tokens_per_s;  ///< generation alone
  std::optional<double> memory_bytes;         ///< memory per GPU (JSON memory.total_bytes)
  std::optional<double> capacity_bytes;       ///< the GPU's memory
  std::optional<double> communication_s;      ///< communication in the step
  std::optional<long long> max_batch;         ///< the largest batch that fits
};

/// Points in the grid of @p axes (the product of their sizes). Throws request_error for an
/// axis with no values, an unknown or repeated keyword, a grid of more than sweep_most_points,
/// no model or no device, or a shape beside a preset or model file or without layers (max_seq
/// beside a preset or model file is that model's context, as `--max-seq` beside `--preset`).
std::size_t sweep_size(const std::vector<sweep_axis>& axes);

/// The largest grid a sweep runs (10^7 points: about a minute on 16 cores).
inline constexpr std::size_t sweep_most_points = 10'000'000;

/// Runs every point of the grid of @p axes, the last axis varying fastest (the order of
/// itertools.product), on @p threads threads (0: one per core). Throws request_error only for a
/// grid sweep_size refuses; every point's own error is in its row.
std::vector<sweep_point> sweep(const std::vector<sweep_axis>& axes, unsigned threads = 0);

/// Most combinations of run-axis values (every axis but the model, the device and the shape)
/// whose runs a sweep parses once, before its points; a grid with more parses each point's run
/// as it comes to it. The rows are the same either way.
inline constexpr std::size_t sweep_most_resolved_runs = 1U << 16U;

namespace detail {
/// sweep(), parsing runs once only where there are at most @p most_resolved_runs combinations
/// (the tests compare both ways of running a grid).
std::vector<sweep_point> sweep(const std::vector<sweep_axis>& axes, unsigned threads,
                               std::size_t most_resolved_runs);
}  // namespace detail

}  // namespace dlperf::app
