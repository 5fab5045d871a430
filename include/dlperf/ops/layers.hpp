/// @file
/// Whole layers, op by op: a pre-norm transformer layer and a ResNet bottleneck block, each
/// unfused (every operator its own kernel, every intermediate through DRAM) or fused (element-wise
/// work in GEMM/convolution epilogues, flash-style attention), so the gain of fusion is visible
/// per operator.
#pragma once

#include <array>
#include <string>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/ops/attention.hpp>
#include <dlperf/ops/convolution.hpp>
#include <dlperf/ops/elementwise.hpp>

namespace dlperf {

/// A pre-norm transformer layer (GPT style): LN, QKV, attention, output projection, residual,
/// LN, FFN up, GELU, FFN down, residual.
struct transformer_layer {
  long long batch{};         ///< sequences
  long long seq{};           ///< tokens per sequence
  long long hidden{};        ///< model width
  long long heads{};         ///< attention heads (hidden must be a multiple)
  long long ffn = 0;         ///< FFN width; 0 = 4 x hidden
  dtype type = dtype::bf16;  ///< activations and weights
  bool causal = true;        ///< decoder mask
};

/// The transformer layer @p l on @p d. Fused: GELU in the FFN-up epilogue, residual adds in the
/// projection epilogues (which then read C), flash-style attention.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR op_sequence estimate_transformer_layer(const D& d,
                                                               const transformer_layer& l,
                                                               bool fused) {
  detail::require_positive(
      "transformer layer",
      {{"batch", l.batch}, {"seq", l.seq}, {"hidden", l.hidden}, {"heads", l.heads}});
  if (l.ffn < 0)
    detail::throw_invalid_argument("transformer layer: ffn must be >= 0 (0: 4 x hidden)");
  if (l.hidden % l.heads != 0)
    detail::throw_invalid_argument("transformer layer: hidden must be a multiple of heads");
  const long long tokens = l.batch * l.seq;
  const long long ffn = l.ffn > 0 ? l.ffn : 4 * l.hidden;
  const accumulator acc = default_accumulator(l.type);
  const auto proj = [&](long long n, long long k, bool residual) {
    gemm_problem g{tokens, n, k, 1, l.type, acc};
    if (residual) g.beta = 1.0;
    return g;
  };
  const attention_problem att{l.batch, l.heads, l.seq, l.seq, l.hidden / l.heads, l.type, l.causal};
  constexpr elementwise_stage residual_add{"residual add", 1, 1};
  constexpr elementwise_stage gelu{"gelu", 8, 0};  // tanh approximation, about 8 FLOP

  op_sequence ops;
  ops.add(estimate_row_reduction(d, "layer norm 1", tokens, l.hidden, l.type, 8, l.hidden));
  ops.add(best_gemm_op(d, "QKV projection", proj(3 * l.hidden, l.hidden, false)));
  if (fused) {
    ops.add(estimate_attention_fused(d, att));
  } else {
    ops.add(estimate_attention_unfused(d, att));
  }
  ops.add(best_gemm_op(d, "output projection", proj(l.hidden, l.hidden, fused)));
  if (!fused) ops.add(estimate_elementwise(d, tokens * l.hidden, l.type, residual_add));
  ops.add(estimate_row_reduction(d, "layer norm 2", tokens, l.hidden, l.type, 8, l.hidden));
  ops.add(best_gemm_op(d, "FFN up", proj(ffn, l.hidden, false)));
  if (!fused) ops.add(estimate_elementwise(d, tokens * ffn, l.type, gelu));
  ops.add(best_gemm_op(d, "FFN down", proj(l.hidden, ffn, fused)));
  if (!fused) ops.add(estimate_elementwise(d, tokens * l.hidden, l.type, residual_add));
  return ops;
}

/// A ResNet-50 bottleneck block (v1.5: stride on the 3x3), NHWC.
struct bottleneck_block {
  long long batch{};         ///< images
  long long channels_in{};   ///< input channels
  long long height{};        ///< input height
  long long width{};         ///< input width
  long long channels_mid{};  ///< width of the 1x1 and 3x3 convolutions; output is 4x this
  int stride = 1;            ///< stride of the 3x3 convolution
  dtype type = dtype::fp16;  ///< activations and weights
};

/// The bottleneck block @p b on @p d. Unfused: batch norm + ReLU as their own kernels after each
/// convolution, and the residual add + ReLU as a kernel. Fused: batch norm (folded into the
/// weights at inference) and ReLU in the convolution epilogues, the residual read by the last
/// convolution's epilogue.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR op_sequence estimate_bottleneck(const D& d, const bottleneck_block& b,
                                                        bool fused) {
  detail::require_positive("bottleneck block", {{"batch", b.batch},
                                                {"channels_in", b.channels_in},
                                                {"height", b.height},
                                                {"width", b.width},
                                                {"channels_mid", b.channels_mid},
                                                {"stride", b.stride}});
  const long long out_channels = 4 * b.channels_mid;
  const conv2d_problem reduce{b.batch, b.channels_in, b.height, b.width, b.channels_mid, 1, 1, 1,
                              0,       b.type};
  const conv2d_problem spatial{b.batch, b.channels_mid, b.height, b.width, b.channels_mid, 3,
                               3,       b.stride,       1,        b.type};
  const long long h2 = spatial.p(), w2 = spatial.q();
  const conv2d_problem expand{b.batch, b.channels_mid, h2, w2, out_channels, 1, 1, 1, 0, b.type};
  constexpr elementwise_stage bn_relu{"batch norm + ReLU", 3, 0};
  constexpr elementwise_stage add_relu{"residual add + ReLU", 2, 1};
  const long long mid_elements = b.batch * b.height * b.width * b.channels_mid;
  const long long mid2_elements = b.batch * h2 * w2 * b.channels_mid;
  const long long out_elements = b.batch * h2 * w2 * out_channels;

  op_sequence ops;
  ops.add(estimate_conv2d(d, "conv 1x1 reduce", reduce));
  if (!fused) ops.add(estimate_elementwise(d, mid_elements, b.type, bn_relu));
  ops.add(estimate_conv2d(d, "conv 3x3", spatial));
  if (!fused) ops.add(estimate_elementwise(d, mid2_elements, b.type, bn_relu));
  if (b.stride != 1 || b.channels_in != out_channels) {
    const conv2d_problem shortcut{b.batch, b.channels_in, b.height, b.width, out_channels, 1,
                                  1,       b.stride,      0,        b.type};
    ops.add(estimate_conv2d(d, "conv 1x1 shortcut", shortcut));
  }
  ops.add(estimate_conv2d(d, "conv 1x1 expand", expand, fused));
  if (!fused) ops.add(estimate_elementwise(d, out_elements, b.type, add_relu));
  return ops;
}

}  // namespace dlperf
