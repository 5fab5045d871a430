/// @file
/// Pascal (2016): GP100 (Tesla P100, compute capability 6.0) and GP10x (GeForce GTX 10 series and
/// TITAN Xp, compute capability 6.1). No tensor cores on either.
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

/// Pascal GP100 (P100): 64 FP32 lanes per SM, FP16 at twice the FP32 rate (HFMA2), no DP4A.
/// Sources: NVIDIA Tesla P100 whitepaper (WP-08019-001, 2016); CUDA C++ Programming Guide,
/// compute capability 6.0 and "Arithmetic Instructions" (FP16: 128 results/clk/SM, FP32: 64);
/// latencies: Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
/// arXiv:1804.06826 (2018), P100 column (L1 82, shared 24, L2 234 cycles; DRAM about 600).
struct pascal_gp100 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "pascal_gp100",
      .vendor = vendor::nvidia,
      .family = family::pascal,
      .chips = "GP100",
      .isa = "sm_60",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 64,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(64),
             .shared_per_block = kibibytes(48),
             .l1_and_shared = kibibytes(64 + 24),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(0)},  // separate 64 KB shared + 24 KB L1/tex
      .tensor_cores_per_sm = 0,
      .sparse_2_4 = false,
      .tensor = {},
      .vector = {{{dtype::fp32, accumulator::fp32, 64, 64},
                  {dtype::fp16, accumulator::fp16, 128, 128},  // HFMA2: 2 x FP32 rate
                  {dtype::fp16, accumulator::fp32, 64, 64}}},  // mixed precision = FFMA rate
      .shared_bytes_per_clock = 128,                           // 32 banks x 4 B
      .l2_bytes_per_clock = 2048.0 / 80,  // no Pascal figure: Volta's (A100 whitepaper) per SM
      .latency = {.global = 600, .l2 = 234, .l1 = 82, .shared = 24, .ffma = 6},
      .mma = {.m = 8, .n = 8, .k_bits = 32},
      // No published large-GEMM measurement found for Pascal: 0.85 is assumed; calibrate.
      .gemm_efficiency_default = 0.85,
      .rule_factors = {.previous = "",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the oldest architecture of the catalog's "
                                 "data-centre line (GP100 succeeds Maxwell, not in the catalog)"}};
};

/// Pascal GP10x (GP102/GP104/GP106: GTX 1070/1080/1080 Ti, TITAN Xp): 128 FP32 lanes per SM,
/// FP16 arithmetic at 1/64 of FP32 (2 results/clk/SM), INT8 through DP4A at 4x the FP32 rate.
/// Sources: NVIDIA GeForce GTX 1080 whitepaper (2016); CUDA C++ Programming Guide, compute
/// capability 6.1 and "Arithmetic Instructions"; latencies: Jia et al., "Dissecting the NVidia
/// Turing T4 GPU via Microbenchmarking", arXiv:1903.07486 (2019), P4 (GP104) column.
struct pascal_gp10x {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "pascal_gp10x",
      .vendor = vendor::nvidia,
      .family = family::pascal,
      .chips = "GP102, GP104, GP106",
      .isa = "sm_61",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 64,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(96),
             .shared_per_block = kibibytes(48),
             .l1_and_shared = kibibytes(96 + 48),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(0)},  // separate 96 KB shared + 48 KB L1/tex
      .tensor_cores_per_sm = 0,
      .sparse_2_4 = false,
      .tensor = {},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128},
                  {dtype::fp16, accumulator::fp16, 2, 2},         // 1/64 rate on GP10x
                  {dtype::fp16, accumulator::fp32, 128, 128},     // convert, then FFMA
                  {dtype::int8, accumulator::int32, 512, 512}}},  // DP4A: 4 x FP32 lanes
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 2048.0 / 80,  // as for GP100
      .latency = {.global = 600, .l2 = 216, .l1 = 82, .shared = 23, .ffma = 6},
      .mma = {.m = 8, .n = 8, .k_bits = 32},
      // No published large-GEMM measurement found for Pascal: 0.85 is assumed; calibrate.
      .gemm_efficiency_default = 0.85,
      .rule_factors = {.previous = "",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the oldest architecture of the catalog's GeForce "
                                 "line (GP10x succeeds Maxwell, not in the catalog)"}};
};

}  // namespace dlperf
