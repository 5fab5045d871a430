/// @file
/// The figures of an architecture that the tile check reads for one datatype, accumulator and
/// sparsity, as a value: two architectures with equal keys give every tiling the same occupancy,
/// whichever objects hold their figures. The tile search keys its occupancy tables on it, and
/// `best_gemm_memo` its answers (docs/gemm.md, "Speed").
#pragma once

#include <dlperf/core/datatype.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf::detail {

// Everything `check_tile` reads of an architecture for one (datatype, accumulator, sparsity):
// equal keys give equal occupancy tables, whichever object holds the figures.
struct occupancy_key {
  int registers_per_sm = 0, max_registers_per_thread = 0, max_warps_per_sm = 0,
      max_threads_per_block = 0, max_blocks_per_sm = 0, simd_width = 0;
  double shared_per_sm = 0, shared_per_block = 0, shared_reserved_per_block = 0,
         tensor_memory_per_sm = 0;
  int mma_m = 0, mma_n = 0, mma_k = 0, mma_warps = 0;
  bool accumulators_in_tensor_memory = false, operands_from_shared = false, supported = false;
  dtype in = dtype::fp32;
  accumulator acc = accumulator::fp32;
  bool sparse_a = false;
  constexpr bool operator==(const occupancy_key&) const = default;
};

inline occupancy_key make_occupancy_key(const architecture_spec& arch, dtype in, accumulator acc,
                                        bool sparse_a) {
  const sm_resources& sm = arch.sm;
  return {sm.registers_per_sm,
          sm.max_registers_per_thread,
          sm.max_warps_per_sm,
          sm.max_threads_per_block,
          sm.max_blocks_per_sm,
          sm.simd_width,
          sm.shared_per_sm.value(),
          sm.shared_per_block.value(),
          sm.shared_reserved_per_block.value(),
          arch.tensor_memory_per_sm.value(),
          arch.mma.m,
          arch.mma.n,
          arch.mma.k(traits(in).storage_bits),
          arch.mma.warps,
          arch.mma.accumulators_in_tensor_memory,
          arch.mma.operands_from_shared,
          arch.supports(in, acc, sparse_a ? sparsity::sparse_2_4 : sparsity::dense),
          in,
          acc,
          sparse_a};
}

}  // namespace dlperf::detail
