/// @file
/// Blackwell (2024-25): GB100 (B200, compute capability 10.0; fifth-generation tensor cores with
/// tensor memory) and GB20x (RTX 50 series, compute capability 12.0; Ada-like SM with FP4).
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

/// Blackwell GB100 (B200): NVIDIA publishes no per-SM rate; 4096 FP16 FMA per clock per SM
/// (twice Hopper) is the rate that reproduces every published B200 dense peak (2.25 PFLOPS FP16,
/// 4.5 FP8, 9 FP4, 1.1 TF32) with 148 SMs at the 1856 MHz those peaks imply. Sources: NVIDIA
/// DGX B200 / HGX B200 datasheets (2024); CUDA C++ Programming Guide, compute capability 10.0
/// (occupancy limits as Hopper). No published cycle latencies at the time of writing: Hopper's
/// measurements are used until calibration replaces them.
struct blackwell_gb100 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "blackwell_gb100",
      .vendor = vendor::nvidia,
      .family = family::blackwell,
      .chips = "GB100",
      .isa = "sm_100",
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
      .tensor = {{{dtype::fp16, accumulator::fp16, 4096, 4096},
                  {dtype::fp16, accumulator::fp32, 4096, 4096},
                  {dtype::bf16, accumulator::fp32, 4096, 4096},
                  {dtype::tf32, accumulator::fp32, 2048, 2048},
                  {dtype::fp8_e4m3, accumulator::fp32, 8192, 8192},
                  {dtype::fp8_e5m2, accumulator::fp32, 8192, 8192},
                  {dtype::int8, accumulator::int32, 8192, 8192},
                  {dtype::fp4_e2m1, accumulator::fp32, 16384, 16384}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128}}},
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 5120.0 / 108,  // no Blackwell B/clk figure: GA100's per SM
      .latency = {.global = 479, .l2 = 263, .l1 = 41, .shared = 29, .ffma = 4},
      .mma = {.m = 16,
              .n = 8,
              .k_bits = 256,
              .warps = 4,
              .operands_from_shared = true,
              .accumulators_in_tensor_memory = true},
      .tensor_memory_per_sm = kibibytes(256),
      // B200 best shape (4 x 4096^3) in XLA's sm_100 matmul table (tensorflow/tensorflow
      // a305421c, third_party/xla/xla/backends/gpu/cost_model/matmul_interpolator_data.h):
      // BF16 1670.5 of 2250.3 (0.742), TF32 869.7 of 1125.2 (0.773), FP8 3279.7 of 4500.7
      // (0.729); the rule of docs/gemm.md (best large-GEMM throughput / dense peak).
      .gemm_efficiency_default = 0.742,
      .gemm_efficiency = {{{dtype::tf32, 0.773},
                           {dtype::fp8_e4m3, 0.729},
                           {dtype::fp8_e5m2, 0.729}}},
      .rule_factors = {.previous = "hopper_gh100",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: Blackwell postdates the guide's 2023 edition"}};
};

/// Blackwell GB20x (GB202/GB203: RTX 5090/5080): Ada's per-SM tensor rates plus FP4 at 4x FP16;
/// GeForce boards halve FP16, BF16, TF32 and FP8 with FP32 accumulation but not FP4. Sources:
/// NVIDIA RTX Blackwell GPU Architecture whitepaper v1.1 (2025), Appendix A Table 3 (RTX 5090 at
/// 2407 MHz: 419 TFLOPS FP16 acc., 209.5 FP32 acc., FP8 838/419, FP4 1676); CUDA C++ Programming
/// Guide, compute capability 12.0 (occupancy as Ada). Latencies: Ada's measurements are used.
struct blackwell_gb20x {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "blackwell_gb20x",
      .vendor = vendor::nvidia,
      .family = family::blackwell,
      .chips = "GB202, GB203, GB205, GB206",
      .isa = "sm_120",
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
                  {dtype::fp4_e2m1, accumulator::fp32, 2048, 2048}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128},
                  {dtype::fp16, accumulator::fp16, 128, 128}}},
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 5120.0 / 108,
      .latency = {.global = 540, .l2 = 273, .l1 = 43, .shared = 30, .ffma = 4},
      .mma = {.m = 16, .n = 8, .k_bits = 256},
      // No published large-GEMM measurement found: Ada's measured efficiency is assumed.
      .gemm_efficiency_default = 0.970,
      .rule_factors = {.previous = "ada_ad10x",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: Blackwell postdates the guide's 2023 edition"}};
};

}  // namespace dlperf
