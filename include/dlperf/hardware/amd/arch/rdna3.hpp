/// @file
/// RDNA 3 (2022): Navi 31 (Radeon RX 7900 XTX), ISA gfx1100. Workgroup processors of two compute
/// units share a 128 KiB LDS; WMMA matrix instructions run on wave32; a 96 MB Infinity Cache sits
/// on the memory cache dies.
#pragma once

#include <dlperf/hardware/amd/traits.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// RDNA 3 compute unit: WMMA at 256 FP16/BF16/INT8 FMA per clock per CU (FP16 accumulation at the
/// same rate), 128 FP32 FMA per clock with dual issue. The rates are AMD's peaks divided by CUs x
/// clock: Radeon RX 7900 XTX specifications (https://www.amd.com/en/products/graphics/desktops/
/// radeon/7000-series/amd-radeon-rx-7900xtx.html): 96 CUs, boost 2500 MHz, FP16 122.8 TFLOPS,
/// FP32 61.4 TFLOPS. No TF32, FP8 or 2:4 sparsity. Units: dlperf counts compute units (96), not
/// WGPs (48); the WGP's 128 KiB LDS is 64 KiB per CU, and 64 KiB is what one workgroup may
/// allocate. `simd_width` is 32 because WMMA runs only in wave32 (RDNA 3 ISA reference, section
/// 7.9: v_wmma_f32_16x16x16_f16 is a wave32 instruction; wave64 issues it twice), so tiles are
/// counted in wave32 wavefronts. Per-CU resources: ROCm "GPU hardware specifications"
/// (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html): VGPR file 384 KiB per CU
/// (192 KiB per SIMD, 256 VGPRs per lane), 16 wave32 slots per SIMD (32 per CU). Latencies at
/// 2.5 GHz, approximate readings of chipsandcheese's RDNA 3 measurements (2023): L2 about 80 ns,
/// Infinity Cache about 130 ns, GDDR6 about 290 ns.
struct rdna3 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "rdna3",
      .vendor = vendor::amd,
      .family = family::rdna3,
      .chips = "Navi 31",
      .isa = "gfx1100",
      .sm = {.registers_per_sm = 98304,
             .max_registers_per_thread = 256,
             .max_warps_per_sm = 32,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(64),
             .shared_per_block = kibibytes(64),
             .l1_and_shared = kibibytes(96),  // LDS 64 KiB per CU and L0 32 KiB are separate
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(0)},
      .tensor_cores_per_sm = 2,
      .sparse_2_4 = false,
      .tensor = {{{dtype::fp16, accumulator::fp16, 256, 256},
                  {dtype::fp16, accumulator::fp32, 256, 256},
                  {dtype::bf16, accumulator::fp32, 256, 256},
                  {dtype::int8, accumulator::int32, 256, 256}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128}}},  // dual-issue FP32
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 16.0 * 128 / 96,  // 16 L2 channels x 128 B for 96 CUs
      .latency = {.global = 725, .l2 = 200, .llc = 325, .l1 = 100, .shared = 32, .ffma = 4},
      .mma = {.m = 16, .n = 16, .k_bits = 256},
      // FP16 torch.mm 4096^3 on RX 7900 XTX at 105.43 TFLOPS, 0.858 of 122.9 (WMMA); FP32 4096^3
      // at 26.84, 0.437 of 61.4 (zzc0721/torch-performance-test-data issue 58, torch 2.7.1 +
      // ROCm 6.3, host-timed). BF16 and INT8 use FP16's fraction; BF16 rows validate it
      // (docs/gemm.md, "AMD").
      .gemm_efficiency_default = 0.858,
      .gemm_efficiency = {{{dtype::fp32, 0.437}}},
      .rule_factors = {.previous = "",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the guide's rule is stated for NVIDIA "
                                 "generations; the oldest RDNA architecture of the catalog"}};
};

}  // namespace dlperf
