/// @file
/// What a run's LoRA adapters (model/lora.hpp) mean for a transformer (docs/models.md,
/// @ref models_finetuning): each target's widths, the trainable parameters, the weights QLoRA
/// stores in 4 bits, and the checks that the targets exist in the model. Per adapted layer
/// of in x out, on T tokens, with rank r:
///
///     parameters   r (in + out)                       (A: in x r, B: r x out)
///     forward      2 T r in + 2 T r out FLOP          (x A, then (x A) B)
///     backward     twice the forward (each product's dgrad and wgrad)
///
/// Shared by the memory need (model/memory.hpp) and the step (model/step.hpp).
#pragma once

#include <algorithm>
#include <string>

#include <dlperf/core/error.hpp>
#include <dlperf/model/lora.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/transformer.hpp>
#include <dlperf/model/weight_file.hpp>

namespace dlperf {

/// The widths of one adapted linear layer and how many of it a block holds.
struct adapter_shape {
  long long in = 0;   ///< input width of the layer (rows of A)
  long long out = 0;  ///< output width of the layer (columns of B)
  double count = 1;   ///< copies per block: the experts, for a mixture of experts' FFN targets
};

/// The shape of target @p t in @p m's layers, at full width (no tensor parallelism). Throws
/// invalid_argument when the model has no such layer (gate without a SwiGLU FFN).
constexpr adapter_shape lora_target_shape(const transformer_config& m, lora_target t) {
  // A mixture of experts adapts each routed expert (of its own width).
  const long long h = m.hidden, q = m.heads * m.head_dim(), kv = m.kv_dim(),
                  f = m.expert_ffn_width();
  const double experts = m.moe() ? static_cast<double>(m.experts) : 1.0;
  switch (t) {
    case lora_target::q:
      return {h, q, 1};
    case lora_target::k:
    case lora_target::v:
      return {h, kv, 1};
    case lora_target::o:
      return {q, h, 1};
    case lora_target::gate:
      if (m.ffn_type != ffn_kind::swiglu)
        detail::throw_invalid_argument(
            "run: lora target 'gate' needs a gated (SwiGLU) FFN; this model's FFN is " +
            std::string(name(m.ffn_type)));
      return {h, f, experts};
    case lora_target::up:
      return {h, f, experts};
    case lora_target::down:
      break;
  }
  return {f, h, experts};
}

/// Throws invalid_argument when run @p r's adapters do not fit model @p m: LoRA on a CNN, a
/// target the model lacks, a rank above a target's narrower side (the update would not be low
/// rank). Does nothing without LoRA.
constexpr void validate_lora(const model_spec& m, const run_config& r) {
  if (!r.lora.enabled()) return;
  if (m.kind != model_kind::transformer)
    detail::throw_invalid_argument(
        "run: lora adapts a transformer's linear layers; this model is a CNN");
  if (m.transformer.mla())
    detail::throw_invalid_argument(
        "run: lora on multi-head latent attention (DeepSeek-V2/V3) is not modelled: its "
        "low-rank projections are not the q, k and v targets");
  for (lora_target t : enum_values<lora_target>) {
    if (!r.lora.targets.has(t)) continue;
    const adapter_shape s = lora_target_shape(m.transformer, t);
    const long long narrow = std::min(s.in, s.out);
    if (r.lora.rank > narrow)
      detail::throw_invalid_argument("run: lora rank (" + std::to_string(r.lora.rank) +
                                     ") exceeds target '" + std::string(name(t)) + "' (" +
                                     std::to_string(s.in) + " x " + std::to_string(s.out) +
                                     "): at most " + std::to_string(narrow));
  }
}

/// Throws invalid_argument when run @p r does not apply to model @p m: its adapters
/// (validate_lora), documents and packing (a training set's tokens) for a CNN, or the NCHW
/// layout for a transformer.
constexpr void validate_model_run(const model_spec& m, const run_config& r) {
  if (m.kind == model_kind::transformer && r.nchw)
    detail::throw_invalid_argument(
        "run: the NCHW layout is a convolutional network's; this model is a transformer");
  if (m.kind != model_kind::transformer && (r.document > 0 || r.packing))
    detail::throw_invalid_argument(
        "run: document tokens and packing describe a transformer's training set; this model is "
        "a CNN");
  if (m.kind != model_kind::transformer && r.selective != selective_checkpointing::none)
    detail::throw_invalid_argument(
        "run: selective checkpointing follows torchtitan's transformer layers; a CNN takes none or "
        "full checkpointing");
  if (m.kind == model_kind::transformer &&
      m.transformer.kind == transformer_kind::encoder_decoder &&
      r.selective != selective_checkpointing::none)
    detail::throw_invalid_argument(
        "run: selective checkpointing follows torchtitan's decoder layers; an encoder-decoder "
        "takes none or full checkpointing");
  if (m.kind == model_kind::transformer && r.selective == selective_checkpointing::ops &&
      (m.transformer.experts > 1 || m.transformer.kv_lora_rank > 0 || r.lora.enabled()))
    detail::throw_invalid_argument(
        "run: selective checkpointing 'ops' follows torchtitan's dense decoder layer (its "
        "products' order); a mixture of experts, latent attention or LoRA adapters take 'layers', "
        "none or full checkpointing");
  if (m.kind != model_kind::transformer && r.cp > 1)
    detail::throw_invalid_argument("run: context parallelism (cp " + std::to_string(r.cp) +
                                   ") splits a transformer's sequences; a CNN has none");
  if (r.ep > 1 && (m.kind != model_kind::transformer || !m.transformer.moe()))
    detail::throw_invalid_argument("run: expert parallelism (ep " + std::to_string(r.ep) +
                                   ") spreads a mixture of experts' routed experts; this model "
                                   "has no experts");
  if (r.ep > 1 && m.transformer.experts % r.ep != 0)
    detail::throw_invalid_argument("run: expert parallelism (ep " + std::to_string(r.ep) +
                                   ") must divide the model's experts (" +
                                   std::to_string(m.transformer.experts) + ")");
  if (m.kind != model_kind::transformer && r.pp > 1)
    detail::throw_invalid_argument(
        "run: a layer split (pp " + std::to_string(r.pp) +
        ") is modelled for transformers; a CNN runs on one GPU per replica");
  if (m.kind == model_kind::transformer && r.pp > m.transformer.total_layers())
    detail::throw_invalid_argument("run: a layer split over " + std::to_string(r.pp) +
                                   " GPUs needs as many layers, the model has " +
                                   std::to_string(m.transformer.total_layers()));
  if (m.kind == model_kind::transformer && r.pp * r.virtual_stages > m.transformer.total_layers())
    detail::throw_invalid_argument("run: " + std::to_string(r.pp) + " pipeline stages x " +
                                   std::to_string(r.virtual_stages) +
                                   " virtual stages need as many layers, the model has " +
                                   std::to_string(m.transformer.total_layers()));
  validate_lora(m, r);
}

/// Adapters of target @p t per layer: in the encoder (or decoder-only) layers 1, in an
/// encoder-decoder's decoder layers the attention targets twice (self- and cross-attention).
constexpr double lora_adapters_per_layer(lora_target t, bool decoder_layer) {
  const bool attention =
      t == lora_target::q || t == lora_target::k || t == lora_target::v || t == lora_target::o;
  return decoder_layer && attention ? 2.0 : 1.0;
}

namespace detail {
// The sum over run @p r's adapters on @p m of @p per_adapter(the target's shape): every target,
// once per encoder (or decoder-only) layer and as often per decoder layer as it is adapted
// there. 0 without LoRA.
template <class F>
constexpr double sum_over_adapters(const transformer_config& m, const run_config& r,
                                   F per_adapter) {
  if (!r.lora.enabled()) return 0;
  double sum = 0;
  for (lora_target t : enum_values<lora_target>) {
    if (!r.lora.targets.has(t)) continue;
    sum += per_adapter(lora_target_shape(m, t)) *
           (static_cast<double>(m.layers) * lora_adapters_per_layer(t, false) +
            static_cast<double>(m.decoder_layers) * lora_adapters_per_layer(t, true));
  }
  return sum;
}
}  // namespace detail

/// Trainable parameters of run @p r's adapters on @p m (all GPUs together): r (in + out) per
/// adapted layer. 0 without LoRA.
constexpr double lora_parameters(const transformer_config& m, const run_config& r) {
  const double rank = static_cast<double>(r.lora.rank);
  return detail::sum_over_adapters(m, r, [rank](const adapter_shape& s) {
    return rank * static_cast<double>(s.in + s.out) * s.count;
  });
}

/// The adapters' tensors under @p r: an A and a B matrix per adapted matrix.
constexpr double lora_tensors(const transformer_config& m, const run_config& r) {
  return detail::sum_over_adapters(m, r, [](const adapter_shape& s) { return 2.0 * s.count; });
}

/// The parameters a training run updates: the adapters under LoRA, else every parameter.
constexpr double trainable_parameters(const model_spec& m, const run_config& r) {
  validate_lora(m, r);
  return r.lora.enabled() ? lora_parameters(m.transformer, r) : m.parameters();
}

/// Weights of the linear layers inside @p m's blocks (attention projections, FFN matrices of
/// every expert and of the shared experts, the router; no biases): what bitsandbytes stores in
/// NF4 under QLoRA. The embeddings, the LM head, norms and biases stay in the compute type.
constexpr double block_linear_weights(const transformer_config& m) {
  const double routers = m.moe() ? static_cast<double>(m.moe_layers() + m.decoder_layers) *
                                       static_cast<double>(m.hidden * m.experts)
                                 : 0.0;
  return split_weights(m).linear + routers;
}

}  // namespace dlperf
