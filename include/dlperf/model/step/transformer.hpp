/// @file
/// A transformer's training step, encoder inference and decoder generation (prefill and decode),
/// layer by layer with the step builder (docs/models.md, @ref models_step).
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
#include <dlperf/model/parameter_share.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/step/builder.hpp>
#include <dlperf/model/step/estimate.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/model/weight_file.hpp>
#include <dlperf/ops/attention.hpp>
#include <dlperf/ops/convolution.hpp>
#include <dlperf/ops/elementwise.hpp>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace dlperf::detail {

// The GEMMs of a tokens x width activation through a weight of width -> out.
constexpr gemm_problem linear(double tokens, long long out, long long in) {
  return gemm_problem{static_cast<long long>(tokens), out, in};
}

// Experts that @p tokens tokens, each routed to @p k of @p experts, reach: the expected number
// of distinct experts under uniform, independent routing, E (1 - (1 - k/E)^T), rounded up (a
// GEMM batch counts whole experts). Real routers are not uniform (load-balancing losses push
// them towards it); a skewed router reaches fewer experts, so this errs towards more reads.
constexpr long long active_experts(double experts, double k, double tokens) {
  const double miss = 1.0 - k / experts;  // one token leaves a given expert out
  double none = 1.0;                      // miss^tokens, by squaring (constexpr, integer T)
  double base = miss;
  for (auto t = static_cast<unsigned long long>(tokens); t > 0; t >>= 1) {
    if ((t & 1ULL) != 0) none *= base;
    base *= base;
  }
  const double expected = experts * (1.0 - none);
  const double whole = static_cast<double>(static_cast<long long>(expected));
  return std::max(1LL, std::min(static_cast<long long>(experts),
                                static_cast<long long>(whole < expected ? whole + 1.0 : whole)));
}

// The names of a dense FFN's operators: the FFN's own, or a mixture of experts' shared
// experts'; a gated FFN's gate and up where a stack multiplies them apart (inference only).
struct ffn_names {
  std::string_view up, up_dgrad, up_wgrad, act, act_backward, down, down_dgrad, down_wgrad;
  std::string_view gate_alone{}, up_alone{};
};
inline constexpr ffn_names dense_ffn_gated{
    "FFN gate+up", "FFN gate+up dgrad", "FFN gate+up wgrad", "SwiGLU",   "SwiGLU backward",
    "FFN down",    "FFN down dgrad",    "FFN down wgrad",    "FFN gate", "FFN up"};
inline constexpr ffn_names dense_ffn_plain{"FFN up",         "FFN up dgrad",        "FFN up wgrad",
                                           "activation",     "activation backward", "FFN down",
                                           "FFN down dgrad", "FFN down wgrad"};
inline constexpr ffn_names shared_expert_ffn{
    "shared expert gate+up",    "shared expert gate+up dgrad",   "shared expert gate+up wgrad",
    "shared expert SwiGLU",     "shared expert SwiGLU backward", "shared expert down",
    "shared expert down dgrad", "shared expert down wgrad",      "shared expert gate",
    "shared expert up"};

// A dense FFN of width @p f on this GPU over @p T tokens: gate+up, SwiGLU and down, or up and
// down with the activation in the up projection's epilogue (and its derivative in the dgrad's),
// or as its own kernel when eager; gate and up apart where the stack splits them
// (layer_kernels). The down projection adds the residual when @p beta is 1.
// LoRA adapters on its targets when @p adapters (the layer's FFN; not shared experts, whose
// adapters lora_parameters does not count either).
template <gemm_device D>
constexpr void dense_ffn_ops(step_builder<D>& sb, typename step_builder<D>::block& b, double T,
                             long long h, long long f, bool gated, double beta, bool adapters,
                             const ffn_names& n) {
  using adapted = typename step_builder<D>::adapted;
  const auto weight_gemm = [&](std::string_view fwd, std::string_view dgrad, std::string_view wgrad,
                               const gemm_problem& g, std::initializer_list<adapted> targets) {
    if (adapters)
      sb.block_gemm(b, fwd, dgrad, wgrad, g, targets);
    else
      sb.block_gemm(b, fwd, dgrad, wgrad, g);
  };
  const double width = static_cast<double>(f);
  const layer_kernels split = sb.split_kernels();
  if (gated) {
    // Gate and up apart where the stack splits the products (inference only: no gradients).
    if (split.separate_projections) {
      weight_gemm(n.gate_alone, {}, {}, linear(T, f, h), {adapted{lora_target::gate, h, f}});
      weight_gemm(n.up_alone, {}, {}, linear(T, f, h), {adapted{lora_target::up, h, f}});
    } else {
      weight_gemm(n.up, n.up_dgrad, n.up_wgrad, linear(T, 2 * f, h),
                  {adapted{lora_target::gate, h, f}, adapted{lora_target::up, h, f}});
    }
    // The activation as SiLU of the gate (read, write) and its product with up (read two, write
    // one) where the stack splits the scales, else one kernel.
    if (split.separate_scales) {
      sb.stream(b, "SiLU", {}, T * width, 4.0, 2.0, 0.0);
      sb.stream(b, "gate product", {}, T * width, 1.0, 3.0, 0.0);
    } else {
      sb.stream(b, n.act, n.act_backward, T * width, 6.0, 3.0, 5.0);
    }
  } else {
    weight_gemm(n.up, n.up_dgrad, n.up_wgrad, linear(T, f, h), {adapted{lora_target::up, h, f}});
    if (sb.eager()) sb.stream(b, n.act, n.act_backward, T * width, 8.0, 2.0, 3.0);
  }
  gemm_problem down = linear(T, h, f);
  down.beta = beta;
  weight_gemm(n.down, n.down_dgrad, n.down_wgrad, down, {adapted{lora_target::down, f, h}});
}

// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1; DeepSeek-V3,
// arXiv 2412.19437, keeps it) over @p p's sequences (its head dimension and key/value heads
// are set here) on @p T tokens. Queries go through a rank-r_q down projection, its RMSNorm
// and an up projection to n heads of d_nope + d_rope (one projection when r_q is 0); keys and
// values through one down projection to the r_kv latent and a rotary key shared by the heads,
// the latent's RMSNorm, then:
//   - training and prefill: an up projection of the latent to n heads of d_nope (keys) and d_v
//     (values), and attention with keys of d_nope + d_rope and values of d_v;
//   - decode, as the engines that serve these models run it (DeepSeek's inference code, vLLM,
//     SGLang, FlashMLA): the key up projection absorbed into the queries (per head q_nope W_UK,
//     into the latent's space), attention of the n query heads over the cached latent and
//     rotary key as one shared key/value head (keys r_kv + d_rope wide, values the r_kv latent),
//     and the value up projection applied to the attention's output (per head, W_UV).
// The down projections are whole on every tensor-parallel GPU, the rest split by heads. The
// attention kernel takes one head dimension for QK^T and PV: the mean of the two, which gives
// their FLOP exactly; in decode, K and V are one cached latent read once, so the kernel reads
// (r_kv + d_rope) / (2 d) of the elements two separate tensors of that width would hold.
// Returns the width of the attention's output per token (the output projection's input).
template <gemm_device D>
constexpr long long mla_ops(step_builder<D>& sb, typename step_builder<D>::block& b,
                            const transformer_shapes& s, double T, attention_problem p) {
  const long long h = s.hidden, n = s.heads_per_gpu, qk = s.nope_dim + s.rope_dim;
  if (s.q_rank > 0) {
    sb.block_gemm(b, "Q down projection", "Q down dgrad", "Q down wgrad", linear(T, s.q_rank, h));
    sb.norm(b, "Q latent norm", "Q latent norm backward", T * static_cast<double>(s.q_rank));
    sb.block_gemm(b, "Q up projection", "Q up dgrad", "Q up wgrad", linear(T, n * qk, s.q_rank));
  } else {
    sb.block_gemm(b, "Q projection", "Q dgrad", "Q wgrad", linear(T, n * qk, h));
  }
  sb.block_gemm(b, "KV down projection", "KV down dgrad", "KV down wgrad",
                linear(T, s.kv_rank + s.rope_dim, h));
  sb.norm(b, "KV latent norm", "KV latent norm backward", T * static_cast<double>(s.kv_rank));
  if (sb.decoding_step()) {
    const auto rows = static_cast<long long>(T);
    sb.block_gemm(b, "K up absorbed into Q", "K absorb dgrad", "K absorb wgrad",
                  gemm_problem{rows, s.kv_rank, s.nope_dim, n});
    p.head_dim = (2 * s.kv_rank + s.rope_dim + 1) / 2;
    p.kv_heads = 1;
    sb.attention(
        b, p,
        static_cast<double>(s.kv_rank + s.rope_dim) / (2.0 * static_cast<double>(p.head_dim)));
    sb.block_gemm(b, "V up on the output", "V up dgrad", "V up wgrad",
                  gemm_problem{rows, s.v_dim, s.kv_rank, n});
  } else {
    sb.block_gemm(b, "KV up projection", "KV up dgrad", "KV up wgrad",
                  linear(T, n * (s.nope_dim + s.v_dim), s.kv_rank));
    p.head_dim = (qk + s.v_dim + 1) / 2;
    p.kv_heads = n;
    sb.attention(b, p);
  }
  return n * s.v_dim;
}

// The routed experts of a mixture of experts' layer on @p T tokens (and its shared experts,
// which see every token): the router, the dispatch, each expert's products and the combine.
template <gemm_device D>
constexpr void moe_ffn_ops(step_builder<D>& sb, typename step_builder<D>::block& b,
                           const transformer_shapes& s, double T) {
  using adapted = typename step_builder<D>::adapted;
  const long long h = s.hidden, f = s.ffn_per_gpu;
  // The token copies this GPU's experts take: every token's k under a tensor split of the
  // experts; under expert parallelism its own tokens' k, the experts' GPUs taking as many
  // each (balanced routing) over experts / ep experts.
  const double routed = T * s.experts_per_token * s.routed_share;
  // Only the experts some token routes to are read (a decode step of few tokens reads few).
  const long long experts = s.ep > 1
                                ? active_experts(s.experts / static_cast<double>(s.ep), 1.0, routed)
                                : active_experts(s.experts, s.experts_per_token, T);
  const double run = static_cast<double>(experts);
  const long long per_expert = static_cast<long long>((routed + run - 1.0) / run);  // ceil
  // The router scores every expert, whichever are then read.
  sb.block_gemm(b, "router", "router dgrad", "router wgrad",
                linear(T, static_cast<long long>(s.experts), h), {}, false);
  sb.stream(b, "expert dispatch", "expert dispatch backward", routed * s.h, 0.0, 2.0, 2.0);
  gemm_problem up{per_expert, (s.gated ? 2 : 1) * f, h, experts};
  sb.block_gemm(b, "expert FFN up", "expert up dgrad", "expert up wgrad", up,
                {adapted{lora_target::gate, h, f}, adapted{lora_target::up, h, f}});
  if (s.gated) sb.stream(b, "SwiGLU", "SwiGLU backward", routed * s.f, 6.0, 3.0, 5.0);
  gemm_problem edown{per_expert, h, f, experts};
  sb.block_gemm(b, "expert FFN down", "expert down dgrad", "expert down wgrad", edown,
                {adapted{lora_target::down, f, h}});
  sb.stream(b, "expert combine", "expert combine backward", routed * s.h, 2.0, 2.0, 2.0);
  // Shared experts see every token (their output joins the routed experts' in the combine).
  if (s.shared_ffn_per_gpu > 0)
    dense_ffn_ops(sb, b, T, h, s.shared_ffn_per_gpu, s.gated, 0.0, false, shared_expert_ffn);
}

// One transformer layer of @p s on @p tokens tokens, attention over @p seq_q queries and
// @p seq_kv keys of @p batch sequences; with cross-attention over @p cross_kv keys when > 0.
// With @p span > 0 (packed documents under variable-length attention) every attention runs
// within spans of that many tokens instead: batch x seq_q / span sequences of span queries
// and keys (rounded up to whole spans), the projections over all the tokens as before. A
// mixture of experts' layer routes its tokens to experts (and its shared experts), unless
// @p dense_ffn: one of its leading dense layers.
template <gemm_device D>
constexpr typename step_builder<D>::block transformer_layer_ops(
    step_builder<D>& sb, const transformer_shapes& s, bool causal, long long batch, long long seq_q,
    long long seq_kv, long long cross_kv, long long span = 0, bool dense_ffn = false) {
  typename step_builder<D>::block b;
  const double T = static_cast<double>(batch * seq_q);
  // Under context parallelism (s.cp > 1, training) a GPU's queries meet every key as the keys
  // pass round the ring: cp blocks of seq / cp queries and keys, each under the causal mask's
  // half, which is the GPU's balanced share of the whole sequence's causal attention.
  const long long attn_batch = span > 0 ? (batch * seq_q + span - 1) / span : batch * s.cp;
  const long long attn_q = span > 0 ? span : seq_q;
  const long long attn_kv = span > 0 ? span : seq_kv;
  const long long attn_cross = span > 0 && cross_kv > 0 ? span : cross_kv;
  const long long h = s.hidden, kv = s.kv_heads_per_gpu * s.head_dim, f = s.ffn_per_gpu;
  long long q = s.heads_per_gpu * s.head_dim;
  sb.norm(b, "norm 1", "norm 1 backward", T * s.h);
  using adapted = typename step_builder<D>::adapted;
  const attention_problem self{attn_batch, s.heads_per_gpu, attn_q, attn_kv,
                               s.head_dim, dtype::bf16,     causal, s.kv_heads_per_gpu};
  if (s.mla) {
    q = mla_ops(sb, b, s, T, self);  // the output projection reads n heads of d_v
  } else {
    const layer_kernels split = sb.split_kernels();
    if (split.separate_projections) {
      // Inference only (split_kernels): no gradient to name.
      sb.block_gemm(b, "Q projection", {}, {}, linear(T, q, h), {adapted{lora_target::q, h, q}});
      sb.block_gemm(b, "K projection", {}, {}, linear(T, kv, h), {adapted{lora_target::k, h, kv}});
      sb.block_gemm(b, "V projection", {}, {}, linear(T, kv, h), {adapted{lora_target::v, h, kv}});
    } else {
      sb.block_gemm(b, "QKV projection", "QKV dgrad", "QKV wgrad", linear(T, q + 2 * kv, h),
                    {adapted{lora_target::q, h, q}, adapted{lora_target::k, h, kv},
                     adapted{lora_target::v, h, kv}});
    }
    if (split.rope_and_cache_writes)
      sb.rope_and_cache_writes(b, T, static_cast<double>(q), static_cast<double>(kv), s.rotary);
    sb.attention(b, self);
  }
  gemm_problem out = linear(T, h, q);
  out.beta = sb.eager() ? 0.0 : 1.0;  // the residual add, in the epilogue unless eager
  sb.block_gemm(b, "output projection", "output dgrad", "output wgrad", out,
                {adapted{lora_target::o, q, h}});
  sb.residual(b, T * s.h);
  if (cross_kv > 0) {
    sb.norm(b, "norm cross", "norm cross backward", T * s.h);
    sb.block_gemm(b, "cross Q projection", "cross Q dgrad", "cross Q wgrad", linear(T, q, h),
                  {adapted{lora_target::q, h, q}});
    sb.block_gemm(b, "cross KV projection", "cross KV dgrad", "cross KV wgrad",
                  linear(static_cast<double>(batch * cross_kv), 2 * kv, h),
                  {adapted{lora_target::k, h, kv}, adapted{lora_target::v, h, kv}});
    sb.attention(b, attention_problem{attn_batch, s.heads_per_gpu, attn_q, attn_cross, s.head_dim,
                                      dtype::bf16, false, s.kv_heads_per_gpu});
    sb.block_gemm(b, "cross output projection", "cross output dgrad", "cross output wgrad", out,
                  {adapted{lora_target::o, q, h}});
    sb.residual(b, T * s.h);
  }
  sb.norm(b, "norm 2", "norm 2 backward", T * s.h);
  if (s.experts > 1 && !dense_ffn) {
    moe_ffn_ops(sb, b, s, T);
  } else {
    // A mixture of experts' dense layers take no adapters (lora_parameters counts the experts').
    dense_ffn_ops(sb, b, T, h, dense_ffn ? s.dense_ffn_per_gpu : f, s.gated, out.beta, !dense_ffn,
                  s.gated ? dense_ffn_gated : dense_ffn_plain);
  }
  sb.residual(b, T * s.h);
  return b;
}

// The share of a layer's forward operator @p op that torchtitan's per-op checkpointing
// recomputes (selective_checkpointing::ops; torchtitan/models/llama3/parallelize_llama.py,
// `_custom_policy`: it saves the outputs of `aten.mm` but every second one, counted in the order
// a layer runs them, and of the fused attention). A layer of shapes @p s runs its products as wq,
// wk, wv, wo, then w1, w3 and w2 (gated) or w1 and w2: the second, fourth and sixth are
// recomputed, which are wk of the fused QKV projection (kv of its q + 2 kv columns), the output
// projection and w3 of the gated FFN's gate+up (half), or the down projection of a plain FFN.
// The fused attention is saved, the unfused attention's batched products (`aten.bmm`, not in the
// list) and every other operator (norms, activations, residual adds) are recomputed. Throws
// invalid_argument for a product outside that order (experts, MLA, cross-attention, adapters),
// whose place in it torchtitan's Llama does not show.
constexpr double per_op_recompute_share(const op_estimate& op, const transformer_shapes& s) {
  if (op.kind == op_kind::attention) return 0.0;
  if (op.kind != op_kind::gemm) return 1.0;
  const std::string_view n = op.name;
  if (n == "QKV projection") return s.kv / (s.q + 2.0 * s.kv);
  if (n == "output projection") return 1.0;
  if (n == "FFN gate+up") return 0.5;
  if (n == "FFN up") return 0.0;
  if (n == "FFN down") return s.gated ? 0.0 : 1.0;
  if (n == "attention QK^T" || n == "attention PV") return 1.0;
  detail::throw_invalid_argument(
      "run: selective checkpointing 'ops' follows torchtitan's dense decoder layer; this model's "
      "layer also runs '" +
      std::string(n) + "'");
}

// The forward operators of @p b that torchtitan's per-op checkpointing recomputes, each scaled
// by its share (per_op_recompute_share).
template <class Block>
DLPERF_CONSTEXPR_VECTOR op_sequence per_op_recompute(const Block& b, const transformer_shapes& s) {
  op_sequence out;
  for (op_estimate op : b.forward) {
    const double share = per_op_recompute_share(op, s);
    if (share <= 0.0) continue;
    op.time = op.time * share;
    op.work = op.work * share;
    op.dram = op.dram * share;
    out.add(op);
  }
  return out;
}

// Adds @p b's forward operators, @p times over, to @p fwd and its backward ones to @p bwd.
template <class Block>
constexpr void add_block(const Block& b, long long times, op_sequence& fwd, op_sequence* bwd) {
  fwd.add(b.forward, times);
  if (bwd != nullptr && !b.backward.empty()) bwd->add(b.backward_sequence(), times);
}

// The layers of a decoder-only or encoder stack: a mixture of experts' leading dense layers
// (`dense_layers`, DeepSeek), then the others; each kind built once and repeated.
template <gemm_device D>
struct layer_stack {
  typename step_builder<D>::block dense, rest;
  long long dense_count = 0, rest_count = 0;

  // Adds every layer's forward operators to @p fwd and their backward ones to @p bwd.
  DLPERF_CONSTEXPR_VECTOR void add_to(op_sequence& fwd, op_sequence* bwd) const {
    if (dense_count > 0) add_block(dense, dense_count, fwd, bwd);
    add_block(rest, rest_count, fwd, bwd);
  }
  // Adds what run @p r recomputes of these layers of shapes @p s to @p recompute: every layer's
  // forward under full checkpointing, every second layer's under selective 'layers' (the
  // second, fourth, ...), each layer's per_op_recompute under selective 'ops'.
  DLPERF_CONSTEXPR_VECTOR void add_recompute(op_sequence& recompute, const run_config& r,
                                             const transformer_shapes& s) const {
    if (r.checkpointing) {
      add_to(recompute, nullptr);
    } else if (r.selective == selective_checkpointing::layers) {
      const long long all = dense_count + rest_count;
      const long long dense_half = dense_count / 2;
      if (dense_half > 0) recompute.add(dense.forward, dense_half);
      if (all / 2 - dense_half > 0) recompute.add(rest.forward, all / 2 - dense_half);
    } else if (r.selective == selective_checkpointing::ops) {
      if (dense_count > 0) recompute.add(per_op_recompute(dense, s), dense_count);
      recompute.add(per_op_recompute(rest, s), rest_count);
    }
  }
};

// The @p layers layers of @p s as transformer_layer_ops builds them (its other arguments).
template <gemm_device D>
constexpr layer_stack<D> layer_stack_ops(step_builder<D>& sb, const transformer_shapes& s,
                                         long long layers, bool causal, long long batch,
                                         long long seq_q, long long seq_kv, long long span = 0) {
  layer_stack<D> l;
  l.dense_count = s.dense_layer_count;
  l.rest_count = layers - l.dense_count;
  l.rest = transformer_layer_ops(sb, s, causal, batch, seq_q, seq_kv, 0, span);
  if (l.dense_count > 0)
    l.dense = transformer_layer_ops(sb, s, causal, batch, seq_q, seq_kv, 0, span, true);
  return l;
}

// The two ends of a transformer's stack of layers.
template <gemm_device D>
struct transformer_ends {
  typename step_builder<D>::block input;   // the embedding
  typename step_builder<D>::block output;  // final norm, LM head and loss
};

// The ends for @p tokens tokens with a head over @p head_tokens of them (0: no head).
template <gemm_device D>
constexpr transformer_ends<D> transformer_end_ops(step_builder<D>& sb, const transformer_shapes& s,
                                                  const transformer_config& t, double tokens,
                                                  double head_tokens, bool training) {
  transformer_ends<D> ends;
  sb.stream(ends.input, "embedding", "embedding backward", tokens * s.h,
            t.learned_positions ? 1.0 : 0.0, t.learned_positions ? 3.0 : 2.0,
            sb.frozen() ? 0.0 : 3.0);  // frozen (LoRA): no embedding gradient
  auto& b = ends.output;
  sb.norm(b, "final norm", "final norm backward", tokens * s.h);
  if (head_tokens > 0) {
    sb.head_gemm(b, "LM head", "LM head dgrad", "LM head wgrad",
                 linear(head_tokens, s.vocab_per_gpu, s.hidden));
    if (training)
      sb.stream(b, "softmax cross-entropy", "loss backward", head_tokens * s.vocab, 5.0, 2.0, 2.0,
                4.0);
  }
  return ends;
}

// Training step or encoder inference of a transformer.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate transformer_step(const D& d, const transformer_config& t,
                                                        const run_config& r) {
  const transformer_shapes s = transformer_shapes::of(t, r);
  step_builder<D> sb(d, r, s.dropout);
  sb.weights_of(t);
  model_estimate m;
  m.peak = dense_peak(d, sb.weight_type());
  m.dequantized_weights = sb.dequantized();
  m.replicas = r.data_parallel();
  m.samples = s.documents;
  const bool training = r.training();
  op_sequence& fwd = m.forward;
  op_sequence* bwd = training ? &m.backward : nullptr;

  const auto ends = transformer_end_ops(sb, s, t, s.tokens, s.head_tokens, training);
  fwd.add(ends.input.forward);
  const bool enc_dec = t.kind == transformer_kind::encoder_decoder;
  const long long span = s.varlen_attention ? s.document : 0;
  const auto layers =
      layer_stack_ops(sb, s, t.layers, t.causal() && !enc_dec, s.batch, s.seq, s.seq, span);
  op_sequence layers_bwd;
  layers.add_to(fwd, training ? &layers_bwd : nullptr);
  op_sequence dec_bwd;
  if (enc_dec) {
    const auto dec = transformer_layer_ops(sb, s, true, s.batch, s.seq, s.seq, s.seq, span);
    add_block(dec, t.decoder_layers, fwd, training ? &dec_bwd : nullptr);
    if (r.checkpointing && training) m.recompute.add(dec.forward, t.decoder_layers);
  }
  fwd.add(ends.output.forward);
  m.tokens = s.useful_tokens * static_cast<double>(s.cp);  // a replica's, over its cp GPUs
  m.model_work = fwd.work();
  if (training) {
    bwd->add(ends.output.backward_sequence());
    bwd->add(dec_bwd);
    bwd->add(layers_bwd);
    bwd->add(ends.input.backward_sequence());
    layers.add_recompute(m.recompute, r, s);
    const double dp = static_cast<double>(r.sharding_degree());
    const parameter_share own = parameters_per_gpu(as_model(t), r);
    const double params = r.lora.enabled() ? lora_parameters(t, r) / static_cast<double>(r.tp) /
                                                 (r.zero >= 1 ? dp : 1.0)
                                           : (r.zero >= 1 ? own.sharded() : own.total());
    m.optimizer =
        sb.optimizer(params, r.lora.enabled() ? lora_tensors(t, r) : t.parameter_tensors());
    // A full step does 3 x the forward's FLOP; under LoRA the frozen GEMMs have no wgrad, so the
    // model's work is what the forward and backward passes execute.
    m.model_work = r.lora.enabled() ? fwd.work() + m.backward.work() : 3.0 * fwd.work();
  }
  // Padding is computed, not learned from: the model's work is the real tokens' share of it
  // (model FLOPs utilisation counts useful work, as its definition's observed tokens/s does).
  m.model_work *= s.useful_tokens / s.tokens;
  m.time = m.forward.time() + m.recompute.time() + m.backward.time() + m.optimizer.time();
  if (training) m.accumulate(r.grad_accumulation);
  return m;
}

// Decoder (or encoder-decoder) inference: prefill over the prompt, decode token by token.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate transformer_generation(const D& d,
                                                              const transformer_config& t,
                                                              const run_config& r) {
  const transformer_shapes s = transformer_shapes::of(t, r);
  step_builder<D> sb(d, r);
  sb.weights_of(t);
  model_estimate m;
  m.peak = dense_peak(d, sb.weight_type());
  m.dequantized_weights = sb.dequantized();
  m.replicas = r.data_parallel();
  m.samples = static_cast<double>(r.batch);
  const bool enc_dec = t.kind == transformer_kind::encoder_decoder;
  const long long generate = r.generate;
  const double batch = static_cast<double>(s.batch);

  // Prefill: every prompt token through the (encoder or decoder) stack, the head on the last.
  op_sequence& pre = m.prefill;
  const auto ends_prefill = transformer_end_ops(sb, s, t, s.tokens, enc_dec ? 0.0 : batch, false);
  pre.add(ends_prefill.input.forward);
  layer_stack_ops(sb, s, t.layers, !enc_dec, s.batch, s.seq, s.seq).add_to(pre, nullptr);
  pre.add(ends_prefill.output.forward);
  m.prefill_time = pre.time();

  // Decode: one token per sequence, attending to the middle of the generated span.
  if (generate > 0) {
    op_sequence& dec = m.decode;
    sb.decoding(true);
    const auto ends_decode = transformer_end_ops(sb, s, t, batch, batch, false);
    dec.add(ends_decode.input.forward);
    const long long mid = (generate + 1) / 2;
    if (enc_dec) {
      const auto dl = transformer_layer_ops(sb, s, true, s.batch, 1, mid, s.seq);
      dec.add(dl.forward, t.decoder_layers);
    } else {
      layer_stack_ops(sb, s, t.layers, true, s.batch, 1, s.seq + mid).add_to(dec, nullptr);
    }
    dec.add(ends_decode.output.forward);
    m.decode_per_token = dec.time();
  }
  m.time = m.prefill_time + static_cast<double>(generate) * m.decode_per_token;
  m.tokens = batch * static_cast<double>(generate);
  m.prompt_tokens = batch * static_cast<double>(s.seq);
  m.model_work = pre.work() + static_cast<double>(generate) * m.decode.work();
  return m;
}

}  // namespace dlperf::detail
