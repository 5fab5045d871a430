// A training job's collectives and its multi-GPU error band, for people.
#pragma once

#include <dlperf/buying/cluster.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/stack/stack.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace dlperf::cli {

/// A training job's collectives (app::job_collectives_json) as text lines for people, one a
/// collective: its calls, time and exposed part.
void print_job_collectives(const cluster_estimate& c);

/// A line for people where one of job @p c's data-parallel collectives runs over links with
/// no published count of NCCL's channels (stack/nccl.hpp), so the SMs they hold were not
/// charged; nothing otherwise.
void print_uncharged_sms(const cluster_estimate& c);

/// Why job @p c runs faster per GPU than one GPU alone, for people, where it does (efficiency
/// above 100 %): "; above 100 %: ..." naming the work its GPUs share that one GPU does whole;
/// nothing otherwise.
std::string above_linear_text(const cluster_estimate& c);

/// What collective @p x's SMs cost the computation it overlaps, for people: ", 1.2 ms of it the
/// computation beside it slowed by the 24 SMs NCCL holds", or nothing where it costs none.
std::string slowed_text(const step_collective& x);

/// A band's interval applied to a rate of @p rate in @p unit, for people: "measured
/// 0.778-1.10x of this model's rate: 64500-91200 tokens/s (80 % of 226 RUNS; median error 14.4 %,
/// the model optimistic)", @p runs naming what the rows are (model/error_bands.hpp: the
/// single-GPU, training, split-inference and serving bands); with @p worst (>= 0) the largest
/// error too: "median error 13.2 %, worst 25.9 %, ...".
std::string band_interval_text(double low, double high, double rate, double coverage, int rows,
                               std::string_view runs, double median, double bias,
                               std::string_view unit = "tokens/s", double worst = -1.0);

/// A stack's multi-GPU training band (app::training_band_json) for a job of @p seq tokens a
/// sequence on boards of class @p boards, for people, one line: "published multi-GPU
/// pytorch-eager training runs of sequences of 8192 tokens or more on boards with HBM memory
/// measured 0.843-1.22x of this model's rate: 60100-86800 tokens/s (80 % of 72 runs; median error
/// 8.50 %, the model pessimistic)", or why there is no band (and where the stack's runs ran when
/// none ran on the job's class).
std::string training_band_text(const run_config& run, long long seq,
                               std::optional<board_class> boards, double tokens_per_s);

}  // namespace dlperf::cli
