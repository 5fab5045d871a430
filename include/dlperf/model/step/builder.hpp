/// @file
/// The step builder (docs/models.md, @ref models_step): each operator of a phase as its
/// estimator gives it, GEMMs of equal shape searched once, with their gradients and the
/// adapters of LoRA. model/step/transformer.hpp and model/step/cnn.hpp build steps with it.
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
               w / e + 1.0, 0.0, e, stream_kernel::dequantize);
        library_gemm(b, fwd, g, true);
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
      mark_weight_gemv(op, g);
      b.forward.add(op);
      return;
    }
    library_gemm(b, fwd, g, weight);
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

  // Marks @p op, the forward product of weights over @p g, as a weight GEMV where its rows are few
  // (`op_estimate::weight_gemv`), with the output rows its kernel spreads over the SMs.
  static constexpr void mark_weight_gemv(op_estimate& op, const gemm_problem& g) {
    op.weight_gemv = g.m <= skinny_max_rows;
    op.gemv_rows = static_cast<double>(g.n) * static_cast<double>(g.batch);
  }

  // Bytes per element the streaming kernels move: the activation type's, or FP32's where the
  // stack keeps its activations in FP32 between kernels (ggml).
  [[nodiscard]] constexpr double stream_bytes() const {
    return run_.gemm_call.fp32_activations ? 4.0 : storage();
  }

  // Whether forward GEMM @p g goes to the stack's 16-bit library GEMM as the stack calls it: a
  // product over more than one row of 16-bit operands, on a GPU of compute capability 7.0 or
  // later (every family but Pascal: llama.cpp multiplies in FP32 on older GPUs, and its HIP
  // build counts AMD's families as later), under a stack whose call differs from the ceiling's.
  [[nodiscard]] constexpr bool library_call(const gemm_problem& g) const {
    return run_.gemm_call.any() && g.m > 1 && d_.arch().family != family::pascal &&
           traits(g.input).storage().value() == 2.0;
  }

  // Forward GEMM @p g through the stack's library call (stack/stack.hpp, library_gemm_call): in
  // FP16 accumulation where the stack asks for it and the GPU has it, between a cast of its
  // activation operand (M x K per group) to 16 bits and of its result (M x N) back to FP32 where
  // the stack keeps FP32 activations.
  // A weight product over at most skinny_max_rows rows keeps the cap of the stack's GEMV kernels'
  // rate per SM clock (`op_estimate::weight_gemv`): ggml calls cuBLAS from two rows on, whose
  // skinny products' rate is not measured, so the measured kernels' bound stands.
  constexpr void library_gemm(block& b, std::string_view fwd, gemm_problem g, bool weight) {
    const bool call = library_call(g);
    const library_gemm_call& c = run_.gemm_call;
    if (call && c.fp16_accumulate && d_.supports(g.input, accumulator::fp16, sparsity::dense))
      g.acc = accumulator::fp16;
    const bool cast = call && c.fp32_activations;
    const double rows = static_cast<double>(g.m) * static_cast<double>(g.batch);
    const double e = 4.0 + traits(g.input).storage().value();  // read one width, write the other
    if (cast) stream(b, "cast to 16 bits", {}, rows * static_cast<double>(g.k), 0.0, 1.0, 0.0, e);
    op_estimate op = searched(fwd, g);
    if (weight) mark_weight_gemv(op, g);
    b.forward.add(op);
    if (cast) stream(b, "cast to FP32", {}, rows * static_cast<double>(g.n), 0.0, 1.0, 0.0, e);
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
  // The casts around an FP8 linear of @p g in training where the stack runs them as kernels of
  // their own (run_config::fp8_casts, Transformer Engine's cast_transpose): its input (M x K a
  // group) to FP8 with a transposed copy for the weight gradient, and in the backward pass its
  // output gradient (M x N) the same way, the gradient's kernel running before the GEMMs that
  // take it. Each reads the 16-bit element and writes two 8-bit ones, with one flop for its
  // scale's running maximum (docs/stacks.md, "FP8 casts"). Whether they run:
  [[nodiscard]] constexpr bool fp8_cast_kernels() const {
    return run_.fp8_casts.separate && run_.training() && run_.weights == weight_format::native &&
           traits(run_.type).storage_bits == 8;
  }
  // One such cast of @p elements, forward or (@p gradient) backward.
  constexpr void fp8_cast(block& b, double elements, bool gradient) {
    const op_estimate op = streaming_op(d_, gradient ? "FP8 gradient cast" : "FP8 input cast",
                                        elements, elements * (storage() + 2.0));
    if (gradient)
      b.backward.push_back(op);
    else
      b.forward.add(op);
  }
  // @p fp8_linear false: a linear the stack keeps out of FP8 (a mixture of experts' router).
  constexpr void block_gemm(block& b, std::string_view fwd, std::string_view dgrad,
                            std::string_view wgrad, gemm_problem g,
                            std::initializer_list<adapted> targets = {}, bool fp8_linear = true) {
    if (frozen_ && run_.lora.qlora) {
      const double weights =
          static_cast<double>(g.k) * static_cast<double>(g.n) * static_cast<double>(g.batch);
      const double e = traits(act_).storage().value();
      stream(b, "NF4 dequantize", "NF4 dequantize (dgrad)", weights, 1.0,
             nf4_bits_per_weight / 8.0 / e + 1.0, nf4_bits_per_weight / 8.0 / e + 1.0);
    }
    const bool casts = fp8_linear && fp8_cast_kernels();
    const double rows = static_cast<double>(g.m) * static_cast<double>(g.batch);
    if (casts) fp8_cast(b, rows * static_cast<double>(g.k), false);
    gemm(b, fwd, dgrad, wgrad, g);
    if (casts) fp8_cast(b, rows * static_cast<double>(g.n), true);
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
  // A stack that splits RMSNorm's scale (layer_kernels::separate_scales) normalises in one kernel
  // and multiplies by the scale in a second, each reading and writing the tensor (ggml's rms_norm
  // and mul).
  constexpr void norm(block& b, std::string_view fwd, std::string_view bwd, double elements) {
    if (rms_norm_ && split_kernels().separate_scales) {
      stream(b, fwd, {}, elements, 4.0, 2.0, 0.0);
      stream(b, "norm scale", {}, elements, 1.0, 2.0, 0.0);
      return;
    }
    if (rms_norm_ && run_.composite_norms) {
      stream(b, fwd, bwd, elements, 8.0, composite_rms_forward / storage(),
             (frozen_ ? composite_rms_backward_frozen : composite_rms_backward) / storage());
      return;
    }
    stream(b, fwd, bwd, elements, 8.0, 2.0, run_.eager ? 5.0 : 3.0);
  }

  // A streaming kernel over @p elements of @p bytes_each: @p fwd_tensors tensors moved
  // forward, @p bwd_tensors backward (0: no backward kernel); the forward kernel of class
  // @p kind (a stack may hold its own kernels of that class to a measured rate).
  constexpr void stream(block& b, std::string_view fwd, std::string_view bwd, double elements,
                        double flops_per_element, double fwd_tensors, double bwd_tensors,
                        double bytes_each = 0, stream_kernel kind = stream_kernel::generic) {
    const double e = bytes_each > 0 ? bytes_each : stream_bytes();
    op_estimate op =
        streaming_op(d_, fwd, elements * flops_per_element, elements * e * fwd_tensors);
    op.stream = kind;
    b.forward.add(op);
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
    p.seq_kv = micro_batched_keys(p);
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
    stream(b, "attention softmax", "softmax backward", scores, 5.0, 2.0, 3.0, 0.0,
           stream_kernel::softmax);
    dropout(b, "attention dropout", "attention dropout backward", scores);
    gemm(b, "attention PV", "attention dP", {}, {p.seq_q, p.head_dim, p.seq_kv, bh}, false);
    b.backward.push_back(searched("attention dV", {p.seq_kv, p.head_dim, p.seq_q, bh, act_}));
    if (run_.eager)
      stream(b, "attention head merge", "head merge backward", tokens * q_width, 0.0, 2.0, 2.0, 0.0,
             stream_kernel::strided_copy);
  }

  // What a stack that runs them apart (layer_kernels::rope_and_cache_writes) spends on @p tokens
  // tokens of @p q query and @p kv key (and value) elements each: the rotary embedding of queries
  // and keys where the model rotates them (@p rotary; read and write each element, 6 flops a
  // pair), and the copy of the new keys and values into the cache through strided indices (read
  // an activation element, write it in the cache's type).
  constexpr void rope_and_cache_writes(block& b, double tokens, double q, double kv, bool rotary) {
    if (rotary) {
      stream(b, "RoPE queries", {}, tokens * q, 3.0, 2.0, 0.0);
      stream(b, "RoPE keys", {}, tokens * kv, 3.0, 2.0, 0.0);
    }
    const double e = stream_bytes() + kv_cache_element_bytes(run_.kv_cache, run_.type);
    stream(b, "key cache write", {}, tokens * kv, 0.0, 1.0, 0.0, e, stream_kernel::strided_copy);
    stream(b, "value cache write", {}, tokens * kv, 0.0, 1.0, 0.0, e, stream_kernel::strided_copy);
  }

  // The keys each query of unfused attention @p p is scored against, on average: all of them,
  // unless the stack processes a causal prompt in micro-batches (dequantize_pass::ubatch,
  // llama.cpp's n_ubatch), whose queries are scored against the keys cached so far, each
  // micro-batch a full rectangle that the mask then hides in part. Micro-batch i of u rows sees
  // min((i + 1) u, S) keys: (S + u) / 2 on average where u divides S. (Fused attention skips the
  // masked blocks, so its causal half is the same either way.) One sequence only: llama.cpp
  // counts a micro-batch's tokens across its sequences, which several would mix.
  [[nodiscard]] constexpr long long micro_batched_keys(const attention_problem& p) const {
    const long long u = run_.prompt_dequantize.ubatch;
    if (decoding_ || !p.causal || p.batch != 1 || u <= 0 || p.seq_q != p.seq_kv || p.seq_q <= u)
      return p.seq_kv;
    double scores = 0.0;
    for (long long start = 0; start < p.seq_q; start += u) {
      const long long rows = std::min(u, p.seq_q - start);
      scores += static_cast<double>(rows) * static_cast<double>(start + rows);
    }
    const double mean = scores / static_cast<double>(p.seq_q);
    const auto whole = static_cast<long long>(mean);  // the nearest whole key count
    return mean - static_cast<double>(whole) >= 0.5 ? whole + 1 : whole;
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
  // Which of the layer's fused operators the run's stack splits into several kernels in this
  // step (run_config::prompt_kernels, decode_kernels): none in training, which no stack that
  // splits them runs.
  [[nodiscard]] constexpr layer_kernels split_kernels() const {
    if (run_.training()) return layer_kernels{};
    return decoding_ ? run_.decode_kernels : run_.prompt_kernels;
  }
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

// The dense peak of @p t on @p d.
template <gemm_device D>
constexpr flop_rate dense_peak(const D& d, dtype t) {
  return d.peak(t, default_accumulator(t), sparsity::dense);
}

}  // namespace dlperf::detail
