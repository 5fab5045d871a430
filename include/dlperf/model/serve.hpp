/// @file
/// Serving a decoder with continuous batching and a paged KV cache (docs/models.md,
/// @ref models_serving): the offline maximum throughput, where the KV memory left after the
/// weights, the activations and the framework bounds the concurrency, and the time to first token
/// (TTFT) and time per output token (TPOT) at a given request rate.
///
/// Every request has a prompt of P tokens and generates G. With B tokens per KV block and k the
/// KV bytes per token of one sequence (every layer, keys and values, in the KV-cache datatype):
///
///     KV budget   M_kv = f x (capacity - weights - activations - overhead)
///     concurrency N    = floor(M_kv / (ceil(H / B) x B x k))   (at most max_sequences)
///
/// with H the tokens a sequence holds, by the stack's scheduler (stack/serving_scheduler.hpp):
/// its whole context P + G where the engine reserves it before the sequence runs (TensorRT-LLM's
/// GUARANTEED_NO_EVICT capacity scheduler), or P + G/2 on average where blocks come as tokens do
/// (vLLM and SGLang, which preempt a sequence when none is free). Paging wastes at most one
/// block per sequence. max_sequences and T below are the run's (serve_config) or the stack's
/// defaults, the GPU's where the engine picks them by its memory. The GPU alternates between
/// prefill and decode steps:
///
///     t_d(N)      the decode step of N sequences at the mean context P + G/2 (estimate_model)
///     t_p         prefill per request: the prefill of n = min(N, max(1, floor(T / P))) prompts
///                 together, over n (T: the engine's token budget per step, fixed, or sized
///                 from the run where the engine does: trtllm-bench's N (1 + P / G) within
///                 [2048, 32768], N from the KV memory at the floor and at most the cap)
///     X           = N / (N t_p + G t_d(N))      requests/s at saturation; G X output tokens/s
///
/// Where the job's lengths spread (request_lengths: uniform from a least length up to the run's,
/// as a benchmark's random lengths are), every G above is the mean output, the KV memory holds the
/// mean prompt and output, the decode step runs at their mean context (its attention reads are
/// linear in the context, so the mean is exact), and t_p and t_p1 are averaged over the prompts by
/// three-point Gauss-Legendre quadrature (exact for a prefill cubic in P: linear GEMMs,
/// quadratic attention).
///
/// A saturated engine keeps the GPU busy for as long as the job lasts, so the board holds the
/// clock its power limit allows under the job's mix, as a training step does
/// (estimate/sustained_clock.hpp): over one cycle of N prefills and G decode steps at full clock,
/// the share s of the time in tensor-bound operators sets the clock, and every operator the SM
/// clock bounds runs at sustained_clock_fraction(s) of its speed (serve_estimate::clock_fraction;
/// 1 on a board with no measured sustained clock). At a rate below saturation the decode steps
/// keep that fraction, an upper bound on the slowdown of a lighter load.
///
/// Prefill is not overlapped with decode (chunked prefill rides prompt chunks on decode steps
/// and hides part of it behind the weight reads; the model charges it in full). At a rate
/// lambda < X requests/s, the decode batch n solves n = lambda G t_d(n) / (1 - lambda t_p)
/// (Little's law over the decode phase, each step stretched by the prefills that arrive during
/// it), and
///
///     TPOT        = t_d(n) / (1 - lambda t_p)
///     TTFT        = t_p1 + rho / (2 (1 - rho)) x 1 / X,     rho = lambda / X
///
/// with t_p1 one prompt's prefill alone and the wait that of an M/D/1 queue (Poisson arrivals,
/// a deterministic service of 1/X per request: the Pollaczek-Khinchine mean wait with no
/// service-time variance; Kleinrock, Queueing Systems Vol. 1, 1975, section 5.7).
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/sustained_clock.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/number_text.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/serving_scheduler.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf {

/// The lengths of a serving job's requests: every prompt and every output of the run's length, or
/// spread uniformly over the whole tokens from a least length up to the run's, as a benchmark's
/// random lengths are (`sglang.bench_serving --random-range-ratio r` draws prompts and outputs of
/// max(1, floor(r L)) to L tokens, its default r = 0 from 1 to L; `vllm bench serve
/// --random-range-ratio r` draws L (1 - r) to L (1 + r): the run's length is then L (1 + r)).
struct request_lengths {
  long long prompt_least = 0;    ///< the shortest prompt; 0: every prompt has the run's length
  long long generate_least = 0;  ///< the shortest output; 0: every output has the run's length
};

/// The serving engine's settings that bound the concurrency and the prefill batch. The cap on
/// sequences and the tokens per step default to the stack's own (software_stack::serving,
/// stack/serving_scheduler.hpp); a run sets them to measure another configuration.
struct serve_config {
  /// The largest values validate() admits (the tool's --serve flag ranges read these).
  struct limits {
    static constexpr long long block_tokens = 1LL << 20;   ///< block_tokens
    static constexpr long long step_tokens = 1LL << 30;    ///< step_tokens
    static constexpr long long max_sequences = 1LL << 24;  ///< max_sequences
  };
  /// A limit left to the engine: the stack's scheduler sets it.
  static constexpr long long engine_default = -1;

  /// Tokens per KV-cache block: vLLM's default block size (vllm/config/cache.py,
  /// CacheConfig.DEFAULT_BLOCK_SIZE = 16, docs.vllm.ai/en/stable/api/vllm/config/cache/,
  /// read 2026-11).
  long long block_tokens = 16;
  /// Share of the memory left after weights, activations and overhead that the KV cache takes:
  /// TensorRT-LLM's kv_cache_free_gpu_mem_fraction default 0.90 (docs/source/performance/
  /// perf-overview.md at 00f37686, "the default setting of 0.90").
  double kv_memory_fraction = 0.9;
  /// Tokens the engine puts through one step (vLLM's max_num_batched_tokens, TensorRT-LLM's
  /// max_num_tokens); engine_default: the stack's.
  long long step_tokens = engine_default;
  /// The rule by which the engine sizes step_tokens from the run when the run leaves it to an
  /// engine that does (under() copies it from the stack's scheduler; estimate_serving applies
  /// it); none (least 0): step_tokens is fixed.
  shaped_step_tokens shaped_step{};
  /// The engine's cap on concurrent sequences (vLLM's max_num_seqs, TensorRT-LLM's
  /// max_batch_size); 0: none, the KV memory alone bounds it; engine_default: the stack's.
  long long max_sequences = engine_default;
  /// The KV memory reserved per sequence; none: the stack's.
  std::optional<kv_reservation> reservation{};
  /// The job's request lengths: the run's (fixed), or spread down to a least length. Not an
  /// engine setting, but the serving model's other input beside the run.
  request_lengths lengths{};

  /// Throws invalid_argument naming the first setting out of its domain.
  constexpr void validate() const {
    detail::require_positive("serve", {{"block_tokens", block_tokens}});
    if (step_tokens != engine_default && step_tokens < 1)
      detail::throw_invalid_argument("serve: step_tokens must be >= 1 (or the engine's), got " +
                                     std::to_string(step_tokens));
    if (max_sequences < engine_default)
      detail::throw_invalid_argument(
          "serve: max_sequences must be >= 0 (0: no cap; or the engine's), got " +
          std::to_string(max_sequences));
    if (!(kv_memory_fraction > 0.0 && kv_memory_fraction <= 1.0))
      detail::throw_invalid_argument("serve: kv_memory_fraction must be in (0, 1]");
    if (block_tokens > limits::block_tokens || step_tokens > limits::step_tokens ||
        max_sequences > limits::max_sequences || shaped_step.most > limits::step_tokens)
      detail::throw_invalid_argument(
          "serve: block_tokens <= 2^20, step_tokens <= 2^30, max_sequences <= 2^24");
    if (!shaped_step.valid())
      detail::throw_invalid_argument("serve: shaped_step needs 0 <= least <= most, got " +
                                     std::to_string(shaped_step.least) + " and " +
                                     std::to_string(shaped_step.most));
    if (lengths.prompt_least < 0 || lengths.generate_least < 0)
      detail::throw_invalid_argument(
          "serve: the least prompt and output lengths must be >= 0 (0: the run's), got " +
          std::to_string(lengths.prompt_least) + " and " + std::to_string(lengths.generate_least));
  }

  /// This configuration with every setting it leaves to the engine taken from stack @p s's
  /// scheduler on a GPU of @p memory bytes and family @p f (so that another stack, the ceiling,
  /// can run under the same schedule). Where the engine sizes its step from the run
  /// (shaped_step), step_tokens stays engine_default and estimate_serving sizes it.
  [[nodiscard]] constexpr serve_config under(const software_stack& s, byte_count memory,
                                             family f) const {
    serve_config out = *this;
    const batch_limits engine = s.serving.limits_on(memory, f);
    if (out.max_sequences == engine_default) out.max_sequences = engine.max_sequences;
    // An engine that sizes its budget from the run leaves step_tokens open for estimate_serving.
    if (out.step_tokens == engine_default && !out.shaped_step.shapes()) {
      if (s.serving.shaped_step.shapes())
        out.shaped_step = s.serving.shaped_step;
      else
        out.step_tokens = engine.step_tokens;
    }
    if (!out.reservation) out.reservation = s.serving.reservation;
    return out;
  }
  /// The same on device @p d: its memory and its architecture's family.
  template <class D>
  [[nodiscard]] constexpr serve_config under(const software_stack& s, const D& d) const {
    return under(s, d.memory(tier::global).capacity, d.arch().family);
  }
};

/// Continuous batching at its saturation (the offline maximum throughput), on one GPU.
struct serve_estimate {
  long long concurrency = 0;          ///< sequences decoding together (N)
  long long kv_limited = 0;           ///< sequences the KV budget holds (before max_sequences)
  long long blocks_per_sequence = 0;  ///< KV blocks one request holds on average
  long long max_sequences = 0;        ///< the cap in force (0: none)
  long long step_tokens = 0;          ///< the tokens per step in force
  bool step_tokens_shaped = false;    ///< step_tokens sized from the run by the engine's rule
  kv_reservation reservation = kv_reservation::whole_context;  ///< KV held per sequence
  long long prefill_batch = 0;                                 ///< prompts prefilled together (n)
  byte_count kv_budget{};                                      ///< memory the KV cache takes
  byte_count kv_per_token{};            ///< KV bytes per token of one sequence
  duration decode_step{};               ///< t_d(N): one decode step of the whole batch
  duration prefill_per_request{};       ///< t_p: amortised prefill per request
  duration prefill_alone{};             ///< t_p1: one prompt's prefill on an idle GPU
  double requests_per_second = 0;       ///< X, per replica
  double output_tokens_per_second = 0;  ///< G X, per replica
  long long replicas = 1;               ///< data-parallel replicas (gpus / tp)
  /// The share of its quoted tensor clock the board holds through the saturated job
  /// (estimate/sustained_clock.hpp): 1 where no sustained clock is measured.
  double clock_fraction = 1.0;
  long long prompt = 0;          ///< P: prompt tokens per request (the longest, where they spread)
  long long generate = 0;        ///< G: output tokens per request (the longest, where they spread)
  long long prompt_least = 0;    ///< the shortest prompt (P where every prompt has P tokens)
  long long generate_least = 0;  ///< the shortest output (G where every output has G tokens)
  double prompt_mean = 0;        ///< the mean prompt: (prompt_least + P) / 2
  double generate_mean = 0;      ///< the mean output, every formula's G: (generate_least + G) / 2

  /// Requests per second of the whole job.
  [[nodiscard]] constexpr double job_requests_per_second() const {
    return requests_per_second * static_cast<double>(replicas);
  }
  /// Output tokens per second of the whole job.
  [[nodiscard]] constexpr double job_output_tokens_per_second() const {
    return output_tokens_per_second * static_cast<double>(replicas);
  }
};

/// Continuous batching at a request rate below saturation, or under a fixed number of requests
/// in flight (serve_at_rate, serve_at_concurrency).
struct serve_load {
  double rate = 0;         ///< requests per second offered to (or completed by) one replica
  double utilisation = 0;  ///< rho = rate / saturation rate
  double concurrency = 0;  ///< mean sequences decoding (n)
  double waiting = 0;      ///< requests in flight the engine does not hold yet (queued)
  duration ttft{};         ///< mean time to first token: queueing wait + prefill
  duration tpot{};         ///< mean time per output token
  duration latency{};      ///< TTFT + (G - 1) TPOT
};

/// Requests per second of the whole job under load @p l of estimate @p e's run: one replica's,
/// times the replicas.
constexpr double job_requests_per_second(const serve_load& l, const serve_estimate& e) {
  return l.rate * static_cast<double>(e.replicas);
}
/// Output tokens per second of the whole job under load @p l of estimate @p e's run: its
/// requests per second times the tokens each one generates.
constexpr double job_output_tokens_per_second(const serve_load& l, const serve_estimate& e) {
  return job_requests_per_second(l, e) * e.generate_mean;
}

namespace detail {

// The run of one decode or prefill step of @p batch sequences (the request's P and G kept).
constexpr run_config serve_step_run(run_config r, long long batch) {
  r.batch = batch;
  return r;
}

// Run @p r at the mean lengths of estimate @p e's job (@p r itself where every request has its
// lengths), as estimate_serving times the job's decode steps.
inline run_config at_mean_lengths(run_config r, const serve_estimate& e) {
  if (e.prompt_least == e.prompt && e.generate_least == e.generate) return r;
  r.prompt = std::max(1LL, std::llround(e.prompt_mean));
  r.generate = std::max(1LL, std::llround(e.generate_mean));
  return r;
}

// The share of its quoted tensor clock board @p d holds through a serving job of @p job seconds
// at full clock, @p tensor of them in tensor-bound operators, running datatype @p t: 1 for a
// device without a board's facts or products off the tensor cores.
template <class D>
constexpr double serving_clock_fraction(const D& d, dtype t, double job, double tensor) {
  if constexpr (requires {
                  d.facts();
                  d.arch();
                }) {
    if (!tensor_math_of(d, t) || !(job > 0.0)) return 1.0;
    return sustained_clock_fraction(d.facts(), std::clamp(tensor / job, 0.0, 1.0), t);
  } else {
    return 1.0;
  }
}

// Throws unless @p m and @p r describe a decoder-only transformer generating tokens.
constexpr void validate_serving(const model_spec& m, const run_config& r) {
  if (m.kind != model_kind::transformer || !m.transformer.generates() ||
      m.transformer.kind == transformer_kind::encoder_decoder)
    throw_invalid_argument("serve: needs a decoder-only transformer, not " + std::string(m.name));
  if (r.training()) throw_invalid_argument("serve: needs an inference run, not training");
  if (r.generate < 1) throw_invalid_argument("serve: generate must be >= 1 token per request");
}

// A prompt length and its share of the job's prompts (a quadrature node over their spread).
struct prompt_node {
  long long prompt = 0;
  double weight = 1;
};

// The prompt lengths serving estimate @p e's prefill is averaged over: the run's own where every
// prompt has it; over a uniform spread, three-point Gauss-Legendre nodes (weights 5/18, 8/18,
// 5/18 at the middle and +-sqrt(3/5) of the half-width), exact for a prefill time cubic in the
// prompt (its GEMMs linear, its attention quadratic).
inline std::array<prompt_node, 3> prompt_nodes(const serve_estimate& e, std::size_t& count) {
  if (e.prompt_least == e.prompt) {
    count = 1;
    return {prompt_node{e.prompt, 1.0}, {}, {}};
  }
  count = 3;
  const double mid = 0.5 * static_cast<double>(e.prompt_least + e.prompt);
  const double half = 0.5 * static_cast<double>(e.prompt - e.prompt_least);
  const auto at = [&](double x) { return std::max(1LL, std::llround(mid + x * half)); };
  const double off = std::sqrt(0.6);
  return {prompt_node{at(-off), 5.0 / 18.0}, prompt_node{at(0.0), 8.0 / 18.0},
          prompt_node{at(off), 5.0 / 18.0}};
}

// The steps of serving estimate @p e, sized (its concurrency and prefill batch): the decode step
// at that concurrency (@p r: the run at the job's mean lengths), a prompt alone and a prefill
// batch's per request (averaged over the job's prompt lengths), at the clock the board holds
// through the job; and the rates they give.
template <gemm_device D>
void time_serving(const D& d, const model_spec& m, const run_config& r, const software_stack& s,
                  serve_estimate& e) {
  const model_estimate batch = estimate_model(d, m, serve_step_run(r, e.concurrency), s).stack;
  std::size_t count = 0;
  const std::array<prompt_node, 3> nodes = prompt_nodes(e, count);
  // Per node: a prompt alone, and a prefill batch of as many such prompts as a step takes.
  struct prefill_of {
    op_sequence alone, per_batch;
    double prompts = 1, weight = 1;
  };
  std::array<prefill_of, 3> prefills{};
  for (std::size_t i = 0; i < count; ++i) {
    run_config at = r;
    at.prompt = nodes[i].prompt;
    long long prompts = e.prefill_batch;
    if (count > 1)
      prompts = std::min(e.concurrency, std::max(1LL, e.step_tokens / nodes[i].prompt));
    const model_estimate alone = estimate_model(d, m, serve_step_run(at, 1), s).stack;
    prefills[i].alone = alone.prefill;
    prefills[i].per_batch =
        prompts == 1 ? alone.prefill
                     : estimate_model(d, m, serve_step_run(at, prompts), s).stack.prefill;
    prefills[i].prompts = static_cast<double>(prompts);
    prefills[i].weight = nodes[i].weight;
  }
  const double n = static_cast<double>(e.concurrency), g = e.generate_mean;
  // The clock the board holds through the job (estimate/sustained_clock.hpp): over one cycle of
  // N requests, N prefills and G decode steps, the share of the time tensor-bound.
  double job = g * batch.decode_per_token.value();
  double tensor = g * tensor_bound_time(batch.decode).value();
  for (std::size_t i = 0; i < count; ++i) {
    const prefill_of& p = prefills[i];
    job += n * p.weight * p.per_batch.time().value() / p.prompts;
    tensor += n * p.weight * tensor_bound_time(p.per_batch).value() / p.prompts;
  }
  e.clock_fraction = serving_clock_fraction(d, r.type, job, tensor);
  const auto clocked = [&](const op_sequence& ops) {
    return at_sm_clock(ops, e.clock_fraction).time();
  };
  e.decode_step = clocked(batch.decode);
  e.prefill_alone = duration{};
  e.prefill_per_request = duration{};
  for (std::size_t i = 0; i < count; ++i) {
    const prefill_of& p = prefills[i];
    e.prefill_alone += p.weight * clocked(p.alone);
    e.prefill_per_request += p.weight * clocked(p.per_batch) / p.prompts;
  }
  e.requests_per_second = n / (n * e.prefill_per_request.value() + g * e.decode_step.value());
  e.output_tokens_per_second = g * e.requests_per_second;
}

}  // namespace detail

/// Continuous batching of @p m on @p d under @p r (its prompt and generate per request; its batch
/// is ignored, the KV memory sets it) as stack @p s runs the steps, with engine settings @p c.
/// Throws invalid_argument for a model that is not a decoder, a run without generated tokens,
/// bad settings, or a GPU whose memory holds no sequence's KV cache after the weights.
template <gemm_device D>
serve_estimate estimate_serving(const D& d, const model_spec& m, const run_config& r,
                                const software_stack& s, const serve_config& c = {}) {
  c.validate();
  s.validate();
  m.validate();
  r.validate();
  detail::validate_serving(m, r);
  const run_config one = detail::serve_step_run(r, 1);
  const detail::transformer_shapes shape = detail::transformer_shapes::of(m.transformer, one);
  serve_estimate e;
  e.prompt = shape.seq;
  e.generate = r.generate;
  e.replicas = r.data_parallel();
  const request_lengths& spread = c.lengths;
  if (spread.prompt_least > e.prompt || spread.generate_least > e.generate)
    detail::throw_invalid_argument(
        "serve: the shortest prompt and output (" + std::to_string(spread.prompt_least) + " and " +
        std::to_string(spread.generate_least) + " tokens) must not exceed the run's (" +
        std::to_string(e.prompt) + " and " + std::to_string(e.generate) + ")");
  e.prompt_least = spread.prompt_least > 0 ? spread.prompt_least : e.prompt;
  e.generate_least = spread.generate_least > 0 ? spread.generate_least : e.generate;
  e.prompt_mean = 0.5 * static_cast<double>(e.prompt_least + e.prompt);
  e.generate_mean = 0.5 * static_cast<double>(e.generate_least + e.generate);
  // The run at the job's mean lengths: its decode step at their mean context, its activations.
  const run_config mean = detail::at_mean_lengths(r, e);
  const double context = static_cast<double>(shape.context);
  e.kv_per_token = bytes(shape.kv_cache_bytes(one) / context);
  const serve_config k = c.under(s, d);
  e.max_sequences = k.max_sequences;
  e.reservation = *k.reservation;
  // The tokens a sequence holds: its whole context reserved up front, or on average its prompt
  // and half its output where blocks come as tokens do.
  const double held_tokens = e.reservation == kv_reservation::whole_context
                                 ? e.prompt_mean + e.generate_mean
                                 : e.prompt_mean + 0.5 * e.generate_mean;
  const double block = static_cast<double>(k.block_tokens);
  e.blocks_per_sequence = static_cast<long long>(std::ceil(held_tokens / block));
  const double per_sequence =
      static_cast<double>(e.blocks_per_sequence) * block * e.kv_per_token.value();
  // Prompts batched into one step: as many whole prompts as a budget of @p tokens takes.
  const long long mean_prompt = mean.prompt > 0 ? mean.prompt : e.prompt;
  const auto prompts_per_step = [&](long long tokens) {
    return std::max(1LL, tokens / std::max(1LL, mean_prompt));
  };
  // The KV memory left beside the weights and the activations of the largest step (the
  // prefill batch's live set) under a budget of @p tokens a step, and the sequences it holds.
  const auto kv_room = [&](long long tokens) {
    const memory_breakdown need =
        memory_need(m, detail::serve_step_run(mean, prompts_per_step(tokens)));
    const double free = d.memory(tier::global).capacity.value() - need.weights.value() -
                        need.activations.value() - need.overhead.value();
    const double budget = std::max(0.0, k.kv_memory_fraction * free);
    return std::pair{bytes(budget), static_cast<long long>(
                                        std::min(std::floor(budget / per_sequence), 16777216.0))};
  };
  e.step_tokens = k.step_tokens;
  if (e.step_tokens == serve_config::engine_default) {
    // The engine sizes its budget from the sequences it expects to hold (trtllm-bench estimates
    // them before it sizes its activations: here at the budget's floor).
    const long long expected = kv_room(k.shaped_step.least).second;
    e.step_tokens = k.shaped_step.for_run(
        std::max(1LL, k.max_sequences > 0 ? std::min(expected, k.max_sequences) : expected),
        mean_prompt, mean.generate);
    e.step_tokens_shaped = true;
  }
  const long long per_step = prompts_per_step(e.step_tokens);
  std::tie(e.kv_budget, e.kv_limited) = kv_room(e.step_tokens);
  if (e.kv_limited < 1)
    detail::throw_invalid_argument(
        "serve: " + std::string(m.name) + " on " + std::string(d.name()) + ": the KV budget of " +
        std::to_string(static_cast<long long>(e.kv_budget.value() / 1e6)) +
        " MB after the weights holds no sequence of " +
        std::to_string(static_cast<long long>(per_sequence / 1e6)) + " MB");
  e.concurrency = e.max_sequences > 0 ? std::min(e.kv_limited, e.max_sequences) : e.kv_limited;
  e.prefill_batch = std::min(per_step, e.concurrency);

  detail::time_serving(d, m, mean, s, e);
  return e;
}

/// TTFT and TPOT of @p m on @p d under @p r and stack @p s at @p rate requests per second per
/// replica, given the saturation estimate @p sat of the same arguments. Throws invalid_argument
/// for a rate that is not positive and finite or not below the saturation rate, naming both.
template <gemm_device D>
serve_load serve_at_rate(const D& d, const model_spec& m, const run_config& r,
                         const software_stack& s, const serve_estimate& sat, double rate) {
  const double x = sat.requests_per_second;
  if (!(rate > 0.0) || !detail::is_finite(rate))
    detail::throw_invalid_argument("serve: the request rate must be positive and finite");
  if (rate >= x) {
    // Four significant digits, as printf's %.4g writes them.
    const auto g4 = [](double v) { return detail::double_text(v, std::chars_format::general, 4); };
    detail::throw_invalid_argument("serve: request rate " + g4(rate) +
                                   "/s is at or above the saturation rate " + g4(x) +
                                   "/s (per replica): the queue grows without bound");
  }
  serve_load l;
  l.rate = rate;
  l.utilisation = rate / x;
  const double tp = sat.prefill_per_request.value(), g = sat.generate_mean;
  const double stretch = 1.0 - rate * tp;  // > 0: rate < X <= 1 / t_p
  const auto step = [&](double n) {
    const long long b =
        std::min(sat.concurrency, std::max(1LL, static_cast<long long>(std::ceil(n))));
    const op_sequence ops =
        estimate_model(d, m, detail::serve_step_run(detail::at_mean_lengths(r, sat), b), s)
            .stack.decode;
    return detail::at_sm_clock(ops, sat.clock_fraction).time().value();
  };
  // n = rate G t_d(n) / (1 - rate t_p): increasing in n, iterated from one sequence up; the
  // batch steps in whole sequences, so it settles within a few rounds.
  double n = 1.0, td = step(n);
  for (int i = 0; i < 64; ++i) {
    const double next = std::min(static_cast<double>(sat.concurrency), rate * g * td / stretch);
    const double next_td = step(next);
    const bool settled = std::ceil(next) == std::ceil(n);
    n = next;
    td = next_td;
    if (settled) break;
  }
  l.concurrency = n;
  l.tpot = seconds(td / stretch);
  l.ttft = sat.prefill_alone + seconds(l.utilisation / (2.0 * (1.0 - l.utilisation)) / x);
  l.latency = l.ttft + (g - 1.0) * l.tpot;
  return l;
}

/// Continuous batching under a closed loop of @p users requests in flight per replica: each
/// client sends its next request when its last one finishes (`vllm bench serve
/// --max-concurrency`, `sglang.bench_serving --max-concurrency`, genai-perf's `--concurrency`),
/// so the engine is never idle and never holds more than @p users sequences. @p c is the engine's
/// settings as the saturation estimate @p sat of the same arguments ran them (serve_config::under
/// of the stack); the run is estimated again with its cap on sequences lowered to @p users.
///
/// With n the sequences the engine then holds (at most @p users, the cap and the KV memory's),
/// t_d the decode step of n, t_p a prompt's share of a prefill batch and t_p1 a prompt alone,
/// one cycle of n requests takes n t_p + G t_d and the replica completes X = n / (n t_p + G t_d)
/// requests a second (the saturation formula at n). A request waits (users - n) / X for a free
/// sequence (Little's law over the queue); then, where others are decoding, half a decode step
/// and the M/D/1 wait behind the prefills of others, which hold the GPU a share rho = X t_p of
/// the time (rho / (2 (1 - rho)) t_p1, at most the other n - 1 prefills); then its prefill, with
/// the X t_d prompts that arrive in one decode step (at least one, at most the prefill batch):
/// TTFT = queue + wait + max(t_p1, k t_p). Its output tokens take the rest of
/// its cycle: TPOT = (n / X - wait - prefill) / (G - 1), the decode steps stretched by the other
/// requests' prefills. So the request's latency TTFT + (G - 1) TPOT is users / X, as Little's law
/// over the whole loop says. Throws invalid_argument for fewer than one user.
template <gemm_device D>
serve_load serve_at_concurrency(const D& d, const model_spec& m, const run_config& r,
                                const software_stack& s, const serve_config& c,
                                const serve_estimate& sat, long long users) {
  if (users < 1)
    detail::throw_invalid_argument("serve: the concurrency must be >= 1 request in flight, got " +
                                   std::to_string(users));
  serve_config capped = c;
  capped.max_sequences = c.max_sequences > 0 ? std::min(c.max_sequences, users) : users;
  const serve_estimate e = estimate_serving(d, m, r, s, capped);
  const double n = static_cast<double>(e.concurrency), g = e.generate_mean;
  const double x = e.requests_per_second, td = e.decode_step.value();
  const double tp = e.prefill_per_request.value(), tp1 = e.prefill_alone.value();
  serve_load l;
  l.rate = x;
  l.utilisation = sat.requests_per_second > 0.0 ? x / sat.requests_per_second : 1.0;
  l.concurrency = n;
  l.waiting = static_cast<double>(users) - n;
  const double arrivals = std::clamp(x * td, 1.0, static_cast<double>(e.prefill_batch));
  // Another request's prefill may hold the GPU when this one arrives: the engine prefills in
  // arrival order, a share rho = X t_p of the time; the M/D/1 wait behind it (as serve_at_rate's),
  // never more than the other n - 1 prompts' prefills.
  const double busy = x * tp;
  const double behind = std::min(busy / (2.0 * (1.0 - busy)) * tp1, (n - 1.0) * tp);
  const double wait = e.concurrency > 1 ? 0.5 * td + behind : 0.0;
  const double prefill = std::max(tp1, arrivals * tp);
  l.ttft = seconds(l.waiting / x + wait + prefill);
  l.tpot = seconds(g > 1.0 ? std::max(0.0, n / x - wait - prefill) / (g - 1.0) : 0.0);
  l.latency = l.ttft + (g - 1.0) * l.tpot;
  return l;
}

}  // namespace dlperf
