// `dlperf model ... --serve` (serve_output.hpp).
#include "serve_output.hpp"

#include <fmt/format.h>
#include <dlperf/app/report_json.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/model/serve.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/stack/stacks.hpp>
#include <optional>
#include <string>

namespace dlperf::cli {
namespace {

constexpr std::array serve_flags{"--rate", "--block-size", "--kv-fraction", "--step-tokens",
                                 "--max-seqs"};

serve_config serve_settings(const serve_options& o) {
  serve_config c;
  c.block_tokens = parse_plausible_count("--block-size", o.block_size);
  c.kv_memory_fraction = parse_plausible("--kv-fraction", o.kv_fraction);
  if (!o.step_tokens.empty()) c.step_tokens = parse_plausible_count("--step-tokens", o.step_tokens);
  if (!o.max_seqs.empty())
    c.max_sequences = parse_plausible_count("--max-seqs", o.max_seqs);  // 0: no cap
  c.validate();
  return c;
}

// The saturation estimate and, with a rate, the load, under one stack.
struct serving {
  serve_estimate saturation;
  std::optional<serve_load> load;
};

// A serving group for people (model/error_bands.hpp, serving_band), applied to an estimate of
// @p rate output tokens/s: "published tensorrt-llm serving runs on NVIDIA professional boards
// measured 0.828-1.15x of this model's rate: ... (80 % of 25 runs; median error 8.93 %, the
// model pessimistic)", what too few rows measured, or that there are none.
std::string serving_band_text(const std::optional<serving_band>& band, stack_id stack,
                              dlperf::vendor maker, board_class boards, bool several_gpus,
                              double rate) {
  const std::string runs =
      fmt::format("published {} serving runs on {} {} boards{}", name(stack), description(maker),
                  name(boards), several_gpus ? ", one model copy over several GPUs" : ", one GPU");
  if (!band) return fmt::format("no {}, no band", runs);
  if (band->banded())
    return fmt::format("{} {}", runs,
                       band_interval_text(band->low, band->high, rate, serving_band::coverage,
                                          band->rows, "runs", band->median, band->bias));
  // Too few rows for a band, but what they measured is not to be kept quiet.
  return fmt::format(
      "only {} {}, too few for a band; they ran at {}-{}x of this model's rate ({}-{} tokens/s "
      "here; median error {}, the model {})",
      band->rows, runs, three_digits(band->low), three_digits(band->high),
      three_digits(band->low * rate), three_digits(band->high * rate),
      format_percent(band->median, 1.0),
      band->bias > 0   ? "optimistic"
      : band->bias < 0 ? "pessimistic"
                       : "unbiased");
}

nlohmann::json to_json(const serving& s) {
  const serve_estimate& e = s.saturation;
  nlohmann::json j = {{"concurrency", e.concurrency},
                      {"clock_fraction", e.clock_fraction},
                      {"kv_limited_concurrency", e.kv_limited},
                      {"prefill_batch", e.prefill_batch},
                      {"decode_step_s", e.decode_step.value()},
                      {"prefill_per_request_s", e.prefill_per_request.value()},
                      {"prefill_alone_s", e.prefill_alone.value()},
                      {"requests_per_second", e.job_requests_per_second()},
                      {"output_tokens_per_second", e.job_output_tokens_per_second()},
                      {"total_tokens_per_second",
                       e.job_requests_per_second() * static_cast<double>(e.prompt + e.generate)}};
  if (s.load) {
    const serve_load& l = *s.load;
    j["at_rate"] = {
        {"requests_per_second", l.rate * static_cast<double>(e.replicas)},
        {"utilisation", l.utilisation},
        {"concurrency", l.concurrency},
        {"ttft_s", l.ttft.value()},
        {"tpot_s", l.tpot.value()},
        {"request_latency_s", l.latency.value()},
        {"output_tokens_per_second", l.rate * static_cast<double>(e.replicas * e.generate)}};
  } else {
    j["at_rate"] = nullptr;
  }
  return j;
}

// Where the step's token budget comes from: the run, the engine's fixed figure, or the
// engine's rule applied to the run (trtllm-bench's).
std::string step_budget_text(const serve_estimate& e, const software_stack& stack,
                             const serve_options& o) {
  if (!o.step_tokens.empty()) return fmt::format("{} tokens a step, --step-tokens", e.step_tokens);
  if (!e.step_tokens_shaped)
    return fmt::format("{} tokens a step, {}'s", e.step_tokens, stack.name());
  const shaped_step_tokens& rule = stack.serving.shaped_step;
  return fmt::format("{} tokens a step: {} sizes it from the run, (1 + P/G) per sequence, {}-{}",
                     e.step_tokens, stack.name(), rule.least, rule.most);
}

}  // namespace

void add_serve_options(CLI::App* cmd, serve_options& o) {
  cmd->add_flag("--serve", o.serve,
                "Serving with continuous batching and a paged KV cache (docs/models.md, "
                "Serving): maximum throughput, and TTFT/TPOT at --rate");
  cmd->add_option("--rate", o.rate,
                  "--serve: requests per second of the whole job (TTFT and TPOT at that load)");
  cmd->add_option("--block-size", o.block_size, "--serve: tokens per KV-cache block (vLLM: 16)")
      ->capture_default_str();
  cmd->add_option("--kv-fraction", o.kv_fraction,
                  "--serve: share of the memory left after weights, activations and overhead "
                  "that the KV cache takes")
      ->capture_default_str();
  cmd->add_option("--step-tokens", o.step_tokens,
                  "--serve: tokens one step puts through (max_num_batched_tokens; default: the "
                  "engine's, docs/stacks.md)");
  cmd->add_option("--max-seqs", o.max_seqs,
                  "--serve: cap on concurrent sequences (max_num_seqs; 0: the KV memory's; "
                  "default: the engine's)");
}

void check_serve_flags(const serve_options& o, const CLI::App* cmd) {
  if (o.serve) return;
  for (const char* flag : serve_flags)
    if (cmd->count(flag) > 0) throw usage_error(fmt::format("{} needs --serve", flag));
}

void print_serving(const model_spec& m, const run_config& r, const cli_device& dev,
                   const std::optional<power_limit_info>& limit, const software_stack& stack,
                   const serve_options& o, bool batch_given, bool json) {
  if (r.training()) throw usage_error("--serve is inference: give --infer, not --train");
  if (batch_given)
    throw usage_error("--batch: under --serve the KV memory sets the batch (--max-seqs caps it)");
  if (r.generate < 1) throw usage_error("--serve needs --generate N (tokens per request), N >= 1");
  if (r.gpu_layers >= 0)
    throw usage_error(
        "--gpu-layers: --serve keeps every layer on the GPU (a partial offload is "
        "llama.cpp's batch-1 run, not a serving engine's)");
  const serve_config c = serve_settings(o);
  std::optional<double> rate;
  if (!o.rate.empty()) {
    rate = parse_plausible("--rate", o.rate);
  }
  const double replicas = static_cast<double>(r.data_parallel());
  struct result {
    serving stack, ceiling;
    std::string gpu_name;
    double capacity = 0;
    dlperf::vendor maker = dlperf::vendor::nvidia;
    board_class boards = board_class::consumer;
  };
  const result res = visit_device(dev, [&](const auto& d) -> result {
    if constexpr (gemm_device<std::decay_t<decltype(d)>>) {
      // The ceiling runs under the stack's schedule: the bracket compares kernels.
      const serve_config k = c.under(stack, d);
      const auto one = [&](const software_stack& s) {
        serving out{estimate_serving(d, m, r, s, k), std::nullopt};
        if (rate) out.load = serve_at_rate(d, m, r, s, out.saturation, *rate / replicas);
        return out;
      };
      return {one(stack),
              one(stacks::ceiling),
              std::string(d.name()),
              d.memory(tier::global).capacity.value(),
              d.arch().vendor,
              board_class_of(segment_of(d))};
    } else {
      throw usage_error("--serve needs a GPU: the device file describes a host CPU");
    }
  });
  const serve_estimate& e = res.stack.saturation;
  const bool stacked = stack.id != stack_id::ceiling;
  // What the throughput is worth: where the same engine's published runs on the same vendor's
  // boards of the same class fell against this model (docs/evidence.md, "Serving"). The
  // ceiling is no engine, so it has none.
  const std::optional<serving_band> band =
      stacked ? serving_band_of(stack.id, res.maker, res.boards, r.model_parallel() > 1)
              : std::nullopt;
  if (json) {
    nlohmann::json out = to_json(res.stack);
    out["model"] = m.name;
    out["gpu"] = device_label(dev);
    out["power_limit"] = power_limit_json(limit);
    out["dtype"] = name(r.type);
    out["weights"] = name(r.weights);
    out["kv_dtype"] = name(r.kv_cache);
    out["stack"] = stack.name();
    out["prompt"] = e.prompt;
    out["generate"] = e.generate;
    out["gpus"] = r.gpus;
    out["tp"] = r.tp;
    out["block_tokens"] = c.block_tokens;
    out["kv_memory_fraction"] = c.kv_memory_fraction;
    out["step_tokens"] = e.step_tokens;
    out["step_tokens_shaped"] = e.step_tokens_shaped;
    out["max_sequences"] = e.max_sequences > 0 ? nlohmann::json(e.max_sequences) : nullptr;
    out["kv_reservation"] = name(e.reservation);
    out["chunked_prefill"] = stack.serving.chunked_prefill;
    out["kv_budget_bytes"] = e.kv_budget.value();
    out["kv_bytes_per_token"] = e.kv_per_token.value();
    out["blocks_per_sequence"] = e.blocks_per_sequence;
    out["ceiling"] = to_json(res.ceiling);
    out["serving_band"] = app::serving_band_json(band, e.job_output_tokens_per_second());
    print_json(std::move(out));
    return;
  }
  fmt::print(
      "{} serving on {}: {}, weights {}, KV cache {}; prompt {} + {} generated tokens per "
      "request{}\n",
      m.name, res.gpu_name, name(r.type), name(r.weights), name(r.kv_cache), e.prompt, e.generate,
      r.gpus > 1 ? fmt::format(", {} GPUs (tp {}{})", r.gpus, r.tp,
                               r.pp > 1 ? fmt::format(", pp {}", r.pp) : std::string())
                 : "");
  fmt::print("  {}{}\n", describe_stack(stack.id), ceiling_bracket_note(stack.id));
  if (limit) fmt::print("  {}\n", power_limit_text(*limit));
  const auto bracket = [&](const std::string& ceiling_text) {
    return stacked ? fmt::format(" ({})", ceiling_text) : std::string();
  };
  fmt::print(
      "  KV cache: {} of {} ({} x the memory left after weights and activations), {} per "
      "token, {} blocks of {} tokens per request ({})\n",
      format_bytes(e.kv_budget.value()), format_bytes(res.capacity),
      three_digits(c.kv_memory_fraction), format_bytes(e.kv_per_token.value()),
      e.blocks_per_sequence, c.block_tokens,
      e.reservation == kv_reservation::whole_context ? "its whole context, reserved before it runs"
                                                     : "on average: blocks come as tokens do");
  // One model copy holds the sequences: under a split its GPUs share each one's KV cache.
  const std::string holder =
      r.model_parallel() > 1
          ? fmt::format("per model copy ({} GPUs{})", r.model_parallel(),
                        r.data_parallel() > 1 ? fmt::format(", {} copies", r.data_parallel()) : "")
          : std::string(r.gpus > 1 ? "per GPU" : "");
  fmt::print("  concurrency {} sequences{}{}{}; prefill batches of {} prompts ({})\n",
             e.concurrency, holder.empty() ? "" : " ", holder,
             e.concurrency < e.kv_limited
                 ? fmt::format(" (the cap on sequences{}; the KV cache holds {})",
                               o.max_seqs.empty() ? fmt::format(", {}'s", stack.name())
                                                  : std::string(", --max-seqs"),
                               e.kv_limited)
                 : std::string(" (KV-memory bound)"),
             e.prefill_batch, step_budget_text(e, stack, o));
  const serve_estimate& ce = res.ceiling.saturation;
  fmt::print(
      "  decode step {}{}, prefill {} per request{}{}\n", format_duration(e.decode_step.value()),
      bracket(format_duration(ce.decode_step.value())),
      format_duration(e.prefill_per_request.value()),
      bracket(format_duration(ce.prefill_per_request.value())),
      e.clock_fraction < 1.0 ? fmt::format("; the saturated board holds {} of its tensor clock",
                                           format_percent(e.clock_fraction, 1.0))
                             : std::string());
  fmt::print(
      "maximum throughput: {} output tokens/s, {} requests/s{}{}\n",
      three_digits(e.job_output_tokens_per_second()), three_digits(e.job_requests_per_second()),
      r.data_parallel() > 1 ? " (whole job)" : "",
      bracket(fmt::format("ceiling {} tokens/s", three_digits(ce.job_output_tokens_per_second()))));
  if (stacked)
    fmt::print("  accuracy: {}\n",
               serving_band_text(band, stack.id, res.maker, res.boards, r.model_parallel() > 1,
                                 e.job_output_tokens_per_second()));
  if (res.stack.load) {
    const serve_load& l = *res.stack.load;
    fmt::print(
        "at {} requests/s ({} of saturation): time to first token {}, {} per output token, "
        "{} per request, {} sequences decoding\n",
        three_digits(*rate), format_percent(l.utilisation, 1.0), format_duration(l.ttft.value()),
        format_duration(l.tpot.value()), format_duration(l.latency.value()),
        three_digits(l.concurrency));
  }
}

}  // namespace dlperf::cli
