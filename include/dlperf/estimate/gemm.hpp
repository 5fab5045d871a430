/// @file
/// Tile-reuse GEMM estimator: how a tiled matrix multiply moves through the memory hierarchy,
/// in waves of tiles, and how long that takes. Cheap enough for autotuners (no loops over tiles
/// or waves) and `constexpr` throughout.
///
/// For C[M x N] = alpha A[M x K] B[K x N] + beta C, batch B, tile BM x BN x BK, split-K s:
///
///     tiles      = ceil(M/BM) * ceil(N/BN) * s * batch,   concurrent = SMs * blocks per SM
///     L2 -> SM   = K * (M * ceil(N/BN) * a + N * ceil(M/BM) * b)   per batch: A is re-read
///                  once per column of tiles, B once per row; a smaller tile re-reads more
///     DRAM       = A and B once if they fit in the usable half of L2; else once per wave
///                  (waves are rasterised into near-square groups of wr x wc tiles whose panels
///                  stay in L2), blended towards the L2 traffic when a wave's panels do not fit;
///                  plus C written (and read when beta != 0) and split-K partial sums
///     wave time  = max(k-steps * max(compute per k-step, global latency / (stages - 1)),
///                      DRAM and L2 time / waves, shared-memory time of the wave)
///                  + pipeline fill
///     time       = sum over waves + launch overhead
///
/// Compute per k-step is blocks-per-SM x 2 BM BN BK / (per-SM peak x efficiency), where the
/// efficiency is the device's large-GEMM efficiency for the operand type. The binding resource
/// is whichever of compute, DRAM, L2, shared memory or fixed latency (fill and launch) takes the
/// most time in total.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// One GEMM (or a batch of equal ones): C = alpha A B + beta C.
struct gemm_problem {
  long long m;                          ///< rows of A and C
  long long n;                          ///< columns of B and C
  long long k;                          ///< the reduction dimension
  long long batch = 1;                  ///< independent GEMMs of this shape
  dtype input = dtype::fp16;            ///< type of A and B
  accumulator acc = accumulator::fp32;  ///< accumulation type
  double c_bytes = 0;                   ///< bytes per element of C; 0 = the usual output of `input`
  double alpha = 1.0;                   ///< scale of A B (cost-free; must be finite)
  double beta = 0.0;                    ///< scale of C; non-zero means C is read as well as written
  bool sparse_a = false;                ///< A is 2:4 structured sparse
  double a_dram_bytes = 0;              ///< distinct bytes of A in DRAM per GEMM when fewer than
                            ///< M K (implicit-GEMM convolution: the input tensor, not its
                            ///< im2col expansion); 0 = M K x element size

  /// Useful FLOP: 2 M N K per GEMM.
  [[nodiscard]] constexpr flop_count work() const {
    return flops(2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) *
                 static_cast<double>(batch));
  }
  /// Bytes per element of C: as given, else the input type for 16- and 32-bit floats, FP16 for
  /// 8- and 4-bit floats (FP8 GEMMs write BF16/FP16), 4 (INT32) for integer inputs.
  [[nodiscard]] constexpr double output_bytes() const {
    if (c_bytes > 0) return c_bytes;
    const datatype_traits t = traits(input);
    if (!t.is_floating()) return 4.0;
    return t.storage_bits >= 16 ? t.storage_bits / 8.0 : 2.0;
  }
  /// Most output elements (m n batch) a problem may have: 2^46, so that a tile count (at most
  /// m n batch x split-K) stays far below 2^52, exact in the model's doubles.
  static constexpr double max_output_elements = 70368744177664.0;  // 2^46
  /// Largest m, n, k or batch: 2^40, so each stays exact in a double.
  static constexpr long long max_extent = 1LL << 40;

  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    detail::require_positive("gemm", {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}});
    // Counts stay exact in doubles (the model computes tiles and waves in double precision).
    if (m > max_extent || n > max_extent || k > max_extent || batch > max_extent)
      detail::throw_invalid_argument("gemm: m, n, k and batch must each be at most 2^40");
    // Any tiling launches at most m n batch tiles per K slice; that count must stay an exact
    // double and fit in the estimate's `long long` tile count.
    if (static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(batch) >
        max_output_elements)
      detail::throw_invalid_argument("gemm: m x n x batch = " + std::to_string(m) + " x " +
                                     std::to_string(n) + " x " + std::to_string(batch) +
                                     " output elements, more than 2^46");
    detail::require_finite("gemm", {{"alpha", alpha}, {"beta", beta}});
    if (!(c_bytes >= 0.0) || c_bytes > 64.0)
      detail::throw_invalid_argument("gemm: c_bytes must be between 0 (default) and 64");
    if (!(a_dram_bytes >= 0.0) || !detail::is_finite(a_dram_bytes))
      detail::throw_invalid_argument("gemm: a_dram_bytes must be finite and >= 0");
  }
};

/// Estimate of one GEMM with one tiling.
struct gemm_estimate {
  tile_config tile{};                            ///< the tiling evaluated
  int blocks_per_sm = 0;                         ///< occupancy of that tiling
  long long tiles = 0;                           ///< blocks launched
  long long waves = 0;                           ///< ceil(tiles / concurrent blocks)
  double wave_efficiency = 0;                    ///< tiles / (waves x concurrent blocks)
  double last_wave_efficiency = 0;               ///< occupancy of the last wave
  duration time{};                               ///< total, launch included
  duration compute_time{};                       ///< summed over waves: tensor-core (or FFMA) time
  duration dram_time{};                          ///< summed over waves: DRAM transfer time
  duration l2_time{};                            ///< summed over waves: L2 transfer time
  duration shared_time{};                        ///< summed over waves: shared-memory transfer time
  duration latency_time{};                       ///< pipeline fill of every wave plus the launch
  flop_count work{};                             ///< useful FLOP, 2 M N K batch
  flop_rate throughput{};                        ///< work / time
  byte_count dram_bytes{};                       ///< DRAM traffic
  byte_count l2_bytes{};                         ///< L2 -> SM traffic (operands) plus C
  byte_count shared_bytes{};                     ///< shared-memory traffic (writes and reads)
  double l2_hit_rate = 0;                        ///< share of operand reads that L2 serves
  dlperf::bound bound = dlperf::bound::compute;  ///< the binding resource
  bool latency_bound_steps = false;  ///< k-steps wait on DRAM latency (more stages would help)
};

/// @p e as one operator named @p name, for an `op_sequence`: its time, work, DRAM traffic and
/// binding resource, in one kernel.
constexpr op_estimate as_op(const gemm_estimate& e, std::string_view name) {
  return {name, e.time, e.work, e.dram_bytes, e.bound, 1, 1, op_kind::gemm};
}

/// Share of L2 an operand working set may count on: the rest holds C, other streams, and the
/// copies that split-L2 designs (A100, H100) keep in each half. Used by every estimator that
/// asks whether operands stay L2-resident.
inline constexpr double usable_l2_fraction = 0.5;

namespace detail {

// q rounded to an integer (ties to even), for 0 <= q < 2^52: adding and removing 2^52 leaves
// no fraction bits. Two additions instead of two int/double conversions: this sits on the
// estimator's critical path a dozen times per estimate.
constexpr double round_to_integer(double q) {
  constexpr double two_to_52 = 4503599627370496.0;
  return (q + two_to_52) - two_to_52;
}

// ceil(a / b) for positive integers a, b with a b below 2^52: the quotient of such integers is
// exact when it is an integer and at least 1 / b from one otherwise, far above double rounding.
constexpr double ceil_ratio(double a, double b) {
  const double q = a / b;
  const double r = round_to_integer(q);
  return r < q ? r + 1.0 : r;
}

// Square root usable in constant expressions (Newton's method to double precision), the library
// one at run time.
constexpr double square_root(double x) {
  if (!std::is_constant_evaluated()) return std::sqrt(x);
  if (x <= 0) return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 100; ++i) {
    const double next = 0.5 * (r + x / r);
    if (next == r) break;
    r = next;
  }
  return r;
}

// What the GEMM model needs from a device and a problem, computed once so that a tile search
// evaluates each candidate with a handful of arithmetic operations.
struct gemm_context {
  const architecture_spec* arch;
  double sms;
  double inv_sm_peak;                               // 1 / (per-SM FLOP/s x efficiency)
  double inv_dram_bw, inv_l2_bw, inv_shared_bw_sm;  // s/byte
  double l2_usable;                                 // bytes of L2 an operand working set may use
  double dram_latency, fill, launch;                // seconds
  double a, b, c;  // bytes per element of A (sparse: values + indices), B, C
  double m, n, k, batch;
  double a_dram;  // distinct bytes of A per GEMM
  bool beta_nonzero;
};

template <class D>
constexpr gemm_context make_gemm_context(const D& d, const gemm_problem& p) {
  gemm_context x{};
  x.arch = &d.arch();
  const sparsity sparse = p.sparse_a ? sparsity::sparse_2_4 : sparsity::dense;
  x.sms = d.sm_count();
  x.inv_sm_peak = x.sms / (d.peak(p.input, p.acc, sparse).value() * d.gemm_efficiency(p.input));
  const tier_spec dram = d.memory(tier::global), l2 = d.memory(tier::l2);
  x.inv_dram_bw = 1.0 / dram.throughput.value();
  x.inv_l2_bw = 1.0 / l2.throughput.value();
  x.inv_shared_bw_sm = x.sms / d.memory(tier::shared).throughput.value();
  x.l2_usable = usable_l2_fraction * l2.capacity.value();
  x.dram_latency = dram.latency.value();
  x.fill = (x.arch->latency.global + x.arch->latency.shared + x.arch->latency.ffma) /
           d.sm_clock().value();
  x.launch = d.launch_overhead().value();
  x.b = traits(p.input).storage().value();
  x.a = a_element_bytes(p.input, p.sparse_a);
  x.c = p.output_bytes();
  x.m = static_cast<double>(p.m);
  x.n = static_cast<double>(p.n);
  x.k = static_cast<double>(p.k);
  x.batch = static_cast<double>(p.batch);
  x.a_dram = p.a_dram_bytes > 0 ? p.a_dram_bytes : x.m * x.k * x.a;
  x.beta_nonzero = p.beta != 0.0;
  return x;
}

// The counts of one tiling of a problem: output tiles along M and N, K slices, k-steps of one
// slice, and blocks launched. Every count is an integer below 2^53 (validate() bounds the
// extents), computed in doubles: the double path avoids a chain of slow 64-bit integer
// divisions.
struct gemm_grid {
  double tm, tn, split, k_steps, tiles;
};

// K-steps of one K slice of @p split slices with @p block_k deep stages.
constexpr double gemm_k_steps(const gemm_context& x, double split, int block_k) {
  return ceil_ratio(ceil_ratio(x.k, split), block_k);
}

// The grid from its per-axis counts (a search computes those once for all its candidates:
// the same values as below).
constexpr gemm_grid make_gemm_grid(const gemm_context& x, double tm, double tn, double split,
                                   double k_steps) {
  return {tm, tn, split, k_steps, tm * tn * split * x.batch};
}

constexpr gemm_grid make_gemm_grid(const gemm_context& x, const tile_config& tile) {
  const double split = tile.split_k;
  return make_gemm_grid(x, ceil_ratio(x.m, tile.block_m), ceil_ratio(x.n, tile.block_n), split,
                        gemm_k_steps(x, split, tile.block_k));
}

// L2 -> SM operand traffic per GEMM: A is re-read for every column of tiles, B for every row.
constexpr double gemm_l2_operand_bytes(const gemm_context& x, const gemm_grid& g) {
  return x.k * (x.m * g.tn * x.a + x.n * g.tm * x.b);
}

// C traffic per GEMM: written (and read when beta != 0), plus split-K's partial sums.
constexpr double gemm_c_bytes(const gemm_context& x, double split) {
  double c_traffic = x.m * x.n * x.c * (x.beta_nonzero ? 2.0 : 1.0);
  if (split > 1) c_traffic += 2.0 * split * x.m * x.n * 4.0;  // partial sums
  return c_traffic;
}

// A and B read from DRAM once each, or L2's traffic if less: what `gemm_dram_operand_bytes`
// starts from and never goes below. Computed with the same operations, so that this holds for
// the rounded values too (docs/gemm.md, "Speed").
constexpr double gemm_dram_operand_floor(const gemm_context& x, double l2_operands) {
  const double a_total = x.a_dram, b_total = x.k * x.n * x.b;
  return std::min(a_total + b_total, l2_operands);
}

// DRAM operand traffic per batch element: once if A and B fit in L2; otherwise once per wave.
// A wave is rasterised into a near-square group of wr x wc tiles that walk K together, so a
// wave fetches its wr row panels and wc column panels once from DRAM.
constexpr double gemm_dram_operand_bytes(const gemm_context& x, const gemm_grid& grid,
                                         double concurrent, double l2_operands) {
  const double a_total = x.a_dram, b_total = x.k * x.n * x.b;
  const double tm = grid.tm, tn = grid.tn;
  double dram_operands = a_total + b_total;
  if (dram_operands > x.l2_usable) {
    // Output tiles of one wave: g = concurrent / split. The group is as square as the grid of
    // tiles allows (the whole grid when it fits in g), and each operand is read once per group
    // across it. The fractional counts make the traffic continuous and non-decreasing in M, N
    // and K, so a bigger problem never moves less.
    const double g = std::max(1.0, concurrent / grid.split), side = square_root(g);
    double wr = side, wc = side;
    if (tm * tn <= g) {
      wr = tm;
      wc = tn;
    } else if (tm <= side) {
      wr = tm;
      wc = g / tm;
    } else if (tn <= side) {
      wc = tn;
      wr = g / tn;
    }
    dram_operands = a_total * std::max(1.0, tn / wc) + b_total * std::max(1.0, tm / wr);
  }
  return std::min(dram_operands, l2_operands);
}

// One wave's time on each resource.
struct gemm_wave_times {
  double compute, dram, l2, shared;
  [[nodiscard]] constexpr double longest() const {
    return std::max(std::max(compute, dram), std::max(l2, shared));
  }
};

// The waves of one tiling and their times, given its DRAM and L2 bytes (all GEMMs of the
// batch). Non-decreasing in @p dram_bytes, rounding included: a tile search bounds a
// candidate's time from below by calling this with a floor of its DRAM traffic.
struct gemm_timing {
  double concurrent, waves, last;  // blocks per wave, waves, blocks in the last
  double block_shared;             // shared-memory bytes of one block
  gemm_wave_times full, tail;      // a full wave and the last
  double full_waves, fixed, time;  // waves before the last; fill and launch; total
  bool latency_bound_steps;        // a k-step waits on DRAM latency
};

constexpr gemm_timing time_gemm(const gemm_context& x, const tile_config& tile, int blocks_per_sm,
                                const gemm_grid& g, double dram_bytes, double l2_bytes) {
  gemm_timing t{};
  t.concurrent = x.sms * blocks_per_sm;
  t.waves = ceil_ratio(g.tiles, t.concurrent);
  t.last = g.tiles - (t.waves - 1) * t.concurrent;

  // Shared memory per block: every operand byte is written once; with warp-level MMA each warp
  // then reads the A rows and B columns it needs (ldmatrix). Where the MMA reads its operands
  // from shared memory itself (wgmma, tcgen05), that path is the tensor cores' own and only
  // the staging writes are counted.
  const double warps_m = tile.block_m / tile.warp_m, warps_n = tile.block_n / tile.warp_n;
  const double a_reads = x.arch->mma.operands_from_shared ? 0.0 : warps_n;
  const double b_reads = x.arch->mma.operands_from_shared ? 0.0 : warps_m;
  t.block_shared = g.k_steps * tile.block_k *
                   (tile.block_m * x.a * (1.0 + a_reads) + tile.block_n * x.b * (1.0 + b_reads));

  // One wave: `blocks` tiles on the busiest SM and an equal share (1 / waves) of all DRAM and
  // L2 traffic, which streams across the kernel's waves; shares in proportion to tiles would
  // let a problem one tile bigger move traffic out of a full wave into the tail and finish
  // sooner (docs/gemm.md, "Properties"). Each k-step costs the SM its blocks' arithmetic, but
  // never less than the DRAM latency divided by the stages in flight (stages - 1 loads overlap
  // the current step's math).
  const double step_floor = x.dram_latency / static_cast<double>(std::max(1, tile.stages - 1));
  const double step_flop = 2.0 * tile.block_m * tile.block_n * tile.block_k;
  const auto wave = [&](double blocks, double share) {
    const double step = blocks * step_flop * x.inv_sm_peak;
    if (step < step_floor) t.latency_bound_steps = true;
    return gemm_wave_times{g.k_steps * std::max(step, step_floor),
                           share * dram_bytes * x.inv_dram_bw, share * l2_bytes * x.inv_l2_bw,
                           blocks * t.block_shared * x.inv_shared_bw_sm};
  };
  const double per_wave = 1.0 / t.waves;
  t.full = wave(blocks_per_sm, per_wave);
  t.tail = wave(ceil_ratio(t.last, x.sms), per_wave);
  t.full_waves = t.waves - 1;
  t.fixed = t.waves * x.fill + x.launch;
  t.time = t.full_waves * t.full.longest() + t.tail.longest() + t.fixed;
  return t;
}

// The model proper: one legal tiling, its check already done, its grid computed.
constexpr gemm_estimate evaluate_gemm(const gemm_context& x, const gemm_problem& p,
                                      const tile_config& tile, int blocks_per_sm,
                                      const gemm_grid& g) {
  gemm_estimate e;
  e.tile = tile;
  e.blocks_per_sm = blocks_per_sm;

  // validate() bounds m n batch by 2^46; only an absurd split-K can take the count past 2^52.
  if (g.tiles > 4503599627370496.0)
    throw_invalid_argument("gemm: split-K " + std::to_string(tile.split_k) +
                           " gives more than 2^52 tiles");
  const double l2_operands = gemm_l2_operand_bytes(x, g);
  const double dram_operands = gemm_dram_operand_bytes(x, g, x.sms * blocks_per_sm, l2_operands);
  e.l2_hit_rate = 1.0 - dram_operands / l2_operands;
  const double c_traffic = gemm_c_bytes(x, g.split);
  e.dram_bytes = bytes(x.batch * (dram_operands + c_traffic));
  e.l2_bytes = bytes(x.batch * (l2_operands + c_traffic));
  e.work = p.work();

  const gemm_timing t =
      time_gemm(x, tile, blocks_per_sm, g, e.dram_bytes.value(), e.l2_bytes.value());
  e.tiles = static_cast<long long>(g.tiles);
  e.waves = static_cast<long long>(t.waves);
  const double inv_concurrent = 1.0 / t.concurrent;
  e.wave_efficiency = g.tiles / t.waves * inv_concurrent;
  e.last_wave_efficiency = t.last * inv_concurrent;
  e.shared_bytes = bytes(g.tiles * t.block_shared);
  e.latency_bound_steps = t.latency_bound_steps;

  e.compute_time = seconds(t.full_waves * t.full.compute + t.tail.compute);
  e.dram_time = seconds(t.full_waves * t.full.dram + t.tail.dram);
  e.l2_time = seconds(t.full_waves * t.full.l2 + t.tail.l2);
  e.shared_time = seconds(t.full_waves * t.full.shared + t.tail.shared);
  e.latency_time = seconds(t.fixed);
  e.time = seconds(t.time);
  e.throughput = e.work / e.time;

  const std::array<std::pair<dlperf::bound, duration>, 5> parts{{
      {dlperf::bound::compute, e.compute_time},
      {dlperf::bound::global, e.dram_time},
      {dlperf::bound::l2, e.l2_time},
      {dlperf::bound::shared, e.shared_time},
      {dlperf::bound::latency, e.latency_time},
  }};
  duration most = parts[0].second;
  for (const auto& [which, spent] : parts)
    if (spent > most) {
      most = spent;
      e.bound = which;
    }
  return e;
}

constexpr gemm_estimate evaluate_gemm(const gemm_context& x, const gemm_problem& p,
                                      const tile_config& tile, int blocks_per_sm) {
  return evaluate_gemm(x, p, tile, blocks_per_sm, make_gemm_grid(x, tile));
}

// Widest narrow side (M or N) a skinny-GEMM kernel is offered for: GEMV and small-batch
// kernels (split-K GEMV, TensorRT-LLM's and vLLM's "skinny" GEMMs, ggml's MMV) cover up to 8-16
// rows; wider problems go through the tiled kernels.
inline constexpr long long skinny_max_rows = 16;

// A skinny GEMM (M or N at most `skinny_max_rows`): a GEMV-like kernel that streams the wide
// operand once from DRAM across every SM (split-K so all SMs share the stream) while the narrow
// operand stays on chip. The narrow side is padded to the matrix instruction's N extent where
// the product runs on a matrix unit (8 on NVIDIA's mma m16n8k*, MFMA's 16 on CDNA), and not at
// all where it runs on the vector ALUs (Pascal, Apple's GPUs, FP32 on any GPU: each thread's dot
// products cover one row, as ggml's and cuBLAS's GEMV kernels do), never to a 64-row tile, so
// batch-1 decode is DRAM-bound as it runs on every GPU:
//
//     compute = 2 pad(narrow) wide K batch / (peak x GEMM efficiency)
//     DRAM    = A + B once, C written (and read when beta != 0)
//     time    = max(compute, DRAM / bandwidth, L2 bytes / L2 bandwidth) + one fill + launch
//
// Non-decreasing in m, n, k and batch. Its tiling is descriptive (the narrow side padded, 128
// wide rows per block, the split that fills the SMs); the tile check does not apply to it.
constexpr gemm_estimate skinny_gemm(const gemm_context& x, const gemm_problem& p) {
  const bool narrow_m = x.m <= x.n;
  const double narrow = narrow_m ? x.m : x.n, wide = narrow_m ? x.n : x.m;
  const mma_shape& mma = x.arch->mma;
  const bool matrix_unit = x.arch->has_tensor_path(p.input, p.acc);
  const double pad_to = matrix_unit && mma.n > 0 ? static_cast<double>(mma.n) : 1.0;
  const double padded = ceil_ratio(narrow, pad_to) * pad_to;
  const double wide_blocks = ceil_ratio(wide, 128.0);
  const double split = std::max(1.0, std::min(8.0, ceil_ratio(x.sms, wide_blocks * x.batch)));

  gemm_estimate e;
  e.tile = tile_config{static_cast<int>(narrow_m ? padded : 128),
                       static_cast<int>(narrow_m ? 128 : padded),
                       mma.k(traits(p.input).storage_bits) * 4,
                       static_cast<int>(narrow_m ? padded : 32),
                       static_cast<int>(narrow_m ? 32 : padded),
                       2,
                       p.sparse_a,
                       static_cast<int>(split)};
  e.blocks_per_sm = 1;
  const double tiles = wide_blocks * split * x.batch;
  e.tiles = static_cast<long long>(tiles);
  e.waves = static_cast<long long>(ceil_ratio(tiles, x.sms * 4.0));
  e.wave_efficiency = tiles / (static_cast<double>(e.waves) * x.sms * 4.0);
  e.last_wave_efficiency = e.wave_efficiency;
  e.work = p.work();
  const double operands = x.a_dram + x.k * x.n * x.b;
  // C written once: the split's partial sums are reduced on chip or by atomics into C (GEMV
  // kernels), not through a workspace; charging them would make the time fall where a longer
  // wide side needs a smaller split.
  const double c_traffic = gemm_c_bytes(x, 1.0);
  e.dram_bytes = bytes(x.batch * (operands + c_traffic));
  e.l2_bytes = e.dram_bytes;
  e.shared_bytes = bytes(0.0);
  e.l2_hit_rate = 0.0;
  const double compute = 2.0 * padded * wide * x.k * x.batch * x.inv_sm_peak / x.sms;
  const double dram = e.dram_bytes.value() * x.inv_dram_bw;
  const double l2 = e.l2_bytes.value() * x.inv_l2_bw;
  const double fixed = x.fill + x.launch;  // one pass: blocks stream, no waves to refill
  e.compute_time = seconds(compute);
  e.dram_time = seconds(dram);
  e.l2_time = seconds(l2);
  e.shared_time = seconds(0.0);
  e.latency_time = seconds(fixed);
  e.time = seconds(std::max(std::max(compute, dram), l2) + fixed);
  e.throughput = e.work / e.time;
  e.bound = dlperf::bound::compute;
  duration most = e.compute_time;
  for (const auto& [which, spent] : std::array<std::pair<dlperf::bound, duration>, 3>{
           {{dlperf::bound::global, e.dram_time},
            {dlperf::bound::l2, e.l2_time},
            {dlperf::bound::latency, e.latency_time}}})
    if (spent > most) {
      most = spent;
      e.bound = which;
    }
  return e;
}

// @p tiled, or the skinny kernel where the problem is skinny and that is faster.
constexpr gemm_estimate with_skinny(const gemm_context& x, const gemm_problem& p,
                                    const gemm_estimate& tiled) {
  if (std::min(p.m, p.n) > skinny_max_rows) return tiled;
  const gemm_estimate s = skinny_gemm(x, p);
  return s.time < tiled.time ? s : tiled;
}

}  // namespace detail

/// One GEMM on one device, prepared for evaluating many tilings: the problem is validated and
/// the device's figures gathered once, so each `estimate` is only the tile check and the model.
/// This is the loop an autotuner runs; `estimate_gemm` and `best_gemm` use it too.
class gemm_evaluator {
 public:
  /// Prepares @p p on @p d. Throws invalid_argument for a bad problem and unsupported when the
  /// device cannot multiply the datatype at all.
  template <gemm_device D>
  constexpr gemm_evaluator(const D& d, const gemm_problem& p)
      : problem_((p.validate(), p)), context_(detail::make_gemm_context(d, p)) {}

  /// The tile check of @p t for this problem.
  [[nodiscard]] constexpr tile_check check(const tile_config& t) const {
    return check_tile(*context_.arch, with_sparsity(t), problem_.input, problem_.acc);
  }
  /// Estimate with tiling @p t. Throws unsupported, naming the limit and the numbers, when the
  /// tiling is illegal on the device's architecture.
  [[nodiscard]] constexpr gemm_estimate estimate(const tile_config& t) const {
    const tile_config tile = with_sparsity(t);
    const tile_check c = check_tile(*context_.arch, tile, problem_.input, problem_.acc);
    if (!c.ok()) detail::throw_unsupported(describe(c, *context_.arch, tile, problem_.input));
    return detail::evaluate_gemm(context_, problem_, tile, c.blocks_per_sm);
  }
  /// Estimate with tiling @p t already checked by `check` (skips the second check).
  [[nodiscard]] constexpr gemm_estimate estimate(const tile_config& t, const tile_check& c) const {
    return detail::evaluate_gemm(context_, problem_, with_sparsity(t), c.blocks_per_sm);
  }
  /// The problem.
  [[nodiscard]] constexpr const gemm_problem& problem() const { return problem_; }
  /// The device's SM count.
  [[nodiscard]] constexpr int sm_count() const { return static_cast<int>(context_.sms); }

 private:
  // Sparsity is a property of the operand, so the problem decides it: the tile's flag follows,
  // keeping the tile check, the bytes and the peak on the same footing.
  [[nodiscard]] constexpr tile_config with_sparsity(tile_config t) const {
    t.sparse_a = problem_.sparse_a;
    return t;
  }
  gemm_problem problem_;
  detail::gemm_context context_;
};

/// Estimates GEMM @p p on device @p d with tiling @p t. Throws invalid_argument for a bad
/// problem, and unsupported (naming the limit and the numbers) when the tiling is illegal on
/// the device's architecture or the device cannot multiply the datatype.
template <gemm_device D>
constexpr gemm_estimate estimate_gemm(const D& d, const gemm_problem& p, const tile_config& t) {
  return gemm_evaluator(d, p).estimate(t);
}

}  // namespace dlperf
