/// @file
/// The time of a collective over the GPUs of a job (docs/parallel.md, "Collectives"): the
/// latency-bandwidth model NCCL itself tunes with, for a ring over links of one kind.
///
///     time = base latency + steps x step latency + bus factor x bytes / (bandwidth x share)
///
/// where, for n GPUs (NCCL's `nsteps` and nccl-tests' bus-bandwidth factors,
/// github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md):
///
///     collective       steps      bus factor
///     all-reduce       2 (n-1)    2 (n-1) / n
///     all-gather       n - 1      (n-1) / n
///     reduce-scatter   n - 1      (n-1) / n
///     broadcast        n - 1      1
///     all-to-all       n - 1      (n-1) / n
///     send/recv        1          1
///
/// The bandwidth is the link's, one direction; the share is what the protocol carries of it
/// (NCCL's LL protocol sends a flag with every 4 data bytes: half). The base and step latencies
/// and the shares are a library's data (stack/nccl.hpp); this header holds only the formula.
/// No protocol is faster than `collective_floor`: its bus bytes over the whole link.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// A collective operation over the GPUs of a job.
enum class collective : std::uint8_t {
  all_reduce,      ///< every GPU ends with the sum of every GPU's buffer
  all_gather,      ///< every GPU ends with every GPU's buffer
  reduce_scatter,  ///< every GPU ends with its share of the sum
  broadcast,       ///< one GPU's buffer to every other
  all_to_all,      ///< every GPU sends a share of its buffer to every other (MoE dispatch)
  send_recv        ///< one GPU's buffer to the next (a pipeline's hand-off)
};

/// The collectives and their stable names.
template <>
struct enum_list<collective> {
  static constexpr std::string_view kind = "collective";  ///< what the enum names
  /// Every collective.
  static constexpr std::array values{
      enumerator{collective::all_reduce, "all-reduce", "sum over every GPU, result everywhere"},
      enumerator{collective::all_gather, "all-gather", "every GPU's buffer everywhere"},
      enumerator{collective::reduce_scatter, "reduce-scatter", "each GPU its share of the sum"},
      enumerator{collective::broadcast, "broadcast", "one GPU's buffer to every other"},
      enumerator{collective::all_to_all, "all-to-all", "a share of each buffer to each GPU"},
      enumerator{collective::send_recv, "send-recv", "one GPU's buffer to the next"}};
};

/// What one protocol of a collective library costs over one kind of link: a fixed latency per
/// call, a latency per ring step and the share of the link's bandwidth it carries.
struct collective_cost {
  duration base_latency{};     ///< per call (launch and setup of the ring)
  duration step_latency{};     ///< per step of the ring over this link
  double bandwidth_share = 1;  ///< of the link's one-way bandwidth, in (0, 1]
};

namespace detail {

constexpr void check_collective(long long n, byte_count data, bandwidth per_direction) {
  if (n < 1 || n > (1LL << 20))
    throw_invalid_argument("collective: GPUs must be 1 to 2^20, got " + std::to_string(n));
  if (!(data.value() >= 0) || !is_finite(data.value()))
    throw_invalid_argument("collective: bytes must be finite and >= 0");
  if (!(per_direction.value() > 0) || !is_finite(per_direction.value()))
    throw_invalid_argument("collective: bandwidth must be positive and finite");
}

}  // namespace detail

/// Ring steps of collective @p c over @p n GPUs (see the file comment); 0 for one GPU.
constexpr double collective_steps(collective c, long long n) {
  if (n <= 1) return 0.0;
  const double m = static_cast<double>(n - 1);
  switch (c) {
    case collective::all_reduce:
      return 2.0 * m;
    case collective::send_recv:
      return 1.0;
    case collective::all_gather:
    case collective::reduce_scatter:
    case collective::broadcast:
    case collective::all_to_all:
      break;
  }
  return m;
}

/// The bytes each GPU sends over its link per byte of buffer for collective @p c over @p n GPUs
/// (nccl-tests' bus-bandwidth factor; see the file comment); 0 for one GPU.
constexpr double bus_factor(collective c, long long n) {
  if (n <= 1) return 0.0;
  const double share = static_cast<double>(n - 1) / static_cast<double>(n);
  switch (c) {
    case collective::all_reduce:
      return 2.0 * share;
    case collective::broadcast:
    case collective::send_recv:
      return 1.0;
    case collective::all_gather:
    case collective::reduce_scatter:
    case collective::all_to_all:
      break;
  }
  return share;
}

/// The least time collective @p c of @p data bytes (each GPU's buffer) can take over @p n GPUs on
/// links of @p per_direction bytes per second each way: its bus bytes at the full link rate,
/// no latency. Throws invalid_argument for a count, size or bandwidth out of range.
constexpr duration collective_floor(collective c, byte_count data, long long n,
                                    bandwidth per_direction) {
  detail::check_collective(n, data, per_direction);
  return bus_factor(c, n) * data / per_direction;
}

/// The time of collective @p c of @p data bytes over @p n GPUs on links of @p per_direction
/// bytes per second each way, with protocol costs @p cost (see the file comment); zero for one
/// GPU. Throws invalid_argument as collective_floor does, and for a share outside (0, 1] or a
/// negative latency.
constexpr duration collective_time(collective c, byte_count data, long long n,
                                   bandwidth per_direction, const collective_cost& cost) {
  detail::check_collective(n, data, per_direction);
  if (!(cost.bandwidth_share > 0.0 && cost.bandwidth_share <= 1.0))
    detail::throw_invalid_argument("collective: bandwidth share must be in (0, 1]");
  if (!(cost.base_latency.value() >= 0) || !(cost.step_latency.value() >= 0) ||
      !detail::is_finite(cost.base_latency.value() + cost.step_latency.value()))
    detail::throw_invalid_argument("collective: latencies must be finite and >= 0");
  if (n == 1) return seconds(0);
  return cost.base_latency + collective_steps(c, n) * cost.step_latency +
         bus_factor(c, n) * data / (per_direction * cost.bandwidth_share);
}

}  // namespace dlperf
