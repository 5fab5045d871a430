// Compile-time tests: tile checks, the GEMM model, the best-tile search and the cycle model.
#include <dlperf/dlperf.hpp>

using namespace dlperf;
using namespace dlperf::literals;

// "This tile fits Ampere's shared memory": CUTLASS's 128x256x32, 3 stages, on A100.
static_assert(blocks_per_sm<ampere_ga100, tile<128, 256, 32, 64, 64, 3>, fp16_tag>() == 1);
static_assert(blocks_per_sm<ampere_ga10x, tile<128, 128, 32, 64, 64, 3>, fp16_tag>() >= 1);
static_assert(blocks_per_sm<hopper_gh100, tile<128, 256, 64, 64, 64, 4>, bf16_tag>() == 1);
static_assert(check_tile(ampere_ga10x::spec, tile<256, 256, 64, 64, 64, 3>::value, dtype::fp16,
                         accumulator::fp32)
                      .problem == tile_problem::shared_per_block,
              "256x256x64 x 3 stages does not fit GA10x");

// The GEMM model and the best-tile search run at compile time.
constexpr gemm_problem big{8192, 8192, 8192, 1, dtype::fp8_e4m3, accumulator::fp32};
constexpr gemm_estimate big_fp8_on_h100 = best_gemm(catalog::h100_sxm, big);
static_assert(big_fp8_on_h100.bound == bound::compute, "8192^3 FP8 is compute-bound on H100");
static_assert(big_fp8_on_h100.throughput > 1.0_PFLOPS && big_fp8_on_h100.throughput < 1.5_PFLOPS);
static_assert(estimate_gemm(catalog::a100_sxm4_40gb, {8192, 8192, 8192},
                            tile<128, 256, 32, 64, 64, 3>::value)
                  .waves == 19);
// The whole search, split-K on every tiling included, within the default constant-evaluation
// limits: a decode-shaped GEMM leaves H100's SMs idle and splits K.
constexpr gemm_estimate small_on_h100 =
    best_gemm(catalog::h100_sxm, {16, 2112, 7168, 1, dtype::bf16, accumulator::fp32});
static_assert(small_on_h100.tile.split_k > 1, "16 x 2112 x 7168 leaves SMs idle: split-K");

// The guide's worked example (docs/gemm.md#gemm_cycles).
static_assert(cycles_without_tensor_cores(dettmers_example, dettmers_2020).total() == 392);
static_assert(cycles_with_tensor_cores(dettmers_example, dettmers_2020).total() == 221);

// AMD through the same estimators: a large BF16 GEMM on MI300X is compute-bound, both in the
// roofline and in the tile model over MFMA 16x16 tiles.
constexpr gemm_problem big_bf16{8192, 8192, 8192, 1, dtype::bf16, accumulator::fp32};
static_assert(best_gemm(catalog::mi300x, big_bf16).bound == bound::compute,
              "8192^3 BF16 is compute-bound on MI300X");
static_assert(roofline(catalog::mi300x, workload{}
                                            .compute(dtype::bf16, flops(2.0 * 8192 * 8192 * 8192))
                                            .move(tier::global, bytes(3.0 * 8192 * 8192 * 2)))
                  .bound == bound::compute);
static_assert(blocks_per_sm<cdna3, tile<256, 256, 32, 64, 64, 2>, bf16_tag>() >= 1,
              "a 256x256 MFMA tile of 16 wavefronts fits a CDNA 3 CU");
