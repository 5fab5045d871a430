// Tile configurations: resource use, occupancy, and every rejection with its numbers.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>

using namespace dlperf;

TEST_CASE("CUTLASS's A100 tile 128x256x32, 3 stages, uses what the formulas say", "[tile]") {
  // 3 x (128 x 32 + 32 x 256) x 2 B = 73728 B; 256 threads; 64x64 FP32 accumulators = 128
  // registers + 64 of fragments + 24 = 216; one block per SM (216 x 256 > 65536 / 2).
  const tile_config t{128, 256, 32, 64, 64, 3};
  const tile_check c = check_tile(ampere_ga100::spec, t, dtype::fp16, accumulator::fp32);
  REQUIRE(c.ok());
  CHECK(c.shared_bytes == 73728);
  CHECK(c.threads == 256);
  CHECK(c.registers_per_thread == 216);
  CHECK(c.blocks_per_sm == 1);
}

TEST_CASE("occupancy follows the tightest limit", "[tile]") {
  // 64x64x32, 2 stages, 32x32 warps: 4 warps, 16 KiB shared, 32 + 32 + 24 = 88 registers.
  const tile_config t{64, 64, 32, 32, 32, 2};
  const tile_check a100 = check_tile(ampere_ga100::spec, t, dtype::fp16, accumulator::fp32);
  REQUIRE(a100.ok());
  CHECK(a100.registers_per_thread == 88);
  // Registers: 65536 / (88 x 128) = 5; shared: 164 KiB / 17 KiB = 9; threads: 2048/128 = 16.
  CHECK(a100.blocks_per_sm == 5);
  // Turing: 1024 threads per SM allow 8 blocks, registers 5, shared 64 KiB / 16 KiB = 4.
  const tile_check turing = check_tile(turing_tu10x::spec, t, dtype::fp16, accumulator::fp32);
  REQUIRE(turing.ok());
  CHECK(turing.blocks_per_sm == 4);
}

TEST_CASE("FP16 accumulators halve the accumulator registers", "[tile]") {
  const tile_config t{128, 128, 32, 64, 64, 2};
  CHECK(tile_registers_per_thread(volta_gv100::spec, t, dtype::fp16, accumulator::fp32) >
        tile_registers_per_thread(volta_gv100::spec, t, dtype::fp16, accumulator::fp16));
}

TEST_CASE("2:4 sparse A stores half its values plus 2-bit indices", "[tile]") {
  const tile_config dense_tile{128, 128, 64, 64, 64, 3};
  tile_config sparse_tile = dense_tile;
  sparse_tile.sparse_a = true;
  // A per stage: 128 x 64 x 2 B = 16 KiB dense; 8 KiB + 1 KiB of indices sparse.
  CHECK(tile_shared_bytes(dense_tile, dtype::fp16) - tile_shared_bytes(sparse_tile, dtype::fp16) ==
        3 * (16384.0 - 9216.0));
}

TEST_CASE("every rejection names the limit and the numbers", "[tile][errors]") {
  const auto why = [](const architecture_spec& a, tile_config t, dtype in) {
    const tile_check c = check_tile(a, t, in, default_accumulator(in));
    return describe(c, a, t, in);
  };
  // The sentence names the numbers: 3 x (256 x 64 + 64 x 256) x 2 B = 196608 B > 99 KiB on GA10x.
  CHECK(why(ampere_ga10x::spec, {256, 256, 64, 64, 64, 3}, dtype::fp16) ==
        "tile 256x256x64 (warp 64x64, 3 stages) needs 196608 B of shared memory per block; "
        "ampere_ga10x allows 101376 B");
  CHECK_THAT(why(ampere_ga100::spec, {256, 256, 32, 128, 128, 2}, dtype::fp16),
             Catch::Contains("registers per thread; ampere_ga100 allows 255"));
  CHECK_THAT(why(ampere_ga100::spec, {96, 96, 32, 24, 48, 2}, dtype::fp16),
             Catch::Contains("MMA shape m16n8k16"));
  CHECK_THAT(why(ampere_ga100::spec, {128, 128, 8, 64, 64, 2}, dtype::fp16),
             Catch::Contains("multiple of ampere_ga100's MMA shape"));
  CHECK_THAT(why(ampere_ga100::spec, {256, 256, 32, 32, 32, 2}, dtype::fp16),
             Catch::Contains("2048 threads per block; ampere_ga100 allows 1024"));
  CHECK_THAT(why(ampere_ga100::spec, {128, 128, 64, 64, 64, 2}, dtype::fp8_e4m3),
             Catch::Contains("cannot multiply fp8_e4m3"));
  CHECK_THAT(why(hopper_gh100::spec, {128, 128, 64, 64, 128, 2}, dtype::fp16),
             Catch::Contains("groups of 4"));
  CHECK_THAT(why(ampere_ga100::spec, {100, 128, 32, 64, 64, 2}, dtype::fp16),
             Catch::Contains("multiple of the warp tile"));
  CHECK_THAT(why(ampere_ga100::spec, {128, 128, 32, 64, 64, 0}, dtype::fp16),
             Catch::Contains("extents must be positive"));
  tile_config sparse_volta{128, 128, 32, 64, 64, 2};
  sparse_volta.sparse_a = true;
  CHECK_THAT(why(volta_gv100::spec, sparse_volta, dtype::fp16),
             Catch::Contains("with 2:4 sparsity"));
  CHECK(why(ampere_ga100::spec, {128, 128, 32, 64, 64, 2}, dtype::fp16).empty());
}

TEST_CASE("GB100 keeps accumulators in tensor memory, not registers", "[tile]") {
  const tile_config t{128, 256, 64, 64, 64, 3};
  const tile_check c = check_tile(blackwell_gb100::spec, t, dtype::fp16, accumulator::fp32);
  REQUIRE(c.ok());
  CHECK(c.registers_per_thread == 24);
  // 128 x 256 x 4 B = 128 KiB of the 256 KiB tensor memory: two blocks at most.
  CHECK(c.blocks_per_sm <= 2);
  const tile_check big =
      check_tile(blackwell_gb100::spec, {256, 512, 64, 64, 64, 1}, dtype::fp16, accumulator::fp32);
  CHECK(big.problem == tile_problem::tensor_memory);
}
