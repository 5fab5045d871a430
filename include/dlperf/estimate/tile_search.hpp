/// @file
/// Best-tile search: the fastest legal tiling of a GEMM on a device, over a fixed candidate list
/// shaped like the tile sets cuBLAS and CUTLASS choose from. `constexpr`, within g++'s and
/// clang++'s default constant-evaluation limits, and fast at run time (no allocation).
///
/// Candidates: block M and N in {64, 128, 256}; block K of 64 or 128 bytes of operand (32 or
/// 64 FP16 elements); warp tiles 32 or 64 on each side; 2 to 4 stages; and, only when one batch
/// of tiles leaves SMs idle, split-K of 2, 4 and 8. Illegal tilings are skipped, and so are
/// deeper pipelines of a shape once a shallower one already hides the DRAM latency (more stages
/// then only cost shared memory and occupancy).
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
  // Evaluates one tiling; returns false if it is illegal or its k-loop no longer waits on DRAM.
  const auto consider = [&](tile_config t) {
    const tile_check c = model.check(t);
    if (!c.ok()) return false;
    const gemm_estimate e = model.estimate(t, c);
    if (!found || e.time < best.time) {
      best = e;
      found = true;
    }
    return e.latency_bound_steps;
  };
  for (tile_config t : candidates)
    for (int stages = 2; stages <= max_search_stages; ++stages) {
      t.stages = stages;
      if (!consider(t)) break;
    }
  // Split-K only pays when a single batch of output tiles cannot fill the SMs: then the best
  // tiling so far is retried with K split 2, 4 and 8 ways.
  if (found && best.tiles < model.sm_count()) {
    const tile_config base = best.tile;
    for (int split : {2, 4, 8}) {
      tile_config t = base;
      t.split_k = split;
      if (p.k / split >= t.block_k) consider(t);
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
