// `dlperf model ... --serve` (serve_output.hpp).
#include "serve_output.hpp"

#include "run_options.hpp"

#include <fmt/format.h>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/stack/stacks.hpp>
#include <optional>
#include <string>

namespace dlperf::cli {
namespace {

constexpr std::array serve_flags{"--rate",     "--block-size",  "--kv-fraction", "--step-tokens",
                                 "--max-seqs", "--concurrency", "--prompt-min",  "--generate-min"};

// A serving group for people (model/error_bands.hpp, serving_band), applied to an estimate of
// @p rate output tokens/s: "published tensorrt-llm serving runs on NVIDIA HBM boards
// measured 0.828-1.15x of this model's rate: ... (80 % of 25 runs; median error 8.93 %, the
// model pessimistic)", what too few rows measured, or that there are none. @p run names one of
// the group's runs ("serving run"), @p of what they held to (" at a fixed concurrency").
std::string serving_band_text(const std::optional<serving_band>& band, stack_id stack,
                              dlperf::vendor maker, board_class boards, bool several_gpus,
                              double rate, std::string_view run = "serving run",
                              std::string_view of = "") {
  const bool one = band && band->rows == 1;
  const std::string runs =
      fmt::format("published {} {}{}{} on {} {} boards{}", name(stack), run, one ? "" : "s", of,
                  description(maker), label(boards),
                  several_gpus ? ", one model copy over several GPUs" : ", one GPU");
  if (!band) return fmt::format("no {}, no band", runs);
  if (band->banded())
    return fmt::format("{} {}", runs,
                       band_interval_text(band->low, band->high, rate, serving_band::coverage,
                                          band->rows, "runs", band->median, band->bias));
  const char* const leaning = band->bias > 0   ? "optimistic"
                              : band->bias < 0 ? "pessimistic"
                                               : "unbiased";
  // Too few rows for a band, but what they measured is not to be kept quiet.
  if (one)
    return fmt::format(
        "only 1 {}, too few for a band; it ran at {}x of this model's rate ({} tokens/s here; "
        "error {}, the model {})",
        runs, three_digits(band->low), three_digits(band->low * rate),
        format_percent(band->median, 1.0), leaning);
  return fmt::format(
      "only {} {}, too few for a band; they ran at {}-{}x of this model's rate ({}-{} tokens/s "
      "here; median error {}, the model {})",
      band->rows, runs, three_digits(band->low), three_digits(band->high),
      three_digits(band->low * rate), three_digits(band->high * rate),
      format_percent(band->median, 1.0), leaning);
}

// Where the step's token budget comes from: the run, the engine's fixed figure, or the
// engine's rule applied to the run (trtllm-bench's).
std::string step_budget_text(const serve_estimate& e, const software_stack& stack, bool given) {
  if (given) return fmt::format("{} tokens a step, --step-tokens", e.step_tokens);
  if (!e.step_tokens_shaped)
    return fmt::format("{} tokens a step, {}'s", e.step_tokens, stack.name());
  const shaped_step_tokens& rule = stack.serving.shaped_step;
  return fmt::format("{} tokens a step: {} sizes it from the run, (1 + P/G) per sequence, {}-{}",
                     e.step_tokens, stack.name(), rule.least, rule.most);
}

// " (ceiling ...)" beside a stack's figure; nothing at the ceiling itself.
std::string ceiling_bracket(const app::serve_report& report, const std::string& ceiling_text) {
  return report.stack.id != stack_id::ceiling ? fmt::format(" ({})", ceiling_text) : std::string();
}

// What runs: the model, GPU, formats, request lengths and split; the stack; the KV cache.
void print_serving_setup(const app::serve_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const serve_config& c = report.config;
  const serve_estimate& e = report.at_stack.saturation;
  // A length, or its spread and mean: "1000", or "1-1000 (mean 500)".
  const auto length = [](long long least, long long most, double mean) {
    return least == most ? fmt::format("{}", most)
                         : fmt::format("{}-{} (mean {})", least, most, three_digits(mean));
  };
  fmt::print(
      "{} serving on {}: {}, weights {}, KV cache {}; prompt {} + {} generated tokens per "
      "request{}\n",
      m.name, report.gpu_name, name(r.type), name(r.weights), name(r.kv_cache),
      length(e.prompt_least, e.prompt, e.prompt_mean),
      length(e.generate_least, e.generate, e.generate_mean),
      r.gpus > 1 ? fmt::format(", {} GPUs (tp {}{})", r.gpus, r.tp,
                               r.pp > 1 ? fmt::format(", pp {}", r.pp) : std::string())
                 : "");
  fmt::print("  {}{}\n", describe_stack(report.stack.id), ceiling_bracket_note(report.stack.id));
  if (report.power_limit) fmt::print("  {}\n", power_limit_text(*report.power_limit));
  if (report.measured != nullptr)
    fmt::print("  {}\n", describe_measured(*report.measured, "this device"));
  fmt::print(
      "  KV cache: {} of {} ({} x the memory left after weights and activations), {} per "
      "token, {} blocks of {} tokens per request ({})\n",
      format_bytes(e.kv_budget.value()), format_bytes(report.capacity.value()),
      three_digits(c.kv_memory_fraction), format_bytes(e.kv_per_token.value()),
      e.blocks_per_sequence, c.block_tokens,
      e.reservation == kv_reservation::whole_context ? "its whole context, reserved before it runs"
                                                     : "on average: blocks come as tokens do");
}

// Under maximum load: the sequences held, the step times and the throughput, with its band.
void print_saturation(const app::serve_report& report) {
  const run_config& r = report.run;
  const software_stack& stack = report.stack;
  const serve_estimate& e = report.at_stack.saturation;
  const serve_estimate& ce = report.ceiling.saturation;
  // One model copy holds the sequences: under a split its GPUs share each one's KV cache.
  const std::string holder =
      r.model_parallel() > 1
          ? fmt::format("per model copy ({} GPUs{})", r.model_parallel(),
                        r.data_parallel() > 1 ? fmt::format(", {} copies", r.data_parallel()) : "")
          : std::string(r.gpus > 1 ? "per GPU" : "");
  fmt::print("  concurrency {} sequences{}{}{}; prefill batches of {} prompt{} ({})\n",
             e.concurrency, holder.empty() ? "" : " ", holder,
             e.concurrency < e.kv_limited
                 ? fmt::format(" (the cap on sequences{}; the KV cache holds {})",
                               report.max_sequences_given() ? std::string(", --max-seqs")
                                                            : fmt::format(", {}'s", stack.name()),
                               e.kv_limited)
                 : std::string(" (KV-memory bound)"),
             e.prefill_batch, e.prefill_batch == 1 ? "" : "s",
             step_budget_text(e, stack, report.step_tokens_given()));
  fmt::print(
      "  decode step {}{}, prefill {} per request{}{}\n", format_duration(e.decode_step.value()),
      ceiling_bracket(report, format_duration(ce.decode_step.value())),
      format_duration(e.prefill_per_request.value()),
      ceiling_bracket(report, format_duration(ce.prefill_per_request.value())),
      e.clock_fraction < 1.0 ? fmt::format("; the saturated board holds {} of its tensor clock",
                                           format_percent(e.clock_fraction, 1.0))
                             : std::string());
  fmt::print("maximum throughput: {} output tokens/s, {} requests/s{}{}\n",
             three_digits(e.job_output_tokens_per_second()),
             three_digits(e.job_requests_per_second()), r.data_parallel() > 1 ? " (whole job)" : "",
             ceiling_bracket(report, fmt::format("ceiling {} tokens/s",
                                                 three_digits(ce.job_output_tokens_per_second()))));
  if (stack.id != stack_id::ceiling)
    fmt::print("  accuracy: {}\n",
               serving_band_text(report.band, stack.id, report.maker, report.boards,
                                 r.model_parallel() > 1, e.job_output_tokens_per_second()));
}

// At a request rate (--rate): the latencies an open loop sees.
void print_at_rate(const app::serve_report& report) {
  if (!report.at_stack.load || !report.rate) return;
  const serve_load& l = *report.at_stack.load;
  fmt::print(
      "at {} requests/s ({} of saturation): time to first token {}, {} per output token, "
      "{} per request, {} sequences decoding\n",
      three_digits(*report.rate), format_percent(l.utilisation, 1.0),
      format_duration(l.ttft.value()), format_duration(l.tpot.value()),
      format_duration(l.latency.value()), three_digits(l.concurrency));
}

// At a number of requests in flight (--concurrency): a closed loop's throughput and latencies.
void print_at_concurrency(const app::serve_report& report) {
  if (!report.at_stack.held || !report.concurrency) return;
  const run_config& r = report.run;
  const serve_estimate& e = report.at_stack.saturation;
  const serve_load& l = *report.at_stack.held;
  const double copies = static_cast<double>(e.replicas);
  const double tokens = job_output_tokens_per_second(l, e);
  fmt::print(
      "at {} requests in flight: {} output tokens/s{}, {} requests/s; time to first token {}, "
      "{} per output token, {} per request; {} sequences decoding{}\n",
      *report.concurrency, three_digits(tokens),
      ceiling_bracket(report, fmt::format("ceiling {} tokens/s",
                                          three_digits(job_output_tokens_per_second(
                                              *report.ceiling.held, report.ceiling.saturation)))),
      three_digits(job_requests_per_second(l, e)), format_duration(l.ttft.value()),
      format_duration(l.tpot.value()), format_duration(l.latency.value()),
      three_digits(l.concurrency * copies),
      l.waiting > 0.0
          ? fmt::format(", {} waiting for a free sequence", three_digits(l.waiting * copies))
          : std::string());
  if (report.stack.id != stack_id::ceiling)
    fmt::print(
        "  accuracy at this load: {}\n",
        serving_band_text(report.closed_loop_band, report.stack.id, report.maker, report.boards,
                          r.model_parallel() > 1, tokens, "run", " at a fixed concurrency"));
}

}  // namespace

void add_serve_options(CLI::App* cmd, serve_options& o) {
  cmd->add_flag("--serve", o.serve,
                "Serving with continuous batching and a paged KV cache (docs/models.md, "
                "Serving): maximum throughput, and TTFT/TPOT at --rate");
  cmd->add_option("--rate", o.settings.rate,
                  "--serve: requests per second of the whole job (TTFT and TPOT at that load)");
  cmd->add_option("--block-size", o.settings.block_size,
                  "--serve: tokens per KV-cache block (vLLM: 16)")
      ->capture_default_str();
  cmd->add_option("--kv-fraction", o.settings.kv_fraction,
                  "--serve: share of the memory left after weights, activations and overhead "
                  "that the KV cache takes")
      ->capture_default_str();
  cmd->add_option("--step-tokens", o.settings.step_tokens,
                  "--serve: tokens one step puts through (max_num_batched_tokens; default: the "
                  "engine's, docs/stacks.md)");
  cmd->add_option("--max-seqs", o.settings.max_seqs,
                  "--serve: cap on concurrent sequences (max_num_seqs; 0: the KV memory's; "
                  "default: the engine's)");
  cmd->add_option("--concurrency", o.settings.concurrency,
                  "--serve: requests in flight in the whole job, each client sending its next "
                  "when its last finishes (a benchmark's --max-concurrency): throughput, TTFT "
                  "and TPOT at that load");
  cmd->add_option("--prompt-min", o.settings.prompt_min,
                  "--serve: the shortest prompt; prompts spread evenly from it up to --prompt "
                  "(a benchmark's random lengths: sglang.bench_serving --random-range-ratio r "
                  "is --prompt-min r x --prompt; docs/models.md, Serving)");
  cmd->add_option("--generate-min", o.settings.generate_min,
                  "--serve: the shortest output; outputs spread evenly from it up to --generate");
}

void check_serve_flags(const serve_options& o, const CLI::App* cmd) {
  if (o.serve) return;
  for (const char* flag : serve_flags)
    if (cmd->count(flag) > 0) throw usage_error(fmt::format("{} needs --serve", flag));
}

void print_serving(const app::serve_report& report) {
  print_serving_setup(report);
  print_saturation(report);
  print_at_rate(report);
  print_at_concurrency(report);
}

}  // namespace dlperf::cli
