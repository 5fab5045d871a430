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

// A CNN's streaming kernels, each as step_builder::stream takes it: FLOP per element, and
// tensors of the elements' size moved forward and backward (0: no backward kernel).
struct cnn_stream {
  double flops, forward, backward;
};
// Batch norm with batch statistics (training): a statistics pass (x read) and a normalising pass
// (x read, y written); backward a reduction pass (x and dy read) and the input gradient (x and
// dy read, dx written).
inline constexpr cnn_stream cnn_batch_norm_training{4.0, 3.0, 5.0};
// Batch norm with running statistics (eager inference): one pass, x read and y written.
inline constexpr cnn_stream cnn_batch_norm_inference{2.0, 2.0, 0.0};
// The same training batch norm with ReLU fused into its normalising pass.
inline constexpr cnn_stream cnn_batch_norm_relu{6.0, 3.0, 5.0};
// ReLU: x read, y written; backward y (its sign) and dy read, dx written.
inline constexpr cnn_stream cnn_relu{1.0, 2.0, 3.0};
// 3x3 max pooling at stride 2, per input element: 9 compares, the input read and a quarter
// written; backward the input gradient zeroed and written, the output gradient and the argmax
// indices read (a quarter each).
inline constexpr cnn_stream cnn_max_pool{9.0, 1.25, 2.5};
// Global average pooling (and squeeze-and-excitation's): the input read once (the pooled output
// is negligible); backward the input gradient written from the broadcast output gradient.
inline constexpr cnn_stream cnn_average_pool{1.0, 1.0, 1.0};
// Squeeze-and-excitation's channel scale: x read, y written; backward dy and x read, dx written.
inline constexpr cnn_stream cnn_se_scale{1.0, 2.0, 3.0};
// A residual add with ReLU fused: the two inputs read, the sum written; backward the same.
inline constexpr cnn_stream cnn_residual_relu{2.0, 3.0, 3.0};

// The step builder with the run's facts a CNN's layers share: a convolution with what follows
// it, and the streaming kernels of the table above.
template <gemm_device D>
class cnn_ops {
 public:
  using block = typename step_builder<D>::block;

  constexpr cnn_ops(step_builder<D>& sb, const run_config& r)
      : sb_(sb),
        r_(r),
        act_(sb.activation()),
        training_(r.training()),
        transposes_(r.nchw && traits(act_).storage().value() <= 2.0) {}  // 16-bit and FP8

  // A streaming kernel @p k over @p elements.
  constexpr void stream(block& b, std::string_view fwd, std::string_view bwd, double elements,
                        const cnn_stream& k) const {
    sb_.stream(b, fwd, bwd, elements, k.flops, k.forward, k.backward);
  }

  // Convolution @p p with its gradients, then its batch norm and ReLU as the run executes them.
  constexpr void conv(block& b, std::string_view fwd, std::string_view dgrad,
                      std::string_view wgrad, conv2d_problem p, bool residual, bool relu,
                      bool first = false) const {
    p.type = act_;
    gemm_problem g = p.as_gemm();
    if (residual && !training_ && !r_.eager) g.beta = 1.0;
    const double out = static_cast<double>(r_.batch * p.p() * p.q() * p.k);
    nchw_transposes(sb_, b, p, first, transposes_);
    sb_.gemm(b, fwd, dgrad, wgrad, g, true, !first);
    // Training normalises with batch statistics (a statistics pass and a normalising pass,
    // ReLU fused); inference folds batch norm into the weights and ReLU into the epilogue.
    // Eager, batch norm and ReLU are kernels of their own, at inference too (running
    // statistics: one pass).
    if (r_.eager) {
      if (training_)
        stream(b, "batch norm", "batch norm backward", out, cnn_batch_norm_training);
      else
        stream(b, "batch norm", {}, out, cnn_batch_norm_inference);
      if (relu) stream(b, "ReLU", "ReLU backward", out, cnn_relu);
    } else if (training_) {
      stream(b, "batch norm + ReLU", "batch norm backward", out, cnn_batch_norm_relu);
    }
  }

  // One run of bottleneck blocks @p br of network @p c: reduce, spatial and expand convolutions,
  // squeeze-and-excitation, the projection shortcut and the residual add.
  [[nodiscard]] constexpr block bottleneck(const cnn_config& c, const cnn_block_run& br) const {
    block b;
    const long long n = r_.batch;
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
      stream(b, "SE pooling", "SE pooling backward", out_elems, cnn_average_pool);
      sb_.gemm(b, "SE squeeze", "SE squeeze dgrad", "SE squeeze wgrad", {n, squeezed, out});
      sb_.gemm(b, "SE excite", "SE excite dgrad", "SE excite wgrad", {n, out, squeezed});
      stream(b, "SE scale", "SE scale backward", out_elems, cnn_se_scale);
    }
    if (br.projection)
      conv(b, "conv 1x1 shortcut", "shortcut dgrad", "shortcut wgrad",
           conv2d_problem{n, br.in, br.height, br.width, out, 1, 1, br.stride, 0}, false, false);
    if (r_.eager) {
      sb_.residual_add(b, out_elems);
      stream(b, "ReLU", "ReLU backward", out_elems, cnn_relu);
    } else if (training_ || c.se_reduction > 0 || br.projection) {
      stream(b, "residual add + ReLU", "residual backward", out_elems, cnn_residual_relu);
    }
    return b;
  }

 private:
  step_builder<D>& sb_;
  const run_config& r_;
  dtype act_;
  bool training_, transposes_;
};

// A CNN's training step or inference: the stem, the runs of bottleneck blocks, the head, and
// (training) the backward pass in reverse and the optimizer.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate cnn_step(const D& d, const cnn_config& c,
                                                const run_config& r) {
  r.validate();
  const cnn_layout l = cnn_layout::of(c, r.image);
  step_builder<D> sb(d, r);
  const cnn_ops<D> ops(sb, r);
  model_estimate m;
  m.peak = dense_peak(d, sb.weight_type());
  m.dequantized_weights = sb.dequantized();
  m.replicas = r.data_parallel();
  m.samples = static_cast<double>(r.batch);
  const bool training = r.training();
  const long long n = r.batch;
  op_sequence& fwd = m.forward;
  op_sequence* bwd = training ? &m.backward : nullptr;

  typename step_builder<D>::block stem;
  ops.conv(stem, "stem convolution", "stem dgrad", "stem wgrad",
           conv2d_problem{n, c.in_channels, r.image, r.image, c.stem_channels, c.stem_kernel,
                          c.stem_kernel, c.stem_stride, c.stem_kernel / 2},
           false, true, true);
  if (c.stem_pool)
    ops.stream(stem, "max pooling", "max pooling backward",
               static_cast<double>(n * c.stem_channels * l.stem_side * l.stem_side), cnn_max_pool);
  fwd.add(stem.forward);
  op_sequence blocks_bwd;
  for (int i = 0; i < l.run_count; ++i) {
    const cnn_block_run& br = l.runs[static_cast<std::size_t>(i)];
    const typename step_builder<D>::block b = ops.bottleneck(c, br);
    add_block(b, br.repeats, fwd, bwd != nullptr ? &blocks_bwd : nullptr);
    if (training && r.checkpointing) m.recompute.add(b.forward, br.repeats);
  }
  typename step_builder<D>::block head;
  const long long features = c.features();
  const cnn_block_run& last = l.runs[static_cast<std::size_t>(l.run_count - 1)];
  const long long last_side = conv_out(last.height, 3, last.stride, 1);  // the last block's output
  ops.stream(head, "global average pooling", "pooling backward",
             static_cast<double>(n * features * last_side * last_side), cnn_average_pool);
  sb.gemm(head, "classifier", "classifier dgrad", "classifier wgrad", {n, c.classes, features});
  fwd.add(head.forward);
  m.model_work = fwd.work();
  if (training) {
    bwd->add(head.backward_sequence());
    bwd->add(blocks_bwd);
    bwd->add(stem.backward_sequence());
    m.optimizer = sb.optimizer(
        c.parameters() / (r.zero >= 1 ? static_cast<double>(r.sharding_degree()) : 1.0),
        c.parameter_tensors());
    m.model_work = 3.0 * m.model_work;
  }
  m.time = m.forward.time() + m.recompute.time() + m.backward.time() + m.optimizer.time();
  if (training) m.accumulate(r.grad_accumulation);
  return m;
}

}  // namespace dlperf::detail
