/// @file
/// The named stacks of Apple silicon (docs/stacks.md): llama.cpp's Metal backend and MLX, one
/// record each with every figure's source; both fitted on published runs on M1 to M4 chips.
#pragma once

#include <dlperf/stack/shared_figures.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf::stacks {

/// llama.cpp with its Metal backend on Apple silicon, as the evidence's builds (2023-11 to 2025)
/// ran it: ggml's Metal kernels, each op one compute dispatch in command buffers encoded on the
/// CPU; batch-1 products of quantised or F16 weights in matrix-vector kernels (kernel_mul_mv_*),
/// which dequantise in the inner loop; products over more rows in kernel_mul_mm, which
/// dequantises tiles of the weights into threadgroup memory and multiplies them with
/// simdgroup_matrix on the ALUs, so no FP16 copy of the weights is made and no cast kernel runs
/// (ggml-metal.metal, 2023-11). Unified memory: no offload (the CPU reads the same DRAM). No
/// measurement of its kernels' DRAM share, GEMM efficiency or dispatch time is published, so they
/// are fitted on the evidence (docs/evidence.md, "llama.cpp on Apple silicon", gives their
/// cross-validations).
inline constexpr software_stack llama_cpp_metal{
    .id = stack_id::llama_cpp_metal,
    .fusion = kernel_fusion::eager,
    .attention = attention_kernel::as_run,
    .gemm_efficiency = {0.96, detail::fraction,
                        "fitted on the evidence: LCPP-4167 and XDAI-LLAMA3 pp rows (kernel_mul_mm "
                        "against Metal Performance Shaders' large-GEMM efficiency)"},
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.90, detail::share,
                        "fitted on the evidence: LCPP-4167 and XDAI-LLAMA3 F16 tg rows"},
    .quantized_gemv_dram_share = {0.89, detail::share,
                                  "fitted on the evidence: LCPP-4167 Q8_0 and Q4_0 and XDAI-LLAMA3 "
                                  "Q4_K_M tg rows"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.80, detail::share,
                             "assumed: as llama.cpp's CUDA element-wise kernels"},
    // ggml_metal_graph_compute encodes the whole graph into command buffers and waits for them:
    // the first buffer's encoding comes before any kernel runs, and every dispatch pays Metal's
    // encoder calls. A decode step's rows put 5-6 ms per token above the DRAM time on every chip
    // from the M1 to the M3 Ultra (docs/evidence.md, "Apple silicon"), which a host time per
    // kernel that adds to the GPU's gives, and a share or a cap cannot.
    .host_overhead = {microseconds(7.75), detail::per_kernel,
                      "fitted on the evidence: LCPP-4167 and XDAI-LLAMA3 tg rows (encoding per "
                      "dispatch, not hidden behind the GPU)"},
    .host_serial = true,
    .norms = norm_kernel::as_run,
    .fused_softmax_glue = true,
    .trains = false,
    .vendors = vendor_set::only(vendor::apple),
    // The binned chips (the 24-core M1 Max, the 48-core M1 Ultra, the 60-core M2 and M3 Ultra)
    // decode up to 11 % slower than the full chips at the same DRAM bandwidth: what a GEMV kernel
    // moves per GPU core per clock caps them, as it caps CUDA's (the file comment of
    // stack/stack.hpp). No measurement of the Metal kernels' rate is published.
    .gemv_bytes_per_sm_cycle = {11.0, detail::per_sm_cycle,
                                "fitted on the evidence: LCPP-4167 F16 tg rows, binned against "
                                "full chips"},
    .quantized_gemv_bytes_per_sm_cycle = {8.5, detail::per_sm_cycle,
                                          "fitted on the evidence: LCPP-4167 Q8_0 and Q4_0 tg "
                                          "rows, binned against full chips"}};

/// MLX (github.com/ml-explore/mlx) as mlx-lm runs a language model on Apple silicon: its own Metal
/// kernels for quantised products (qmv for a decode step, qmm for a prompt, dequantising MLX's
/// affine formats in the inner loop), steel GEMMs for 16-bit ones, `mx.fast` kernels for RMSNorm,
/// RoPE and scaled-dot-product attention (a vector kernel over the KV cache for a decode step).
/// A decode token costs its weights' bytes at nearly the whole bandwidth plus a fixed time: on an
/// M3 Ultra, Llama 3.1 8B in MLX's 2- to 8-bit formats takes 6.09 to 13.54 ms a token, 808 GB/s
/// for the bytes between them (of 819) and about 3 ms besides (GURU-MLX; docs/evidence.md, "MLX
/// on Apple silicon"). mlx-lm asks for the next token before it waits for the last
/// (`mx.async_eval`), so the fixed part is not the host's Python; it is the GPU's own cost per
/// dependent dispatch, which adds to every kernel's time as llama.cpp-metal's encoding does
/// (`host_serial`, the cost per kernel in `host_overhead`). No kernel rate is published, so the
/// figures are fitted on the evidence by least median |log error| over all 328 rows; every row
/// ran on a full chip, so no per-core cap can be fitted and none is set.
inline constexpr software_stack mlx{
    .id = stack_id::mlx,
    .fusion = kernel_fusion::eager,
    .attention = attention_kernel::vendor,
    .gemm_efficiency = {1.0, detail::fraction,
                        "fitted on the evidence: GURU-MLX, CHIGKIM-MLX and MLXLM-BENCH pp rows, at "
                        "its bound (MLX's GEMMs at least as fast as Metal Performance Shaders')"},
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.92, detail::share,
                        "assumed: held at the quantised share (no less); its one 16-bit row "
                        "(AWNI-MLX, a 70B on an M2 Ultra) is 9.9 % slower than the model"},
    .quantized_gemv_dram_share = {0.92, detail::share,
                                  "fitted on the evidence: GURU-MLX, CHIGKIM-MLX, MLXLM-BENCH and "
                                  "DAVEFL-MLX tg rows (qmv)"},
    .attention_efficiency = {0.91, detail::fraction,
                             "fitted on the evidence: GURU-MLX and CHIGKIM-MLX tg and pp rows at "
                             "1k-64k tokens of context"},
    .streaming_dram_share = {0.80, detail::share, "assumed: as llama.cpp-metal's"},
    .host_overhead = {microseconds(5.25), detail::per_kernel,
                      "fitted on the evidence: every row (the GPU's cost per dependent dispatch, "
                      "added to the kernels' time)"},
    .host_serial = true,
    .norms = norm_kernel::fused,
    .fused_softmax_glue = true,
    .trains = false,
    .vendors = vendor_set::only(vendor::apple)};

}  // namespace dlperf::stacks
