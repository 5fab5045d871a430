// The pruned best-tile search returns what the exhaustive one does (the same tiling, depth and
// split, the same time bit for bit, the first in candidate order among equal times) on GPUs of
// every vendor and generation, every datatype they multiply (dense and 2:4 sparse), and m, n, k
// on a log grid from 1 to 65536 with odd sizes between (include/dlperf/estimate/tile_search.hpp).
#include <array>
#include <catch2/catch.hpp>
#include <cstddef>
#include <dlperf/dlperf.hpp>
#include <string>

using namespace dlperf;

namespace {

constexpr std::array<long long, 19> search_extents{1,    2,    3,     8,     15,   64,   100,
                                                   127,  256,  1000,  1024,  2112, 4096, 5120,
                                                   7168, 8191, 12345, 16384, 65536};

std::string describe(const gpu_spec& g, const gemm_problem& p) {
  return std::string(g.id()) + " " + std::string(name(p.input)) + (p.sparse_a ? " sparse" : "") +
         " " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) + " x" +
         std::to_string(p.batch) + (p.beta != 0 ? " beta" : "");
}

// Both searches on @p p: the same estimate, or both rejecting it.
template <gemm_device D>
void check_same(const D& d, const gemm_problem& p, const std::string& what) {
  INFO(what);
  gemm_estimate fast{}, full{};
  bool fast_threw = false, full_threw = false;
  try {
    fast = best_gemm(d, p);
  } catch (const unsupported&) {
    fast_threw = true;
  }
  try {
    full = detail::best_gemm_exhaustive(d, p);
  } catch (const unsupported&) {
    full_threw = true;
  }
  REQUIRE(fast_threw == full_threw);
  if (full_threw) return;
  CHECK(fast.tile == full.tile);
  CHECK(fast.time.value() == full.time.value());
  CHECK(fast.blocks_per_sm == full.blocks_per_sm);
  CHECK(fast.bound == full.bound);
  CHECK(fast.dram_bytes.value() == full.dram_bytes.value());
}

}  // namespace

TEST_CASE("the pruned search finds the exhaustive search's tile", "[tile_search]") {
  const std::array<const gpu_spec*, 8> gpus{
      &catalog::v100_sxm2, &catalog::a100_sxm4_40gb, &catalog::rtx_4090,    &catalog::h100_sxm,
      &catalog::b200,      &catalog::mi300x,         &catalog::rx_7900_xtx, &catalog::t4};
  const std::array<dtype, 6> types{dtype::fp16, dtype::bf16,     dtype::tf32,
                                   dtype::fp32, dtype::fp8_e4m3, dtype::fp8_e4m3_fnuz};
  std::size_t compared = 0, split = 0, latency_bound = 0;
  std::size_t slice = 0;
  for (const gpu_spec* g : gpus)
    for (dtype t : types)
      for (bool sparse : {false, true}) {
        if (!g->supports(t, default_accumulator(t),
                         sparse ? sparsity::sparse_2_4 : sparsity::dense))
          continue;
        ++slice;
        // Every (m, n) pair; k and batch vary with the pair and the slice, so that the slices
        // together cover k on the whole grid.
        for (std::size_t i = 0; i < search_extents.size(); ++i)
          for (std::size_t j = 0; j < search_extents.size(); ++j) {
            const std::size_t pick = i * 7 + j * 3 + slice;
            gemm_problem p{search_extents[i],
                           search_extents[j],
                           search_extents[pick % search_extents.size()],
                           pick % 3 == 0 ? 4 : 1,
                           t,
                           default_accumulator(t)};
            p.sparse_a = sparse;
            if (pick % 5 == 0) p.beta = 1.0;
            if (pick % 11 == 0) p.batch = 96;
            check_same(*g, p, describe(*g, p));
            const gemm_estimate e = detail::best_gemm_exhaustive(*g, p);
            ++compared;
            split += e.tile.split_k > 1 ? 1 : 0;
            latency_bound += e.latency_bound_steps ? 1 : 0;
          }
      }
  // The grid exercises every branch of the search: split-K winners and latency-bound steps.
  CHECK(compared > 5000);
  CHECK(split > 100);
  CHECK(latency_bound > 100);
}

TEST_CASE("the pruned search agrees on decode, square and batched shapes of H100",
          "[tile_search]") {
  // The benchmark's shapes (docs/gemm.md, "Speed") and a dense sweep of small m.
  for (long long m = 1; m <= 300; ++m)
    for (long long nk : {512LL, 4096LL})
      check_same(catalog::h100_sxm, {m, nk, nk, 1, dtype::bf16},
                 "h100 bf16 " + std::to_string(m) + "x" + std::to_string(nk));
  for (long long m = 4096; m <= 8192; m += 64)
    check_same(catalog::h100_sxm, {m, 4096, 4096, 1, dtype::bf16},
               "h100 bf16 " + std::to_string(m) + "x4096x4096");
  for (long long b : {1LL, 2LL, 3LL, 32LL, 1000LL})
    check_same(catalog::h100_sxm, {2048, 2048, 128, b, dtype::fp16},
               "h100 fp16 2048x2048x128 x" + std::to_string(b));
}

TEST_CASE("the pruned search agrees on the GEMMs of whole-model training steps", "[tile_search]") {
  // What a transformer or CNN training step searches: projections with and without a residual
  // read (beta = 1), weight gradients with K far above M and N, skinny and vocabulary-sized
  // shapes, and implicit-GEMM convolutions (A's DRAM bytes the input tensor, K odd as 147 =
  // 3 x 7 x 7 or 576 = 64 x 3 x 3), on GPUs of each vendor and memory-system generation.
  const std::array<const gpu_spec*, 6> gpus{&catalog::h100_sxm, &catalog::a100_sxm4_40gb,
                                            &catalog::mi300x,   &catalog::b200,
                                            &catalog::rtx_4090, &catalog::v100_sxm2};
  struct shape {
    long long m, n, k;
  };
  const std::array<shape, 14> shapes{{{4096, 1024, 1024},
                                      {4096, 1024, 4096},
                                      {4096, 4096, 1024},
                                      {1024, 3072, 4096},
                                      {1024, 4096, 4096},
                                      {3072, 1024, 4096},
                                      {615, 1024, 30522},
                                      {1024, 30522, 615},
                                      {1024, 1024, 65536},
                                      {64, 64, 1 << 20},
                                      {8, 8192, 8192},
                                      {8192, 16, 4096},
                                      {4096, 3072, 1024},
                                      {777, 333, 123457}}};
  for (const gpu_spec* g : gpus)
    for (dtype t : {dtype::bf16, dtype::fp32})
      for (const shape& sh : shapes)
        for (double beta : {0.0, 1.0}) {
          gemm_problem p{sh.m, sh.n, sh.k, 1, t, default_accumulator(t)};
          p.beta = beta;
          check_same(*g, p, describe(*g, p));
        }
  // Convolutions (ResNet-50's, batch 1 to 16): M = batch x P x Q, N = output channels,
  // K = input channels x R x S.
  struct conv {
    long long pq, c, k, rs, hw;  // output pixels per image, in and out channels, taps, input pixels
  };
  const std::array<conv, 8> convs{{{112 * 112, 3, 64, 49, 224 * 224},
                                   {56 * 56, 64, 64, 1, 56 * 56},
                                   {56 * 56, 64, 64, 9, 56 * 56},
                                   {56 * 56, 64, 256, 1, 56 * 56},
                                   {28 * 28, 128, 128, 9, 28 * 28},
                                   {14 * 14, 256, 256, 9, 14 * 14},
                                   {7 * 7, 512, 512, 9, 7 * 7},
                                   {7 * 7, 2048, 512, 1, 7 * 7}}};
  for (const gpu_spec* g : gpus)
    for (const conv& c : convs)
      for (long long batch : {1LL, 5LL, 16LL})
        for (double beta : {0.0, 1.0}) {
          gemm_problem p{batch * c.pq, c.k, c.c * c.rs, 1, dtype::bf16, accumulator::fp32};
          p.a_dram_bytes = static_cast<double>(batch * c.c * c.hw) * 2.0;
          p.beta = beta;
          check_same(*g, p, describe(*g, p) + " conv");
        }
}

TEST_CASE("the search's occupancy table follows the architecture's figures, not its address",
          "[tile_search]") {
  // Devices whose architectures differ only in shared memory (per SM and per block), interleaved
  // with more architectures than the run-time table keeps: each search must use its own device's
  // limits.
  architecture_spec less_shared = catalog::h100_sxm.arch();
  less_shared.sm.shared_per_sm = bytes(less_shared.sm.shared_per_sm.value() / 4);
  less_shared.sm.shared_per_block = bytes(less_shared.sm.shared_per_block.value() / 4);
  const measured_device quartered(less_shared, catalog::h100_sxm.facts());
  const measured_device nominal(catalog::h100_sxm);
  const std::array<const gpu_spec*, 5> others{&catalog::a100_sxm4_40gb, &catalog::b200,
                                              &catalog::mi300x, &catalog::v100_sxm2,
                                              &catalog::rtx_4090};
  const gemm_problem p{512, 512, 512, 1, dtype::bf16};
  const gemm_estimate on_nominal = best_gemm(nominal, p), on_quartered = best_gemm(quartered, p);
  for (int round = 0; round < 3; ++round) {
    check_same(quartered, p, "quartered shared memory");
    check_same(nominal, p, "nominal");
    for (const gpu_spec* g : others)
      check_same(*g, {1000, 1000, 1000, 1, dtype::fp16}, std::string(g->id()));
    CHECK(best_gemm(quartered, p).tile == on_quartered.tile);
    CHECK(best_gemm(nominal, p).tile == on_nominal.tile);
  }
  // A quarter of the shared memory holds fewer blocks of the nominal winner (64x64x64, 4
  // stages, 3 blocks per SM): the quartered device's best is slower.
  CHECK(on_quartered.blocks_per_sm < on_nominal.blocks_per_sm);
  CHECK(on_quartered.time > on_nominal.time);
}

TEST_CASE("the pruned search rejects what the exhaustive one rejects", "[tile_search][errors]") {
  check_same(catalog::a100_sxm4_40gb, {64, 64, 64, 1, dtype::fp8_e4m3}, "a100 fp8");
  CHECK_THROWS_AS(best_gemm(catalog::mi250x, {4096, 4096, 4096, 1, dtype::tf32}), unsupported);
  CHECK_THROWS_WITH(best_gemm(catalog::t4, {0, 16, 16}), "gemm: m must be positive, got 0");
}
