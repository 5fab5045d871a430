/// @file
/// Best-tile search: the fastest legal tiling of a GEMM on a device, over a fixed candidate list
/// shaped like the tile sets cuBLAS and CUTLASS choose from. `constexpr`, within g++'s and
/// clang++'s default constant-evaluation limits, and fast at run time (no allocation).
///
/// Candidates: block M and N in {64, 128, 256}; block K of 64 or 128 bytes of operand (32 or
/// 64 FP16 elements); warp tiles 32 or 64 on each side; every legal depth of 2 to 4 stages (a
/// deeper pipeline can win even where a shallower one hides the DRAM latency: its lower
/// occupancy changes how the tiles fall into waves); and, for every tiling whose output tiles
/// leave SMs idle, split-K of 2, 4 and 8. Every choice depends on the problem only so that a
/// smaller problem is offered whatever a larger one is: the estimate is non-decreasing in m, n,
/// k and batch.
#pragma once

#include <array>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// The candidate tile shapes for operands @p bits wide (2 stages; the search deepens them).
constexpr std::array<tile_config, 72> tile_candidates(int bits) {
  std::array<tile_config, 72> out{};
  std::size_t i = 0;
  const int k_small = 512 / bits, k_large = 1024 / bits;  // 64 B and 128 B of operand per row
  for (int bm : {64, 128, 256})
    for (int bn : {64, 128, 256})
      for (int bk : {k_small, k_large})
        for (int wm : {32, 64})
          for (int wn : {32, 64}) out[i++] = tile_config{bm, bn, bk, wm, wn, 2};
  return out;
}

/// Most pipeline stages the search tries.
inline constexpr int max_search_stages = 4;

/// Fastest legal tiling of @p p on @p d, with its estimate. Throws unsupported when no
/// candidate is legal (the datatype has no path on the device's architecture) and
/// invalid_argument for a bad problem.
template <gemm_device D>
constexpr gemm_estimate best_gemm(const D& d, const gemm_problem& p) {
  // Validates, and throws unsupported with the reason if the device cannot multiply the
  // datatype at all.
  const gemm_evaluator model(d, p);
  const auto candidates = tile_candidates(traits(p.input).storage_bits);
  gemm_estimate best{};
  bool found = false;
  const auto keep = [&](const gemm_estimate& e) {
    if (!found || e.time < best.time) {
      best = e;
      found = true;
    }
  };
  // Which schedules are tried depends on the problem only in one direction: a smaller problem
  // is offered every schedule a larger one is (docs/gemm.md, "Properties"), so a bigger problem
  // is never estimated faster than a smaller one.
  const long long sms = model.sm_count();
  for (tile_config t : candidates)
    for (int stages = 2; stages <= max_search_stages; ++stages) {
      t.stages = stages;
      const tile_check c = model.check(t);
      if (!c.ok()) break;  // deeper pipelines only need more shared memory
      const gemm_estimate e = model.estimate(t, c);
      keep(e);
      // Split-K, for a tiling whose output tiles leave SMs idle: true for a smaller problem
      // whenever it is for a larger one. Every split is legal (a slice shorter than BK still
      // costs a full k-step), so no split is offered to a larger K only.
      if (e.tiles < sms)
        for (int split : {2, 4, 8}) {
          tile_config s = t;
          s.split_k = split;
          keep(model.estimate(s, c));
        }
    }
  if (!found)
    detail::throw_unsupported(std::string(d.arch().name) + ": no candidate tiling is legal for " +
                              std::string(name(p.input)));
  return best;
}

/// The fastest legal tiling of @p p on @p d as one operator named @p name:
/// `as_op(best_gemm(d, p), name)`. Throws as `best_gemm` does.
template <gemm_device D>
constexpr op_estimate best_gemm_op(const D& d, std::string_view name, const gemm_problem& p) {
  return as_op(best_gemm(d, p), name);
}

}  // namespace dlperf
