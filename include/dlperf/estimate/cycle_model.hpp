/// @file
/// The cycle model of one small matrix multiply (docs/gemm.md, @ref gemm_cycles, after Dettmers'
/// "Which GPU for deep learning" guides): latency per memory access and per multiply-add, summed
/// over the sequential steps that the available parallelism leaves.
///
/// With T threads (SMs x warps x 32), each owning r outputs (register blocking: 8 in the guide,
/// after Scott Gray's SGEMM), and C tensor cores (SMs x tensor cores per SM), each multiplying a
/// t x t block of C per operation, for C = A B with n x n matrices:
///
///     global rounds   = ceil(2 n^2 / T)                      load A and B into shared memory
///     without TC      = rounds * L_global + ceil(n^2 / (T r)) * r * (L_shared + L_ffma)
///     with TC         = rounds * L_global + ceil((n/t)^2 / C) * (L_shared + L_tensor)
///
/// The guide's example (n = 32, 8 SMs, 8 warps, 8 tensor cores per SM, 4 x 4 tensor-core
/// operations, r = 8) with its 2020 latencies (global 200, shared 20, FFMA 4, tensor core 1)
/// gives 200 + 8 (20 + 4) = 392 cycles without tensor cores and 200 + 20 + 1 = 221 with them.
#pragma once

#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// Latencies, in cycles, that the cycle model charges per access or operation.
struct latency_set {
  std::string_view name;  ///< where the figures come from
  double global;          ///< global-memory (DRAM) access
  double l2;              ///< L2 hit
  double shared;          ///< shared-memory (or L1) access
  double ffma;            ///< fused multiply-add
  double tensor;          ///< one tensor-core matrix operation; 0 where there are no tensor cores
};

/// Teaching latencies of the 2020 guide (Ampere era): global 200, shared 20, FFMA 4, tensor
/// core 1. The 2020 guide gives no L2 figure; an L2 hit is charged as a global access.
inline constexpr latency_set dettmers_2020{"2020", 200, 200, 20, 4, 1};

/// Revised latencies of the 2023 guide: global 380, L2 200, L1/shared 34, FFMA 4, tensor core 1.
inline constexpr latency_set dettmers_2023{"2023", 380, 200, 34, 4, 1};

/// An architecture's own measured latencies (see its header for the sources); a tensor-core
/// operation is charged 1 cycle, the guide's unit, since the model counts t x t operations. An
/// architecture without tensor cores (Pascal, Turing TU11x) gets a tensor latency of 0, which
/// cycles_with_tensor_cores refuses.
constexpr latency_set latencies_of(const architecture_spec& arch) {
  return {arch.name,           arch.latency.global, arch.latency.l2,
          arch.latency.shared, arch.latency.ffma,   arch.tensor_cores_per_sm > 0 ? 1.0 : 0.0};
}

/// The matrix multiply and the slice of GPU it runs on.
struct cycle_scenario {
  int n{};                     ///< A, B and C are n x n
  int sms{};                   ///< SMs working on it
  int warps_per_sm{};          ///< resident warps per SM
  int tensor_cores_per_sm{};   ///< tensor cores per SM
  int tensor_tile = 4;         ///< one tensor-core operation multiplies a t x t block of C
  int outputs_per_thread = 8;  ///< register blocking of the FFMA path
  int warp_size = 32;          ///< threads per warp
};

/// The guide's worked example: 32 x 32 matrices on 8 SMs (about 10 % of an RTX 3090) with 8 warps
/// and 8 tensor cores each.
inline constexpr cycle_scenario dettmers_example{32, 8, 8, 8};

/// Cycles of one scenario, split by where they are spent.
struct cycle_breakdown {
  double global = 0;  ///< loading A and B from global memory
  double shared = 0;  ///< shared-memory accesses
  double math = 0;    ///< FFMA or tensor-core operations
  /// Total cycles.
  [[nodiscard]] constexpr double total() const { return global + shared + math; }
};

namespace detail {
constexpr long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

constexpr void check_scenario(const cycle_scenario& s) {
  if (s.n <= 0 || s.sms <= 0 || s.warps_per_sm <= 0 || s.tensor_tile <= 0 ||
      s.outputs_per_thread <= 0 || s.warp_size <= 0 || s.tensor_cores_per_sm < 0)
    throw_invalid_argument("cycle model: sizes and counts must be positive");
}

constexpr double global_load_cycles(const cycle_scenario& s, const latency_set& l) {
  const long long threads = static_cast<long long>(s.sms) * s.warps_per_sm * s.warp_size;
  const long long elements = 2LL * s.n * s.n;  // A and B
  return static_cast<double>(ceil_div_ll(elements, threads)) * l.global;
}
}  // namespace detail

/// Cycles without tensor cores: each thread computes its outputs one shared-memory access and
/// one FFMA at a time.
constexpr cycle_breakdown cycles_without_tensor_cores(const cycle_scenario& s,
                                                      const latency_set& l) {
  detail::check_scenario(s);
  const long long threads = static_cast<long long>(s.sms) * s.warps_per_sm * s.warp_size;
  const long long outputs = static_cast<long long>(s.n) * s.n;
  const double steps = static_cast<double>(
      detail::ceil_div_ll(outputs, threads * s.outputs_per_thread) * s.outputs_per_thread);
  return {detail::global_load_cycles(s, l), steps * l.shared, steps * l.ffma};
}

/// Cycles with tensor cores: every round, each tensor core takes one shared-memory transfer and
/// one operation. Throws unsupported when the scenario has no tensor cores, or when the latencies
/// come from hardware without them (a tensor latency of 0, as latencies_of gives Pascal).
constexpr cycle_breakdown cycles_with_tensor_cores(const cycle_scenario& s, const latency_set& l) {
  detail::check_scenario(s);
  if (s.tensor_cores_per_sm == 0)
    detail::throw_unsupported("cycle model: the scenario has no tensor cores");
  if (!(l.tensor > 0.0))
    detail::throw_unsupported("cycle model: latency set '" + std::string(l.name) +
                              "' has no tensor cores, so there is no tensor-core figure");
  const long long blocks = detail::ceil_div_ll(s.n, s.tensor_tile);
  const long long cores = static_cast<long long>(s.sms) * s.tensor_cores_per_sm;
  const double rounds = static_cast<double>(detail::ceil_div_ll(blocks * blocks, cores));
  return {detail::global_load_cycles(s, l), rounds * l.shared, rounds * l.tensor};
}

}  // namespace dlperf
