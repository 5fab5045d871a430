/// @file
/// A whole model's training step or inference on one GPU, op by op (docs/models.md,
/// @ref models_step): the forward pass from the layer estimators (tile-reuse GEMMs, fused or
/// unfused attention, streaming kernels), the backward pass as each GEMM's two gradient GEMMs
///
///     forward  C[M x N] = A[M x K] B[K x N]
///     dgrad    dA[M x K] = dC[M x N] B^T      (a GEMM of M x K x N)
///     wgrad    dB[K x N] = A^T dC[M x N]      (a GEMM of K x N x M)
///
/// plus the attention and streaming kernels' backward passes, the recomputed forward under
/// activation checkpointing, and the optimizer's memory-bound pass over the parameters. A layer
/// repeated L times is estimated once and held with repeats L (`op_sequence::add(block, L)`),
/// and GEMMs of equal shape (a forward and a gradient GEMM often are) are searched once.
///
/// Decoder inference is a prefill over the prompt (time to first token) and one decode step
/// per generated token, estimated at the middle of the generated span (decode time is affine
/// in the context length, so the mid-point step times the tokens is the sum). Quantised weight
/// formats (core/weight_format.hpp) run each weight GEMM with the weights as the A operand (the
/// "swap AB" layout of small-batch kernels) so the DRAM bytes of the weights are those of the
/// format (model/weight_file.hpp: a K-quant mix's mean, the LM head's own layout), in the
/// format's compute type where the GPU has it (GGUF: int8; FP8; FP4), else the run's. A decode
/// step's attention reads the KV cache in its datatype (`run_config::kv_cache`).
///
/// Under LoRA (model/adapters.hpp) the frozen weight GEMMs run forward and dgrad only (no
/// wgrad: 2 m n k backward FLOP instead of 4 m n k), each adapted layer adds its two thin
/// adapter GEMMs with their gradients, the embedding has no backward pass and the optimizer
/// updates the adapters only; under QLoRA each block weight is dequantised from NF4 to the
/// compute type before its forward GEMM and again before its dgrad (a streaming kernel reading
/// nf4_bits_per_weight / 8 bytes and writing the compute type per weight, as bitsandbytes runs).
///
/// Communication between GPUs (tensor-parallel and gradient all-reduces) is not in these
/// estimates: with several GPUs the step time is one GPU's compute on its shard.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

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

namespace detail {

// Whether two GEMM problems are the same question (for the search cache).
constexpr bool same_gemm(const gemm_problem& a, const gemm_problem& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch && a.input == b.input &&
         a.acc == b.acc && a.c_bytes == b.c_bytes && a.beta == b.beta && a.sparse_a == b.sparse_a &&
         a.a_dram_bytes == b.a_dram_bytes;
}

// The datatype of a run's gradient GEMMs: FP8 training runs them in E5M2 (the wider range
// gradients need; NVIDIA Transformer Engine's "hybrid" recipe), everything else as forward.
constexpr dtype gradient_type(dtype t) {
  if (t == dtype::fp8_e4m3) return dtype::fp8_e5m2;
  if (t == dtype::fp8_e4m3_fnuz) return dtype::fp8_e5m2_fnuz;
  return t;
}

// Operator names of each LoRA target's adapter: A forward, dgrad, wgrad, B forward, dgrad,
// wgrad, the eager add.
inline constexpr std::array<std::array<std::string_view, 7>, enum_count<lora_target>> adapter_names{
    {
        {"LoRA q A", "LoRA q A dgrad", "LoRA q A wgrad", "LoRA q B", "LoRA q B dgrad",
         "LoRA q B wgrad", "LoRA q add"},
        {"LoRA k A", "LoRA k A dgrad", "LoRA k A wgrad", "LoRA k B", "LoRA k B dgrad",
         "LoRA k B wgrad", "LoRA k add"},
        {"LoRA v A", "LoRA v A dgrad", "LoRA v A wgrad", "LoRA v B", "LoRA v B dgrad",
         "LoRA v B wgrad", "LoRA v add"},
        {"LoRA o A", "LoRA o A dgrad", "LoRA o A wgrad", "LoRA o B", "LoRA o B dgrad",
         "LoRA o B wgrad", "LoRA o add"},
        {"LoRA gate A", "LoRA gate A dgrad", "LoRA gate A wgrad", "LoRA gate B",
         "LoRA gate B dgrad", "LoRA gate B wgrad", "LoRA gate add"},
        {"LoRA up A", "LoRA up A dgrad", "LoRA up A wgrad", "LoRA up B", "LoRA up B dgrad",
         "LoRA up B wgrad", "LoRA up add"},
        {"LoRA down A", "LoRA down A dgrad", "LoRA down A wgrad", "LoRA down B",
         "LoRA down B dgrad", "LoRA down B wgrad", "LoRA down add"},
    }};

// Hugging Face's RMSNorm (LlamaRMSNorm and its copies) as eager PyTorch runs it, in bytes per
// element for 16-bit activations e = 2: forward x.to(float32) (e + 4), pow(2) (4 + 4),
// mean(-1) (4), x * rsqrt(...) (4 + 4), .to(input dtype) (4 + e), weight * x (e + e): 36.
// Backward, autograd through the same ops: weight's product (grad x weight: e + e; the weight
// gradient (grad x x).sum: 3 e + e), the cast back to FP32 (e + 4), the rsqrt product (input
// gradient 4 + 4; the variance's gradient (g x x).sum: 4 + 4 + 4 + 4), mean's expanded
// gradient (4), pow's (x, grad: 4 + 4 + 4), the sum of x's two gradients (4 + 4 + 4) and the
// cast to 16 bits (4 + e): 76, 68 without the weight gradient (frozen under LoRA). Source: the
// RMSNorm forward of transformers' models/llama/modeling_llama.py (2023-2025), autograd's
// derivative of each op.
inline constexpr double composite_rms_forward = 36.0;
inline constexpr double composite_rms_backward = 76.0;
inline constexpr double composite_rms_backward_frozen = 68.0;

// Builds a step's phases: GEMMs with their gradients, attention and streaming kernels with
// their backward passes, a cache of searched GEMMs.
template <gemm_device D>
class step_builder {
 public:
  constexpr step_builder(const D& d, const run_config& r, bool dropout = false)
      : d_(d),
        run_(r),
        act_(activation_type(r.type)),
        dropout_(dropout),
        frozen_(r.training() && r.lora.enabled()),
        weight_bytes_(weight_bytes(r.weights, r.type)),
        head_bytes_(head_bytes(r.weights, r.type)),
        compute_(weight_compute(d, r)) {}

  // The datatype weight GEMMs of run @p r run in on @p d: the format's own (FP8, FP4) where the
  // tensor cores take it and @p d has it, else the run's. Weight-only formats, GGUF's included,
  // run in the run's type: ggml's int8 MMQ path (the table's compute type) has no sourced
  // efficiency in the stack data yet, and at the int8 ceiling it would make a 512-token Q4_0
  // prompt on RTX 4090 2-3x faster than llama.cpp measures (docs/models.md).
  static constexpr dtype weight_compute(const D& d, const run_config& r) {
    const weight_format_spec& f = weight_formats::of(r.weights);
    if (f.is_native() || f.dequantized) return r.type;
    return d.supports(f.compute, default_accumulator(f.compute), sparsity::dense) ? f.compute
                                                                                  : r.type;
  }
  // The datatype the weight GEMMs run in (weight_compute).
  [[nodiscard]] constexpr dtype weight_type() const { return compute_; }
  // Whether the weight GEMMs dequantise their weights in the inner loop.
  [[nodiscard]] constexpr bool dequantized() const {
    const weight_format_spec& f = weight_formats::of(run_.weights);
    return !f.is_native() && (f.dequantized || compute_ == run_.type);
  }
  // Reads the linear layers' mean bytes per weight (a K-quant mix) and whether they have biases
  // from model @p t.
  constexpr void weights_of(const transformer_config& t) {
    weight_bytes_ = linear_weight_bytes(t, run_.weights, run_.type);
    biases_ = t.biases;
    rms_norm_ = t.norm == norm_kind::rmsnorm;
  }
  // The decode steps: attention reads the KV cache in its datatype.
  constexpr void decoding(bool on) { decoding_ = on; }
  // Whether the builder is building a decode step.
  [[nodiscard]] constexpr bool decoding_step() const { return decoding_; }

  // A layer's (or a block's) forward and backward operators; backward ones in reverse order.
  struct block {
    op_sequence forward;
    std::vector<op_estimate> backward;
    // The backward operators as a sequence, last forward operator's gradient first.
    [[nodiscard]] DLPERF_CONSTEXPR_VECTOR op_sequence backward_sequence() const {
      op_sequence s;
      for (std::size_t i = backward.size(); i-- > 0;) s.add(backward[i]);
      return s;
    }
  };

  // GEMM @p g with weights (@p weight: wgrad too, unless frozen by LoRA and not an @p adapter)
  // or between activations.
  constexpr void gemm(block& b, std::string_view fwd, std::string_view dgrad,
                      std::string_view wgrad, gemm_problem g, bool weight = true,
                      bool needs_dgrad = true, bool adapter = false) {
    g.input = weight ? run_.type : act_;  // products of two activations stay in 16 bits
    g.acc = default_accumulator(g.input);
    if (weight && run_.weights != weight_format::native) {
      const double w = weight_bytes_;
      const double rows = static_cast<double>(g.m);
      if (dequantized() && run_.prompt_dequantize.applies(rows)) {
        // The stack's kernels dequantise the weights (K x N per group) to the run's 16-bit type
        // once per micro-batch (read in the format's bytes, written in 16 bits), then multiply
        // them in a 16-bit library GEMM (stack/stack.hpp, dequantize_pass).
        const double weights =
            static_cast<double>(g.k) * static_cast<double>(g.n) * static_cast<double>(g.batch);
        const double e = traits(run_.type).storage().value();
        stream(b, "dequantize weights", {}, weights * run_.prompt_dequantize.passes(rows), 0.0,
               w / e + 1.0, 0.0, e);
        b.forward.add(searched(fwd, g));
        return;
      }
      // Quantised formats: the weights (K x N) are the A operand of the transposed product, in
      // the format's bytes, multiplied in its compute type (core/weight_format.hpp).
      gemm_problem t = g;
      t.input = compute_;
      t.acc = default_accumulator(compute_);
      t.m = g.n;
      t.n = g.m;
      t.a_dram_bytes = static_cast<double>(g.n) * static_cast<double>(g.k) * w;
      op_estimate op = searched(fwd, t);
      op.quantized_weights = dequantized();
      b.forward.add(op);
      return;
    }
    b.forward.add(searched(fwd, g));
    if (!run_.training()) return;
    const dtype gt = gradient_type(g.input);
    if (needs_dgrad) {
      gemm_problem dg{g.m, g.k, g.n, g.batch, gt, default_accumulator(gt)};
      // An implicit-GEMM convolution's input gradient is the input tensor, not its im2col view.
      if (g.a_dram_bytes > 0)
        dg.c_bytes = g.a_dram_bytes / (static_cast<double>(g.m) * static_cast<double>(g.k));
      b.backward.push_back(searched(dgrad, dg));
    }
    if (weight && (adapter || !frozen_)) {  // LoRA: frozen weights have no wgrad
      gemm_problem wg{g.k, g.n, g.m, g.batch, gt, default_accumulator(gt)};
      wg.a_dram_bytes = g.a_dram_bytes;
      b.backward.push_back(searched(wgrad, wg));
    }
  }

  // The LM head's GEMM (its weights in the format's head layout).
  constexpr void head_gemm(block& b, std::string_view fwd, std::string_view dgrad,
                           std::string_view wgrad, gemm_problem g) {
    const double layers = weight_bytes_;
    weight_bytes_ = head_bytes_;
    gemm(b, fwd, dgrad, wgrad, g);
    weight_bytes_ = layers;
  }

  // A block weight GEMM of @p g under LoRA: @p targets the adapted layers it holds (a fused
  // QKV or gate+up GEMM holds several), each with its in x out, over @p g.m rows in @p g.batch
  // groups. Under QLoRA the weight (g.k x g.n per group) is dequantised first.
  struct adapted {
    lora_target target;
    long long in, out;
  };
  constexpr void block_gemm(block& b, std::string_view fwd, std::string_view dgrad,
                            std::string_view wgrad, gemm_problem g,
                            std::initializer_list<adapted> targets = {}) {
    if (frozen_ && run_.lora.qlora) {
      const double weights =
          static_cast<double>(g.k) * static_cast<double>(g.n) * static_cast<double>(g.batch);
      const double e = traits(act_).storage().value();
      stream(b, "NF4 dequantize", "NF4 dequantize (dgrad)", weights, 1.0,
             nf4_bits_per_weight / 8.0 / e + 1.0, nf4_bits_per_weight / 8.0 / e + 1.0);
    }
    gemm(b, fwd, dgrad, wgrad, g);
    if (!frozen_) {
      bias_gradient(b, g);
      return;
    }
    for (const adapted& a : targets)
      if (run_.lora.targets.has(a.target)) adapter(b, a.target, g.m, a.in, a.out, g.batch);
  }
  // LoRA adapter of @p t (in x out, rank r) on @p rows rows in @p groups groups: x A, then
  // (x A) B, both trained; eager, the scaled adapter output is added by a kernel of its own.
  constexpr void adapter(block& b, lora_target t, long long rows, long long in, long long out,
                         long long groups) {
    const long long r = run_.lora.rank;
    const auto& n = adapter_names[enum_index(t)];
    gemm(b, n[0], n[1], n[2], {rows, r, in, groups}, true, true, true);
    gemm(b, n[3], n[4], n[5], {rows, out, r, groups}, true, true, true);
    if (run_.eager) stream(b, n[6], {}, static_cast<double>(rows * groups * out), 2.0, 3.0, 0.0);
  }

  // The bias gradient of weight GEMM @p g when eager: autograd's column sum of the output
  // gradient (`grad.sum(0)` in the backward of `addmm`), a reduction kernel reading the M x N
  // gradient once. Fused stacks take it in the weight-gradient GEMM's epilogue (cuBLASLt's
  // BGRADB), models without biases have none.
  constexpr void bias_gradient(block& b, const gemm_problem& g) {
    if (!run_.training() || !run_.eager || !biases_) return;
    const double out =
        static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.batch);
    b.backward.push_back(
        streaming_op(d_, "bias gradient", out, out * traits(act_).storage().value()));
  }

  // A normalisation (LayerNorm, RMSNorm) over @p elements with its backward pass. Eager
  // (PyTorch's native and apex's kernels) the backward is two passes: the input gradient (reads
  // the output gradient and the input, writes the input gradient) and the scale and shift
  // gradients, a column reduction that reads both again: 5 tensors. Fused engines compute the
  // scale gradient's partial sums in the input-gradient pass: 3.
  constexpr void norm(block& b, std::string_view fwd, std::string_view bwd, double elements) {
    if (rms_norm_ && run_.composite_norms) {
      stream(b, fwd, bwd, elements, 8.0, composite_rms_forward / storage(),
             (frozen_ ? composite_rms_backward_frozen : composite_rms_backward) / storage());
      return;
    }
    stream(b, fwd, bwd, elements, 8.0, 2.0, run_.eager ? 5.0 : 3.0);
  }

  // A streaming kernel over @p elements of @p bytes_each: @p fwd_tensors tensors moved
  // forward, @p bwd_tensors backward (0: no backward kernel).
  constexpr void stream(block& b, std::string_view fwd, std::string_view bwd, double elements,
                        double flops_per_element, double fwd_tensors, double bwd_tensors,
                        double bytes_each = 0) {
    const double e = bytes_each > 0 ? bytes_each : traits(act_).storage().value();
    b.forward.add(streaming_op(d_, fwd, elements * flops_per_element, elements * e * fwd_tensors));
    if (run_.training() && bwd_tensors > 0)
      b.backward.push_back(
          streaming_op(d_, bwd, 2.0 * elements * flops_per_element, elements * e * bwd_tensors));
  }

  // Attention of @p p (its type set here), fused or unfused, with its backward pass. A decode
  // step reads @p kv_read of the cached K and V elements the problem's shape holds (MLA: keys
  // and values are one latent, read once).
  constexpr void attention(block& b, attention_problem p, double kv_read = 1.0) {
    p.type = act_;
    // A decode step reads the cached keys and values in the KV cache's datatype.
    if (decoding_) p.kv_bytes = kv_read * kv_cache_element_bytes(run_.kv_cache, run_.type);
    if (run_.flash_attention) {
      b.forward.add(estimate_attention_fused(d_, p));
      if (run_.training()) b.backward.push_back(estimate_attention_fused_backward(d_, p));
      return;
    }
    const long long bh = p.batch * p.heads;
    const double scores =
        static_cast<double>(bh) * static_cast<double>(p.seq_q) * static_cast<double>(p.seq_kv);
    // Eager, the heads are split out of the projections' token-major output into the
    // (batch x heads, sequence, head dim) layout the batched products take, and merged back
    // after PV: `reshape` of a permuted tensor is a copy (read and write) each way, and so is
    // its gradient. The score scaling and the additive mask are kernels of their own over the
    // scores (`scores / sqrt(d)`, `+ mask`), as BERT's and GPT-2's PyTorch code writes them;
    // the mask's gradient passes through, the scaling's is a kernel.
    // (The keys and values of this step's tokens only: a decode step appends to its cache.)
    // ggml (llama.cpp) takes the heads as strided views and scales and masks inside its softmax
    // kernel (`ggml_soft_max_ext`); its merge is a copy (`ggml_cont`), as eager PyTorch's is.
    const bool framework_glue = run_.eager && !run_.fused_softmax_glue;
    const double tokens = static_cast<double>(p.batch) * static_cast<double>(p.seq_q);
    const double q_width = static_cast<double>(p.heads * p.head_dim);
    const double kv_width = static_cast<double>(p.kv_head_count() * p.head_dim);
    if (framework_glue)
      stream(b, "attention head split", "head split backward", tokens * (q_width + 2.0 * kv_width),
             0.0, 2.0, 2.0);
    // QK^T and PV are GEMMs between activations (no weight gradient); their dgrads are the
    // attention backward's four products.
    gemm(b, "attention QK^T", "attention dQ", {}, {p.seq_q, p.seq_kv, p.head_dim, bh}, false);
    b.backward.push_back(searched("attention dK", {p.seq_kv, p.head_dim, p.seq_q, bh, act_}));
    if (framework_glue) {
      stream(b, "attention scale", "attention scale backward", scores, 1.0, 2.0, 2.0);
      stream(b, "attention mask", {}, scores, 1.0, 2.0, 0.0);
    }
    stream(b, "attention softmax", "softmax backward", scores, 5.0, 2.0, 3.0);
    dropout(b, "attention dropout", "attention dropout backward", scores);
    gemm(b, "attention PV", "attention dP", {}, {p.seq_q, p.head_dim, p.seq_kv, bh}, false);
    b.backward.push_back(searched("attention dV", {p.seq_kv, p.head_dim, p.seq_q, bh, act_}));
    if (run_.eager)
      stream(b, "attention head merge", "head merge backward", tokens * q_width, 0.0, 2.0, 2.0);
  }

  // The optimizer's update of @p params parameters in @p tensors tensors on this GPU, under the
  // run's optimizer kernels (stack/optimizer_kernels.hpp; as_stack, outside a stack, is the
  // ceiling's fused pass). Each kernel pays the launch overhead.
  [[nodiscard]] DLPERF_CONSTEXPR_VECTOR op_sequence optimizer(double params, double tensors) const {
    const double w = training_weight_bytes(run_.type);
    double state = 8.0, flop = 12.0;
    if (run_.optimizer == optimizer_kind::sgd) {
      state = 4.0;
      flop = 4.0;
    } else if (run_.optimizer == optimizer_kind::adam8bit) {
      state = 2.0;
    }
    // Fused: read the gradient, read and write the FP32 (master) weights and the states, and
    // write the working copy when it is not the FP32 one.
    const double fused = w + 8.0 + 2.0 * state + (w < 4.0 ? w : 0.0);
    const optimizer_update u =
        optimizer_update_of(run_.optimizer, run_.optimizer_kernels, params, tensors, fused);
    op_estimate op =
        streaming_op(d_, run_.optimizer == optimizer_kind::sgd ? "SGD update" : "Adam update",
                     params * flop, params * u.bytes_per_parameter);
    if (u.kernels > 2147483647.0 || u.host_calls > 2147483647.0)
      throw_invalid_argument("optimizer: more than 2^31 kernel launches per step");
    // The GPU pays every launch; the host pays its framework calls (apply_stack charges the
    // stack's host time per `kernels`), which for a multi-tensor or fused update are fewer than
    // its launches.
    op.time += (u.kernels - 1.0) * d_.launch_overhead();
    op.kernels = static_cast<int>(u.host_calls);
    op_sequence s;
    s.add(op);
    return s;
  }

  [[nodiscard]] constexpr dtype activation() const { return act_; }
  // Bytes per activation element of the activation type.
  [[nodiscard]] constexpr double storage() const { return traits(act_).storage().value(); }
  [[nodiscard]] constexpr bool eager() const { return run_.eager; }
  // Whether the model's weights are frozen (LoRA): no weight gradients, no embedding backward.
  [[nodiscard]] constexpr bool frozen() const { return frozen_; }

  // What follows a projection into the residual stream of @p elements values when eager: a
  // dropout kernel and the residual add. Fused, both are in the projection's epilogue.
  constexpr void residual(block& b, double elements) {
    if (!run_.eager) return;
    dropout(b, "dropout", "dropout backward", elements);
    residual_add(b, elements);
  }

  // An eager residual add over @p elements. Its own backward passes the gradient through, but
  // the add's input also feeds the branch, so autograd sums the two gradients that reach it
  // (the skip's and the branch's) in a kernel of its own: reads 2, writes 1.
  constexpr void residual_add(block& b, double elements) {
    stream(b, "residual add", "residual gradient sum", elements, 1.0, 3.0, 3.0);
  }

  // A dropout kernel over @p elements when the model trains with dropout: the input read and the
  // output written, plus its 1-byte mask (written forward, read backward).
  constexpr void dropout(block& b, std::string_view fwd, std::string_view bwd, double elements) {
    if (!run_.training() || !dropout_) return;
    const double tensors = 2.0 + 1.0 / traits(act_).storage().value();
    stream(b, fwd, bwd, elements, 2.0, tensors, tensors);
  }

 private:
  constexpr op_estimate searched(std::string_view name, const gemm_problem& p) {
    for (const auto& [q, e] : cache_)
      if (same_gemm(p, q)) return as_op(e, name);
    cache_.push_back({p, best_gemm(d_, p)});
    return as_op(cache_.back().second, name);
  }

  const D& d_;
  run_config run_;
  dtype act_;
  bool dropout_;           // the model applies dropout (training)
  bool frozen_;            // LoRA: the model's weights get no gradient
  bool biases_ = false;    // the linear layers have biases (weights_of)
  bool rms_norm_ = false;  // the norms are RMSNorm (weights_of)
  double weight_bytes_;    // bytes per weight of the blocks' linear layers
  double head_bytes_;      // bytes per weight of the LM head
  dtype compute_;          // datatype of the weight GEMMs
  bool decoding_ = false;  // building a decode step
  std::vector<std::pair<gemm_problem, gemm_estimate>> cache_;
};

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
// experts'.
struct ffn_names {
  std::string_view up, up_dgrad, up_wgrad, act, act_backward, down, down_dgrad, down_wgrad;
};
inline constexpr ffn_names dense_ffn_gated{
    "FFN gate+up",     "FFN gate+up dgrad", "FFN gate+up wgrad", "SwiGLU",
    "SwiGLU backward", "FFN down",          "FFN down dgrad",    "FFN down wgrad"};
inline constexpr ffn_names dense_ffn_plain{"FFN up",         "FFN up dgrad",        "FFN up wgrad",
                                           "activation",     "activation backward", "FFN down",
                                           "FFN down dgrad", "FFN down wgrad"};
inline constexpr ffn_names shared_expert_ffn{
    "shared expert gate+up",    "shared expert gate+up dgrad",   "shared expert gate+up wgrad",
    "shared expert SwiGLU",     "shared expert SwiGLU backward", "shared expert down",
    "shared expert down dgrad", "shared expert down wgrad"};

// A dense FFN of width @p f on this GPU over @p T tokens: gate+up, SwiGLU and down, or up and
// down with the activation in the up projection's epilogue (and its derivative in the dgrad's),
// or as its own kernel when eager. The down projection adds the residual when @p beta is 1.
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
  if (gated) {
    weight_gemm(n.up, n.up_dgrad, n.up_wgrad, linear(T, 2 * f, h),
                {adapted{lora_target::gate, h, f}, adapted{lora_target::up, h, f}});
    sb.stream(b, n.act, n.act_backward, T * width, 6.0, 3.0, 5.0);
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
  const long long attn_batch = span > 0 ? (batch * seq_q + span - 1) / span : batch;
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
    sb.block_gemm(b, "QKV projection", "QKV dgrad", "QKV wgrad", linear(T, q + 2 * kv, h),
                  {adapted{lora_target::q, h, q}, adapted{lora_target::k, h, kv},
                   adapted{lora_target::v, h, kv}});
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
    const double routed = T * s.experts_per_token;
    // Only the experts some token routes to are read (a decode step of few tokens reads few).
    const long long experts = active_experts(s.experts, s.experts_per_token, T);
    const double run = static_cast<double>(experts);
    const long long per_expert = static_cast<long long>((routed + run - 1.0) / run);  // ceil
    // The router scores every expert, whichever are then read.
    sb.block_gemm(b, "router", "router dgrad", "router wgrad",
                  linear(T, static_cast<long long>(s.experts), h));
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

// The dense peak of @p t on @p d.
template <gemm_device D>
constexpr flop_rate dense_peak(const D& d, dtype t) {
  return d.peak(t, default_accumulator(t), sparsity::dense);
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
  m.tokens = s.useful_tokens;
  m.model_work = fwd.work();
  if (training) {
    bwd->add(ends.output.backward_sequence());
    bwd->add(dec_bwd);
    bwd->add(layers_bwd);
    bwd->add(ends.input.backward_sequence());
    layers.add_recompute(m.recompute, r, s);
    const double dp = static_cast<double>(r.data_parallel());
    const double trained = r.lora.enabled() ? lora_parameters(t, r) : t.parameters();
    const double params = trained / static_cast<double>(r.tp) / (r.zero >= 1 ? dp : 1.0);
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

// NCHW on 16-bit or FP8 tensor cores (@p on): cuDNN's kernels take NHWC, so each convolution
// call of @p p transposes what it reads and writes: forward the input and the output (each read
// and written once), backward the data-gradient call's output gradient and input gradient and
// the weight-gradient call's input and output gradient; the @p first convolution's input (the
// image) has no gradient (NVIDIA's Convolutional Layers guide, "Tensor Layouts In Memory: NCHW
// vs NHWC"; PyTorch's channels_last tutorial).
template <gemm_device D>
constexpr void nchw_transposes(step_builder<D>& sb, typename step_builder<D>::block& b,
                               const conv2d_problem& p, bool first, bool on) {
  if (!on) return;
  const double in = static_cast<double>(p.n * p.c * p.h * p.w);
  const double out = static_cast<double>(p.n * p.p() * p.q() * p.k);
  sb.stream(b, "NCHW-NHWC transposes", "NCHW-NHWC transposes (backward)", in + out, 0.0, 2.0,
            first ? 2.0 : 4.0);
}

// A CNN's training step or inference.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate cnn_step(const D& d, const cnn_config& c,
                                                const run_config& r) {
  r.validate();
  const cnn_layout l = cnn_layout::of(c, r.image);
  step_builder<D> sb(d, r);
  model_estimate m;
  m.peak = dense_peak(d, sb.weight_type());
  m.dequantized_weights = sb.dequantized();
  m.replicas = r.data_parallel();
  m.samples = static_cast<double>(r.batch);
  const bool training = r.training();
  const long long n = r.batch;
  const dtype act = sb.activation();
  const bool transposes = r.nchw && traits(act).storage().value() <= 2.0;  // 16-bit and FP8
  const auto conv = [&](typename step_builder<D>::block& b, std::string_view fwd,
                        std::string_view dgrad, std::string_view wgrad, conv2d_problem p,
                        bool residual, bool relu, bool first = false) {
    p.type = act;
    gemm_problem g = p.as_gemm();
    if (residual && !training && !r.eager) g.beta = 1.0;
    const double out = static_cast<double>(n * p.p() * p.q() * p.k);
    nchw_transposes(sb, b, p, first, transposes);
    sb.gemm(b, fwd, dgrad, wgrad, g, true, !first);
    // Training normalises with batch statistics (a statistics pass and a normalising pass,
    // ReLU fused); inference folds batch norm into the weights and ReLU into the epilogue.
    // Eager, batch norm and ReLU are kernels of their own, at inference too (running
    // statistics: one pass).
    if (r.eager) {
      if (training)
        sb.stream(b, "batch norm", "batch norm backward", out, 4.0, 3.0, 5.0);
      else
        sb.stream(b, "batch norm", {}, out, 2.0, 2.0, 0.0);
      if (relu) sb.stream(b, "ReLU", "ReLU backward", out, 1.0, 2.0, 3.0);
    } else if (training) {
      sb.stream(b, "batch norm + ReLU", "batch norm backward", out, 6.0, 3.0, 5.0);
    }
  };
  op_sequence& fwd = m.forward;
  op_sequence* bwd = training ? &m.backward : nullptr;

  typename step_builder<D>::block stem;
  conv(stem, "stem convolution", "stem dgrad", "stem wgrad",
       conv2d_problem{n, c.in_channels, r.image, r.image, c.stem_channels, c.stem_kernel,
                      c.stem_kernel, c.stem_stride, c.stem_kernel / 2},
       false, true, true);
  if (c.stem_pool)
    sb.stream(stem, "max pooling", "max pooling backward",
              static_cast<double>(n * c.stem_channels * l.stem_side * l.stem_side), 9.0, 1.25, 2.5);
  fwd.add(stem.forward);
  op_sequence blocks_bwd;
  for (int i = 0; i < l.run_count; ++i) {
    const cnn_block_run& br = l.runs[static_cast<std::size_t>(i)];
    typename step_builder<D>::block b;
    const long long w = c.width(br.planes), out = c.out_channels(br.planes);
    const long long side2 = conv_out(br.height, 3, br.stride, 1);
    conv(b, "conv 1x1 reduce", "reduce dgrad", "reduce wgrad",
         conv2d_problem{n, br.in, br.height, br.width, w, 1, 1, 1, 0}, false, true);
    conv2d_problem spatial{n, w, br.height, br.width, w, 3, 3, br.stride, 1};
    spatial.groups = c.groups;
    conv(b, c.groups > 1 ? "grouped conv 3x3" : "conv 3x3", "conv 3x3 dgrad", "conv 3x3 wgrad",
         spatial, false, true);
    conv(b, "conv 1x1 expand", "expand dgrad", "expand wgrad",
         conv2d_problem{n, w, side2, side2, out, 1, 1, 1, 0}, c.se_reduction == 0 && !br.projection,
         false);
    const double out_elems = static_cast<double>(n * side2 * side2 * out);
    if (c.se_reduction > 0) {
      const long long squeezed = out / c.se_reduction;
      sb.stream(b, "SE pooling", "SE pooling backward", out_elems, 1.0, 1.0, 1.0);
      sb.gemm(b, "SE squeeze", "SE squeeze dgrad", "SE squeeze wgrad", {n, squeezed, out});
      sb.gemm(b, "SE excite", "SE excite dgrad", "SE excite wgrad", {n, out, squeezed});
      sb.stream(b, "SE scale", "SE scale backward", out_elems, 1.0, 2.0, 3.0);
    }
    if (br.projection)
      conv(b, "conv 1x1 shortcut", "shortcut dgrad", "shortcut wgrad",
           conv2d_problem{n, br.in, br.height, br.width, out, 1, 1, br.stride, 0}, false, false);
    if (r.eager) {
      sb.residual_add(b, out_elems);
      sb.stream(b, "ReLU", "ReLU backward", out_elems, 1.0, 2.0, 3.0);
    } else if (training || c.se_reduction > 0 || br.projection) {
      sb.stream(b, "residual add + ReLU", "residual backward", out_elems, 2.0, 3.0, 3.0);
    }
    add_block(b, br.repeats, fwd, bwd != nullptr ? &blocks_bwd : nullptr);
    if (training && r.checkpointing) m.recompute.add(b.forward, br.repeats);
  }
  typename step_builder<D>::block head;
  const long long features = c.features();
  const cnn_block_run& last = l.runs[static_cast<std::size_t>(l.run_count - 1)];
  const long long last_side = conv_out(last.height, 3, last.stride, 1);  // the last block's output
  sb.stream(head, "global average pooling", "pooling backward",
            static_cast<double>(n * features * last_side * last_side), 1.0, 1.0, 1.0);
  sb.gemm(head, "classifier", "classifier dgrad", "classifier wgrad", {n, c.classes, features});
  fwd.add(head.forward);
  m.model_work = fwd.work();
  if (training) {
    bwd->add(head.backward_sequence());
    bwd->add(blocks_bwd);
    bwd->add(stem.backward_sequence());
    m.optimizer =
        sb.optimizer(c.parameters() / (r.zero >= 1 ? static_cast<double>(r.data_parallel()) : 1.0),
                     c.parameter_tensors());
    m.model_work = 3.0 * m.model_work;
  }
  m.time = m.forward.time() + m.recompute.time() + m.backward.time() + m.optimizer.time();
  if (training) m.accumulate(r.grad_accumulation);
  return m;
}

}  // namespace detail

/// The training step (`run_mode::train`) or inference (`run_mode::infer`) of @p m on @p d under
/// @p r: the operators of each phase, the step time and the rates derived from it. Throws
/// invalid_argument for a bad model or run and unsupported when @p d cannot run the datatype.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate estimate_model(const D& d, const model_spec& m,
                                                      const run_config& r) {
  m.validate();
  r.validate();
  validate_model_run(m, r);
  if (m.kind == model_kind::cnn) return detail::cnn_step(d, m.cnn, r);
  if (!r.training() && m.transformer.generates())
    return detail::transformer_generation(d, m.transformer, r);
  return detail::transformer_step(d, m.transformer, r);
}

}  // namespace dlperf
