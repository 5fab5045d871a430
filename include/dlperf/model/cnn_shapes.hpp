/// @file
/// The layout of a bottleneck network at one image size: the stem, each stage's first block and
/// its repeated blocks with their input shapes, and the activations a training step keeps per
/// image. Shared by the memory need (model/memory.hpp) and the step estimate (model/step.hpp).
#pragma once

#include <algorithm>
#include <array>

#include <dlperf/model/cnn.hpp>

namespace dlperf::detail {

// One run of identical bottleneck blocks: the input they take and how often they run.
struct cnn_block_run {
  long long in = 0;         // input channels
  long long height = 0;     // input height
  long long width = 0;      // input width
  long long planes = 0;     // bottleneck planes
  int stride = 1;           // stride of the 3x3 convolution
  bool projection = false;  // a 1x1 projection shortcut
  long long repeats = 0;    // blocks in the run
};

// Output side of a convolution or pooling window: (side + 2 pad - kernel) / stride + 1.
constexpr long long conv_out(long long side, long long kernel, long long stride, long long pad) {
  return (side + 2 * pad - kernel) / stride + 1;
}

// The network at @p image pixels: stem output side, pooled side, and the block runs (a stage's
// first block, then its other blocks).
struct cnn_layout {
  long long stem_side = 0;    // after the stem convolution
  long long pooled_side = 0;  // after the max pooling (the first stage's input)
  std::array<cnn_block_run, 8> runs{};
  int run_count = 0;

  static constexpr cnn_layout of(const cnn_config& c, long long image) {
    c.validate();
    if (image < c.stem_kernel)
      throw_invalid_argument("cnn: image (" + std::to_string(image) +
                             ") is smaller than the stem filter");
    cnn_layout l;
    l.stem_side = conv_out(image, c.stem_kernel, c.stem_stride, c.stem_kernel / 2);
    l.pooled_side = c.stem_pool ? conv_out(l.stem_side, 3, 2, 1) : l.stem_side;
    long long in = c.stem_channels, side = l.pooled_side;
    for (int s = 0; s < c.stage_count(); ++s) {
      const cnn_stage& st = c.stages[static_cast<std::size_t>(s)];
      const long long out = c.out_channels(st.planes);
      l.runs[static_cast<std::size_t>(l.run_count++)] =
          cnn_block_run{in, side, side, st.planes, st.stride, st.stride != 1 || in != out, 1};
      side = conv_out(side, 3, st.stride, 1);
      if (st.blocks > 1)
        l.runs[static_cast<std::size_t>(l.run_count++)] =
            cnn_block_run{out, side, side, st.planes, 1, false, st.blocks - 1};
      in = out;
    }
    return l;
  }
};

// Activation elements per image: kept for backward (every convolution's input and output, the
// SE-scaled and projection outputs, each block's output), kept with checkpointing (block inputs
// plus one block's full set), and live at inference (the widest block input plus output).
struct cnn_activation_count {
  double kept = 0, checkpointed = 0, live = 0;
};

constexpr cnn_activation_count cnn_activations(const cnn_config& c, long long image) {
  const cnn_layout l = cnn_layout::of(c, image);
  const double stem = static_cast<double>(c.stem_channels * l.stem_side * l.stem_side);
  const double pooled = static_cast<double>(c.stem_channels * l.pooled_side * l.pooled_side);
  const double input = static_cast<double>(c.in_channels * image * image);
  cnn_activation_count a;
  a.kept = input + 2.0 * stem + pooled;  // stem: input, convolution output, BN-ReLU output
  a.checkpointed = input + pooled;
  a.live = input + stem;
  double largest_block = 2.0 * stem;
  for (int i = 0; i < l.run_count; ++i) {
    const cnn_block_run& b = l.runs[static_cast<std::size_t>(i)];
    const double hw = static_cast<double>(b.height * b.width);
    const long long side2 = conv_out(b.height, 3, b.stride, 1);
    const double hw2 = static_cast<double>(side2 * side2);
    const double w = static_cast<double>(c.width(b.planes));
    const double out = static_cast<double>(c.out_channels(b.planes)) * hw2;
    // conv1 output and its BN-ReLU output at the input resolution; conv2 output and its
    // BN-ReLU output and conv3 output at the output resolution; block output.
    double block = 2.0 * w * hw + 2.0 * w * hw2 + out + out;
    if (c.se_reduction > 0) block += out;
    if (b.projection) block += out;
    a.kept += static_cast<double>(b.repeats) * block;
    a.checkpointed += static_cast<double>(b.repeats) * out;
    largest_block = std::max(largest_block, block);
    a.live = std::max(a.live, static_cast<double>(b.in) * hw + std::max(w * hw, out) + out);
  }
  a.checkpointed += largest_block;
  return a;
}

}  // namespace dlperf::detail
