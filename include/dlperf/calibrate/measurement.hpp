/// @file
/// The measurement protocol every calibration backend follows (host probes and the CUDA
/// header alike): warm-up runs, timed repetitions, and the median and spread of the samples,
/// converted into quantities. Plain C++: unit-tested without a GPU.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <dlperf/core/error.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf::calibrate {

/// The largest spread, (max - min) / median, at which a probe's samples are taken to agree
/// (docs/calibration.md): above it the machine was busy or the clocks moved while measuring,
/// and `dlperf calibrate` warns.
inline constexpr double max_agreeing_spread = 0.10;

/// The warning for figure @p figure ("DRAM bandwidth") when the samples of @p v disagree by more
/// than @p threshold, else an empty string: "DRAM bandwidth: the samples disagree by 23 % (more
/// than 10 %); rerun on an idle machine or with more repetitions".
inline std::string spread_warning(std::string_view figure, const measured_value& v,
                                  double threshold = max_agreeing_spread) {
  if (!(v.spread > threshold)) return {};
  const auto percent = [](double x) { return std::to_string(std::lround(100 * x)) + " %"; };
  return std::string(figure) + ": the samples disagree by " + percent(v.spread) + " (more than " +
         percent(threshold) + "); rerun on an idle machine or with more repetitions";
}

/// How often to run a probe: untimed warm-up runs (caches, clocks, lazy allocation), then timed
/// repetitions. The median is robust to the odd preempted sample on a shared machine.
struct protocol {
  int warmup = 3;        ///< untimed runs first
  int repetitions = 15;  ///< timed runs

  /// Throws invalid_argument unless warm-up >= 0 and repetitions >= 1.
  void validate() const {
    if (warmup < 0) ::dlperf::detail::throw_invalid_argument("protocol: warmup must be >= 0");
    if (repetitions < 1)
      ::dlperf::detail::throw_invalid_argument("protocol: repetitions must be >= 1");
  }
};

/// Summary of timed samples, in seconds.
struct sample_stats {
  double median = 0;  ///< median sample
  double min = 0;     ///< fastest sample
  double max = 0;     ///< slowest sample
  double mean = 0;    ///< arithmetic mean
  int count = 0;      ///< samples

  /// (max - min) / median: how much the samples disagree.
  [[nodiscard]] double spread() const { return median > 0 ? (max - min) / median : 0.0; }
};

/// Median, extremes and mean of @p samples. Throws invalid_argument for no samples or a
/// sample that is negative, zero or not finite (a timer that did not run).
inline sample_stats summarize(std::span<const double> samples) {
  if (samples.empty()) ::dlperf::detail::throw_invalid_argument("summarize: no samples");
  for (double s : samples)
    if (!(s > 0.0) || !std::isfinite(s))
      ::dlperf::detail::throw_invalid_argument(
          "summarize: every sample must be a positive, finite time");
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  sample_stats st;
  st.count = static_cast<int>(n);
  st.median = n % 2 != 0 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  st.min = sorted.front();
  st.max = sorted.back();
  double sum = 0;
  for (double s : sorted) sum += s;
  st.mean = sum / static_cast<double>(n);
  return st;
}

/// Runs @p once (a callable returning the seconds one run took) warm-up + repetitions times
/// under protocol @p p and summarises the timed runs.
template <class F>
sample_stats time_repeated(F&& once, const protocol& p) {
  p.validate();
  for (int i = 0; i < p.warmup; ++i) (void)once();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(p.repetitions));
  for (int i = 0; i < p.repetitions; ++i) samples.push_back(once());
  return summarize(samples);
}

/// A measured rate: @p amount of something per median sample time, as a quantity.
template <class Q>
auto rate(Q amount, const sample_stats& st) {
  return amount / seconds(st.median);
}

/// Buffer size for a probe meant to miss a cache of @p cache bytes: four times the cache and at
/// least @p floor bytes, so that the cache holds at most a quarter of the data.
inline byte_count beyond_cache(byte_count cache, byte_count floor) {
  return bytes(std::max(4.0 * cache.value(), floor.value()));
}

/// Buffer size for a probe meant to stay in a cache of @p cache bytes: a quarter of it, leaving
/// room for everything else that cache holds.
inline byte_count within_cache(byte_count cache) { return bytes(cache.value() / 4.0); }

}  // namespace dlperf::calibrate
