/// @file
/// A CNN's training step or inference, convolution by convolution with the step builder
/// (docs/models.md, @ref models_step).
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

}  // namespace dlperf::detail
