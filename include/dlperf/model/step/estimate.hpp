/// @file
/// What a step estimate holds (docs/models.md, @ref models_step): the phases of a step, each an
/// op_sequence, the step time and the rates derived from it. model/step.hpp builds it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <dlperf/core/bound.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/adapters.hpp>
#include <dlperf/model/cnn_shapes.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/model/weight_file.hpp>
#include <dlperf/ops/attention.hpp>
#include <dlperf/ops/convolution.hpp>
#include <dlperf/ops/elementwise.hpp>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace dlperf {

/// The phases of a step, each an `op_sequence`.
enum class step_phase : std::uint8_t {
  forward,    ///< forward pass (training, encoder and CNN inference)
  recompute,  ///< forward of every layer again (activation checkpointing)
  backward,   ///< gradients
  optimizer,  ///< parameter update
  prefill,    ///< decoder inference: the prompt
  decode      ///< decoder inference: one generated token
};

/// The step phases and their stable names.
template <>
struct enum_list<step_phase> {
  static constexpr std::string_view kind = "step phase";  ///< what the enum names
  /// Every phase.
  static constexpr std::array values{
      enumerator{step_phase::forward, "forward"},   enumerator{step_phase::recompute, "recompute"},
      enumerator{step_phase::backward, "backward"}, enumerator{step_phase::optimizer, "optimizer"},
      enumerator{step_phase::prefill, "prefill"},   enumerator{step_phase::decode, "decode"}};
};

/// A model's step (training) or batch (inference) on one GPU.
struct model_estimate {
  // One member per phase, not an array of them: g++ 12 loses the storage of an array of
  // vector-holding objects returned from a constant evaluation.
  op_sequence forward;          ///< forward pass (training, encoder and CNN inference)
  op_sequence recompute;        ///< forward of every layer again (activation checkpointing)
  op_sequence backward;         ///< gradients
  op_sequence optimizer;        ///< parameter update
  op_sequence prefill;          ///< decoder inference: the prompt
  op_sequence decode;           ///< decoder inference: one generated token
  duration time{};              ///< step, batch latency, or prefill + every decode step
  duration prefill_time{};      ///< decoder inference: time to the first token
  duration decode_per_token{};  ///< decoder inference: time per generated token (batch-wide)
  double samples = 0;           ///< sequences or images per step and replica
  double tokens = 0;            ///< tokens per step and replica (decoder inference: generated ones)
  double prompt_tokens = 0;     ///< decoder inference: prompt tokens per step and replica
  long long replicas = 1;       ///< data-parallel replicas (gpus / tp)
  /// Training: forward and backward passes per optimizer update (gradient accumulation); the
  /// forward, recompute and backward phases hold one micro-batch's operators.
  long long micro_batches = 1;
  flop_count model_work{};  ///< the model's FLOP per step on one GPU (no recompute)
  flop_rate peak{};         ///< the GPU's dense peak in the datatype the weight products
                            ///< run in (the run's, or an FP8/FP4 format's where the GPU
                            ///< multiplies it natively), so that mfu() never exceeds 1
  /// Weight GEMMs read weights dequantised in their inner loop (a weight-only format, or a
  /// format the GPU cannot multiply natively): the stack's quantised-GEMV share applies.
  bool dequantized_weights = false;
  /// Training: the share of the quoted tensor clock the board holds through the job
  /// (estimate/sustained_clock.hpp); 1 where no sustained clock is measured, and for inference.
  double clock_fraction = 1.0;

  /// The operators of phase @p p.
  [[nodiscard]] constexpr const op_sequence& phase(step_phase p) const {
    switch (p) {
      case step_phase::forward:
        return forward;
      case step_phase::recompute:
        return recompute;
      case step_phase::backward:
        return backward;
      case step_phase::optimizer:
        return optimizer;
      case step_phase::prefill:
        return prefill;
      case step_phase::decode:
        break;
    }
    return decode;
  }
  /// How often phase @p p runs per step: generated tokens per sequence for decode, the
  /// micro-batches for a training step's forward, recompute and backward, else 1.
  [[nodiscard]] constexpr double runs(step_phase p) const {
    switch (p) {
      case step_phase::forward:
      case step_phase::recompute:
      case step_phase::backward:
        return static_cast<double>(micro_batches);
      case step_phase::decode:
        return decode.size() > 0 ? tokens / std::max(samples, 1.0) : 0.0;
      case step_phase::optimizer:
      case step_phase::prefill:
        break;
    }
    return 1.0;
  }
  /// A training step of @p k micro-batches of this one (gradient accumulation): samples, tokens
  /// and the model's work k times over, one optimizer update.
  constexpr void accumulate(long long k) {
    const double x = static_cast<double>(k) / static_cast<double>(micro_batches);
    micro_batches = k;
    samples *= x;
    tokens *= x;
    model_work *= x;
    sum_phases();
  }
  /// Sums the times again from the phases' operators, after a change to them (a stack's
  /// figures, the communication of a split): prefill_time and decode_per_token from their phases,
  /// time from every phase once and decode once per generated token.
  constexpr void sum_phases() {
    prefill_time = prefill.time();
    decode_per_token = decode.time();
    duration t{};
    for (step_phase p : enum_values<step_phase>) t += runs(p) * phase(p).time();
    time = t;
  }
  /// Every operator's FLOP per step, recompute included, on one GPU.
  [[nodiscard]] constexpr flop_count work() const {
    flop_count w{};
    for (step_phase p : enum_values<step_phase>) w += runs(p) * phase(p).work();
    return w;
  }
  /// Samples per second of the whole job.
  [[nodiscard]] constexpr double samples_per_second() const {
    return samples * static_cast<double>(replicas) / time.value();
  }
  /// Tokens per second of the whole job.
  [[nodiscard]] constexpr double tokens_per_second() const {
    return tokens * static_cast<double>(replicas) / time.value();
  }
  /// Decoder inference: prompt tokens per second of the whole job while it reads the prompts
  /// (llama-bench's "pp" figure); 0 without a prefill.
  [[nodiscard]] constexpr double prompt_tokens_per_second() const {
    return prefill_time.value() > 0
               ? prompt_tokens * static_cast<double>(replicas) / prefill_time.value()
               : 0.0;
  }
  /// Decoder inference: generated tokens per second of the whole job while it decodes, the time
  /// to the first token left out (llama-bench's "tg" figure); 0 when nothing is generated.
  [[nodiscard]] constexpr double decode_tokens_per_second() const {
    return decode_per_token.value() > 0
               ? samples * static_cast<double>(replicas) / decode_per_token.value()
               : 0.0;
  }
  /// FLOP per second one GPU executes (recompute included).
  [[nodiscard]] constexpr flop_rate achieved() const { return work() / time; }
  /// Model-FLOPs utilisation: the model's FLOP per second over the GPU's dense peak (`peak`).
  [[nodiscard]] constexpr double mfu() const { return (model_work / time / peak).value(); }
  /// Time per step in operators of kind @p k, repeats included.
  [[nodiscard]] constexpr duration time_of(op_kind k) const { return time_matching(k, false, {}); }
  /// Fraction of the time in operators of kind @p k that is bound by @p b (0 when none).
  [[nodiscard]] constexpr double bound_share(op_kind k, bound b) const {
    const double all = time_of(k).value();
    return all > 0 ? time_matching(k, true, b).value() / all : 0.0;
  }

 private:
  [[nodiscard]] constexpr duration time_matching(op_kind k, bool by_bound, bound b) const {
    duration t{};
    for (step_phase p : enum_values<step_phase>)
      for (const op_estimate& op : phase(p))
        if (op.kind == k && (!by_bound || op.bound == b))
          t += runs(p) * static_cast<double>(op.repeats) * op.time;
    return t;
  }
};

}  // namespace dlperf
