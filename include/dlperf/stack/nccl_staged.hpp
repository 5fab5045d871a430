/// @file
/// NCCL's all-reduce through host memory, as published nccl-tests runs measured it
/// (docs/parallel.md, "Through host memory"): a measured table beside NCCL's own cost model, the
/// way XLA keeps measured collective curves beside its formula.
///
/// Where two GPUs may not reach each other peer to peer, NCCL's ring takes its SHM transport:
/// each step goes through a buffer in host memory. That is every pair of GeForce boards (no
/// peer-to-peer in NVIDIA's stock driver), and by NCCL's default any two GPUs whose path crosses
/// a CPU's host bridge (`ncclTopoCheckP2p`, src/graph/paths.cc: "By default don't use P2P across
/// CPU Host Bridges and further apart", p2pLevel = PATH_PXB). NCCL's tuning model prices such a
/// ring like a peer-to-peer one; on messages of 16 KiB to 256 KiB, the sizes of a decode step's
/// tensor-split all-reduce, the published runs below take 1.6 to 6.5 times that, and 1.2 to 3.7
/// times that model with each step's two bus crossings: through host memory NCCL carries 2 to 4
/// GB/s of bus bandwidth there, not half the link. Above 256 KiB the model's half of the link
/// stands; the same runs reach 2 to 6 GB/s at 1-128 MiB, which is not modelled (docs/parallel.md,
/// "Through host memory").
///
/// The table holds the median, at each size, of the runs of each GPU count, out-of-place (the
/// runs' in-place times differ by under 5 %), not captured in a CUDA graph. A larger message
/// never takes less time: each median is at least the one before it (the runs dip by under 1 us
/// between 1 and 4 KiB). Between measured sizes the time is straight in bytes; below 8 bytes it
/// is the 8-byte time; above 256 KiB, the 256 KiB time plus what NCCL's model adds from there.
/// Between GPU counts it is straight in the ring's steps, 2 (n - 1), and past 4 GPUs the 2-to-4
/// slope continues: against the two published 8-GPU runs of an 8-byte all-reduce (42.1 and
/// 54.2 us), which the table does not hold, that gives 39.4 us.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

#include <dlperf/core/units.hpp>

namespace dlperf::nccl {

/// The message sizes of the measured runs: 8 B, 1, 4, 16, 32, 64 and 256 KiB.
inline constexpr std::array<byte_count, 7> staged_sizes{bytes(8),      kibibytes(1),  kibibytes(4),
                                                        kibibytes(16), kibibytes(32), kibibytes(64),
                                                        kibibytes(256)};

/// One published nccl-tests `all_reduce_perf` run through host memory: its GPUs, its out-of-place
/// time at each of `staged_sizes`, and where it is published.
struct staged_all_reduce_run {
  long long gpus = 2;                    ///< GPUs in the ring
  std::array<double, 7> microseconds{};  ///< the time at each of staged_sizes, in us
  std::string_view source;               ///< the run, with its machine
};

/// The published runs (float sum, nccl-tests, `graph: 0`). The kalavai runs are one host's two
/// RTX 4090 pairs and quadruples, in Docker and in a Kubernetes pod.
inline constexpr std::array<staged_all_reduce_run, 6> staged_runs{{
    {2,
     {8.97, 10.37, 12.01, 23.67, 40.18, 60.23, 163.4},
     "github.com/kalavai-net/kalavai-client scripts/README.md (9588f6d, 2026-03): 2x RTX 4090, "
     "Docker"},
    {2,
     {10.98, 12.24, 12.53, 17.61, 25.42, 44.14, 97.63},
     "github.com/kalavai-net/kalavai-client scripts/README.md (9588f6d, 2026-03): 2x RTX 4090, "
     "Kubernetes pod"},
    {2,
     {12.25, 12.10, 11.79, 17.11, 24.62, 40.10, 86.04},
     "github.com/Anthony-Hoo/Anthony-Hoo.github.io posts/AutoDL_Multi-GPU_Interconnection_Test.md "
     "(2025-06): 2x RTX 2080 Ti, PCIe 3.0 x16, 'CANNOT Access Peer'"},
    {4,
     {18.90, 20.95, 20.61, 31.99, 44.12, 81.19, 211.5},
     "github.com/kalavai-net/kalavai-client scripts/README.md (9588f6d, 2026-03): 4x RTX 4090, "
     "Docker"},
    {4,
     {20.46, 20.63, 21.98, 32.21, 44.70, 81.53, 210.1},
     "github.com/kalavai-net/kalavai-client scripts/README.md (9588f6d, 2026-03): 4x RTX 4090, "
     "Kubernetes pod"},
    {4,
     {23.43, 23.25, 23.92, 30.66, 36.45, 54.10, 123.5},
     "github.com/xyxxxxx/panoramic docs/ml/dl/hardware-platform.md (2024-04): 4x A100 PCIe 40GB, "
     "every pair SYS (two per socket)"},
}};

/// The published 8-GPU runs of an 8-byte all-reduce through host memory, in us: not in the table,
/// they check its step slope (github.com/NVIDIA/nccl issue 1530: 8x RTX 4090; issue 1439, 2024-09:
/// 8x RTX 3090, two root complexes).
inline constexpr std::array<double, 2> staged_eight_gpu_8_bytes{42.14, 54.18};

namespace detail {

// The median of the runs over @p gpus GPUs at size index @p i, in us (0 when none).
constexpr double staged_median(long long gpus, std::size_t i) {
  std::array<double, staged_runs.size()> v{};
  std::size_t n = 0;
  for (const staged_all_reduce_run& r : staged_runs)
    if (r.gpus == gpus) v[n++] = r.microseconds[i];
  if (n == 0) return 0.0;
  std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The table for @p gpus GPUs: the medians, each at least the one before it (see the file
// comment).
constexpr std::array<double, staged_sizes.size()> staged_curve(long long gpus) {
  std::array<double, staged_sizes.size()> out{};
  double most = 0.0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    most = std::max(most, staged_median(gpus, i));
    out[i] = most;
  }
  return out;
}

inline constexpr std::array<double, staged_sizes.size()> staged_two = staged_curve(2);
inline constexpr std::array<double, staged_sizes.size()> staged_four = staged_curve(4);

// The curve's time at @p data bytes within the table (straight in bytes between sizes).
constexpr double staged_at(const std::array<double, staged_sizes.size()>& curve, byte_count data) {
  if (data <= staged_sizes.front()) return curve.front();
  for (std::size_t i = 1; i < staged_sizes.size(); ++i)
    if (data <= staged_sizes[i]) {
      const double x =
          ((data - staged_sizes[i - 1]) / (staged_sizes[i] - staged_sizes[i - 1])).value();
      return curve[i - 1] + x * (curve[i] - curve[i - 1]);
    }
  return curve.back();
}

}  // namespace detail

/// The largest message the measured table holds: 256 KiB.
inline constexpr byte_count staged_measured_up_to = staged_sizes.back();

/// The measured time of an all-reduce of @p data bytes (at most staged_measured_up_to) over
/// @p n GPUs (>= 2) through host memory (see the file comment). The curve for @p n GPUs is, size
/// by size, straight in the ring's steps through the 2- and 4-GPU medians, and again never
/// falls with size.
constexpr duration staged_all_reduce_measured(byte_count data, long long n) {
  const double f = (2.0 * static_cast<double>(n - 1) - 2.0) / 4.0;
  std::array<double, staged_sizes.size()> curve{};
  double most = 0.0;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const double two = detail::staged_two[i];
    most = std::max(most, two + f * (detail::staged_four[i] - two));
    curve[i] = most;
  }
  return seconds(1e-6 * detail::staged_at(curve, std::min(data, staged_measured_up_to)));
}

}  // namespace dlperf::nccl
