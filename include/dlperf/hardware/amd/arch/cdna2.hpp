/// @file
/// CDNA 2 (2021): the MI200 series (MI250X), ISA gfx90a. Two graphics compute dies (GCDs) of 110
/// compute units and 8 MB of L2 each per package; no Infinity Cache, no TF32 and no FP8.
#pragma once

#include <dlperf/hardware/amd/traits.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// CDNA 2 compute unit: 4 matrix cores, dense 512 FP16/BF16/INT8 FMA per clock per CU, 128 FP32
/// (matrix and packed vector). The rates are AMD's peaks divided by CUs x clock: MI250X datasheet
/// (https://www.amd.com/content/dam/amd/en/documents/instinct-business-docs/product-briefs/
/// instinct-mi250x-data-sheet.pdf): 220 CUs at 1700 MHz, FP16/BF16/INT8 383 TFLOPS (TOPS), FP32
/// matrix 95.7, packed FP32 vector 95.7. CDNA 2 has neither TF32 (XF32) nor FP8, and no 2:4
/// sparsity. Per-CU resources: ROCm "GPU hardware specifications"
/// (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html): wavefront 64, LDS 64 KiB,
/// L1 16 KiB, VGPR file 512 KiB per CU; 2048 resident work-items per CU (8 wavefronts per SIMD).
/// Matrix instruction: MFMA 16x16 with 256 bits of K (v_mfma_f32_16x16x16f16 and
/// 16x16x16bf16_1k: AMD CDNA 2 ISA reference, section 7). LDS 128 B per clock per CU; L2 32
/// channels of 128 B per clock per GCD (AMD CDNA 2 architecture whitepaper,
/// https://www.amd.com/content/dam/amd/en/documents/instinct-business-docs/white-papers/
/// amd-cdna2-white-paper.pdf). Latencies: approximate, of the order chipsandcheese measured on
/// CDNA 2 (MI210, 2023): L2 about 150 ns and HBM about 400 ns at 1.7 GHz; LDS and L1 as CDNA 3.
struct cdna2 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "cdna2",
      .vendor = vendor::amd,
      .family = family::cdna2,
      .chips = "Aldebaran (MI250X)",
      .isa = "gfx90a",
      .sm = {.registers_per_sm = 131072,
             .max_registers_per_thread = 512,
             .max_warps_per_sm = 32,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(64),
             .shared_per_block = kibibytes(64),
             .l1_and_shared = kibibytes(80),  // LDS 64 KiB and L1 16 KiB are separate arrays
             .simd_width = 64,
             .shared_reserved_per_block = kibibytes(0)},
      .tensor_cores_per_sm = 4,
      .sparse_2_4 = false,
      .tensor = {{{dtype::fp16, accumulator::fp32, 512, 512},
                  {dtype::bf16, accumulator::fp32, 512, 512},
                  {dtype::int8, accumulator::int32, 512, 512},
                  {dtype::fp32, accumulator::fp32, 128, 128}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128}}},  // packed FP32 (v_pk_fma_f32)
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 32.0 * 128 / 110,  // 32 channels x 128 B per GCD of 110 CUs
      .latency = {.global = 680, .l2 = 255, .l1 = 144, .shared = 48, .ffma = 4},
      .mma = {.m = 16, .n = 16, .k_bits = 256},
      // BF16 torch.mm 1024x19968x14080 on one MI250X GCD at 147.0 TFLOPS, 0.768 of that GCD's
      // 191.5 (ml-engineering MAMF v1 table, ROCm 6.2; caches not reset between iterations).
      // A BLAS call runs on one GCD (ROCm/hipBLAS issue 534); the mi250x entry is the whole OAM,
      // so its prediction is for work spread over both GCDs. FP16, INT8 and FP32 use BF16's
      // fraction (docs/gemm.md, "AMD").
      .gemm_efficiency_default = 0.768,
      .rule_factors = {.previous = "",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the guide's rule is stated for NVIDIA "
                                 "generations; the oldest AMD architecture of the catalog"}};
};

}  // namespace dlperf
