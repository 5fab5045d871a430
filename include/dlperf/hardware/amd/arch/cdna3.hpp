/// @file
/// CDNA 3 (2023): the MI300 series (MI300X, MI325X), ISA gfx942. Eight accelerator complex dies
/// (XCDs) of 38 compute units with 4 MB of L2 each, over a 256 MB Infinity Cache on four I/O
/// dies; matrix cores add XF32 (`tf32`) and FNUZ FP8 and double CDNA 2's 16-bit rate per CU.
#pragma once

#include <dlperf/hardware/amd/traits.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// CDNA 3 compute unit: 4 matrix cores, dense 1024 FP16/BF16 FMA per clock per CU, 2048 FP8 and
/// INT8, 512 XF32, 128 FP32 (matrix and vector). The rates are AMD's peaks divided by CUs x clock:
/// MI300X datasheet (https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/
/// data-sheets/amd-instinct-mi300x-data-sheet.pdf): 304 CUs at 2100 MHz, FP16/BF16 1307.4 TFLOPS,
/// FP8/INT8 2614.9, TF32 (XF32) 653.7, FP32 matrix and vector 163.4, all doubled with 2:4
/// sparsity for FP16/BF16/FP8/INT8. FP8 is the FNUZ encoding (`fp8_e4m3_fnuz`, `fp8_e5m2_fnuz`):
/// gfx942's MFMA has no OCP FP8 mode, so OCP `fp8_e4m3`/`fp8_e5m2` are rejected as unsupported
/// (OCP FP8 arrives with CDNA 4, gfx950). Per-CU resources: ROCm "GPU hardware specifications"
/// (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html): wavefront 64, LDS 64 KiB,
/// L1 32 KiB, VGPR file 512 KiB per CU (arch VGPRs plus AccVGPRs, up to 512 per lane); 2048
/// resident work-items per CU (32 wavefronts, 8 per SIMD). Matrix instruction: MFMA 16x16 with 256
/// bits of K (v_mfma_f32_16x16x16_bf16, 16x16x32_fp8, 16x16x8_xf32: AMD CDNA 3 ISA reference,
/// section 7). LDS 128 B and L2 2 KB per clock per XCD (16 channels x 128 B) from the AMD CDNA 3
/// architecture whitepaper (https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/
/// white-papers/amd-cdna-3-white-paper.pdf). Latencies at 2.1 GHz, approximate readings of the
/// pointer-chasing plots in chipsandcheese "Testing AMD's Giant MI300X" (2024,
/// https://chipsandcheese.com/p/testing-amds-giant-mi300x): L2 about 120 ns, Infinity Cache about
/// 220 ns, HBM about 370 ns; LDS and L1 about 48 and 144 cycles.
struct cdna3 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "cdna3",
      .vendor = vendor::amd,
      .family = family::cdna3,
      .chips = "MI300X, MI325X (Aqua Vanjaram XCDs)",
      .isa = "gfx942",
      .sm = {.registers_per_sm = 131072,
             .max_registers_per_thread = 512,
             .max_warps_per_sm = 32,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(64),
             .shared_per_block = kibibytes(64),
             .l1_and_shared = kibibytes(96),  // LDS 64 KiB and L1 32 KiB are separate arrays
             .simd_width = 64,
             .shared_reserved_per_block = kibibytes(0)},
      .tensor_cores_per_sm = 4,
      .sparse_2_4 = true,
      .tensor = {{{dtype::fp16, accumulator::fp32, 1024, 1024},
                  {dtype::bf16, accumulator::fp32, 1024, 1024},
                  {dtype::tf32, accumulator::fp32, 512, 512},
                  {dtype::fp8_e4m3_fnuz, accumulator::fp32, 2048, 2048},
                  {dtype::fp8_e5m2_fnuz, accumulator::fp32, 2048, 2048},
                  {dtype::int8, accumulator::int32, 2048, 2048},
                  {dtype::fp32, accumulator::fp32, 128, 128}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128}}},
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 2048.0 / 38,  // 2 KB per clock per XCD of 38 CUs
      .latency = {.global = 780, .l2 = 254, .llc = 460, .l1 = 144, .shared = 48, .ffma = 4},
      .mma = {.m = 16, .n = 16, .k_bits = 256},
      // BF16: torch.mm 10240x15360x8192 on MI300X at 668.4 TFLOPS, 0.511 of 1307.4 (ml-engineering
      // MAMF v2 table, torch 2.5.1 + ROCm 6.3, TunableOp). FP16 and the types without a citable
      // measurement (TF32, FP32, INT8) use BF16's fraction; AMD's FP16 hipBLASLt figure (654
      // TFLOPS) validates it. FP8 (both FNUZ formats): hipblaslt-bench 4096x3648x32896 at 1273
      // TFLOPS, 0.487 of 2614.9 (AMD, "Measuring Max-Achievable FLOPs - Part 2", ROCm blogs,
      // 2025). docs/gemm.md, "AMD".
      .gemm_efficiency_default = 0.511,
      .gemm_efficiency = {{{dtype::fp8_e4m3_fnuz, 0.487}, {dtype::fp8_e5m2_fnuz, 0.487}}},
      .rule_factors = {
          .previous = "cdna2",
          .shared_memory = {},
          .tensor_cores = {},
          .source = "none published: the guide's rule is stated for NVIDIA generations"}};
};

}  // namespace dlperf
