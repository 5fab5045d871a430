/// @file
/// Ampere (2020): GA100 (A100, compute capability 8.0) and GA10x (RTX 30 series, A10, RTX A6000,
/// compute capability 8.6). Third-generation tensor cores: TF32, BF16 and 2:4 sparsity.
///
/// The two are separate tags because their SMs differ: GA100 has 164 KB of shared memory, 64 FP32
/// lanes and tensor cores twice as wide; GA10x has 100 KB, 128 FP32 lanes and half-width tensor
/// cores (docs/model.md, @ref model_hierarchy; A100 and GA102 whitepapers).
#pragma once

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>

namespace dlperf {

/// Ampere GA100: 4 tensor cores per SM, each 256 FP16 FMA per clock (1024 per SM); TF32 at 1/2,
/// INT8 at 2x, INT4 at 4x. Sources: NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020),
/// Tables 1-3 (A100: 312 TFLOPS FP16 = 108 SMs x 1024 FMA x 2 x 1410 MHz; L2 5120 B/clk);
/// CUDA C++ Programming Guide, compute capability 8.0; latencies: Abdelkhalik et al.,
/// "Demystifying the Nvidia Ampere Architecture through Microbenchmarking", arXiv:2208.11174
/// (2022), A100 (L1 33, shared 23, L2 about 200, DRAM about 290 cycles).
struct ampere_ga100 {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "ampere_ga100",
      .vendor = vendor::nvidia,
      .family = family::ampere,
      .chips = "GA100",
      .isa = "sm_80",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 64,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 32,
             .shared_per_sm = kibibytes(164),
             .shared_per_block = kibibytes(163),  // 1 KB per block is reserved
             .l1_and_shared = kibibytes(192),
             .simd_width = 32,
             .shared_reserved_per_block = kibibytes(1)},
      .tensor_cores_per_sm = 4,
      .sparse_2_4 = true,
      .tensor = {{{dtype::fp16, accumulator::fp16, 1024, 1024},
                  {dtype::fp16, accumulator::fp32, 1024, 1024},
                  {dtype::bf16, accumulator::fp32, 1024, 1024},
                  {dtype::tf32, accumulator::fp32, 512, 512},
                  {dtype::int8, accumulator::int32, 2048, 2048},
                  {dtype::int4, accumulator::int32, 4096, 4096}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 64, 64},
                  {dtype::fp16, accumulator::fp16, 256, 256},  // A100: 78 TFLOPS non-tensor FP16
                  {dtype::int8, accumulator::int32, 256, 256}}},
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 5120.0 / 108,  // 5120 B/clk over A100's 108 SMs
      .latency = {.global = 290, .l2 = 200, .l1 = 33, .shared = 23, .ffma = 4},
      .mma = {.m = 16, .n = 8, .k_bits = 256},
      // A100 SXM BF16 best shape 1024x10240x5120: 271.2 TFLOPS = 0.870 of 311.9 (Stas Bekman,
      // ml-engineering, "Maximum Achievable Matmul FLOPS" table, 2025); FP32 SIMT 3456x4096x4096:
      // 17.2 TFLOPS = 0.883 of 19.5 (CUTLASS profiler documentation, sm80 sgemm 128x128).
      .gemm_efficiency_default = 0.870,
      .gemm_efficiency = {{{dtype::fp32, 0.883}}},
      // A100 over V100: 1.02-1.05 for the larger shared memory / L1, 1.01-1.03 for the tensor
      // cores (Dettmers, Which GPU(s) to Get for Deep Learning, 2020 edition,
      // https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/).
      .rule_factors = {.previous = "volta_gv100",
                       .shared_memory = {1.02, 1.05},
                       .tensor_cores = {1.01, 1.03},
                       .source = "Dettmers, Which GPU(s) to Get for Deep Learning (2020 edition), "
                                 "Ampere over Volta (A100 over V100)"}};
};

/// Ampere GA10x (GA102/GA104/GA106): 4 tensor cores per SM, each 128 FP16 FMA per clock
/// (512 per SM); GeForce boards halve every FP32-accumulated rate (FP16, BF16, TF32).
/// Sources: NVIDIA Ampere GA102 GPU Architecture whitepaper (2020), Appendix A Table 9
/// (RTX 3090: 142 TFLOPS FP16 acc., 71 FP32 acc., 35.6 TF32) and Appendix C (RTX A6000 full
/// rate); CUDA C++ Programming Guide, compute capability 8.6. No published cycle latencies for
/// GA10x: the GA100 measurements are used.
struct ampere_ga10x {
  /// Architecture facts.
  static constexpr architecture_spec spec{
      .name = "ampere_ga10x",
      .vendor = vendor::nvidia,
      .family = family::ampere,
      .chips = "GA102, GA104, GA106",
      .isa = "sm_86",
      .sm = {.registers_per_sm = 65536,
             .max_registers_per_thread = 255,
             .max_warps_per_sm = 48,
             .max_threads_per_block = 1024,
             .max_blocks_per_sm = 16,
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
                  {dtype::int8, accumulator::int32, 1024, 1024},
                  {dtype::int4, accumulator::int32, 2048, 2048}}},
      .vector = {{{dtype::fp32, accumulator::fp32, 128, 128},
                  {dtype::fp16, accumulator::fp16, 128, 128},  // RTX 3090: 35.6 TFLOPS = FP32
                  {dtype::int8, accumulator::int32, 256, 256}}},
      .shared_bytes_per_clock = 128,
      .l2_bytes_per_clock = 5120.0 / 108,  // no GA10x figure: GA100's per SM
      .latency = {.global = 290, .l2 = 200, .l1 = 33, .shared = 23, .ffma = 4},
      .mma = {.m = 16, .n = 8, .k_bits = 256},
      // RTX 3090 best square torch.mm: FP16 75.64, BF16 76.34 TFLOPS against a 71.2 rated peak
      // (1.06: GeForce boards boost above their rated clock under load); FP32 24.46 of 35.6
      // (zzc0721/torch-performance-test-data database, 2025). An efficiency is a fraction of the
      // derived peak and at most 1 (docs/gemm.md): the 16-bit types are capped at 1.0.
      .gemm_efficiency_default = 1.0,
      .gemm_efficiency = {{{dtype::fp32, 0.687}}},
      // The guide states its Ampere factors for A100 over V100 (Dettmers, Which GPU(s) to Get for
      // Deep Learning, 2020 edition,
      // https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/); GA10x is the same
      // generation (larger shared memory / L1 than TU10x: 128 KB against 96 KB, third-generation
      // tensor cores), so the generation's factors apply to it too.
      .rule_factors = {
          .previous = "turing_tu10x",
          .shared_memory = {1.02, 1.05},
          .tensor_cores = {1.01, 1.03},
          .source = "Dettmers, Which GPU(s) to Get for Deep Learning (2020 edition): the Ampere "
                    "factors, stated for A100 over V100, applied to the generation"}};
};

/// GA102 as NVIDIA sells it on AWS's A10G: every dense tensor-core rate is half GA10x's full rate,
/// whatever the accumulator. Source: Baseten, "NVIDIA A10 vs A10G for ML model inference" (2023,
/// https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/), which tabulates
/// NVIDIA's figures for the AWS board: 80 SMs at 1710 MHz, FP32 35 TFLOPS, TF32 35, FP16/BF16
/// tensor 70 TFLOPS, against the A10 datasheet's 125 for 72 SMs at 1695 MHz. Integer and
/// FP16-accumulated rates are not published for the A10G; half of GA10x's are assumed (the L40's
/// pattern, ada_ad10x_half_tensor). Everything else is GA10x's.
struct ampere_ga10x_half_tensor {
  /// Architecture facts: GA10x's with the A10G's tensor-core rates.
  static constexpr architecture_spec spec = [] {
    architecture_spec s = ampere_ga10x::spec;
    s.name = "ampere_ga10x_half_tensor";
    s.chips = "GA102 (A10G)";
    s.tensor = {{{dtype::fp16, accumulator::fp16, 256, 256},
                 {dtype::fp16, accumulator::fp32, 256, 256},
                 {dtype::bf16, accumulator::fp32, 256, 256},
                 {dtype::tf32, accumulator::fp32, 128, 128},
                 {dtype::int8, accumulator::int32, 512, 512},
                 {dtype::int4, accumulator::int32, 1024, 1024}}};
    return s;
  }();
};

}  // namespace dlperf
