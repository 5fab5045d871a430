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

#include <array>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
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
  std::string_view source{};  ///< where the defaults come from (file, release, read date)

  /// The limits on a GPU of @p memory bytes and family @p f.
  [[nodiscard]] constexpr batch_limits limits_on(byte_count memory, family f) const {
    if (large.step_tokens > 0 && memory >= large_from && f != large_except) return large;
    return limits;
  }
};

}  // namespace dlperf
