/// @file
/// CDNA 4 (2025): the MI350 series (MI350X, MI355X), ISA gfx950. Eight accelerator complex dies
/// of 32 compute units (256) on two I/O dies; matrix cores double CDNA 3's 16-bit and 8-bit rates
/// per CU, add OCP FP8 and FP4/FP6, and drop XF32.
#pragma once

#include <dlperf/hardware/amd/arch/cdna3.hpp>
#include <dlperf/hardware/amd/traits.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// CDNA 4 compute unit: 4 matrix cores, dense 2048 FP16/BF16 FMA per clock per CU, 4096 FP8 (OCP
/// E4M3 and E5M2) and INT8, 8192 FP4, 128 FP32 (matrix and vector). The rates are AMD's peaks
/// divided by CUs x clock: AMD Instinct MI355X datasheet (https://www.amd.com/content/dam/amd/en/
/// documents/instinct-tech-docs/product-briefs/amd-instinct-mi355x-gpu-brochure.pdf, June 2025):
/// 256 CUs at 2400 MHz peak engine clock, FP16/BF16 2.5 PFLOPS (2516.6 TFLOPS), FP8 and INT8 5.0
/// (5033.2), MXFP4 10.1 (10066.3), FP32 matrix and vector 157.3 TFLOPS; 2:4 sparsity doubles FP16,
/// BF16, FP8 and INT8. The per-CU FP8 rate is confirmed by AMD's ISSCC 2026 paper (8192 FP8 FLOP
/// per clock per CU, twice CDNA 3's 4096; reported by world-today-news.com, February 2026).
/// gfx950 has no XF32 MFMA, so `tf32` is rejected as unsupported. Per-CU resources: ROCm "GPU
/// hardware specifications" (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html):
/// wavefront 64, LDS 160 KiB per CU, L1 32 KiB, VGPR file 512 KiB. Matrix instruction MFMA 16x16
/// with 256 bits of K (v_mfma_f32_16x16x32_bf16 takes 32 BF16 of K in two passes: the 256-bit
/// shape is the one CDNA 3's tiles already use). LDS bandwidth, L2 bandwidth per CU and latencies:
/// no CDNA 4 figure is published, CDNA 3's are assumed (cdna3.hpp).
struct cdna4 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "cdna4",
      .vendor = vendor::amd,
      .family = family::cdna4,
      .chips = "MI350X, MI355X",
      .isa = "gfx950",
      .sm = {.registers_per_sm = 131072,
             .max_registers_per_thread = 512,
             .max_warps_per_sm = 32,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(160),
             .shared_per_block = kibibytes(160),
             .l1_and_shared = kibibytes(192),  // LDS 160 KiB and L1 32 KiB are separate arrays
             .simd_width = 64,
             .shared_reserved_per_block = kibibytes(0)},
      .tensor_cores_per_sm = 4,
      .sparse_2_4 = true,
      .tensor = {{{dtype::fp16, accumulator::fp32, 2048, 2048},
                  {dtype::bf16, accumulator::fp32, 2048, 2048},
                  {dtype::fp8_e4m3, accumulator::fp32, 4096, 4096},
                  {dtype::fp8_e5m2, accumulator::fp32, 4096, 4096},
                  {dtype::int8, accumulator::int32, 4096, 4096},
                  {dtype::fp4_e2m1, accumulator::fp32, 8192, 8192},
                  {dtype::fp32, accumulator::fp32, 128, 128}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128}}},
      // LDS bandwidth and latencies: CDNA 3's (no CDNA 4 figure is published).
      .shared_bytes_per_clock = cdna3::spec.shared_bytes_per_clock,
      .l2_bytes_per_clock = 2048.0 / 32,  // 2 KB per clock per XCD, now of 32 CUs
      .latency = cdna3::spec.latency,
      .mma = cdna3::spec.mma,
      // No published large-GEMM measurement of an MI350-series part was found: CDNA 3's measured
      // fractions are assumed (BF16, and FP8 from CDNA 3's FNUZ formats for the OCP ones;
      // cdna3.hpp, docs/gemm.md "AMD").
      .gemm_efficiency_default = cdna3::spec.gemm_efficiency_default,
      .gemm_efficiency = {{{dtype::fp8_e4m3, cdna3::spec.gemm_efficiency_for(dtype::fp8_e4m3_fnuz)},
                           {dtype::fp8_e5m2,
                            cdna3::spec.gemm_efficiency_for(dtype::fp8_e5m2_fnuz)}}},
      .rule_factors = {
          .previous = "cdna3",
          .shared_memory = {},
          .tensor_cores = {},
          .source = "none published: the guide's rule is stated for NVIDIA generations"}};
};

}  // namespace dlperf
