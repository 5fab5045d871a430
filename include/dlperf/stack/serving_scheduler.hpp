/// @file
/// How a serving engine schedules continuous batching, as data of its stack (docs/stacks.md,
/// @ref stacks_serving "Serving schedulers"): the cap on sequences it runs together, the tokens
/// it puts through one step, whether it chunks prompts onto decode steps, and how much KV memory
/// it reserves for a sequence. The serving model (model/serve.hpp) uses these unless the run
/// sets its own (`serve_config`).
///
/// A cap the KV memory never reaches changes nothing; one below it is what bounds the batch
/// (vLLM's max_num_seqs of 256 against the thousand sequences 8 H100s hold for a 70B model), so
/// an engine's answer without its cap is a different engine's.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// How much KV memory an engine reserves for a sequence it admits.
enum class kv_reservation : std::uint8_t {
  /// The blocks of its whole context, prompt and every token it may generate, before it runs:
  /// no sequence is ever evicted (TensorRT-LLM's GUARANTEED_NO_EVICT capacity scheduler).
  whole_context,
  /// The blocks of the tokens it holds, one more as each fills; a sequence is preempted when
  /// none is free (vLLM, SGLang): on average a sequence holds its prompt and half its output.
  as_generated
};

/// The reservations and their stable names.
template <>
struct enum_list<kv_reservation> {
  static constexpr std::string_view kind = "KV reservation";  ///< what the enum names
  /// Every reservation.
  static constexpr std::array values{
      enumerator{kv_reservation::whole_context, "whole-context",
                 "the whole context's blocks before a sequence runs"},
      enumerator{kv_reservation::as_generated, "as-generated",
                 "blocks as tokens arrive, preempting when full"}};
};

/// A scheduler's limits on one step.
struct batch_limits {
  long long max_sequences = 0;  ///< sequences in one step at most; 0: no cap but the KV memory's
  long long step_tokens = 0;    ///< tokens (prompt and decode) one step puts through at most
};

/// A token budget per step that the engine sizes from the run's shape, as trtllm-bench does
/// (tensorrt_llm/bench/build/tuning.py, finetune_setting): the sequences it may hold (the KV
/// memory's count, at most the cap) times 1 + P / G, the prompt tokens that arrive for every
/// one generated, within [least, most]. trtllm-bench then rounds up to a multiple of 256, 512
/// or 1024; the model does not (a step of 2048 tokens or more moves by at most one prompt of
/// 1024). An engine without one keeps its fixed budget (batch_limits::step_tokens).
struct shaped_step_tokens {
  long long least = 0;  ///< the budget's floor; 0: the engine's budget is fixed
  long long most = 0;   ///< its ceiling

  /// Whether the engine sizes its budget from the run.
  [[nodiscard]] constexpr bool shapes() const { return least > 0; }
  /// Whether the rule is well formed: 0 <= least <= most where it shapes.
  [[nodiscard]] constexpr bool valid() const { return least >= 0 && (!shapes() || most >= least); }
  /// The budget for @p sequences held, prompts of @p prompt tokens and @p generate generated
  /// (all >= 1).
  [[nodiscard]] constexpr long long for_run(long long sequences, long long prompt,
                                            long long generate) const {
    const double raw = static_cast<double>(sequences) *
                       (1.0 + static_cast<double>(prompt) / static_cast<double>(generate));
    if (raw >= static_cast<double>(most)) return most;
    const auto whole = static_cast<long long>(raw);
    return std::max(least, static_cast<double>(whole) < raw ? whole + 1 : whole);
  }
};

/// A serving engine's scheduler: its default limits, larger ones on GPUs of much memory where
/// the engine picks those, whether prompts are chunked onto decode steps, and its KV reservation.
/// A stack that serves nothing keeps the defaults: no cap, TensorRT-LLM's 8192 tokens a step,
/// the whole context reserved (the model's behaviour before engines carried their own).
struct serving_scheduler {
  batch_limits limits{0, 8192};  ///< the defaults
  /// The defaults on a GPU of at least `large_from` bytes of memory not of family
  /// `large_except` (vLLM picks larger limits on H100- and MI300X-class GPUs but not on the 80 GB
  /// A100, where they cost throughput); zero limits: the same as `limits`.
  batch_limits large{};
  byte_count large_from{};               ///< the memory from which `large` applies
  family large_except = family::ampere;  ///< the family `large` skips even with that memory
  bool chunked_prefill = false;          ///< prompts ride on decode steps in chunks
  kv_reservation reservation = kv_reservation::whole_context;  ///< KV held per sequence
  /// The step's token budget where the engine sizes it from the run; then `limits.step_tokens`
  /// is not used.
  shaped_step_tokens shaped_step{};
  std::string_view source{};  ///< where the defaults come from (file, release, read date)

  /// The limits on a GPU of @p memory bytes and family @p f.
  [[nodiscard]] constexpr batch_limits limits_on(byte_count memory, family f) const {
    if (large.step_tokens > 0 && memory >= large_from && f != large_except) return large;
    return limits;
  }

  /// Throws invalid_argument naming stack @p stack when a limit is out of its domain: a cap
  /// below 0, a fixed budget below 1, or a shaped budget whose floor is above its ceiling.
  constexpr void validate(std::string_view stack) const {
    const auto bad = [&](const char* what) {
      detail::throw_invalid_argument("stack " + std::string(stack) + ": serving scheduler " + what);
    };
    for (const batch_limits& l : {limits, large})
      if (l.max_sequences < 0 || l.step_tokens < 0) bad("limits must be >= 0");
    if (limits.step_tokens < 1) bad("needs a step budget of at least 1 token");
    if (!shaped_step.valid()) bad("shaped step budget needs 0 <= least <= most");
  }
};

}  // namespace dlperf
