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
///                      DRAM, L2 and shared-memory time of the wave) + pipeline fill
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
#include <type_traits>
#include <utility>

#include <dlperf/bound.hpp>
#include <dlperf/datatype.hpp>
#include <dlperf/device.hpp>
#include <dlperf/error.hpp>
#include <dlperf/memory_tier.hpp>
#include <dlperf/tile.hpp>
#include <dlperf/units.hpp>

namespace dlperf {

/// One GEMM (or a batch of equal ones): C = alpha A B + beta C.
struct gemm_problem {
  long long m;                     ///< rows of A and C
  long long n;                     ///< columns of B and C
  long long k;                     ///< the reduction dimension
  long long batch = 1;             ///< independent GEMMs of this shape
  dtype input = dtype::fp16;       ///< type of A and B
  accumulator acc = accumulator::fp32;  ///< accumulation type
  double c_bytes = 0;              ///< bytes per element of C; 0 = the usual output of `input`
  double alpha = 1.0;              ///< scale of A B (cost-free; must be finite)
  double beta = 0.0;               ///< scale of C; non-zero means C is read as well as written
  bool sparse_a = false;           ///< A is 2:4 structured sparse
  double a_dram_bytes = 0;         ///< distinct bytes of A in DRAM per GEMM when fewer than
                                   ///< M K (implicit-GEMM convolution: the input tensor, not its
                                   ///< im2col expansion); 0 = M K x element size

  /// Useful FLOP: 2 M N K per GEMM.
  [[nodiscard]] constexpr flop_count work() const {
    return flops(2.0 * static_cast<double>(m) * static_cast<double>(n) *
                 static_cast<double>(k) * static_cast<double>(batch));
  }
  /// Bytes per element of C: as given, else the input type for 16- and 32-bit floats, FP16 for
  /// 8- and 4-bit floats (FP8 GEMMs write BF16/FP16), 4 (INT32) for integer inputs.
  [[nodiscard]] constexpr double output_bytes() const {
    if (c_bytes > 0) return c_bytes;
    const datatype_traits t = traits(input);
    if (!t.is_floating()) return 4.0;
    return t.storage_bits >= 16 ? t.storage_bits / 8.0 : 2.0;
  }
  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    const auto positive = [](long long v, const char* field) {
      if (v <= 0)
        detail::throw_invalid_argument(std::string("gemm: ") + field + " must be positive, got " +
                                       std::to_string(v));
    };
    positive(m, "m");
    positive(n, "n");
    positive(k, "k");
    positive(batch, "batch");
    const auto finite = [](double v, const char* field) {
      if (!(v == v) || v > 1.7e308 || v < -1.7e308)
        detail::throw_invalid_argument(std::string("gemm: ") + field + " must be finite");
    };
    finite(alpha, "alpha");
    finite(beta, "beta");
    if (!(c_bytes >= 0.0) || c_bytes > 64.0)
      detail::throw_invalid_argument("gemm: c_bytes must be between 0 (default) and 64");
    if (!(a_dram_bytes >= 0.0) || a_dram_bytes > 1.7e308)
      detail::throw_invalid_argument("gemm: a_dram_bytes must be finite and >= 0");
  }
};

/// Estimate of one GEMM with one tiling.
struct gemm_estimate {
  tile_config tile{};              ///< the tiling evaluated
  int blocks_per_sm = 0;           ///< occupancy of that tiling
  long long tiles = 0;             ///< blocks launched
  long long waves = 0;             ///< ceil(tiles / concurrent blocks)
  double wave_efficiency = 0;      ///< tiles / (waves x concurrent blocks)
  double last_wave_efficiency = 0; ///< occupancy of the last wave
  duration time{};                 ///< total, launch included
  duration compute_time{};         ///< summed over waves: tensor-core (or FFMA) time
  duration dram_time{};            ///< summed over waves: DRAM transfer time
  duration l2_time{};              ///< summed over waves: L2 transfer time
  duration shared_time{};          ///< summed over waves: shared-memory transfer time
  duration latency_time{};         ///< pipeline fill of every wave plus the launch
  flop_count work{};               ///< useful FLOP, 2 M N K batch
  flop_rate throughput{};          ///< work / time
  byte_count dram_bytes{};         ///< DRAM traffic
  byte_count l2_bytes{};           ///< L2 -> SM traffic (operands) plus C
  byte_count shared_bytes{};       ///< shared-memory traffic (writes and reads)
  double l2_hit_rate = 0;          ///< share of operand reads that L2 serves
  dlperf::bound bound = dlperf::bound::compute;  ///< the binding resource
  bool latency_bound_steps = false;  ///< k-steps wait on DRAM latency (more stages would help)
};

namespace detail {

constexpr long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

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
  double sms, clock, sm_peak;              // SMs, SM clock (Hz), per-SM FLOP/s x efficiency
  double dram_bw, l2_bw, shared_bw_sm;     // bytes/s
  double l2_usable;                        // bytes of L2 an operand working set may use
  double dram_latency, fill, launch;       // seconds
  double a, b, c;                          // bytes per element of A (sparse: values + indices), B, C
  double m, n, k, batch;
  double a_dram;                           // distinct bytes of A per GEMM
  bool beta_nonzero;
  sparsity sparse;
};

template <class D>
constexpr gemm_context make_gemm_context(const D& d, const gemm_problem& p) {
  gemm_context x{};
  x.arch = &d.arch();
  x.sparse = p.sparse_a ? sparsity::sparse_2_4 : sparsity::dense;
  x.sms = d.sm_count();
  x.clock = d.sm_clock().value();
  x.sm_peak = d.peak(p.input, p.acc, x.sparse).value() / x.sms * d.gemm_efficiency(p.input);
  const tier_spec dram = d.memory(tier::global), l2 = d.memory(tier::l2);
  x.dram_bw = dram.throughput.value();
  x.l2_bw = l2.throughput.value();
  x.shared_bw_sm = d.memory(tier::shared).throughput.value() / x.sms;
  // Half of L2: the rest holds C, other streams, and the copies of split-L2 designs.
  x.l2_usable = 0.5 * l2.capacity.value();
  x.dram_latency = dram.latency.value();
  x.fill = (x.arch->latency.global + x.arch->latency.shared + x.arch->latency.ffma) / x.clock;
  x.launch = d.launch_overhead().value();
  const double bytes_in = traits(p.input).storage_bits / 8.0;
  x.b = bytes_in;
  x.a = p.sparse_a ? bytes_in / 2.0 + 1.0 / 8.0 : bytes_in;  // kept half + 2-bit indices
  x.c = p.output_bytes();
  x.m = static_cast<double>(p.m);
  x.n = static_cast<double>(p.n);
  x.k = static_cast<double>(p.k);
  x.batch = static_cast<double>(p.batch);
  x.a_dram = p.a_dram_bytes > 0 ? p.a_dram_bytes : x.m * x.k * x.a;
  x.beta_nonzero = p.beta != 0.0;
  return x;
}

// The model proper: one legal tiling, its check already done.
constexpr gemm_estimate evaluate_gemm(const gemm_context& x, const gemm_problem& p,
                                      const tile_config& tile, int blocks_per_sm) {
  gemm_estimate e;
  e.tile = tile;
  e.blocks_per_sm = blocks_per_sm;

  // Tiles and waves.
  const long long tm = ceil_div(p.m, tile.block_m);
  const long long tn = ceil_div(p.n, tile.block_n);
  const long long split = tile.split_k;
  const long long k_steps = ceil_div(ceil_div(p.k, split), tile.block_k);
  e.tiles = tm * tn * split * p.batch;
  const auto sms = static_cast<long long>(x.sms);
  const long long concurrent = sms * blocks_per_sm;
  e.waves = ceil_div(e.tiles, concurrent);
  const long long last = e.tiles - (e.waves - 1) * concurrent;
  e.wave_efficiency = static_cast<double>(e.tiles) / static_cast<double>(e.waves * concurrent);
  e.last_wave_efficiency = static_cast<double>(last) / static_cast<double>(concurrent);

  // L2 -> SM operand traffic: A is re-read for every column of tiles, B for every row.
  const double dtm = static_cast<double>(tm), dtn = static_cast<double>(tn);
  const double l2_operands = x.k * (x.m * dtn * x.a + x.n * dtm * x.b);
  // DRAM operand traffic per batch element: once if A and B fit in L2; otherwise once per wave.
  // A wave is rasterised into a near-square group of wr x wc tiles that walk K together, so a
  // wave fetches its wr row panels and wc column panels once from DRAM.
  const double a_total = x.a_dram, b_total = x.k * x.n * x.b;
  double dram_operands = a_total + b_total;
  if (dram_operands > x.l2_usable) {
    const double per_batch = static_cast<double>(std::min(tm * tn * split, concurrent));
    const double wr = std::min(dtm, static_cast<double>(static_cast<long long>(
                                        square_root(per_batch) + 0.5)));
    const double wc = std::min(dtn, static_cast<double>(ceil_div(
                                        static_cast<long long>(per_batch),
                                        static_cast<long long>(wr > 1 ? wr : 1))));
    dram_operands = a_total * static_cast<double>(ceil_div(tn, static_cast<long long>(wc))) +
                    b_total * static_cast<double>(ceil_div(tm, static_cast<long long>(wr)));
  }
  dram_operands = std::min(dram_operands, l2_operands);
  e.l2_hit_rate = 1.0 - dram_operands / l2_operands;
  double c_traffic = x.m * x.n * x.c * (x.beta_nonzero ? 2.0 : 1.0);
  if (split > 1) c_traffic += 2.0 * static_cast<double>(split) * x.m * x.n * 4.0;  // partials
  e.dram_bytes = bytes(x.batch * (dram_operands + c_traffic));
  e.l2_bytes = bytes(x.batch * (l2_operands + c_traffic));

  // Shared memory per block: every operand byte is written once; with warp-level MMA each warp
  // then reads the A rows and B columns it needs (ldmatrix). Where the MMA reads its operands
  // from shared memory itself (wgmma, tcgen05), that path is the tensor cores' own and only
  // the staging writes are counted.
  const double warps_m = tile.block_m / tile.warp_m, warps_n = tile.block_n / tile.warp_n;
  const double a_reads = x.arch->mma.operands_from_shared ? 0.0 : warps_n;
  const double b_reads = x.arch->mma.operands_from_shared ? 0.0 : warps_m;
  const double block_shared = static_cast<double>(k_steps) * tile.block_k *
                              (tile.block_m * x.a * (1.0 + a_reads) +
                               tile.block_n * x.b * (1.0 + b_reads));
  e.shared_bytes = bytes(static_cast<double>(e.tiles) * block_shared);
  e.work = p.work();

  // One wave: `blocks` tiles on the busiest SM and `share` of all DRAM and L2 traffic. Each
  // k-step costs the SM its blocks' arithmetic, but never less than the DRAM latency divided by
  // the stages in flight (stages - 1 loads overlap the current step's math).
  const double step_floor = x.dram_latency / static_cast<double>(std::max(1, tile.stages - 1));
  const double step_flop = 2.0 * tile.block_m * tile.block_n * tile.block_k;
  const double total_tiles = static_cast<double>(e.tiles);
  struct wave_times {
    double compute, dram, l2, shared;
    [[nodiscard]] constexpr double longest() const {
      return std::max(std::max(compute, dram), std::max(l2, shared));
    }
  };
  const auto wave = [&](double blocks, double share) {
    const double step = blocks * step_flop / x.sm_peak;
    if (step < step_floor) e.latency_bound_steps = true;
    return wave_times{static_cast<double>(k_steps) * std::max(step, step_floor),
                      share * e.dram_bytes.value() / x.dram_bw,
                      share * e.l2_bytes.value() / x.l2_bw, blocks * block_shared / x.shared_bw_sm};
  };
  const wave_times full =
      wave(blocks_per_sm, static_cast<double>(concurrent) / total_tiles);
  const wave_times tail = wave(static_cast<double>(ceil_div(last, sms)),
                               static_cast<double>(last) / total_tiles);
  const double full_waves = static_cast<double>(e.waves - 1);
  const double fixed = static_cast<double>(e.waves) * x.fill + x.launch;

  e.compute_time = seconds(full_waves * full.compute + tail.compute);
  e.dram_time = seconds(full_waves * full.dram + tail.dram);
  e.l2_time = seconds(full_waves * full.l2 + tail.l2);
  e.shared_time = seconds(full_waves * full.shared + tail.shared);
  e.latency_time = seconds(fixed);
  e.time = seconds(full_waves * full.longest() + tail.longest() + fixed);
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

}  // namespace detail

/// Estimates GEMM @p p on device @p d with tiling @p t. Throws invalid_argument for a bad
/// problem, and unsupported (naming the limit and the numbers) when the tiling is illegal on
/// the device's architecture or the device cannot multiply the datatype.
template <gemm_device D>
constexpr gemm_estimate estimate_gemm(const D& d, const gemm_problem& p, const tile_config& t) {
  p.validate();
  const detail::gemm_context x = detail::make_gemm_context(d, p);
  tile_config tile = t;
  tile.sparse_a = p.sparse_a || t.sparse_a;
  const tile_check chk = check_tile(d.arch(), tile, p.input, p.acc);
  if (!chk.ok()) detail::throw_unsupported(describe(chk, d.arch(), tile, p.input));
  return detail::evaluate_gemm(x, p, tile, chk.blocks_per_sm);
}

}  // namespace dlperf
