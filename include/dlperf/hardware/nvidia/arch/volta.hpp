/// @file
/// Volta (2017): GV100 (Tesla V100, TITAN V), compute capability 7.0, first-generation tensor
/// cores (FP16 only).
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

/// Volta GV100: 8 tensor cores per SM, each 64 FP16 FMA per clock (4x4x4), FP16 or FP32
/// accumulate at the same rate; no integer tensor modes (INT8 runs as DP4A on CUDA cores).
/// Sources: NVIDIA Tesla V100 GPU Architecture whitepaper (WP-08608-001, 2017); CUDA C++
/// Programming Guide, compute capability 7.0; L2 bandwidth 2048 B/clk: NVIDIA A100 Tensor Core
/// GPU Architecture whitepaper (2020) comparing A100's 5120 B/clk with V100; latencies: Jia et al.,
/// arXiv:1804.06826 (2018), V100 (L1 28, shared 19, L2 193 cycles; DRAM about 400).
struct volta_gv100 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "volta_gv100",
      .vendor = vendor::nvidia,
      .family = family::volta,
      .chips = "GV100",
      .isa = "sm_70",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 64,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(96),
             .shared_per_block = kibibytes(96),
             .l1_and_shared = kibibytes(128),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(0)},
      .tensor_cores_per_sm = 8,
      .sparse_2_4 = false,
      .tensor = {{{dtype::fp16, accumulator::fp16, 512, 512},  // 8 TC x 64 FMA
                  {dtype::fp16, accumulator::fp32, 512, 512}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 64, 64},
                  {dtype::fp16, accumulator::fp16, 128, 128},
                  {dtype::int8, accumulator::int32, 256, 256}}},  // DP4A on 64 INT32 lanes
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 2048.0 / 80,  // 2048 B/clk over V100's 80 SMs
      .latency = {.global = 400, .l2 = 193, .l1 = 28, .shared = 19, .ffma = 4},
      .mma = {.m = 8, .n = 8, .k_bits = 64},
      // V100 SXM2 16 GB, torch.mm 8192^3: FP16 97.36 TFLOPS (0.777 of 125.3), FP32 10240^3 14.51
      // (0.926 of 15.67); zzc0721/torch-performance-test-data issue 140 (2026).
      .gemm_efficiency_default = 0.777,
      .gemm_efficiency = {{{dtype::fp16, 0.777}, {dtype::fp32, 0.926}}},
      .rule_factors = {
          .previous = "pascal_gp100",
          .shared_memory = {},
          .tensor_cores = {},
          .source = "none published: Volta adds tensor cores, and between GPUs with and without "
                    "them the rule does not apply (Dettmers, 2020 edition)"}};
};

}  // namespace dlperf
