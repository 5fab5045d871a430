/// @file
/// RDNA 4 (2025): Navi 48 (Radeon RX 9070 XT, RX 9070), ISA gfx1201. Second-generation AI
/// accelerators double RDNA 3's WMMA rate per CU, add OCP FP8 and 2:4 structured sparsity; a
/// 64 MB Infinity Cache sits behind an 8 MB L2.
#pragma once

#include <dlperf/hardware/amd/arch/rdna3.hpp>
#include <dlperf/hardware/amd/traits.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// RDNA 4 compute unit: WMMA at 512 FP16/BF16 FMA per clock per CU (FP16 accumulation at the same
/// rate), 1024 FP8 (OCP E4M3/E5M2) and INT8, 2048 INT4; 128 FP32 FMA per clock with dual issue.
/// The rates are AMD's peaks divided by CUs x clock: Radeon RX 9070 XT specifications
/// (https://www.amd.com/en/products/graphics/desktops/radeon/9000-series/amd-radeon-rx-9070xt.html,
/// March 2025): 64 CUs, boost 2970 MHz, FP32 48.7 TFLOPS, FP16 matrix 194.7 TFLOPS (389 with
/// sparsity), FP8 389 TFLOPS (779 sparse), INT8 389 TOPS (779 sparse), INT4 779 TOPS (1557 sparse;
/// the "1557 AI TOPS" of the launch). Units as RDNA 3 (rdna3.hpp): dlperf counts compute units,
/// WMMA runs in wave32, a workgroup may allocate 64 KiB of the WGP's 128 KiB LDS; VGPR file 384 KiB
/// per CU (ROCm "GPU hardware specifications", gfx1201). Latencies, LDS and L2 bandwidth per CU: no
/// RDNA 4 figure is published, RDNA 3's are assumed.
struct rdna4 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "rdna4",
      .vendor = vendor::amd,
      .family = family::rdna4,
      .chips = "Navi 48",
      .isa = "gfx1201",
      .sm = {.registers_per_sm = 98304,
             .max_registers_per_thread = 256,
             .max_warps_per_sm = 32,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(64),
             .shared_per_block = kibibytes(64),
             .l1_and_shared = kibibytes(96),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(0)},
      .tensor_cores_per_sm = 2,
      .sparse_2_4 = true,
      .tensor = {{{dtype::fp16, accumulator::fp16, 512, 512},
                  {dtype::fp16, accumulator::fp32, 512, 512},
                  {dtype::bf16, accumulator::fp32, 512, 512},
                  {dtype::fp8_e4m3, accumulator::fp32, 1024, 1024},
                  {dtype::fp8_e5m2, accumulator::fp32, 1024, 1024},
                  {dtype::int8, accumulator::int32, 1024, 1024},
                  {dtype::int4, accumulator::int32, 2048, 2048}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128}}},  // dual-issue FP32
      // LDS bandwidth and latencies: RDNA 3's (no RDNA 4 figure is published).
      .shared_bytes_per_clock = rdna3::spec.shared_bytes_per_clock,
      .l2_bytes_per_clock = 16.0 * 128 / 64,  // RDNA 3's 16 channels x 128 B, for 64 CUs
      .latency = rdna3::spec.latency,
      .mma = rdna3::spec.mma,
      // No published large-GEMM measurement of an RDNA 4 board was found: RDNA 3's measured
      // fractions are assumed (FP16 and FP32; rdna3.hpp, docs/gemm.md "AMD").
      .gemm_efficiency_default = rdna3::spec.gemm_efficiency_default,
      .gemm_efficiency = {{{dtype::fp32, rdna3::spec.gemm_efficiency_for(dtype::fp32)}}},
      .rule_factors = {.previous = "rdna3",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the guide's rule is stated for NVIDIA "
                                 "generations"}};
};

}  // namespace dlperf
