/// @file
/// Turing (2018): TU10x (RTX 20 series, TITAN RTX, T4; tensor cores) and TU11x (GTX 16 series;
/// no tensor cores, dedicated FP16 units instead), both compute capability 7.5.
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

namespace detail {
// Resources shared by every Turing SM (CUDA C++ Programming Guide, compute capability 7.5:
// 32 warps, 16 blocks, 64 KB shared of a 96 KB L1/shared).
inline constexpr sm_resources turing_sm{.registers_per_sm = 65536,
                                        .max_registers_per_thread = 255,
                                        .max_warps_per_sm = 32,
                                        .max_threads_per_block = 1024,
                                        .max_blocks_per_sm = 16,
                                        .shared_per_sm = kibibytes(64),
                                        .shared_per_block = kibibytes(64),
                                        .l1_and_shared = kibibytes(96),
                                        .simd_width = 32,
                                        .shared_reserved_per_block = kibibytes(0)};
// CUDA-core rates of a Turing SM: 64 FP32 lanes, FP16 at 2x, DP4A on 64 INT32 lanes.
inline constexpr std::array<math_rate, 6> turing_vector{
    {{dtype::fp32, accumulator::fp32, 64, 64},
     {dtype::fp16, accumulator::fp16, 128, 128},
     {dtype::fp16, accumulator::fp32, 64, 64},
     {dtype::int8, accumulator::int32, 256, 256}}};
// Latencies: Jia et al., "Dissecting the NVidia Turing T4 GPU via Microbenchmarking",
// arXiv:1903.07486 (2019), T4 (L1 32, shared 19, L2 188 cycles; DRAM about 480).
inline constexpr latency_cycles turing_latency{
    .global = 480, .l2 = 188, .l1 = 32, .shared = 19, .ffma = 4};
}  // namespace detail

/// Turing TU10x (TU102/TU104/TU106): 8 second-generation tensor cores per SM adding INT8 (2x)
/// and INT4 (4x). GeForce boards run FP16 with FP32 accumulation at half rate; TITAN RTX, Quadro
/// and T4 at full rate. Sources: NVIDIA Turing GPU Architecture whitepaper (WP-09183-001, 2018),
/// Table 1 and Appendix A (RTX 2080 Ti: 107.6 TFLOPS FP16 acc., 53.8 FP32 acc.).
struct turing_tu10x {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "turing_tu10x",
      .vendor = vendor::nvidia,
      .family = family::turing,
      .chips = "TU102, TU104, TU106",
      .isa = "sm_75",
      .sm = detail::turing_sm,
      .tensor_cores_per_sm = 8,
      .sparse_2_4 = false,
      .tensor = {{{dtype::fp16, accumulator::fp16, 512, 512},
                  {dtype::fp16, accumulator::fp32, 512, 256},  // GeForce: half rate
                  {dtype::int8, accumulator::int32, 1024, 1024},
                  {dtype::int4, accumulator::int32, 2048, 2048}}},
      .vector = detail::turing_vector,
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 2048.0 / 80,  // no Turing figure: Volta's per SM
      .latency = detail::turing_latency,
      .mma = {.m = 16, .n = 8, .k_bits = 128},
      // No published large-GEMM measurement of a full-power Turing board found: 0.8 is assumed
      // (T4 has its own, power-limited, figure in the catalog); calibrate.
      .gemm_efficiency_default = 0.8,
      .rule_factors = {.previous = "volta_gv100",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the guide gives no Turing factors over Volta "
                                 "(Dettmers, 2020 edition)"}};
};

/// Turing TU11x (TU116/TU117: GTX 1650/1660): the Turing SM without tensor cores; FP16 runs on
/// dedicated units at twice the FP32 rate. Source: NVIDIA GTX 1660 Ti launch material (2019),
/// "Turing without RT and tensor cores"; CUDA C++ Programming Guide, compute capability 7.5.
struct turing_tu11x {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "turing_tu11x",
      .vendor = vendor::nvidia,
      .family = family::turing,
      .chips = "TU116, TU117",
      .isa = "sm_75",
      .sm = detail::turing_sm,
      .tensor_cores_per_sm = 0,
      .sparse_2_4 = false,
      .tensor = {},
      .vector = detail::turing_vector,
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 2048.0 / 80,
      .latency = detail::turing_latency,
      .mma = {.m = 8, .n = 8, .k_bits = 32},
      // No published large-GEMM measurement found for TU11x: 0.85 is assumed; calibrate.
      .gemm_efficiency_default = 0.85,
      .rule_factors = {.previous = "pascal_gp10x",
                       .shared_memory = {},
                       .tensor_cores = {},
                       .source = "none published: the GTX 16 series has no tensor cores; the guide "
                                 "gives no Turing factors (Dettmers, 2020 edition)"}};
};

}  // namespace dlperf
