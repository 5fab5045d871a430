// `dlperf model ... --serve`: continuous batching with a paged KV cache (model/serve.hpp,
// docs/models.md "Serving"): the offline maximum throughput and, with --rate, TTFT and TPOT.
#pragma once

#include <CLI/CLI.hpp>
#include <dlperf/app/serve_report.hpp>

#include "cli_support.hpp"

namespace dlperf::cli {

/// The serving flags as the command line spells them: --serve, and the settings the
/// application layer reads (app::make_serve_request).
struct serve_options {
  bool serve = false;
  app::serve_options_text settings;
};

/// Adds --serve, --rate, --block-size, --kv-fraction, --step-tokens and --max-seqs to @p cmd.
void add_serve_options(CLI::App* cmd, serve_options& o);

/// Whether serving flags other than --serve were given without it. Throws usage_error naming the
/// first one.
void check_serve_flags(const serve_options& o, const CLI::App* cmd);

/// Prints serving estimate @p report for people.
void print_serving(const app::serve_report& report);

}  // namespace dlperf::cli
