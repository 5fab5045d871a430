/// @file
/// De-biasing a vendor's throughput comparison (docs/buying.md, De-biasing a vendor
/// comparison): a reported ratio "GPU B is R times faster than GPU A" taken with a larger batch
/// or more GPUs on B's side is divided by what the batch and the GPU count alone contribute,
///
///     batch factor = (1 + gain per batch doubling) ^ log2(batch_to / batch_from)
///     GPU factor   = (gpus_to x efficiency_to) / (gpus_from x efficiency_from)
///     de-biased    = ratio / (batch factor x GPU factor)
///
/// with the scaling efficiencies of each side's GPU count (from the multi-GPU model,
/// buying/cluster.hpp, or a published figure).
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>

namespace dlperf {

/// The kind of network a comparison ran, which sets its gain per batch doubling.
enum class workload_kind : std::uint8_t {
  cnn,         ///< convolutional networks
  transformer  ///< transformers
};

/// The workload kinds and their stable names.
template <>
struct enum_list<workload_kind> {
  static constexpr std::string_view kind = "workload kind";  ///< what the enum names
  /// Every kind.
  static constexpr std::array values{
      enumerator{workload_kind::cnn, "cnn", "convolutional network"},
      enumerator{workload_kind::transformer, "transformer", "transformer"}};
};

/// Throughput gained per doubling of the batch for CNNs: +13.6 %. Dettmers, Which GPU(s) to
/// Get for Deep Learning (2020 edition), "Estimating Ampere Deep Learning Performance":
/// NVIDIA's A100 benchmarks ran larger batches than the V100 ones, and doubling the batch gave
/// 13.6 % more throughput for CNNs
/// (https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/).
inline constexpr double cnn_batch_doubling_gain = 0.136;
/// Throughput gained per doubling of the batch for transformers: +13.5 % (same source).
inline constexpr double transformer_batch_doubling_gain = 0.135;

/// The gain per batch doubling of @p k.
constexpr double batch_doubling_gain(workload_kind k) {
  return k == workload_kind::cnn ? cnn_batch_doubling_gain : transformer_batch_doubling_gain;
}

/// A reported comparison: throughput of the "to" side over the "from" side, with each side's
/// batch per GPU, GPU count and scaling efficiency at that count.
struct debias_input {
  double ratio = 1;            ///< reported throughput ratio, to over from
  long long batch_from = 1;    ///< batch per GPU of the "from" side
  long long batch_to = 1;      ///< batch per GPU of the "to" side
  long long gpus_from = 1;     ///< GPUs of the "from" side
  long long gpus_to = 1;       ///< GPUs of the "to" side
  double efficiency_from = 1;  ///< scaling efficiency at gpus_from (1: one GPU or linear)
  double efficiency_to = 1;    ///< scaling efficiency at gpus_to
  workload_kind kind = workload_kind::transformer;  ///< sets the gain per batch doubling
};

/// A de-biased comparison and each factor taken out.
struct debias_result {
  double ratio = 1;            ///< the reported ratio
  double debiased_ratio = 1;   ///< one GPU against one GPU at the same batch
  double batch_doublings = 0;  ///< log2(batch_to / batch_from)
  double batch_gain = 0;       ///< gain per doubling used
  double batch_factor = 1;     ///< (1 + gain) ^ doublings
  double gpu_factor = 1;       ///< (gpus_to x efficiency_to) / (gpus_from x efficiency_from)
  debias_input input;          ///< what went in
};

/// Takes the batch and GPU-count advantage out of @p in's ratio. Throws invalid_argument
/// naming the field for a ratio, batch, GPU count or efficiency that is not positive (an
/// efficiency above 1 is rejected too).
template <class = void>
debias_result debias(const debias_input& in) {
  detail::require_positive_finite("debias", {{"ratio", in.ratio},
                                             {"efficiency_from", in.efficiency_from},
                                             {"efficiency_to", in.efficiency_to}});
  detail::require_positive("debias", {{"batch_from", in.batch_from},
                                      {"batch_to", in.batch_to},
                                      {"gpus_from", in.gpus_from},
                                      {"gpus_to", in.gpus_to}});
  if (in.efficiency_from > 1 || in.efficiency_to > 1)
    detail::throw_invalid_argument("debias: efficiency_from and efficiency_to must be <= 1");
  debias_result r;
  r.input = in;
  r.ratio = in.ratio;
  r.batch_gain = batch_doubling_gain(in.kind);
  r.batch_doublings =
      std::log2(static_cast<double>(in.batch_to) / static_cast<double>(in.batch_from));
  r.batch_factor = std::pow(1.0 + r.batch_gain, r.batch_doublings);
  r.gpu_factor = (static_cast<double>(in.gpus_to) * in.efficiency_to) /
                 (static_cast<double>(in.gpus_from) * in.efficiency_from);
  r.debiased_ratio = in.ratio / (r.batch_factor * r.gpu_factor);
  return r;
}

}  // namespace dlperf
