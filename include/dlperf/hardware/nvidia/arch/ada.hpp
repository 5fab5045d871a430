/// @file
/// Ada Lovelace (2022): AD10x (RTX 40 series, L4, L40S, RTX 6000 Ada), compute capability 8.9.
/// Fourth-generation tensor cores add FP8 (E4M3 and E5M2) at twice the FP16 rate.
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

/// Ada AD10x: 4 tensor cores per SM, 512 FP16 FMA per clock per SM, FP8 1024; GeForce boards
/// halve every FP32-accumulated rate (FP16, BF16, TF32, FP8). Sources: NVIDIA Ada GPU
/// Architecture whitepaper v2.02 (2023), Appendix A Table 2 (RTX 4090: 330.3 TFLOPS FP16 acc.,
/// 165.2 FP32 acc., FP8 660.6 FP16 acc. and 330.3 FP32 acc. as corrected in v2.02); CUDA C++
/// Programming Guide, compute capability 8.9; latencies: Luo et al., "Benchmarking and Dissecting
/// the Nvidia Hopper GPU Architecture", arXiv:2402.13499 (2024), RTX 4090 column (L1 43, shared
/// 30, L2 273, DRAM about 540 cycles).
struct ada_ad10x {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "ada_ad10x",
      .vendor = vendor::nvidia,
      .family = family::ada,
      .chips = "AD102, AD103, AD104",
      .isa = "sm_89",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 48,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 24,
             .shared_per_sm = kibibytes(100),
             .shared_per_block = kibibytes(99),
             .l1_and_shared = kibibytes(128),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(1)},
      .tensor_cores_per_sm = 4,
      .sparse_2_4 = true,
      .tensor = {{{dtype::fp16, accumulator::fp16, 512, 512},
                  {dtype::fp16, accumulator::fp32, 512, 256},
                  {dtype::bf16, accumulator::fp32, 512, 256},
                  {dtype::tf32, accumulator::fp32, 256, 128},
                  {dtype::fp8_e4m3, accumulator::fp16, 1024, 1024},
                  {dtype::fp8_e4m3, accumulator::fp32, 1024, 512},
                  {dtype::fp8_e5m2, accumulator::fp16, 1024, 1024},
                  {dtype::fp8_e5m2, accumulator::fp32, 1024, 512},
                  {dtype::int8, accumulator::int32, 1024, 1024},
                  {dtype::int4, accumulator::int32, 2048, 2048}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128},
                  {dtype::fp16, accumulator::fp16, 128, 128},
                  {dtype::int8, accumulator::int32, 256, 256}}},
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 5120.0 / 108,  // no Ada figure: GA100's per SM
      .latency = {.global = 540, .l2 = 273, .l1 = 43, .shared = 30, .ffma = 4},
      .mma = {.m = 16, .n = 8, .k_bits = 256},
      // RTX 4090 torch.mm 8192^3: BF16 160.17 of 165.2 (0.970), TF32 85.65 of 82.6 (1.037, the
      // board boosts above its rated clock), FP32 53.41 of 82.6 (0.647); zzc0721/torch-
      // performance-test-data issue 78 (2025). FP8: no measurement found, BF16's value is used.
      // An efficiency is a fraction of the derived peak and at most 1 (docs/gemm.md): TF32 is
      // capped at 1.0.
      .gemm_efficiency_default = 0.970,
      .gemm_efficiency = {{{dtype::tf32, 1.0}, {dtype::fp32, 0.647}}},
      .rule_factors = {.previous = "ampere_ga10x",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the 2023 edition gives no shared-memory or "
                                 "tensor-core factor for Ada over Ampere"}};
};

/// AD102 as NVIDIA sells it on the L40: every dense tensor-core rate is half AD10x's full rate,
/// whatever the accumulator (FP16, BF16, TF32, FP8, and INT8/INT4 too, which GeForce boards keep at
/// full rate). Source: NVIDIA L40 datasheet (2022, https://www.nvidia.com/en-us/data-center/l40/):
/// 142 SMs at 2490 MHz, FP32 90.5, TF32 90.5, FP16/BF16 181.05, FP8 362, INT8 362, INT4 724 TOPS
/// (dense), against the L40S datasheet's 183, 362.05, 733 and 733 for the same 142 SMs at 2520 MHz.
/// NVIDIA publishes no FP16-accumulated figure for the L40; half of AD10x's is assumed. Everything
/// else is AD10x's.
struct ada_ad10x_half_tensor {
  /// Architecture facts: AD10x's with the L40's tensor-core rates.
  static constexpr architecture_spec spec = [] {
    architecture_spec s = ada_ad10x::spec;
    s.name = "ada_ad10x_half_tensor";
    s.chips = "AD102 (L40)";
    s.tensor = {{{dtype::fp16, accumulator::fp16, 256, 256},
                 {dtype::fp16, accumulator::fp32, 256, 256},
                 {dtype::bf16, accumulator::fp32, 256, 256},
                 {dtype::tf32, accumulator::fp32, 128, 128},
                 {dtype::fp8_e4m3, accumulator::fp16, 512, 512},
                 {dtype::fp8_e4m3, accumulator::fp32, 512, 512},
                 {dtype::fp8_e5m2, accumulator::fp16, 512, 512},
                 {dtype::fp8_e5m2, accumulator::fp32, 512, 512},
                 {dtype::int8, accumulator::int32, 512, 512},
                 {dtype::int4, accumulator::int32, 1024, 1024}}};
    return s;
  }();
};

}  // namespace dlperf
