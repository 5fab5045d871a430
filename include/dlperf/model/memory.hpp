/// @file
/// Memory a model needs on each GPU, broken down, and whether it fits (docs/models.md,
/// @ref models_memory). Per parameter, training holds
///
///     weights     4 B (FP32, TF32) or 2 B (FP16, BF16, FP8: BF16 weights)
///     gradients   as the weights
///     optimizer   Adam 8 B, 8-bit Adam 2 B, SGD momentum 4 B; + 4 B of FP32 master weights
///                 when the weights are not FP32
///
/// so mixed-precision Adam is 2 + 2 + 12 = 16 B per parameter (Rajbhandari et al., ZeRO, 2019).
/// ZeRO stage 1 divides the optimizer states by the data-parallel degree, stage 2 also the
/// gradients, stage 3 also the weights; tensor parallelism divides all three by its degree.
///
/// Activations kept for the backward pass, per transformer layer, with T = batch x seq tokens,
/// e bytes per activation element, h the width, q and kv the per-GPU query and key/value
/// widths, f the per-GPU FFN width, k experts per token (1 for a dense FFN), c = 2 (GELU/ReLU)
/// or 3 (SwiGLU), a the per-GPU heads:
///
///     norms       2 T h e
///     attention   T e (h + 2 q + 2 kv) + T h             (the last term: dropout mask, if any)
///     scores      unfused: a b s^2 (e + 1 + e) with dropout, a b s^2 e without;
///                 flash:   4 a T (the softmax statistics; no score matrix is kept)
///     FFN         T e k (h + c f) + T h                  (dropout mask, if any)
///
/// For GPT-2-shaped layers (f = 4 h, dropout, 16-bit, unfused) this is s b h (34 + 5 a s / h),
/// the formula of Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
/// Transformer Models", section 4.1). With checkpointing only each layer's input (T h e) is
/// kept, plus one layer's full set while it is recomputed. The loss keeps FP32 logits.
///
/// LoRA (model/adapters.hpp) freezes the model: its weights stay (in NF4 for the blocks' linear
/// layers under QLoRA: nf4_bits_per_weight / 8 bytes each), without gradients or optimizer
/// states; the adapters hold weights, gradients and optimizer states as a full run does per
/// parameter, and keep T r e bytes per adapter (x A) for the backward pass. The activations of
/// the frozen layers are kept as without LoRA: the gradient still flows through every layer,
/// and the adapters read the same layer inputs. QLoRA adds one dequantised weight matrix in
/// the compute type, the largest of a block, live at a time.
#pragma once

#include <algorithm>
#include <cmath>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/adapters.hpp>
#include <dlperf/model/cnn_shapes.hpp>
#include <dlperf/model/parameter_share.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/model/weight_file.hpp>

namespace dlperf {

/// Memory one GPU holds for a run, by what it holds.
struct memory_breakdown {
  byte_count weights{};      ///< parameters (the working copy)
  byte_count gradients{};    ///< parameter gradients (training)
  byte_count optimizer{};    ///< optimizer states and FP32 master weights (training)
  byte_count activations{};  ///< activations kept for the backward pass, or inference's live set
  byte_count kv_cache{};     ///< decoder inference: keys and values of every position
  byte_count overhead{};     ///< framework, CUDA context and workspaces (a parameter)

  /// Everything.
  [[nodiscard]] constexpr byte_count total() const {
    return weights + gradients + optimizer + activations + kv_cache + overhead;
  }
};

/// Whether a run fits a GPU's memory.
struct fit_verdict {
  memory_breakdown need;    ///< per GPU
  byte_count capacity{};    ///< the GPU's DRAM
  bool fits = false;        ///< need.total() <= capacity
  byte_count margin{};      ///< capacity - need.total(); negative when it does not fit
  long long max_batch = 0;  ///< largest batch per replica that fits (0: not even 1; at most 2^24)
};

namespace detail {

// The datatype of a run's activations (attention and streaming kernels, kept tensors): FP32
// and TF32 keep FP32, 16-bit types their own, FP8 runs keep BF16 (FP8 is the GEMMs' operand
// format).
constexpr dtype activation_type(dtype t) { return traits(t).storage_bits >= 16 ? t : dtype::bf16; }

// Bytes per element of the activations a run keeps.
constexpr double activation_bytes(dtype t) { return traits(activation_type(t)).storage().value(); }

// Bytes per weight of the working copy during training (FP8 training keeps BF16 weights).
constexpr double training_weight_bytes(dtype t) { return activation_bytes(t); }

// Optimizer bytes per parameter: moments, plus FP32 master weights when the working copy is not
// FP32.
constexpr double optimizer_bytes(optimizer_kind o, dtype t) {
  const double master = training_weight_bytes(t) < 4.0 ? 4.0 : 0.0;
  switch (o) {
    case optimizer_kind::sgd:
      return 4.0 + master;
    case optimizer_kind::adam8bit:
      return 2.0 + master;
    case optimizer_kind::adam:
      break;
  }
  return 8.0 + master;
}

// Activation bytes per sequence-of-tokens step for a transformer (see the file comment).
constexpr double transformer_activation_bytes(const transformer_shapes& s, const run_config& r) {
  const double e = activation_bytes(r.type);
  const double T = s.tokens, h = s.h, q = s.q, kv = s.kv, f = s.f, k = s.experts_per_token;
  const double mask = s.dropout ? 1.0 : 0.0;
  const double c = s.gated ? 3.0 : 2.0;
  const auto scores = [&](double seq_kv) {
    if (r.flash_attention) return 4.0 * s.heads * T;
    return s.heads * T * seq_kv * (e + (s.dropout ? 1.0 + e : 0.0));
  };
  const double attention = T * e * (h + 2.0 * q + 2.0 * kv) + mask * T * h;
  // Expert parallelism: the GPU's experts take its tokens' share of the copies (whole width).
  const double ffn = T * s.routed_share * e * k * (h + c * f) + mask * T * h;
  const double seq = static_cast<double>(s.seq);
  const double layer = 2.0 * T * h * e + attention + scores(seq) + ffn;
  const double cross = T * h * e + attention + scores(seq);  // cross-attention, decoder only
  const double layers = s.layers, decoder_layers = s.decoder_layers;
  double kept = 0;
  if (r.checkpointing) {
    kept = (layers + decoder_layers) * T * h * e + layer + (decoder_layers > 0 ? cross : 0.0);
  } else if (r.selective == selective_checkpointing::layers) {
    // Every second layer keeps only its input, the others everything; one layer's full set is
    // live while it is recomputed.
    const double recomputed = std::floor(layers / 2.0);
    kept = (layers - recomputed) * layer + recomputed * T * h * e + (recomputed > 0 ? layer : 0.0);
  } else if (r.selective == selective_checkpointing::ops) {
    // torchtitan's per-op policy keeps each layer's input and the outputs it saves: wq, wv, w1
    // and, gated, w2 (the first, third, fifth and seventh products), and the fused attention's
    // output with its softmax statistics; one layer's full set is live while it is recomputed.
    const double saved = T * e * (h + q + kv + f + (s.gated ? h : 0.0) + q) +
                         (r.flash_attention ? scores(seq) : 0.0);
    kept = layers * saved + layer;
  } else {
    kept = layers * layer + decoder_layers * (layer + cross);
  }
  return kept + T * h * e + s.head_tokens * s.vocab * 4.0;  // final norm input, FP32 logits
}

// Activation bytes of run @p r's adapters (x A, T x r per adapter, per GPU: the rank is not
// split) and, under QLoRA, the one dequantised weight matrix live at a time.
constexpr double adapter_activation_bytes(const transformer_config& t, const transformer_shapes& s,
                                          const run_config& r) {
  if (!r.lora.enabled()) return 0;
  const double e = activation_bytes(r.type), rank = static_cast<double>(r.lora.rank);
  double kept = 0, widest = 0;
  for (lora_target target : enum_values<lora_target>) {
    if (!r.lora.targets.has(target)) continue;
    const adapter_shape a = lora_target_shape(t, target);
    // Mixture-of-experts FFN targets see each token k times (once per routed expert).
    const double tokens = a.count > 1 ? s.tokens * s.experts_per_token : s.tokens;
    const double per_layer = tokens * rank * e;
    kept += per_layer * (s.layers * lora_adapters_per_layer(target, false) +
                         s.decoder_layers * lora_adapters_per_layer(target, true));
  }
  if (r.lora.qlora) {
    const double attention = s.h * (s.q + 2.0 * s.kv);
    widest = std::max(attention, (s.gated ? 2.0 : 1.0) * s.h * s.f) * e;
  }
  return (r.checkpointing ? kept / std::max(1.0, s.layers + s.decoder_layers) : kept) + widest;
}

// The share of the model's layers on the GPU of a layer split that holds most: ceil(L / pp) of
// L (llama.cpp and accelerate give each GPU whole layers; with equal GPUs one holds the rounded-up
// share). Weights outside the layers (embeddings, LM head) are counted in the same proportion.
constexpr double largest_stage_share(const model_spec& m, const run_config& r) {
  if (r.pp <= 1 || m.kind != model_kind::transformer) return 1.0;
  const long long layers = m.transformer.total_layers();
  const long long most = (layers + r.pp - 1) / r.pp;
  return static_cast<double>(most) / static_cast<double>(layers);
}

// The live set of a transformer's inference: one layer's largest tensors and the logits.
constexpr double transformer_inference_bytes(const transformer_shapes& s, const run_config& r) {
  const double e = activation_bytes(r.type);
  const double widest =
      std::max(s.q + 2.0 * s.kv, s.experts_per_token * (s.gated ? 2.0 : 1.0) * s.f);
  return s.tokens * e * (2.0 * s.h + widest) + s.head_tokens * s.vocab * 4.0;
}

}  // namespace detail

/// Memory @p m needs per GPU for run @p r. Throws invalid_argument for a bad model or run.
constexpr memory_breakdown memory_need(const model_spec& m, const run_config& r) {
  r.validate();
  // A pipeline stage holds its layers' parameters (the largest stage's share); inference's
  // layer split counts its weights below.
  const double stage = r.training() ? detail::largest_stage_share(m, r) : 1.0;
  const parameter_share own = parameters_per_gpu(m, r);
  const double params = own.total() * stage;
  const double sharded = own.sharded() * stage;  // over ZeRO's shards
  const double dp = static_cast<double>(r.sharding_degree());
  memory_breakdown b;
  b.overhead = bytes(r.overhead_bytes);
  validate_model_run(m, r);
  if (r.training() && r.lora.enabled()) {
    // Frozen weights (NF4 blocks under QLoRA) and trained adapters (docs/models.md).
    const double w = detail::training_weight_bytes(r.type);
    const double tp = static_cast<double>(r.tp);
    const double nf4 = r.lora.qlora ? block_linear_weights(m.transformer) / tp : 0.0;
    const double frozen = (params - nf4) * w + nf4 * nf4_bits_per_weight / 8.0;
    const double adapters = lora_parameters(m.transformer, r) / tp;
    b.weights = bytes((frozen + adapters * w) / (r.zero >= 3 ? dp : 1.0));
    b.gradients = bytes(adapters * w / (r.zero >= 2 ? dp : 1.0));
    b.optimizer =
        bytes(adapters * detail::optimizer_bytes(r.optimizer, r.type) / (r.zero >= 1 ? dp : 1.0));
  } else if (r.training()) {
    const double w = detail::training_weight_bytes(r.type);
    b.weights = bytes((r.zero >= 3 ? sharded : params) * w);
    b.gradients = bytes((r.zero >= 2 ? sharded : params) * w);
    b.optimizer =
        bytes((r.zero >= 1 ? sharded : params) * detail::optimizer_bytes(r.optimizer, r.type));
  } else {
    b.weights = bytes(weight_file_bytes(m, r.weights, r.type) / static_cast<double>(r.tp) *
                      detail::largest_stage_share(m, r));
  }
  if (m.kind == model_kind::transformer) {
    const detail::transformer_shapes s = detail::transformer_shapes::of(m.transformer, r);
    if (r.training()) {
      // Under 1F1B the first pipeline stage holds the activations of min(pp, micro-batches)
      // micro-batches of its layers (Narayanan et al. 2021, arXiv:2104.04473, section 2.2.1).
      const double in_flight = r.pp > 1
                                   ? detail::largest_stage_share(m, r) *
                                         static_cast<double>(std::min(r.pp, r.grad_accumulation))
                                   : 1.0;
      b.activations = bytes(in_flight * (detail::transformer_activation_bytes(s, r) +
                                         detail::adapter_activation_bytes(m.transformer, s, r)));
    } else {
      b.activations = bytes(detail::transformer_inference_bytes(s, r));
      b.kv_cache = bytes(s.kv_cache_bytes(r) * detail::largest_stage_share(m, r));
    }
  } else {
    const detail::cnn_activation_count a = detail::cnn_activations(m.cnn, r.image);
    const double e = detail::activation_bytes(r.type);
    const double n = static_cast<double>(r.batch);
    if (r.training())
      b.activations = bytes(n * e * (r.checkpointing ? a.checkpointed : a.kept));
    else
      b.activations = bytes(n * e * a.live);
  }
  return b;
}

/// Whether run @p r of @p m fits device @p d's DRAM, with what margin, and the largest batch per
/// replica that fits. Throws invalid_argument for a bad model or run.
template <device D>
constexpr fit_verdict check_fit(const D& d, const model_spec& m, const run_config& r) {
  fit_verdict v;
  v.need = memory_need(m, r);
  v.capacity = d.memory(tier::global).capacity;
  v.fits = v.need.total() <= v.capacity;
  v.margin = v.capacity - v.need.total();
  // Memory is affine in the batch: need(b) = fixed + b x per_sample.
  run_config one = r, two = r;
  one.batch = 1;
  two.batch = 2;
  const double t1 = memory_need(m, one).total().value(), t2 = memory_need(m, two).total().value();
  const double per_sample = t2 - t1, fixed = t1 - per_sample;
  const double room = (v.capacity.value() - fixed) / per_sample;
  v.max_batch = room < 1.0 ? 0 : static_cast<long long>(std::min(room, 16777216.0));
  return v;
}

}  // namespace dlperf
