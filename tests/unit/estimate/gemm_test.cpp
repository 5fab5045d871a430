// The tile-reuse GEMM model: traffic, waves, time and the properties docs/model.md#model_figures
// asks for.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <limits>

using namespace dlperf;

namespace {
const gemm_problem square_8k{8192, 8192, 8192, 1, dtype::fp16, accumulator::fp32};
}

TEST_CASE("reuse falls as the tile shrinks: the 'TPU is a very large tile' argument",
          "[gemm][model]") {
  const auto big = estimate_gemm(catalog::a100_sxm4_40gb, square_8k, {256, 128, 32, 64, 64, 3});
  const auto small = estimate_gemm(catalog::a100_sxm4_40gb, square_8k, {64, 64, 32, 32, 32, 3});
  // L2 -> SM traffic is K (M ceil(N/BN) + N ceil(M/BM)) x 2 B.
  CHECK(big.l2_bytes.value() == Approx(8192.0 * (8192 * 64 + 8192 * 32) * 2 + 8192.0 * 8192 * 2));
  CHECK(small.l2_bytes.value() ==
        Approx(8192.0 * (8192 * 128 + 8192 * 128) * 2 + 8192.0 * 8192 * 2));
  CHECK(small.l2_bytes > 2.5 * big.l2_bytes);
  CHECK(small.dram_bytes > big.dram_bytes);
}

TEST_CASE("operands that fit in L2 are read from DRAM once", "[gemm]") {
  const gemm_problem p{2048, 2048, 2048, 1, dtype::fp16, accumulator::fp32};
  const auto e = estimate_gemm(catalog::h100_sxm, p, {128, 128, 32, 64, 64, 3});
  // A and B: 2 x 8 MiB; C: 8 MiB written.
  CHECK(e.dram_bytes.value() == Approx(3.0 * 2048 * 2048 * 2));
  CHECK(e.l2_hit_rate > 0.9);
  gemm_problem with_c = p;
  with_c.beta = 1.0;  // C read as well as written
  CHECK(estimate_gemm(catalog::h100_sxm, with_c, {128, 128, 32, 64, 64, 3}).dram_bytes.value() ==
        Approx(4.0 * 2048 * 2048 * 2));
}

TEST_CASE("2:4 sparse A halves A's traffic and doubles the math rate", "[gemm]") {
  gemm_problem sparse = square_8k;
  sparse.sparse_a = true;
  const tile_config t{128, 256, 32, 64, 64, 3};
  const auto d = estimate_gemm(catalog::a100_sxm4_40gb, square_8k, t);
  const auto s = estimate_gemm(catalog::a100_sxm4_40gb, sparse, t);
  CHECK(s.compute_time.value() == Approx(d.compute_time.value() / 2));
  CHECK(s.l2_bytes < d.l2_bytes);
  CHECK(s.tile.sparse_a);
}

TEST_CASE("waves: tiles over concurrent blocks, with a partial last wave", "[gemm]") {
  // 108 SMs, one 128x256 block each: 8192^2 / (128 x 256) = 2048 tiles = 18 full waves + 104.
  const auto e = estimate_gemm(catalog::a100_sxm4_40gb, square_8k, {128, 256, 32, 64, 64, 3});
  CHECK(e.blocks_per_sm == 1);
  CHECK(e.tiles == 2048);
  CHECK(e.waves == 19);
  CHECK(e.last_wave_efficiency == Approx(104.0 / 108));
  CHECK(e.wave_efficiency == Approx(2048.0 / (19 * 108)));
}

TEST_CASE("small problems run slower per FLOP than large ones", "[gemm][model]") {
  const auto small = best_gemm(catalog::h100_sxm, {256, 256, 256, 1, dtype::bf16});
  const auto large = best_gemm(catalog::h100_sxm, {8192, 8192, 8192, 1, dtype::bf16});
  CHECK(small.throughput < 0.1 * large.throughput);
  CHECK(small.wave_efficiency < 0.5);
  CHECK(small.bound == bound::latency);
}

// docs/model.md#model_bandwidth: a small LSTM does not run faster on a bigger GPU. An LSTM step's
// GEMM (batch 64, hidden 512: 64 x 2048 x 512) fills only part of either GPU, so the RTX 3090 (82
// SMs) is no faster than the RTX 3080 (68 SMs, slightly higher clock), while a large GEMM scales
// with SMs.
TEST_CASE("a small LSTM step does not run faster on a bigger GPU", "[gemm][model]") {
  const gemm_problem lstm{64, 2048, 512, 1, dtype::fp16, accumulator::fp32};
  const auto on_3080 = best_gemm(catalog::rtx_3080, lstm);
  const auto on_3090 = best_gemm(catalog::rtx_3090, lstm);
  CHECK(on_3090.time.value() >= 0.98 * on_3080.time.value());
  const auto big_3080 = best_gemm(catalog::rtx_3080, square_8k);
  const auto big_3090 = best_gemm(catalog::rtx_3090, square_8k);
  CHECK(big_3080.time / big_3090.time > 1.1);
}

TEST_CASE("the efficiency is a device parameter", "[gemm]") {
  // A device identical to an A100 except for half its large-GEMM efficiency takes twice the
  // compute time: this is the knob calibration replaces.
  struct half_efficient : gpu_spec {
    using gpu_spec::gpu_spec;
    [[nodiscard]] constexpr double gemm_efficiency(dtype t) const {
      return gpu_spec::gemm_efficiency(t) / 2;
    }
  };
  static_assert(gemm_device<half_efficient>);
  const half_efficient slow(catalog::a100_sxm4_40gb.arch(), catalog::a100_sxm4_40gb.facts());
  const tile_config t{128, 256, 32, 64, 64, 3};
  CHECK(estimate_gemm(slow, square_8k, t).compute_time.value() ==
        Approx(2 * estimate_gemm(catalog::a100_sxm4_40gb, square_8k, t).compute_time.value()));
}

TEST_CASE("split-K pays when a batch of tiles leaves SMs idle", "[gemm]") {
  // 256 x 256 output (4 tiles of 128x128) with K = 65536: without split-K 4 SMs of 132 work.
  const gemm_problem deep{256, 256, 65536, 1, dtype::bf16, accumulator::fp32};
  const auto best = best_gemm(catalog::h100_sxm, deep);
  CHECK(best.tile.split_k > 1);
  tile_config no_split = best.tile;
  no_split.split_k = 1;
  CHECK(best.time < estimate_gemm(catalog::h100_sxm, deep, no_split).time);
}

TEST_CASE("the best tile is legal and no candidate beats it", "[gemm]") {
  const gemm_problem p{4096, 4096, 4096, 1, dtype::fp16, accumulator::fp32};
  const auto best = best_gemm(catalog::rtx_4090, p);
  CHECK(check_tile(ada_ad10x::spec, best.tile, dtype::fp16, accumulator::fp32).ok());
  for (tile_config t : tile_candidates(16))
    for (int stages = 2; stages <= max_search_stages; ++stages) {
      t.stages = stages;
      if (check_tile(ada_ad10x::spec, t, dtype::fp16, accumulator::fp32).ok())
        CHECK(best.time <= estimate_gemm(catalog::rtx_4090, p, t).time);
    }
}

TEST_CASE("GEMMs without tensor cores run on FFMA", "[gemm]") {
  const auto e = best_gemm(catalog::gtx_1080_ti, {4096, 4096, 4096, 1, dtype::fp32});
  CHECK(in_teraflops(e.throughput) < 11.34);  // FP32 peak
  CHECK(in_teraflops(e.throughput) > 8.0);
}

TEST_CASE("bad GEMMs are rejected, naming the problem", "[gemm][errors]") {
  CHECK_THROWS_WITH(best_gemm(catalog::t4, {0, 16, 16}), "gemm: m must be positive, got 0");
  CHECK_THROWS_WITH(best_gemm(catalog::t4, {16, -2, 16}), "gemm: n must be positive, got -2");
  CHECK_THROWS_WITH(best_gemm(catalog::t4, {16, 16, 0}), Catch::Contains("k must be positive"));
  gemm_problem p{16, 16, 16, 0};
  CHECK_THROWS_WITH(best_gemm(catalog::t4, p), Catch::Contains("batch must be positive"));
  p.batch = 1;
  p.alpha = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(best_gemm(catalog::t4, p), "gemm: alpha must be finite");
  p.alpha = 1;
  p.beta = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(best_gemm(catalog::t4, p), "gemm: beta must be finite");
  CHECK_THROWS_AS(best_gemm(catalog::a100_sxm4_40gb, {64, 64, 64, 1, dtype::fp8_e4m3}),
                  unsupported);
  CHECK_THROWS_WITH(
      estimate_gemm(catalog::rtx_3090, square_8k, {256, 256, 64, 64, 64, 3}),
      Catch::Contains("needs 196608 B of shared memory per block; ampere_ga10x allows"));
}

TEST_CASE("GEMMs whose tile count would not fit are rejected, not overflowed", "[gemm][errors]") {
  // Each extent is within 2^40, their product is not: 1e24 output elements.
  const gemm_problem huge{1000000000000, 1000000000000, 1000000000000};
  CHECK_THROWS_WITH(best_gemm(catalog::h100_sxm, huge),
                    "gemm: m x n x batch = 1000000000000 x 1000000000000 x 1 output elements, "
                    "more than 2^46");
  CHECK_THROWS_AS(gemm_evaluator(catalog::h100_sxm, {1LL << 30, 1LL << 10, 1, 1LL << 7}),
                  invalid_argument);
  // At the limit the count is exact: 2^46 outputs in 128 x 128 tiles are 2^32 tiles.
  const gemm_estimate e =
      estimate_gemm(catalog::h100_sxm, {1LL << 23, 1LL << 23, 64}, {128, 128, 32, 64, 64, 3});
  CHECK(e.tiles == (1LL << 32));
  // Only an absurd split-K can pass 2^52 tiles from there.
  CHECK_THROWS_WITH(estimate_gemm(catalog::h100_sxm, {1LL << 23, 1LL << 23, 64},
                                  {64, 64, 32, 32, 32, 2, false, 1 << 30}),
                    "gemm: split-K 1073741824 gives more than 2^52 tiles");
}
