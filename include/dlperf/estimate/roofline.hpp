/// @file
/// Roofline estimator: a workload (FLOP per datatype, bytes per memory tier) on a device gives the
/// time, attainable throughput, binding resource, arithmetic intensity and ridge point.
///
/// Model (Williams, Waterman and Patterson, "Roofline", CACM 2009, extended to several tiers and
/// datatypes): each compute term takes flops / peak(datatype, accumulator, sparsity) and the terms
/// run one after another; each tier moves its bytes at its bandwidth, overlapped with compute.
///
///     time = max( sum_i flops_i / peak_i ,  max_t bytes_t / bandwidth_t )
///
/// The binding resource is the term that sets the maximum. Arithmetic intensity is total FLOP per
/// byte of global (DRAM) traffic; the ridge point is the effective peak over DRAM bandwidth, the
/// intensity above which the workload stops being memory-bound.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// One block of arithmetic in a workload.
struct compute_term {
  dtype type;       ///< operand datatype
  accumulator acc;  ///< accumulation datatype
  sparsity sparse;  ///< dense or 2:4 sparse
  flop_count work;  ///< FLOP (one FMA = 2 FLOP)
};

/// What a piece of work does: FLOP per datatype and bytes moved per memory tier. A literal type;
/// `compute` and `move` return the updated workload so it can be built in a constant expression.
class workload {
 public:
  /// Most distinct compute terms one workload holds (fixed so the type stays a literal).
  static constexpr std::size_t max_terms = 8;

  /// Adds @p work FLOP of datatype @p t. Throws invalid_argument for negative or non-finite
  /// work and when more than max_terms terms are added.
  [[nodiscard]] constexpr workload compute(dtype t, flop_count work, accumulator acc,
                                           sparsity s = sparsity::dense) const {
    check_amount(work.value(), "FLOP count");
    if (n_terms_ == max_terms)
      detail::throw_invalid_argument("workload: more than 8 compute terms");
    workload w = *this;
    w.terms_[w.n_terms_++] = {t, acc, s, work};
    return w;
  }
  /// Adds @p work FLOP of datatype @p t with its default accumulator, dense.
  [[nodiscard]] constexpr workload compute(dtype t, flop_count work) const {
    return compute(t, work, default_accumulator(t));
  }
  /// Adds @p amount bytes of traffic to tier @p m. Throws invalid_argument for negative or
  /// non-finite amounts.
  [[nodiscard]] constexpr workload move(tier m, byte_count amount) const {
    check_amount(amount.value(), "byte count");
    workload w = *this;
    w.bytes_[m] += amount;
    return w;
  }

  /// Compute terms, in the order added.
  [[nodiscard]] constexpr std::size_t size() const { return n_terms_; }
  /// Compute term @p i.
  [[nodiscard]] constexpr const compute_term& term(std::size_t i) const { return terms_.at(i); }
  /// Bytes moved through tier @p m.
  [[nodiscard]] constexpr byte_count traffic(tier m) const { return bytes_[m]; }
  /// Total FLOP over all terms.
  [[nodiscard]] constexpr flop_count total_work() const {
    flop_count sum{};
    for (std::size_t i = 0; i < n_terms_; ++i) sum += terms_[i].work;
    return sum;
  }

 private:
  static constexpr void check_amount(double v, const char* what) {
    // !(v >= 0) also catches NaN; the upper bound catches +inf.
    if (!(v >= 0.0) || v > std::numeric_limits<double>::max())
      detail::throw_invalid_argument(std::string("workload: ") + what + " must be finite and >= 0");
  }

  std::array<compute_term, max_terms> terms_{};
  std::size_t n_terms_ = 0;
  per_tier<byte_count> bytes_{};
};

/// Answer of the roofline estimator.
struct roofline_result {
  duration time;                   ///< estimated time, max of compute and every tier
  duration compute_time;           ///< sum of flops_i / peak_i
  per_tier<duration> tier_time;    ///< bytes_t / bandwidth_t, indexed by tier
  flop_rate attainable;            ///< total FLOP / time
  flop_rate peak;                  ///< effective compute peak of the mix, total FLOP / compute_time
  dlperf::bound bound;             ///< what sets the time
  intensity arithmetic_intensity;  ///< total FLOP per global byte (infinite with no DRAM traffic)
  intensity ridge_point;           ///< peak / DRAM bandwidth
};

/// Roofline of workload @p w on device @p d. Throws unsupported if the device cannot run one of
/// the workload's compute terms and invalid_argument if the workload has no compute term (its
/// peak, and so its ridge point, would be undefined). In a constant expression either is a
/// compile error.
template <device D>
constexpr roofline_result roofline(const D& d, const workload& w) {
  if (w.size() == 0)
    detail::throw_invalid_argument("workload: needs at least one compute term (even of 0 FLOP)");

  duration compute_time{};
  for (std::size_t i = 0; i < w.size(); ++i) {
    const compute_term& c = w.term(i);
    compute_time += c.work / d.peak(c.type, c.acc, c.sparse);
  }
  const flop_count total = w.total_work();
  // With no arithmetic at all the mix has no rate of its own: use the first term's peak.
  const flop_rate peak = compute_time.value() > 0
                             ? total / compute_time
                             : d.peak(w.term(0).type, w.term(0).acc, w.term(0).sparse);

  roofline_result r{};
  r.compute_time = compute_time;
  r.time = compute_time;
  r.bound = bound::compute;
  for (tier m : all_tiers) {
    // No traffic costs nothing, whatever the tier's bandwidth (an absent tier may report 0).
    r.tier_time[m] = w.traffic(m).value() > 0 ? w.traffic(m) / d.memory(m).throughput : duration{};
    if (r.tier_time[m] > r.time) {
      r.time = r.tier_time[m];
      r.bound = bound_of(m);
    }
  }
  r.peak = peak;
  r.attainable = r.time.value() > 0 ? total / r.time : peak;
  const byte_count dram = w.traffic(tier::global);
  r.arithmetic_intensity =
      dram.value() > 0 ? total / dram : make<intensity>(std::numeric_limits<double>::infinity());
  r.ridge_point = peak / d.memory(tier::global).throughput;
  return r;
}

}  // namespace dlperf
