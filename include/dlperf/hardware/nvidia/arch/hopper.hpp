/// @file
/// Hopper (2022): GH100 (H100, H200), compute capability 9.0. Fourth-generation tensor cores
/// with FP8, twice Ampere's per-SM rate; TMA, distributed shared memory, 228 KB shared per SM.
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

/// Hopper GH100: 4 tensor cores per SM, 2048 FP16 FMA per clock per SM (dense), FP8 and INT8
/// 4096, TF32 1024; no INT4 tensor mode. Sources: NVIDIA H100 Tensor Core GPU Architecture
/// whitepaper v1.04 (WP-10792-001, 2023), Tables 1 and 3 (H100 SXM5: 989.4 TFLOPS FP16 =
/// 132 SMs x 2048 FMA x 2 x 1830 MHz); Hot Chips 34 (2022) per-SM table; CUDA C++ Programming
/// Guide, compute capability 9.0; latencies: Luo et al., arXiv:2402.13499 (2024), H800 column
/// (L1 41, shared 29, L2 263, DRAM about 479 cycles).
struct hopper_gh100 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "hopper_gh100",
      .vendor = vendor::nvidia,
      .family = family::hopper,
      .chips = "GH100",
      .isa = "sm_90",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 64,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(228),
             .shared_per_block = kibibytes(227),
             .l1_and_shared = kibibytes(256),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(1)},
      .tensor_cores_per_sm = 4,
      .sparse_2_4 = true,
      .tensor = {{{dtype::fp16, accumulator::fp16, 2048, 2048},
                  {dtype::fp16, accumulator::fp32, 2048, 2048},
                  {dtype::bf16, accumulator::fp32, 2048, 2048},
                  {dtype::tf32, accumulator::fp32, 1024, 1024},
                  {dtype::fp8_e4m3, accumulator::fp16, 4096, 4096},
                  {dtype::fp8_e4m3, accumulator::fp32, 4096, 4096},
                  {dtype::fp8_e5m2, accumulator::fp16, 4096, 4096},
                  {dtype::fp8_e5m2, accumulator::fp32, 4096, 4096},
                  {dtype::int8, accumulator::int32, 4096, 4096}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128},
                  {dtype::fp16, accumulator::fp16, 256, 256}}},  // H100 SXM: 133.8 TFLOPS
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 5120.0 / 108,  // no Hopper B/clk figure: GA100's per SM
      .latency = {.global = 479, .l2 = 263, .l1 = 41, .shared = 29, .ffma = 4},
      .mma = {.m = 16, .n = 8, .k_bits = 256, .warps = 4, .operands_from_shared = true},
      // H100 SXM best shapes: BF16 794.5 of 989.4 (0.803), FP8 1402.6 of 1978.9 (0.709) (Stas
      // Bekman, ml-engineering MAMF table, 2025); torch.mm 4096^3: TF32 402.15 of 494.7 (0.813),
      // FP32 51.88 of 66.9 (0.776) (zzc0721/torch-performance-test-data issue 79, 2025).
      .gemm_efficiency_default = 0.803,
      .gemm_efficiency = {{{dtype::fp8_e4m3, 0.709},
                           {dtype::fp8_e5m2, 0.709},
                           {dtype::tf32, 0.813},
                           {dtype::fp32, 0.776}}},
      .rule_factors = {.previous = "ampere_ga100",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the 2023 edition gives no shared-memory or "
                                 "tensor-core factor for Hopper over Ampere"},
      // "Without the wgmma instruction, the older mma.sync instruction can only reach about 2/3
      // the peak throughput of Hopper Tensor Cores" (Shah et al., FlashAttention-3, 2024,
      // pytorch.org/blog/flashattention-3, footnote 1, citing Luo et al., arXiv:2402.13499).
      .warp_mma_share = 2.0 / 3.0};
};

/// GH100 as NVIDIA sells it on the H20 (2024, for the Chinese market): 78 SMs, each at a quarter
/// of GH100's dense tensor-core rate (512 FP16 FMA per clock, FP8 and INT8 1024, TF32 256),
/// whatever the accumulator; the CUDA cores keep theirs. The published peaks say so: FP16/BF16
/// 148, FP8 296, INT8 296 and TF32 74 TFLOPS dense (NVIDIA's figures as Tom's Hardware printed
/// them from Chinese retailers' listings, 2024-02, and NVIDIA's TensorRT-LLM
/// `tensorrt_llm/_torch/auto_deploy/utils/hardware_specs.py` at 85d40f56), where 78 SMs at
/// GH100's full rate and the H100's 1830 MHz would give 585: fewer SMs explain 1.7x of the 6.7x
/// below the H100, a capped rate per SM the other 4x. Sparse rates are not published (2:4 is
/// kept, as the capped dense rate doubled: an assumption). Everything else is GH100's.
struct hopper_gh100_quarter_tensor {
  /// Architecture facts: GH100's with the H20's tensor-core rates.
  static constexpr architecture_spec spec = [] {
    architecture_spec s = hopper_gh100::spec;
    s.name = "hopper_gh100_quarter_tensor";
    s.chips = "GH100 (H20)";
    s.tensor = {{{dtype::fp16, accumulator::fp16, 512, 512},
                 {dtype::fp16, accumulator::fp32, 512, 512},
                 {dtype::bf16, accumulator::fp32, 512, 512},
                 {dtype::tf32, accumulator::fp32, 256, 256},
                 {dtype::fp8_e4m3, accumulator::fp16, 1024, 1024},
                 {dtype::fp8_e4m3, accumulator::fp32, 1024, 1024},
                 {dtype::fp8_e5m2, accumulator::fp16, 1024, 1024},
                 {dtype::fp8_e5m2, accumulator::fp32, 1024, 1024},
                 {dtype::int8, accumulator::int32, 1024, 1024}}};
    return s;
  }();
};

}  // namespace dlperf
