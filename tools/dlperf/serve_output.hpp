// `dlperf model ... --serve`: continuous batching with a paged KV cache (model/serve.hpp,
// docs/models.md "Serving"): the offline maximum throughput and, with --rate, TTFT and TPOT.
#pragma once

#include <CLI/CLI.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/stack/stack.hpp>
#include <string>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {

/// The serving flags as the command line spells them (numbers parsed by serve_settings).
struct serve_options {
  bool serve = false;
  std::string rate;  // empty: saturation only
  std::string block_size = "16", kv_fraction = "0.9";
  std::string step_tokens, max_seqs;  // empty: the engine's (its stack's scheduler)
};

/// Adds --serve, --rate, --block-size, --kv-fraction, --step-tokens and --max-seqs to @p cmd.
void add_serve_options(CLI::App* cmd, serve_options& o);

/// Whether serving flags other than --serve were given without it. Throws usage_error naming the
/// first one.
void check_serve_flags(const serve_options& o, const CLI::App* cmd);

/// Prints the serving estimate of @p m on @p dev under @p r and @p stack (text, or JSON); @p limit
/// is the power limit @p dev runs under, if any.
/// Throws usage_error for a run serving cannot take (training, --batch, no --generate) and
/// dlperf's invalid_argument for a rate at or above saturation.
void print_serving(const model_spec& m, const run_config& r, const cli_device& dev,
                   const std::optional<power_limit_info>& limit, const software_stack& stack,
                   const serve_options& o, bool batch_given, bool json);

}  // namespace dlperf::cli
