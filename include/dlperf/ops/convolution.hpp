/// @file
/// 2-D convolution as an implicit GEMM (the im2col shape without materialising im2col), NHWC:
///
///     P = (H + 2 pad - R) / stride + 1,  Q = (W + 2 pad - S) / stride + 1
///     GEMM M = N P Q,  N = K (filters),  K = C R S
///
/// A grouped convolution (ResNeXt's cardinality g) is g independent GEMMs of N = K / g and
/// K = C R S / g, run as one batched GEMM.
///
/// The GEMM's A operand is the im2col view of the input: L2 -> SM traffic follows its full size,
/// but DRAM holds only the input tensor (N H W C), which the model uses as A's distinct bytes.
#pragma once

#include <string>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// One 2-D convolution layer.
struct conv2d_problem {
  long long n{};             ///< batch
  long long c{};             ///< input channels
  long long h{};             ///< input height
  long long w{};             ///< input width
  long long k{};             ///< output channels (filters)
  int r = 3;                 ///< filter height
  int s = 3;                 ///< filter width
  int stride = 1;            ///< stride in both directions
  int pad = 1;               ///< zero padding on each side
  dtype type = dtype::fp16;  ///< type of input, filters and output
  long long groups = 1;      ///< groups: each sees c / groups inputs, makes k / groups outputs

  /// Output height.
  [[nodiscard]] constexpr long long p() const { return (h + 2LL * pad - r) / stride + 1; }
  /// Output width.
  [[nodiscard]] constexpr long long q() const { return (w + 2LL * pad - s) / stride + 1; }

  /// Throws invalid_argument naming the first bad field.
  constexpr void validate() const {
    detail::require_positive(
        "conv2d",
        {{"n", n}, {"c", c}, {"h", h}, {"w", w}, {"k", k}, {"r", r}, {"s", s}, {"stride", stride}});
    if (pad < 0) detail::throw_invalid_argument("conv2d: pad must be >= 0");
    if (groups <= 0 || c % groups != 0 || k % groups != 0)
      detail::throw_invalid_argument("conv2d: groups (" + std::to_string(groups) +
                                     ") must be positive and divide c and k");
    if (h + 2LL * pad < r || w + 2LL * pad < s)
      detail::throw_invalid_argument("conv2d: the filter is larger than the padded input");
  }

  /// The implicit GEMM this convolution runs as.
  [[nodiscard]] constexpr gemm_problem as_gemm() const {
    validate();
    const long long cg = c / groups;
    gemm_problem g{n * p() * q(), k / groups, cg * r * s, groups, type, default_accumulator(type)};
    g.a_dram_bytes = static_cast<double>(n * cg * h * w) * traits(type).storage().value();
    return g;
  }
};

/// A convolution on @p d: the best tiling of its implicit GEMM, with @p reads_residual set when
/// the epilogue also reads a residual of the output's shape.
template <gemm_device D>
constexpr op_estimate estimate_conv2d(const D& d, std::string_view name, const conv2d_problem& p,
                                      bool reads_residual = false) {
  gemm_problem g = p.as_gemm();
  if (reads_residual) g.beta = 1.0;
  return best_gemm_op(d, name, g);
}

}  // namespace dlperf
