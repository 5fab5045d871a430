// AMD Instinct and Radeon through the same estimators: derived peaks from CUs x clock x rate per
// CU per clock, the FNUZ FP8 path, what CDNA 2 cannot run, the Infinity Cache tier, and the
// vendor's vocabulary.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>

using namespace dlperf;

TEST_CASE("AMD peaks are CUs x FMA per clock per CU x 2 x peak engine clock", "[amd][catalog]") {
  // MI300X datasheet: 304 CUs at 2100 MHz; BF16 1307.4, FP8 2614.9, XF32 653.7, FP32 163.4.
  const double cu_clock = 304 * 2.0 * 2100e6;
  CHECK(catalog::mi300x.peak(dtype::bf16).value() == Approx(cu_clock * 1024));
  CHECK(in_teraflops(catalog::mi300x.peak(dtype::bf16)) == Approx(1307.4).epsilon(0.0005));
  CHECK(in_teraflops(catalog::mi300x.peak(dtype::fp8_e4m3_fnuz)) == Approx(2614.9).epsilon(0.0005));
  CHECK(in_teraflops(catalog::mi300x.peak(dtype::fp8_e5m2_fnuz)) == Approx(2614.9).epsilon(0.0005));
  CHECK(in_teraflops(catalog::mi300x.peak(dtype::tf32)) == Approx(653.7).epsilon(0.0005));
  CHECK(in_teraflops(catalog::mi300x.peak(dtype::fp32)) == Approx(163.4).epsilon(0.0005));
  // MI325X: the same compute as MI300X, more and faster memory (6 TB/s, 256 GB).
  for (dtype t : {dtype::bf16, dtype::fp16, dtype::fp8_e4m3_fnuz, dtype::tf32, dtype::int8})
    CHECK(catalog::mi325x.peak(t) == catalog::mi300x.peak(t));
  CHECK(in_gigabytes_per_second(catalog::mi325x.memory_bandwidth()) == Approx(6000).epsilon(0.001));
  CHECK(in_gibibytes(catalog::mi325x.memory(tier::global).capacity) == 256);
  // MI250X datasheet: 220 CUs at 1700 MHz, BF16 383 TFLOPS, FP32 matrix 95.7, 3.2768 TB/s.
  CHECK(in_teraflops(catalog::mi250x.peak(dtype::bf16)) == Approx(383.0).epsilon(0.001));
  CHECK(in_teraflops(catalog::mi250x.peak(dtype::fp32)) == Approx(95.7).epsilon(0.001));
  CHECK(in_gigabytes_per_second(catalog::mi250x.memory_bandwidth()) == Approx(3276.8));
  // RX 7900 XTX: 96 CUs at 2500 MHz, FP16 122.8 TFLOPS (WMMA, either accumulator), FP32 61.4.
  CHECK(in_teraflops(catalog::rx_7900_xtx.peak(dtype::fp16)) == Approx(122.8).epsilon(0.001));
  CHECK(catalog::rx_7900_xtx.peak(dtype::fp16, accumulator::fp16) ==
        catalog::rx_7900_xtx.peak(dtype::fp16, accumulator::fp32));
  CHECK(in_teraflops(catalog::rx_7900_xtx.peak(dtype::fp32)) == Approx(61.4).epsilon(0.001));
}

TEST_CASE("MI300X runs FNUZ FP8 only, CDNA 2 has neither TF32 nor FP8", "[amd][errors]") {
  CHECK_THROWS_WITH(catalog::mi300x.peak(dtype::fp8_e4m3),
                    "cdna3 cannot run fp8_e4m3 with fp32 accumulation");
  CHECK_THROWS_AS(catalog::mi300x.peak(dtype::fp8_e5m2), unsupported);
  CHECK_THROWS_WITH(catalog::mi250x.peak(dtype::tf32),
                    "cdna2 cannot run tf32 with fp32 accumulation");
  CHECK_THROWS_WITH(catalog::mi250x.peak(dtype::fp8_e4m3_fnuz),
                    "cdna2 cannot run fp8_e4m3_fnuz with fp32 accumulation");
  CHECK_THROWS_AS(best_gemm(catalog::mi250x, {4096, 4096, 4096, 1, dtype::tf32}), unsupported);
  CHECK_THROWS_AS(catalog::rx_7900_xtx.peak(dtype::fp8_e4m3_fnuz), unsupported);
  // 2:4 sparsity: CDNA 3 doubles FP8 (5229.8 TFLOPS); CDNA 2 has no sparse path.
  CHECK(in_teraflops(catalog::mi300x.peak(dtype::fp8_e4m3_fnuz, accumulator::fp32,
                                          sparsity::sparse_2_4)) == Approx(5229.8).epsilon(0.001));
  CHECK_THROWS_WITH(catalog::mi250x.peak(dtype::fp16, accumulator::fp32, sparsity::sparse_2_4),
                    Catch::Contains("no 2:4 sparse"));
}

TEST_CASE("Infinity Cache is the llc tier, MI250X has none", "[amd][catalog]") {
  const tier_spec ic = catalog::mi300x.memory(tier::llc);
  CHECK(in_mebibytes(ic.capacity) == 256);
  CHECK(in_gigabytes_per_second(ic.throughput) == Approx(17200));
  CHECK(ic.latency_cycles > catalog::mi300x.memory(tier::l2).latency_cycles);
  CHECK(ic.latency_cycles < catalog::mi300x.memory(tier::global).latency_cycles);
  CHECK(in_mebibytes(catalog::rx_7900_xtx.memory(tier::llc).capacity) == 96);
  CHECK(catalog::mi250x.memory(tier::llc).capacity.value() == 0);
  CHECK(in_mebibytes(catalog::mi300x.memory(tier::l2).capacity) == 32);
}

TEST_CASE("AMD architectures speak AMD's vocabulary", "[amd][architecture]") {
  CHECK(vendor_traits<vendor::amd>::compute_unit == "CU");
  CHECK(vendor_traits<vendor::amd>::blas == "hipBLASLt");
  for (const architecture_spec* a : {&cdna2::spec, &cdna3::spec, &rdna3::spec}) {
    INFO(a->name);
    CHECK(a->vendor == vendor::amd);
    CHECK(a->isa.substr(0, 3) == vendor_traits<vendor::amd>::isa_prefix);
    CHECK(find_architecture(a->name).family == a->family);
    CHECK_THROWS_WITH(compute_capability_of(*a), Catch::Contains("no CUDA compute capability"));
    CHECK(a->sm.shared_per_sm.value() == 64 * 1024);  // LDS per CU (RDNA 3: half a WGP's)
    CHECK(a->mma.m == 16);
    CHECK(a->mma.n == 16);
  }
  // Wavefront 64 on CDNA (ROCm hardware specifications), wave32 for RDNA 3's WMMA.
  CHECK(cdna3::spec.sm.simd_width == 64);
  CHECK(rdna3::spec.sm.simd_width == 32);
  CHECK(cdna3::spec.sm.max_threads_per_sm() == 2048);
  // MFMA 16x16x16 for BF16, 16x16x32 for FP8, 16x16x8 for XF32 (CDNA 3 ISA).
  CHECK(cdna3::spec.mma.k(16) == 16);
  CHECK(cdna3::spec.mma.k(8) == 32);
  CHECK(cdna3::spec.mma.k(32) == 8);
}

TEST_CASE("AMD tiles are counted in wavefronts", "[amd][tile]") {
  // 256x256 block of 64x64 wave tiles: 16 wavefronts of 64 lanes = 1024 work-items.
  const tile_check c =
      check_tile(cdna3::spec, {256, 256, 32, 64, 64, 2}, dtype::bf16, accumulator::fp32);
  REQUIRE(c.ok());
  CHECK(c.threads == 1024);
  // The same block in wave32 on RDNA 3 is 512 work-items.
  CHECK(
      check_tile(rdna3::spec, {256, 256, 32, 64, 64, 2}, dtype::fp16, accumulator::fp32).threads ==
      512);
  // A warp tile that is not a multiple of the 16x16 MFMA shape is rejected.
  CHECK(check_tile(cdna3::spec, {96, 96, 32, 24, 48, 2}, dtype::bf16, accumulator::fp32).problem ==
        tile_problem::mma_shape);
  // LDS is 64 KiB: 128x128x64 BF16 in 3 stages (96 KiB) does not fit.
  CHECK(
      check_tile(cdna3::spec, {128, 128, 64, 64, 64, 3}, dtype::bf16, accumulator::fp32).problem ==
      tile_problem::shared_per_block);
}

TEST_CASE("CDNA 4 runs OCP FP8 and FP4 but not XF32 or FNUZ FP8", "[amd][catalog][errors]") {
  // MI355X datasheet: 256 CUs at 2400 MHz; FP16/BF16 2.5 PFLOPS, FP8 5.0, MXFP4 10; twice CDNA 3's
  // FP16 and FP8 rates per CU per clock (1024 and 2048 FMA).
  const double cu_clock = 256 * 2.0 * 2400e6;
  CHECK(catalog::mi355x.peak(dtype::bf16).value() == Approx(cu_clock * 2048));
  CHECK(cdna4::spec.tensor_rate(dtype::bf16, accumulator::fp32) ==
        2 * cdna3::spec.tensor_rate(dtype::bf16, accumulator::fp32));
  CHECK(cdna4::spec.tensor_rate(dtype::fp8_e4m3, accumulator::fp32) ==
        2 * cdna3::spec.tensor_rate(dtype::fp8_e4m3_fnuz, accumulator::fp32));
  CHECK(catalog::mi355x.peak(dtype::fp8_e5m2) == catalog::mi355x.peak(dtype::fp8_e4m3));
  CHECK_THROWS_WITH(catalog::mi355x.peak(dtype::tf32),
                    "cdna4 cannot run tf32 with fp32 accumulation");
  CHECK_THROWS_AS(catalog::mi355x.peak(dtype::fp8_e4m3_fnuz), unsupported);
  // MI350X: the same silicon at 2200 MHz.
  CHECK(catalog::mi350x.peak(dtype::bf16) / catalog::mi355x.peak(dtype::bf16) ==
        Approx(2200.0 / 2400.0));
  CHECK(cdna4::spec.sm.shared_per_sm.value() == 160 * 1024);  // LDS per CU, gfx950
  CHECK(find_architecture("cdna4").isa == "gfx950");
}

TEST_CASE("RDNA 4 doubles RDNA 3's WMMA rate and adds FP8 and 2:4 sparsity", "[amd][catalog]") {
  // RX 9070 XT: 64 CUs at 2970 MHz, FP16 matrix 194.7 TFLOPS, 389 with sparsity, FP8 389.
  CHECK(rdna4::spec.tensor_rate(dtype::fp16, accumulator::fp32) ==
        2 * rdna3::spec.tensor_rate(dtype::fp16, accumulator::fp32));
  CHECK(catalog::rx_9070_xt.peak(dtype::fp16, accumulator::fp32, sparsity::sparse_2_4) ==
        2.0 * catalog::rx_9070_xt.peak(dtype::fp16));
  CHECK(catalog::rx_9070_xt.peak(dtype::fp8_e4m3) == 2.0 * catalog::rx_9070_xt.peak(dtype::fp16));
  CHECK_THROWS_AS(catalog::rx_7900_xtx.peak(dtype::fp8_e4m3), unsupported);
  CHECK_THROWS_AS(catalog::rx_9070_xt.peak(dtype::tf32), unsupported);
  // A consumer Radeon: FP32 accumulation runs at the FP16-accumulated rate (no GeForce halving).
  CHECK(catalog::rx_9070_xt.peak(dtype::fp16, accumulator::fp16) ==
        catalog::rx_9070_xt.peak(dtype::fp16, accumulator::fp32));
}
