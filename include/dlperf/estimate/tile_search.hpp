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
/// k and batch. A skinny problem (M or N at most 16) is also offered the GEMV-like kernel of
/// `detail::skinny_gemm`, whichever is faster.
///
/// The answer is the candidate with the least time, the first in the order above (shape, then
/// depth, then split) among equal times: what `detail::best_gemm_exhaustive`, which evaluates
/// every candidate, returns. `best_gemm` returns the same estimate, bit for bit, while running
/// the full model on only a few candidates:
///
/// - Occupancy (blocks per SM, 0 where illegal) of every shape and depth depends on the
///   architecture, datatype, accumulator and sparsity only, not on m, n, k: it is one table,
///   built with `check_tile` and, at run time, kept per thread for the last few architectures
///   (keyed by the architecture's bytes, so an equal table is reused only for equal figures).
/// - Candidates fall into groups of equal block shape and split (their 4 warp tiles x 3 depths
///   share the grid and the traffic). The model's time is a sum over waves of the longest
///   resource, so it is at least the longest resource summed over the waves, plus the fill and
///   launch. A group's bound takes each sum at its least over the members: compute over
///   ceil(tiles / SMs) tiles per SM (what the full and last waves' blocks add up to whatever the
///   occupancy), and at least one latency-bound k-step sequence of the deepest pipeline per
///   wave; A and B read once from DRAM; L2 traffic as is; shared traffic with the widest warp
///   tiles; the fewest waves (at the group's highest occupancy). The group of least bound is
///   searched first; a group is skipped when its bound exceeds the best time found by a relative
///   1e-9, far above the rounding of either figure, so all its members are strictly slower.
/// - Within a group, members whose inputs to the model are equal (the occupancy, the depth, and
///   the warp tile only where warps read their operands through shared memory) have equal
///   times, so only the first in the order is timed; and a depth whose k-steps are not
///   latency-bound gives every deeper pipeline of equal occupancy the same time (the latency
///   floor enters only as max(step, latency / (stages - 1))), so those are not timed either.
/// - A member's bound is the model's time (`detail::time_gemm`) with its DRAM operand traffic
///   replaced by A and B read once (`detail::gemm_dram_operand_floor`), computed by the same
///   operations: IEEE rounding is monotone, so this bound never exceeds the member's rounded
///   time, and it is the time itself where A and B fit in L2 (the traffic is then the floor).
///   A member is skipped when its bound exceeds the best time, or equals it and the member
///   comes later in the order (equal times keep the first); otherwise its exact time is
///   computed (`time_gemm` with its DRAM traffic), and only the winner is evaluated in full
///   (`detail::evaluate_gemm`, whose time is the same computation). This needs the
///   computations rounded alike; a build that fused multiply-adds in one and not the other
///   could differ in the last bit. g++ 12 and clang++ 14 at -O3 -march=native (FMA
///   contraction on) gave the exhaustive search's answers on 216,000 problems; the test below
///   checks the build it runs in.
///
/// What is skipped is thus never the answer. `tests/unit/estimate/tile_search_test.cpp` compares
/// both searches over GPUs, datatypes and shapes; docs/gemm.md, "Speed", gives the timings.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include <dlperf/core/error.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/gemm_memo.hpp>
#include <dlperf/estimate/occupancy_key.hpp>
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// Block M and N extents the search tries.
inline constexpr std::array<int, 3> candidate_blocks{64, 128, 256};
/// Warp tile extents (M and N) the search tries.
inline constexpr std::array<int, 2> candidate_warps{32, 64};
/// Split-K factors the search tries on tilings that leave SMs idle.
inline constexpr std::array<int, 3> candidate_splits{2, 4, 8};
/// Block K extents the search tries for operands @p bits wide: 64 B and 128 B of operand per row.
constexpr std::array<int, 2> candidate_block_k(int bits) { return {512 / bits, 1024 / bits}; }

/// The candidate tile shapes for operands @p bits wide (2 stages; the search deepens them).
constexpr std::array<tile_config, 72> tile_candidates(int bits) {
  std::array<tile_config, 72> out{};
  std::size_t i = 0;
  for (int bm : candidate_blocks)
    for (int bn : candidate_blocks)
      for (int bk : candidate_block_k(bits))
        for (int wm : candidate_warps)
          for (int wn : candidate_warps) out[i++] = tile_config{bm, bn, bk, wm, wn, 2};
  return out;
}

/// Most pipeline stages the search tries.
inline constexpr int max_search_stages = 4;

namespace detail {

[[noreturn]] inline void throw_no_legal_tiling(const architecture_spec& arch, dtype in) {
  throw_unsupported(std::string(arch.name) + ": no candidate tiling is legal for " +
                    std::string(name(in)));
}

/// The reference search: every candidate through the full model, the first of the least time
/// kept. `best_gemm` returns the same estimate; this one is kept for the test that says so.
template <gemm_device D>
constexpr gemm_estimate best_gemm_exhaustive(const D& d, const gemm_problem& p) {
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
        for (int split : candidate_splits) {
          tile_config s = t;
          s.split_k = split;
          keep(model.estimate(s, c));
        }
    }
  if (!found) throw_no_legal_tiling(d.arch(), p.input);
  return with_skinny(detail::make_gemm_context(d, p), p, best);
}

inline constexpr std::size_t search_depths = max_search_stages - 1;  // stages 2 .. max

// Blocks per SM of every candidate shape (in `tile_candidates` order) at every depth; 0 where
// the check fails and at every deeper depth (the exhaustive search stops at the first).
// Also the most blocks per SM over each block shape's warp tiles and depths (0: none legal).
struct search_occupancy {
  std::array<std::array<int, search_depths>, 72> blocks{};
  std::array<int, 72 / 4> most{};  // per (BM, BN, BK): 4 warp tiles each
};

constexpr search_occupancy make_search_occupancy(const architecture_spec& arch, dtype in,
                                                 accumulator acc, bool sparse_a) {
  search_occupancy o;
  const auto candidates = tile_candidates(traits(in).storage_bits);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    tile_config t = candidates[i];
    t.sparse_a = sparse_a;
    for (std::size_t depth = 0; depth < search_depths; ++depth) {
      t.stages = static_cast<int>(depth) + 2;
      const tile_check c = check_tile(arch, t, in, acc);
      if (!c.ok()) break;
      o.blocks[i][depth] = c.blocks_per_sm;
      o.most[i / 4] = std::max(o.most[i / 4], c.blocks_per_sm);
    }
  }
  return o;
}

// The table at run time, kept per thread for the last 4 (architecture, datatype, accumulator,
// sparsity) seen, keyed on every figure the tile check reads (`occupancy_key`).
// @p key is make_occupancy_key(arch, in, acc, sparse_a).
inline const search_occupancy& cached_search_occupancy(const architecture_spec& arch, dtype in,
                                                       accumulator acc, bool sparse_a,
                                                       const occupancy_key& key) {
  struct entry {
    occupancy_key key{};
    bool used = false;
    search_occupancy table{};
  };
  thread_local std::array<entry, 4> cache{};
  thread_local std::size_t next = 0;
  for (const entry& e : cache)
    if (e.used && e.key == key) return e.table;
  entry& e = cache[next];
  next = (next + 1) % cache.size();
  e.used = false;  // until the entry is whole again
  e.key = key;
  e.table = make_search_occupancy(arch, in, acc, sparse_a);
  e.used = true;
  return e.table;
}

// The search proper (see the file comment), in three steps: the counts and traffic many
// candidates share (search_counts), each group's bound (bound_search_groups), then the groups in
// order of bound, each member timed only where it can win (search_group). Each step is a free
// function over plain structs, so that the optimiser inlines them and keeps the best-so-far in
// registers: held in a class instead, the same steps took 5-10 % longer per search
// (`dlperf_benchmarks --benchmark_filter=best_gemm_search`, Release).

inline constexpr std::size_t search_blocks = candidate_blocks.size();
inline constexpr std::size_t search_block_ks = candidate_block_k(16).size();
inline constexpr std::size_t search_warps = candidate_warps.size();
inline constexpr std::size_t search_splits = candidate_splits.size() + 1;  // 1, then the splits
inline constexpr std::size_t search_groups =
    search_blocks * search_blocks * search_block_ks * search_splits;

// The split-K factor of split index @p s: 1, then the candidate splits.
constexpr int search_split(std::size_t s) { return s == 0 ? 1 : candidate_splits[s - 1]; }

// Index of the group (BM, BN, BK, split) in the candidate order: ((shape, depth), split) with
// shape = (((BM, BN), BK), (WM, WN)).
constexpr std::size_t search_group_index(std::size_t bm, std::size_t bn, std::size_t bk,
                                         std::size_t s) {
  return ((bm * search_blocks + bn) * search_block_ks + bk) * search_splits + s;
}

// Counts and traffic shared by many candidates, computed once (the values the model computes
// from the same operations), and whether A and B fit the usable L2 together (then no member's
// DRAM operand traffic exceeds its floor).
struct search_counts {
  bool operands_fit = false;
  std::array<int, search_block_ks> block_k{};
  std::array<double, search_blocks> tm{}, tn{};
  std::array<std::array<double, search_splits>, search_block_ks> k_steps{};
  std::array<double, search_splits> c_traffic{};
};

constexpr search_counts make_search_counts(const gemm_context& x, const gemm_problem& p) {
  search_counts c;
  c.operands_fit = x.a_dram + x.k * x.n * x.b <= x.l2_usable;
  const auto block_k = candidate_block_k(traits(p.input).storage_bits);
  for (std::size_t bk = 0; bk < search_block_ks; ++bk) c.block_k[bk] = block_k[bk];
  for (std::size_t i = 0; i < search_blocks; ++i) {
    c.tm[i] = ceil_ratio(x.m, candidate_blocks[i]);
    c.tn[i] = ceil_ratio(x.n, candidate_blocks[i]);
  }
  for (std::size_t s = 0; s < search_splits; ++s) {
    c.c_traffic[s] = gemm_c_bytes(x, search_split(s));
    for (std::size_t bk = 0; bk < search_block_ks; ++bk)
      c.k_steps[bk][s] = gemm_k_steps(x, search_split(s), c.block_k[bk]);
  }
  return c;
}

// A group: one block shape and split, its 4 warp tiles x 3 depths.
struct search_group_bound {
  gemm_grid grid;
  double l2_operands;     // bytes, one GEMM
  double dram_floor, l2;  // bytes, all GEMMs of the batch
  double bound;           // lower bound of every member's time
  bool offered;           // split offered and a member legal
};

// Every group's bound, and the group of least bound (`first`; search_groups when none is legal).
// The groups are not value-initialised: every `offered` is set before any read, the other fields
// only where offered and read only there. Zeroing the 72 groups costs about 0.3 µs per call, 40 %
// of a large GEMM's search.
struct search_group_bounds {  // NOLINT(cppcoreguidelines-pro-type-member-init)
  std::array<search_group_bound, search_groups> groups;
  std::size_t first = search_groups;
};

// Fills @p out (passed in, not returned: a copy would read the groups left unset).
constexpr void bound_search_groups(const gemm_context& x, const search_counts& c,
                                   const search_occupancy& occupancy, search_group_bounds& out) {
  const architecture_spec& arch = *x.arch;
  constexpr std::size_t nb = search_blocks, nk = search_block_ks, nsplit = search_splits;
  out.first = search_groups;
  const double step_floor_min = x.dram_latency / static_cast<double>(max_search_stages - 1);
  const double widest = candidate_warps.back();
  const long long sms = static_cast<int>(x.sms);
  for (std::size_t bm = 0; bm < nb; ++bm)
    for (std::size_t bn = 0; bn < nb; ++bn) {
      const gemm_grid unsplit = make_gemm_grid(x, c.tm[bm], c.tn[bn], 1.0, 1.0);
      // Split-K is offered where the unsplit tiles leave SMs idle.
      const bool split_offered = static_cast<long long>(unsplit.tiles) < sms;
      const double l2_operands = gemm_l2_operand_bytes(x, unsplit);  // tm and tn only
      const double dram_operands = gemm_dram_operand_floor(x, l2_operands);
      const double block_m = candidate_blocks[bm], block_n = candidate_blocks[bn];
      const double reads_a = arch.mma.operands_from_shared ? 0.0 : block_n / widest;
      const double reads_b = arch.mma.operands_from_shared ? 0.0 : block_m / widest;
      const double row_shared = block_m * x.a * (1.0 + reads_a) + block_n * x.b * (1.0 + reads_b);
      for (std::size_t bk = 0; bk < nk; ++bk) {
        const int most_blocks = occupancy.most[(bm * nb + bn) * nk + bk];
        const double step_flop = 2.0 * block_m * block_n * c.block_k[bk];
        for (std::size_t s = 0; s < nsplit; ++s) {
          const std::size_t gi = search_group_index(bm, bn, bk, s);
          search_group_bound& g = out.groups[gi];
          g.offered = most_blocks > 0 && (s == 0 || split_offered);
          if (!g.offered) continue;
          g.grid = make_gemm_grid(x, c.tm[bm], c.tn[bn], search_split(s), c.k_steps[bk][s]);
          g.l2_operands = l2_operands;
          g.dram_floor = x.batch * (dram_operands + c.c_traffic[s]);
          g.l2 = x.batch * (l2_operands + c.c_traffic[s]);
          // The group's bound (see the file comment).
          const double per_sm = ceil_ratio(g.grid.tiles, x.sms);
          const double waves = ceil_ratio(g.grid.tiles, x.sms * most_blocks);
          const double compute =
              g.grid.k_steps * std::max(per_sm * step_flop * x.inv_sm_peak, waves * step_floor_min);
          const double shared =
              per_sm * g.grid.k_steps * c.block_k[bk] * row_shared * x.inv_shared_bw_sm;
          g.bound = std::max(std::max(compute, g.dram_floor * x.inv_dram_bw),
                             std::max(g.l2 * x.inv_l2_bw, shared)) +
                    waves * x.fill + x.launch;
          if (out.first == search_groups || g.bound < out.groups[out.first].bound) out.first = gi;
        }
      }
    }
}

// The best candidate so far: its exact time (what `evaluate_gemm` computes, by the same
// operations), its place in the candidate order, and what it takes to evaluate it once at the
// end.
struct search_best {
  double time = 0;
  std::size_t index = 0, group = 0;
  tile_config tile{};
  int blocks = 0;
  bool found = false;
};

// Times the members of group (@p bm, @p bn, @p bk, @p s) that can beat @p best, keeping the
// winner in @p best.
constexpr void search_group(const gemm_context& x, const gemm_problem& p,
                            const search_occupancy& occupancy, const search_counts& c,
                            const search_group_bound& g, std::size_t bm, std::size_t bn,
                            std::size_t bk, std::size_t s, search_best& best) {
  const architecture_spec& arch = *x.arch;
  constexpr std::size_t nb = search_blocks, nk = search_block_ks, nw = search_warps;
  // Members whose inputs to the model are equal have equal times; the later one in the order
  // cannot win. Within a group the inputs are the occupancy, the depth, and (where warps read
  // their operands through shared memory) the warp tile; and a depth whose k-steps are not
  // latency-bound gives every deeper pipeline of equal occupancy the same time (the latency
  // floor only enters as max(step, latency / (stages - 1))). Each entry: occupancy, warp
  // tile (0 where it does not matter), shallowest depth known to be latency-free.
  struct seen_class {
    int blocks, warp, free_from;
  };
  std::array<seen_class, nw * nw * search_depths> seen{};
  std::size_t nseen = 0;
  for (std::size_t w = 0; w < nw * nw; ++w) {
    const std::size_t shape = ((bm * nb + bn) * nk + bk) * nw * nw + w;
    const int warp = arch.mma.operands_from_shared ? 0 : static_cast<int>(w) + 1;
    tile_config tile{candidate_blocks[bm],
                     candidate_blocks[bn],
                     c.block_k[bk],
                     candidate_warps[w / nw],
                     candidate_warps[w % nw],
                     2,
                     p.sparse_a,
                     search_split(s)};
    for (std::size_t depth = 0; depth < search_depths; ++depth) {
      const int blocks = occupancy.blocks[shape][depth];
      if (blocks == 0) break;
      const int stages = static_cast<int>(depth) + 2;
      tile.stages = stages;
      seen_class* same = nullptr;
      for (std::size_t i = 0; i < nseen; ++i)
        if (seen[i].blocks == blocks && seen[i].warp == warp) same = &seen[i];
      if (same != nullptr && same->free_from <= stages) continue;  // an earlier twin
      if (same == nullptr) {
        same = &seen[nseen++];
        *same = {blocks, warp, max_search_stages + 1};
      }
      const std::size_t index = (shape * search_depths + depth) * search_splits + s;
      // A lower bound first (the DRAM operand traffic at its floor), then, only where the
      // traffic can exceed the floor, the exact time.
      const gemm_timing bound = time_gemm(x, tile, blocks, g.grid, g.dram_floor, g.l2);
      if (!bound.latency_bound_steps) same->free_from = std::min(same->free_from, stages);
      if (best.found && (bound.time > best.time || (bound.time >= best.time && index > best.index)))
        continue;
      double time = bound.time;
      if (!c.operands_fit) {
        const double dram_operands =
            gemm_dram_operand_bytes(x, g.grid, x.sms * blocks, g.l2_operands);
        time = time_gemm(x, tile, blocks, g.grid, x.batch * (dram_operands + c.c_traffic[s]), g.l2)
                   .time;
      }
      if (!best.found || time < best.time || (time == best.time && index < best.index))
        best = {time, index, search_group_index(bm, bn, bk, s), tile, blocks, true};
    }
  }
}

constexpr gemm_estimate search_best_gemm(const gemm_context& x, const gemm_problem& p,
                                         const search_occupancy& occupancy) {
  constexpr std::size_t nb = search_blocks, nk = search_block_ks, nsplit = search_splits;
  const search_counts c = make_search_counts(x, p);
  search_group_bounds b;
  bound_search_groups(x, c, occupancy, b);
  if (b.first == search_groups) throw_no_legal_tiling(*x.arch, p.input);
  search_best best;
  const std::size_t first_s = b.first % nsplit, first_bk = b.first / nsplit % nk,
                    first_bn = b.first / nsplit / nk % nb, first_bm = b.first / nsplit / nk / nb;
  search_group(x, p, occupancy, c, b.groups[b.first], first_bm, first_bn, first_bk, first_s, best);
  // The other groups, offered and not excluded by their bound (tested here, not in the search:
  // most groups are skipped, and a call for each costs as much as the test).
  for (std::size_t bm = 0; bm < nb; ++bm)
    for (std::size_t bn = 0; bn < nb; ++bn)
      for (std::size_t bk = 0; bk < nk; ++bk)
        for (std::size_t s = 0; s < nsplit; ++s) {
          const std::size_t gi = search_group_index(bm, bn, bk, s);
          const search_group_bound& g = b.groups[gi];
          if (gi != b.first && g.offered && !(g.bound * (1.0 - 1e-9) > best.time))
            search_group(x, p, occupancy, c, g, bm, bn, bk, s, best);
        }
  return evaluate_gemm(x, p, best.tile, best.blocks, b.groups[best.group].grid);
}

}  // namespace detail

/// Fastest legal tiling of @p p on @p d, with its estimate: the same estimate as
/// `detail::best_gemm_exhaustive`, found with bounds that skip candidates that cannot win (see
/// the file comment). Throws unsupported when no candidate is legal (the datatype has no path
/// on the device's architecture) and invalid_argument for a bad problem. At run time, while a
/// `best_gemm_memo` lives on the calling thread, an answer it holds for the same figures and
/// problem is returned without searching (gemm_memo.hpp).
template <gemm_device D>
constexpr gemm_estimate best_gemm(const D& d, const gemm_problem& p) {
  // What gemm_evaluator's constructor does: validate, then gather the device's figures (which
  // throws unsupported with the reason if the device cannot multiply the datatype at all).
  p.validate();
  const detail::gemm_context x = detail::make_gemm_context(d, p);
  // A skinny problem is also offered the skinny GEMV-like kernel (detail::skinny_gemm).
  if (std::is_constant_evaluated())
    return detail::with_skinny(
        x, p,
        detail::search_best_gemm(
            x, p, detail::make_search_occupancy(*x.arch, p.input, p.acc, p.sparse_a)));
  const detail::occupancy_key occupancy =
      detail::make_occupancy_key(*x.arch, p.input, p.acc, p.sparse_a);
  const auto search = [&] {
    return detail::with_skinny(
        x, p,
        detail::search_best_gemm(
            x, p, detail::cached_search_occupancy(*x.arch, p.input, p.acc, p.sparse_a, occupancy)));
  };
  best_gemm_memo* memo = best_gemm_memo::active();
  if (memo == nullptr) return search();
  return memo->find_or(x, detail::make_gemm_memo_device(x, p, occupancy), search);
}

/// The fastest legal tiling of @p p on @p d as one operator named @p name:
/// `as_op(best_gemm(d, p), name)`. Throws as `best_gemm` does.
template <gemm_device D>
constexpr op_estimate best_gemm_op(const D& d, std::string_view name, const gemm_problem& p) {
  return as_op(best_gemm(d, p), name);
}

}  // namespace dlperf
