/// @file
/// The named stacks of AMD GPUs (docs/stacks.md): llama.cpp's HIP backend, PyTorch and
/// Megatron-LM over ROCm and vLLM's ROCm build, one record each with every figure's source.
#pragma once

#include <dlperf/stack/shared_figures.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf::stacks {

/// llama.cpp with its HIP backend on ROCm.
inline constexpr software_stack llama_cpp_rocm{
    .id = stack_id::llama_cpp_rocm,
    .fusion = kernel_fusion::eager,
    .attention = attention_kernel::vendor,
    .gemm_efficiency = {0.45, detail::fraction,
                        "assumed: hipBLAS/rocWMMA prompt kernels below CUDA's"},
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.60, detail::share, "assumed: below the CUDA backend's share"},
    .quantized_gemv_dram_share = {0.55, detail::share,
                                  "assumed: below the FP16 share (dequantisation)"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.75, detail::share, "assumed: below the CUDA backend's"},
    .host_overhead = {microseconds(3), detail::per_kernel,
                      "assumed: HIP launches cost more than CUDA's"},
    .trains = false,
    .vendors = vendor_set::only(vendor::amd),
    // No gemm_call: the HIP build keeps ggml's FP32 activations and casts around hipBLAS as the
    // CUDA build does, but this record's figures (every one assumed) were set with 2-byte
    // streaming kernels, and its one prompt row runs MMQ, not the library GEMM. A ROCm
    // measurement should price both together.
    .multi_gpu = {
        split_mode::layer,
        "llama.cpp --split-mode layer (the HIP build is the CUDA backend's code)",
        // The same pipeline; HIP builds of 2024 used no CUDA graphs
        // (GGML_CUDA_USE_GRAPHS is CUDA's), so none are lost.
        {detail::llama_cpp_layers.pipeline.ubatch, detail::llama_cpp_layers.pipeline.in_flight,
         detail::llama_cpp_layers.pipeline.activation_bytes,
         detail::llama_cpp_layers.pipeline.source}}};

/// PyTorch eager on ROCm: rocBLAS/hipBLASLt GEMMs, MIOpen convolutions.
inline constexpr software_stack pytorch_rocm{
    .id = stack_id::pytorch_rocm,
    .fusion = kernel_fusion::eager,
    .attention = attention_kernel::as_run,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {0.70, detail::fraction, "assumed: MIOpen below cuDNN relative to the GEMM"},
    .tf32_conv_efficiency = {0.70, detail::fraction,
                             "no TF32 on CDNA2/3 convolutions: as conv_efficiency"},
    .gemv_dram_share = {0.65, detail::share, "assumed: below pytorch-eager's"},
    .quantized_gemv_dram_share = {0.55, detail::share, "assumed: below pytorch-eager's"},
    .attention_efficiency = {0.60, detail::fraction,
                             "assumed: CK FlashAttention below FlashAttention-2 on CUDA"},
    .streaming_dram_share = {0.75, detail::share, "assumed: below pytorch-eager's"},
    .host_overhead = {microseconds(7), detail::per_kernel,
                      "assumed: HIP launches cost more than CUDA's"},
    .norms = norm_kernel::composite,
    .optimizer_kernels = optimizer_kernel::multi_tensor,  // as pytorch-eager
    .optimizer_host_overhead = detail::pytorch_op_host,
    .vendors = vendor_set::only(vendor::amd),
    .multi_gpu = detail::accelerate_device_map};

/// Megatron-LM on ROCm: AMD's fork (ROCm/Megatron-LM) and its Primus framework's Megatron
/// backend, with ROCm's Transformer Engine (hipBLASLt GEMMs, fused kernels, Composable Kernel or
/// AOTriton fused attention) and Megatron's fused Adam. The same engine as `megatron` over ROCm's
/// libraries (builds_of_one_engine); its figures are megatron's where the code is the same and
/// pytorch-rocm's where they are ROCm's kernels.
inline constexpr software_stack megatron_rocm{
    .id = stack_id::megatron_rocm,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.65, detail::share, "as pytorch-rocm"},
    .quantized_gemv_dram_share = {0.55, detail::share, "as pytorch-rocm"},
    .attention_efficiency = {0.60, detail::fraction, "as pytorch-rocm: CK's fused attention"},
    .streaming_dram_share = {0.85, detail::share, "as megatron: fused Transformer Engine kernels"},
    .host_overhead = {microseconds(2), detail::per_kernel,
                      "as megatron: C++ launches of fused kernels"},
    .norms = norm_kernel::as_run,
    .optimizer_kernels = optimizer_kernel::fused,  // as megatron: one multi-tensor FusedAdam pass
    .optimizer_host_overhead = {microseconds(2), detail::per_kernel, "as megatron"},
    .vendors = vendor_set::only(vendor::amd),
    .fp8_casts = detail::transformer_engine_casts};  // ROCm's Transformer Engine, the same code

/// vLLM's ROCm build (the rocm/vllm images): the same engine as `vllm` (builds_of_one_engine),
/// with ROCm's kernels in place of CUDA's: AITER's and Composable Kernel's FP8 GEMMs, ROCm's
/// paged attention, HIP graphs for decode and vLLM's custom all-reduce over Infinity Fabric.
///
/// Its GEMM figures are measured kernels, not fitted to serving rows: AITER's tuned table of
/// row-wise scaled FP8 GEMMs (a8w8, FNUZ FP8 in, BF16 out) at every shard shape of Llama 3.1
/// 70B and 405B on MI300X, 427 shapes with their times (tests/data/kernels/aiter_a8w8_mi300x.csv;
/// docs/stacks.md, "vLLM on ROCm"). Each figure is the median over those shapes of the tile
/// model's time over the kernel's: compute-bound shapes for the GEMM, DRAM-bound ones for the
/// GEMV share; the test "vllm-rocm's GEMM figures are AITER's kernels" recomputes both.
inline constexpr software_stack vllm_rocm{
    .id = stack_id::vllm_rocm,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::vendor,
    .gemm_efficiency = {0.70, detail::fraction,
                        "measured: AITER a8w8 FP8 GEMMs tuned for Llama 3.1 70B/405B shards on "
                        "MI300X (github.com/ROCm/aiter pull 1092, commit fbb52ddf), median of "
                        "315 compute-bound shapes (10th-90th 0.57-0.81)",
                        "2025-09"},
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.64, detail::share,
                        "measured: the same table, median of its 88 DRAM-bound shapes "
                        "(10th-90th 0.53-0.83); FP8 weights, taken for 16-bit ones",
                        "2025-09"},
    .quantized_gemv_dram_share = {0.55, detail::share, "as pytorch-rocm (assumed)"},
    .attention_efficiency = {0.60, detail::fraction,
                             "as pytorch-rocm (assumed): no decode-attention kernel time on "
                             "MI300X at serving batches is published"},
    .streaming_dram_share = {0.75, detail::share, "as pytorch-rocm (assumed)"},
    .host_overhead = {microseconds(1), detail::per_kernel,
                      "as vllm: HIP graphs, one launch per graph"},
    .trains = false,
    .vendors = vendor_set::only(vendor::amd),
    .multi_gpu = detail::vllm_tensor,
    .serving = detail::vllm_scheduler};

}  // namespace dlperf::stacks
