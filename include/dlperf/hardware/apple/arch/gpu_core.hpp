/// @file
/// The Apple GPU core of M1 to M4 (Metal GPU families Apple 7 to 9): what every generation of the
/// catalog shares, as one function the per-generation tags call. Apple publishes next to nothing
/// about its GPU's microarchitecture; the figures below are measurements by others, each cited.
#pragma once

#include <string_view>

#include <dlperf/core/units.hpp>
#include <dlperf/hardware/apple/traits.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf::apple {

/// The large-GEMM efficiencies of Metal Performance Shaders (the vendor library, as cuBLAS is
/// NVIDIA's) on a 32-core M1 Max at its 1296 MHz (10.62 TFLOPS of FP32 or FP16): 4096^3 at
/// 8270 GFLOPS in FP32 (0.779) and 7771 in FP16 (0.732) (philipturner/metal-flash-attention
/// README at 20f0d03, 2023-07-28, "GFLOPS during general matrix multiplication"). Measured on
/// Apple 7 only; the later generations keep them (docs/catalog.md, "Apple silicon").
inline constexpr double mps_fp32_gemm_efficiency = 8270.0 / 10617.0;
inline constexpr double mps_fp16_gemm_efficiency = 7771.0 / 10617.0;  ///< see above

/// The architecture of an Apple GPU core of generation @p family.
///
/// Per core (philipturner/metal-benchmarks README at dc2adc6, "On-Chip Memory" and the chip
/// table; Apple 7 and 8, kept for 9): 128 ALUs, each one FP32 or FP16 FMA per clock (FP16 is no
/// faster than FP32, and there is no matrix unit: `simdgroup_matrix` runs on the ALUs), four
/// schedulers of 32-thread SIMD-groups, up to 3072 resident threads, a register file of about
/// 208 KB, about 60 KB of threadgroup memory of which one threadgroup may allocate 32 KiB and
/// 1024 threads (Apple's Metal feature set tables), an 8 KB L1 data cache, about 32 B per clock
/// per core from L2 ("On-GPU Data BW/Cycle") and 64 B per clock within the core ("On-Core Data
/// BW/Cycle", taken for threadgroup memory, whose own figure is unmeasured). A thread may hold
/// 128 32-bit registers (256 16-bit halves; dougallj/applegpu's ISA notes). Latencies: the
/// M1's, measured by chipsandcheese ("iGPU Cache Setups Compared, Including M1", 2022) at
/// 43 ns L1, 76.3 ns L2, 266 ns system-level cache and 311 ns DRAM, in cycles of its 1278 MHz;
/// FFMA32 6 cycles (metal-benchmarks). The resident threadgroups per core are not published;
/// 32 is assumed. The system-level cache is not modelled (llc 0): its bandwidth per core is
/// unmeasured.
constexpr architecture_spec gpu_core(std::string_view name, dlperf::family family,
                                     std::string_view chips, std::string_view isa) {
  return {.name = name,
          .vendor = vendor::apple,
          .family = family,
          .chips = chips,
          .isa = isa,
          .sm = {.registers_per_sm = 208 * 1024 / 4,
                 .max_registers_per_thread = 128,
                 .max_warps_per_sm = 3072 / 32,
                 .max_threads_per_block = 1024,
                 .max_blocks_per_sm = 32,
                 .shared_per_sm = kibibytes(60),
                 .shared_per_block = kibibytes(32),
                 .l1_and_shared = kibibytes(60 + 8),
                 .simd_width = 32,
                 .shared_reserved_per_block = kibibytes(0)},
          .tensor_cores_per_sm = 0,
          .sparse_2_4 = false,
          .tensor = {},
          .vector = {{{dtype::fp32, accumulator::fp32, 128, 128},
                      {dtype::fp16, accumulator::fp16, 128, 128},
                      {dtype::fp16, accumulator::fp32, 128, 128}}},
          .shared_bytes_per_clock = 64,
          .l2_bytes_per_clock = 32,
          .latency = {.global = 311e-9 * 1278e6,
                      .l2 = 76.3e-9 * 1278e6,
                      .llc = 0,
                      .l1 = 43e-9 * 1278e6,
                      .shared = 43e-9 * 1278e6,
                      .ffma = 6},
          // simdgroup_matrix: 8x8 tiles of 16-bit operands per SIMD-group (Metal Shading
          // Language specification, section 6.7).
          .mma = {.m = 8, .n = 8, .k_bits = 128},
          .gemm_efficiency_default = mps_fp16_gemm_efficiency,
          .gemm_efficiency = {{{dtype::fp32, mps_fp32_gemm_efficiency}}},
          .rule_factors = {.previous = "",
                           .shared_memory = {},
                           .tensor_cores = {},
                           .source = "none published: the guide's rule is stated for NVIDIA "
                                     "generations"}};
}

}  // namespace dlperf::apple
