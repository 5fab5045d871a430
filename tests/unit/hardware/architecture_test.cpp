// Architectures: the per-SM facts of docs/model.md#model_hierarchy and #model_datatypes and what
// each generation can and cannot run.
#include <catch2/catch.hpp>
#include <dlperf/hardware/architectures.hpp>

using namespace dlperf;

// docs/model.md#model_datatypes: Volta/Turing 8 tensor cores x 64 FP16 FMA = 512 per SM per clock;
// GA100 4 x 256 = 1024; Ampere TF32 = 1/2 FP16, INT8 = 2x; Ada and Hopper FP8 = 2x FP16.
TEST_CASE("tensor-core rates per SM follow the published figures", "[architecture][model]") {
  CHECK(volta_gv100::spec.tensor_cores_per_sm == 8);
  CHECK(volta_gv100::spec.tensor_rate(dtype::fp16, accumulator::fp32) == 512);
  CHECK(turing_tu10x::spec.tensor_rate(dtype::fp16, accumulator::fp16) == 512);
  CHECK(ampere_ga100::spec.tensor_cores_per_sm == 4);
  CHECK(ampere_ga100::spec.tensor_rate(dtype::fp16, accumulator::fp32) == 1024);
  for (const auto* a : {&ampere_ga100::spec, &ampere_ga10x::spec}) {
    const int f16 = a->tensor_rate(dtype::fp16, accumulator::fp16);
    CHECK(a->tensor_rate(dtype::tf32, accumulator::fp32) * 2 == f16);
    CHECK(a->tensor_rate(dtype::int8, accumulator::int32) == 2 * f16);
  }
  for (const auto* a : {&ada_ad10x::spec, &hopper_gh100::spec}) {
    CHECK(a->tensor_rate(dtype::fp8_e4m3, accumulator::fp32) ==
          2 * a->tensor_rate(dtype::fp16, accumulator::fp32));
  }
  // Hopper doubles Ampere per SM per clock.
  CHECK(hopper_gh100::spec.tensor_rate(dtype::fp16, accumulator::fp32) ==
        2 * ampere_ga100::spec.tensor_rate(dtype::fp16, accumulator::fp32));
}

TEST_CASE("GeForce halves FP32-accumulated tensor math, datacenter parts do not",
          "[architecture]") {
  CHECK(ampere_ga10x::spec.tensor_rate(dtype::fp16, accumulator::fp32, true) ==
        ampere_ga10x::spec.tensor_rate(dtype::fp16, accumulator::fp16, true) / 2);
  CHECK(ampere_ga100::spec.tensor_rate(dtype::fp16, accumulator::fp32, true) ==
        ampere_ga100::spec.tensor_rate(dtype::fp16, accumulator::fp16, true));
  // INT8 is never halved; Blackwell GeForce FP4 is not either (RTX Blackwell whitepaper).
  CHECK(ada_ad10x::spec.tensor_rate(dtype::int8, accumulator::int32, true) == 1024);
  CHECK(blackwell_gb20x::spec.tensor_rate(dtype::fp4_e2m1, accumulator::fp32, true) == 2048);
}

// docs/model.md#model_hierarchy: Volta 96 KB shared of 128 KB; Turing 64 of 96; A100 164 of 192;
// GA10x 100 of 128; Ada 100 of 128; Hopper 228 of 256; 64 K registers per SM, 255 per thread.
TEST_CASE("shared memory and registers per SM follow the published figures",
          "[architecture][model]") {
  struct row {
    const architecture_spec* arch;
    double shared_kib, unified_kib;
  };
  for (const row& r : {row{&volta_gv100::spec, 96, 128}, row{&turing_tu10x::spec, 64, 96},
                       row{&ampere_ga100::spec, 164, 192}, row{&ampere_ga10x::spec, 100, 128},
                       row{&ada_ad10x::spec, 100, 128}, row{&hopper_gh100::spec, 228, 256}}) {
    INFO(r.arch->name);
    CHECK(r.arch->sm.shared_per_sm.value() == r.shared_kib * 1024);
    CHECK(r.arch->sm.l1_and_shared.value() == r.unified_kib * 1024);
  }
  for (const architecture_spec& a : all_architectures) {
    INFO(a.name);
    if (a.vendor == vendor::nvidia) {  // AMD's register files differ (see amd_test.cpp)
      CHECK(a.sm.registers_per_sm == 65536);
      CHECK(a.sm.max_registers_per_thread == 255);
      CHECK(a.sm.register_file().value() == 256.0 * 1024);
    }
    CHECK(a.sm.shared_per_block <= a.sm.shared_per_sm);
    CHECK(a.sm.max_threads_per_sm() >= 1024);
  }
}

TEST_CASE("what each generation cannot run is rejected with the reason", "[architecture][errors]") {
  CHECK(!ampere_ga100::spec.supports(dtype::fp8_e4m3, accumulator::fp32));
  CHECK(!pascal_gp10x::spec.has_tensor_path(dtype::fp16, accumulator::fp32));
  CHECK(!turing_tu10x::spec.supports(dtype::bf16, accumulator::fp32));
  CHECK(!volta_gv100::spec.supports(dtype::int8, accumulator::int32, sparsity::sparse_2_4));
  CHECK(!hopper_gh100::spec.supports(dtype::int4, accumulator::int32));
  CHECK(!ada_ad10x::spec.supports(dtype::fp4_e2m1, accumulator::fp32));
  CHECK(!pascal_gp100::spec.supports(dtype::int8, accumulator::int32));  // GP100 has no DP4A
  CHECK(pascal_gp10x::spec.supports(dtype::int8, accumulator::int32));   // GP10x has

  CHECK_THROWS_WITH(
      ampere_ga100::spec.fma_per_clock(dtype::fp8_e4m3, accumulator::fp32, sparsity::dense, false),
      "ampere_ga100 cannot run fp8_e4m3 with fp32 accumulation");
  CHECK_THROWS_WITH(
      turing_tu11x::spec.fma_per_clock(dtype::bf16, accumulator::fp32, sparsity::dense, false),
      Catch::Contains("no tensor cores"));
  CHECK_THROWS_WITH(
      turing_tu10x::spec.fma_per_clock(dtype::fp16, accumulator::fp32, sparsity::sparse_2_4, false),
      Catch::Contains("no 2:4 sparse tensor-core path"));
  CHECK_THROWS_AS(
      volta_gv100::spec.fma_per_clock(dtype::tf32, accumulator::fp32, sparsity::dense, false),
      unsupported);
}

TEST_CASE("sparsity doubles the tensor rate from Ampere on", "[architecture]") {
  for (const architecture_spec& a : all_architectures) {
    INFO(a.name);
    if (a.vendor == vendor::nvidia) CHECK(a.sparse_2_4 == (compute_capability_of(a).major >= 8));
    if (a.sparse_2_4)
      CHECK(a.fma_per_clock(dtype::fp16, accumulator::fp32, sparsity::sparse_2_4, false) ==
            2 * a.fma_per_clock(dtype::fp16, accumulator::fp32, sparsity::dense, false));
  }
}

TEST_CASE("architectures are found by name", "[architecture]") {
  CHECK(compute_capability_of(find_architecture("hopper_gh100")).major == 9);
  CHECK_THROWS_AS(find_architecture("kepler"), not_found);
  CHECK_THROWS_WITH(find_architecture("kepler"), Catch::Contains("unknown architecture 'kepler'"));
}
