/// @file
/// A convolutional network of bottleneck blocks (ResNet v1.5, ResNeXt, SE-ResNeXt) described as
/// a literal type, and its parameter count computed from the description (docs/models.md,
/// @ref models_parameters):
///
///     stem        = C_in k^2 c_stem + 2 c_stem                 (convolution + batch norm)
///     block       = in w + 9 w^2 / g + w out + 2 (w + w + out)  (three convolutions + norms)
///                   + in out + 2 out                            (projection, first block only)
///                   + 2 out^2 / r + out / r + out               (squeeze-and-excitation)
///     classifier  = out_last classes + classes
///
/// for a stage of `planes` p: output channels out = expansion x p, 3x3 width
/// w = floor(p x base_width / 64) x groups (torchvision's and the ResNeXt paper's rule: 32x4d
/// has w = 2 p), g groups, SE reduction r. Batch-norm scale and bias count as parameters, their
/// running statistics do not.
#pragma once

#include <array>
#include <string>

#include <dlperf/core/error.hpp>

namespace dlperf {

/// One stage of bottleneck blocks.
struct cnn_stage {
  long long blocks = 0;  ///< bottleneck blocks
  long long planes = 0;  ///< bottleneck planes p: the block outputs expansion x p channels
  int stride = 1;        ///< stride of the stage's first block (on its 3x3 convolution: v1.5)
};

/// A bottleneck convolutional network: stem, up to four stages, global pooling, classifier.
struct cnn_config {
  long long in_channels = 3;          ///< image channels
  long long stem_channels = 64;       ///< channels of the stem convolution
  int stem_kernel = 7;                ///< stem filter size
  int stem_stride = 2;                ///< stem stride
  bool stem_pool = true;              ///< 3x3 stride-2 max pooling after the stem
  std::array<cnn_stage, 4> stages{};  ///< the stages; trailing ones with 0 blocks are absent
  long long groups = 1;               ///< cardinality of the 3x3 convolutions (ResNeXt: 32)
  long long base_width = 64;          ///< width per group at planes 64 (ResNeXt 32x4d: 4)
  long long expansion = 4;            ///< block output / planes
  long long se_reduction = 0;         ///< squeeze-and-excitation ratio; 0 = none
  long long classes = 1000;           ///< classifier outputs

  /// Stages present (the leading ones with blocks).
  [[nodiscard]] constexpr int stage_count() const {
    int n = 0;
    while (n < static_cast<int>(stages.size()) && stages[static_cast<std::size_t>(n)].blocks > 0)
      ++n;
    return n;
  }
  /// Width of the 3x3 convolutions of a stage with @p planes.
  [[nodiscard]] constexpr long long width(long long planes) const {
    return planes * base_width / 64 * groups;
  }
  /// Output channels of a stage with @p planes.
  [[nodiscard]] constexpr long long out_channels(long long planes) const {
    return expansion * planes;
  }
  /// Channels of the last stage's output (the classifier's input).
  [[nodiscard]] constexpr long long features() const {
    return out_channels(stages[static_cast<std::size_t>(stage_count() - 1)].planes);
  }

  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    detail::require_positive("cnn", {{"in_channels", in_channels},
                                     {"stem_channels", stem_channels},
                                     {"stem_kernel", stem_kernel},
                                     {"stem_stride", stem_stride},
                                     {"groups", groups},
                                     {"base_width", base_width},
                                     {"expansion", expansion},
                                     {"classes", classes}});
    if (se_reduction < 0) detail::throw_invalid_argument("cnn: se_reduction must be >= 0");
    const int n = stage_count();
    if (n == 0) detail::throw_invalid_argument("cnn: needs at least one stage with blocks");
    for (std::size_t i = 0; i < stages.size(); ++i) {
      const cnn_stage& s = stages[i];
      // The message is built only on failure: std::to_string is not constexpr.
      const auto fail = [i](const std::string& why) {
        detail::throw_invalid_argument("cnn: stage " + std::to_string(i + 1) + ": " + why);
      };
      if (static_cast<int>(i) >= n) {
        if (s.blocks != 0) fail("follows a stage without blocks");
        continue;
      }
      if (s.planes <= 0 || s.stride <= 0 || s.blocks > 1000 || s.planes > (1LL << 16))
        fail("planes and stride must be positive (blocks <= 1000)");
      // The width is a multiple of groups by construction; it is 0 when a group gets less
      // than one channel.
      if (width(s.planes) <= 0) fail("planes x base_width must be at least 64 (a 3x3 width of 0)");
      if (se_reduction > 0 && out_channels(s.planes) < se_reduction)
        fail("se_reduction exceeds the block's channels");
    }
  }

  /// Parameters of one bottleneck block taking @p in channels at @p planes (with a projection
  /// shortcut when @p projection).
  [[nodiscard]] constexpr double block_parameters(long long in, long long planes,
                                                  bool projection) const {
    const double i = static_cast<double>(in), w = static_cast<double>(width(planes)),
                 o = static_cast<double>(out_channels(planes)), g = static_cast<double>(groups);
    double p = i * w + 9.0 * w * w / g + w * o + 2.0 * (w + w + o);
    if (projection) p += i * o + 2.0 * o;
    if (se_reduction > 0) {
      const double squeezed = static_cast<double>(out_channels(planes) / se_reduction);
      p += 2.0 * o * squeezed + squeezed + o;
    }
    return p;
  }
  /// Parameter tensors: each convolution's weight, each batch norm's scale and bias, the SE
  /// layers' weights and biases, the classifier's weight and bias (what an optimizer walks
  /// tensor by tensor, stack/optimizer_kernels.hpp).
  [[nodiscard]] constexpr double parameter_tensors() const {
    validate();
    double t = 3.0 + 2.0;  // the stem's convolution and batch norm; the classifier
    long long in = stem_channels;
    for (int s = 0; s < stage_count(); ++s) {
      const cnn_stage& st = stages[static_cast<std::size_t>(s)];
      const long long out = out_channels(st.planes);
      // Three convolutions with their batch norms, and the squeeze-excite layers.
      const double block = 9.0 + (se_reduction > 0 ? 4.0 : 0.0);
      t += static_cast<double>(st.blocks) * block + (st.stride != 1 || in != out ? 3.0 : 0.0);
      in = out;
    }
    return t;
  }
  /// Every parameter of the network.
  [[nodiscard]] constexpr double parameters() const {
    validate();
    const double k = static_cast<double>(stem_kernel), c = static_cast<double>(stem_channels);
    double p = static_cast<double>(in_channels) * k * k * c + 2.0 * c;
    long long in = stem_channels;
    for (int s = 0; s < stage_count(); ++s) {
      const cnn_stage& st = stages[static_cast<std::size_t>(s)];
      const long long out = out_channels(st.planes);
      const bool projection = st.stride != 1 || in != out;
      p += block_parameters(in, st.planes, projection) +
           static_cast<double>(st.blocks - 1) * block_parameters(out, st.planes, false);
      in = out;
    }
    return p + static_cast<double>(in) * static_cast<double>(classes) +
           static_cast<double>(classes);
  }
};

}  // namespace dlperf
