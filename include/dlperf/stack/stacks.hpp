/// @file
/// The named software stacks (docs/stacks.md has every figure with its source): one record per
/// `stack_id`, looked up with `stacks::find` or `stacks::of`. Adding a stack touches this file
/// and the enumerator list in stack/stack.hpp, nothing else.
///
/// Figures come from published measurements where one exists; where none does, the figure is
/// "fitted on the evidence" and names the rows of tests/unit/model_evidence_test.cpp it was
/// fitted on. No figure is fitted to one GPU: a stack's figures hold for every GPU it runs on.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf::stacks {

namespace detail {
inline constexpr std::string_view fraction = "fraction of the ceiling";
inline constexpr std::string_view share = "fraction of the model's DRAM rate";
inline constexpr std::string_view per_kernel = "s per kernel";
inline constexpr std::string_view cuda_graphs = "CUDA graphs: one launch per graph";
// GEMMs through cuBLAS/rocBLAS: the tile model's large-GEMM efficiencies are themselves
// measured cuBLAS/rocBLAS figures (hardware/<vendor>/arch), so library GEMMs sit at the ceiling.
inline constexpr stack_figure library_gemm{1.0, fraction,
                                           "the architectures' large-GEMM efficiencies are "
                                           "cuBLAS/rocBLAS measurements (docs/gemm.md)"};
// Eager PyTorch's host time per operator call: Python module call, dispatcher, autocast and
// the cuDNN call's set-up. Measured at 51.95 us per nn.Conv2d forward call on CUDA (about 130k
// CPU instructions) in pytorch/pytorch PR #51390 (comment of 2021-05-26, the PyTorch 1.9 and
// cuDNN 8 generation of the evidence's NGC containers); NVIDIA's ResNet-50 inference table
// (DeepLearningExamples, NGC 21.03) shows the same floor: 10.4 ms for its ~200 operators at
// batch 1 to 4, on V100 and T4 alike (docs/stacks.md). Launches alone cost far less (~5 us);
// newer PyTorch on faster hosts costs less per call.
inline constexpr stack_figure pytorch_host{
    50e-6, per_kernel,
    "pytorch/pytorch PR #51390: 51.95 us per nn.Conv2d forward call (PyTorch 1.9, cuDNN 8); "
    "DeepLearningExamples ResNet-50 inference floor ~50 us per operator",
    "2021-05"};
// Eager PyTorch's host time per kernel of the optimizer's update: an element-wise op call from
// Python (dispatcher, allocation, launch), far cheaper than a module call. pytorch/pytorch
// PR #45299 timed torch.optim.SGD (momentum, no weight decay: 3 kernels per tensor) over
// torchvision's ResNet-101 (314 tensors) at 6.28 ms per step, 6.7 us per kernel; issue #41383
// measured 5-6.8 us per small eager op. The same PR's Adam loop costs 17 us per kernel
// (42.69 ms over 314 x 8 kernels): docs/stacks.md, "The optimizer", says where this misses.
inline constexpr stack_figure pytorch_op_host{
    7e-6, per_kernel,
    "pytorch/pytorch PR #45299: torch.optim.SGD over ResNet-101, 6.28 ms for 314 tensors x 3 "
    "kernels (6.7 us per kernel); issue #41383: 5-6.8 us per eager op",
    "2020-09"};
// FlashAttention-2 reaches 50-73 % of A100's FP16 peak in the forward pass (Dao 2023,
// arXiv 2307.08691, Fig. 5); the tile model's fused attention assumes the large-GEMM efficiency
// of the architecture (~0.8-0.9 of peak): 0.62 / 0.85 = 0.73 of the ceiling.
inline constexpr stack_figure flash2{0.73, fraction,
                                     "FlashAttention-2 forward 50-73 % of A100 FP16 peak, "
                                     "arXiv 2307.08691 Fig. 5; midpoint over the GEMM efficiency",
                                     "2023-07"};
// FlashAttention-3 reaches 740 TFLOPS (75 %) of H100's FP16 peak (Shah et al. 2024,
// arXiv 2407.08608): 0.75 / 0.85 = 0.88 of the ceiling.
inline constexpr stack_figure flash3{0.88, fraction,
                                     "FlashAttention-3 740 TFLOPS = 75 % of H100 FP16 peak, "
                                     "arXiv 2407.08608",
                                     "2024-07"};
// FlashAttention's Triton kernel (flash_attn_triton.py, the FlashAttention-1 era) against
// FlashAttention-2, forward and backward, on A100 80GB, causal, head dimension 128, 8k tokens:
// 78 against 182 TFLOPs/s (Dao 2023, arXiv 2307.08691, Fig. 4, the image
// assets/flash2_a100_fwd_bwd_benchmark.png of github.com/Dao-AILab/flash-attention; 2k to 16k
// give 0.44 to 0.42). Its figure is FlashAttention-2's times that ratio.
inline constexpr double triton_tflops = 78.0;
inline constexpr double flash2_tflops = 182.0;
inline constexpr stack_figure flash_triton{
    flash2.value * triton_tflops / flash2_tflops, fraction,
    "FlashAttention Triton kernel 78 vs FlashAttention-2 182 TFLOPs/s forward and backward, "
    "A100 causal head dim 128, 8k tokens (arXiv 2307.08691 Fig. 4), times flash2's figure",
    "2023-07"};
inline constexpr std::string_view per_sm_cycle = "bytes of weights per SM per SM clock";
// Eager PyTorch inference over several GPUs: Hugging Face accelerate's `device_map="auto"`
// places consecutive layers on each GPU and runs them in turn (no pipelining of micro-batches).
inline constexpr multi_gpu_kernels accelerate_device_map{
    split_mode::layer,
    "Hugging Face accelerate big-model inference: device_map places consecutive layers on each "
    "GPU, which run in turn (huggingface.co/docs/accelerate/usage_guides/big_modeling)"};
// llama.cpp's CUDA backend from 2024-03 (github.com/ggml-org/llama.cpp/pull/6017): the default
// `--split-mode layer` gives each GPU consecutive layers (by free memory), and with every layer
// offloaded pipelines a batch's micro-batches of n_ubatch = 512 tokens over the GPUs, at most
// GGML_SCHED_MAX_COPIES = 4 in flight (ggml-backend.c; llama-bench's defaults n_batch 2048,
// n_ubatch 512). The residual stream it hands on is F32 (ggml's activations).
//
// Its CUDA graphs (from 2024-05, Ampere and later) are lost under that pipeline: each token's
// graph reads new copies of the split inputs, so after four re-captures in a row ggml-cuda turns
// graphs off (ggml-cuda.cu, disable_due_to_too_many_updates; fixed in
// github.com/ggml-org/llama.cpp/pull/13814, 2025-05). What graphs save was measured in the PR that
// added them: Llama 3 8B Q4_0 tg128 on an RTX 4090, 149.28 tokens/s without, 159.67 with.
inline constexpr graph_saving llama_cpp_graphs{
    "llama3_8b",
    "rtx_4090",
    weight_format::q4_0,
    149.28,
    159.67,
    {family::ampere, family::ada, family::hopper, family::blackwell},
    4,
    "github.com/ggml-org/llama.cpp/pull/6766 (2024-05): Llama 3 8B Q4_0 tg128 on RTX 4090, "
    "149.28 tokens/s without CUDA graphs, 159.67 with; graphs need compute capability 8.0+"};
inline constexpr multi_gpu_kernels llama_cpp_layers{
    split_mode::layer,
    "llama.cpp --split-mode layer, the default since github.com/ggml-org/llama.cpp/pull/4766",
    {512, 4, 4.0,
     "llama.cpp pipeline parallelism (github.com/ggml-org/llama.cpp/pull/6017, 2024-03): "
     "micro-batches of n_ubatch 512 tokens, GGML_SCHED_MAX_COPIES 4 in flight, F32 activations",
     llama_cpp_graphs}};
}  // namespace detail

/// The stack whose efficiencies are the hardware model's own: today's estimates exactly.
inline constexpr software_stack ceiling{
    .id = stack_id::ceiling,
    .fusion = kernel_fusion::as_run,
    .attention = attention_kernel::as_run,
    .gemm_efficiency = {1.0, detail::fraction, "definition"},
    .conv_efficiency = {1.0, detail::fraction, "definition"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "definition"},
    .gemv_dram_share = {1.0, detail::share, "definition"},
    .quantized_gemv_dram_share = {1.0, detail::share, "definition"},
    .attention_efficiency = {1.0, detail::fraction, "definition"},
    .streaming_dram_share = {1.0, detail::share, "definition"},
    .host_overhead = {0.0, detail::per_kernel, "definition"}};

/// PyTorch eager on CUDA: cuBLAS GEMMs, cuDNN convolutions, every element-wise op its own kernel.
inline constexpr software_stack pytorch_eager{
    .id = stack_id::pytorch_eager,
    .fusion = kernel_fusion::eager,
    .attention = attention_kernel::as_run,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {0.80, detail::fraction,
                        "fitted on the evidence: RN50-PyT and SXT-PyT rows (cuDNN convolutions "
                        "against the tile model's implicit GEMM)"},
    .tf32_conv_efficiency = {0.65, detail::fraction,
                             "fitted on the evidence: RN50-PyT and SXT-PyT TF32 rows (A100, the "
                             "only TF32 GPU in the set): cuDNN 8.1 TF32 convolutions"},
    .gemv_dram_share = {0.72, detail::share,
                        "fitted on the evidence: LCPP tg128 rows share the mechanism (GEMV "
                        "kernels reach ~70 % of peak DRAM bandwidth); no PyTorch decode row yet"},
    .quantized_gemv_dram_share = {0.60, detail::share,
                                  "assumed: dequantising GEMV kernels (bitsandbytes/AWQ) below "
                                  "FP16's"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.80, detail::share,
                             "fitted on the evidence: RN50-PyT, SXT-PyT, BERT-PyT rows "
                             "(element-wise kernels)"},
    .host_overhead = detail::pytorch_host,
    .norms = norm_kernel::composite,
    // PyTorch 2.0 made the foreach (multi-tensor) implementation the default on CUDA for
    // torch.optim's optimizers when the code names neither foreach nor fused (PR #92306,
    // 2023-01; fused stays opt-in). Code before 2.0 ran the for-loop (per-tensor) by default: an
    // evidence row from such code says so (rows.csv `optimizer_kernels`).
    .optimizer_kernels = optimizer_kernel::multi_tensor,
    .optimizer_host_overhead = detail::pytorch_op_host,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = detail::accelerate_device_map,
    // PyTorch's scaled_dot_product_attention takes its flash backend, FlashAttention-2 (warp-level
    // mma.sync), on every NVIDIA GPU by default: PyTorch 2.5.0 made cuDNN's fused attention the
    // default on H100 (pytorch.org/blog/pytorch2-5) and 2.5.1 put it back behind flash
    // (github.com/pytorch/pytorch/pull/138522, "Make CuDNN Attention Opt in", cherry-picked to
    // release/2.5) until pull/162073 (2025-09) preferred cuDNN again on SM 9.0 and 10.0, gated
    // on a cuDNN newer than 9.15. The flash-attn 2 package (llm-foundry's attn_impl flash) is the
    // same kernel.
    .warp_mma_attention = true};

/// PyTorch 2 with torch.compile: Inductor fuses element-wise ops (Triton), CUDA graphs (mode
/// "reduce-overhead") remove most of the host time.
inline constexpr software_stack torch_compile{
    .id = stack_id::torch_compile,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {0.80, detail::fraction, "as pytorch-eager: the same cuDNN convolutions"},
    .tf32_conv_efficiency = {0.65, detail::fraction,
                             "as pytorch-eager, whose figure is fitted on the RN50-PyT and SXT-PyT "
                             "TF32 rows: the same cuDNN 8.1 TF32 convolutions"},
    .gemv_dram_share = {0.72, detail::share, "as pytorch-eager"},
    .quantized_gemv_dram_share = {0.60, detail::share, "as pytorch-eager"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share,
                             "assumed: Triton element-wise kernels near the STREAM rate"},
    .host_overhead = {1e-6, detail::per_kernel, detail::cuda_graphs},
    // torch.compile compiles the model, not the optimizer's step, unless the code compiles the
    // step too: the update is eager PyTorch's default.
    .optimizer_kernels = optimizer_kernel::multi_tensor,
    .optimizer_host_overhead = detail::pytorch_op_host,
    .vendors = vendor_set::only(vendor::nvidia),
    .warp_mma_attention = true};  // SDPA's flash backend, as pytorch-eager's

/// TensorFlow without XLA (graph mode): cuDNN convolutions, one kernel per element-wise op,
/// launched from the C++ executor.
inline constexpr software_stack tensorflow{
    .id = stack_id::tensorflow,
    .fusion = kernel_fusion::eager,
    .attention = attention_kernel::as_run,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {0.80, detail::fraction, "as tensorflow-xla: the same cuDNN convolutions"},
    .tf32_conv_efficiency = {0.65, detail::fraction,
                             "as pytorch-eager (the same cuDNN); RN50-TF TF32 rows agree"},
    .gemv_dram_share = {0.72, detail::share, "as pytorch-eager"},
    .quantized_gemv_dram_share = {0.60, detail::share, "as pytorch-eager"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.80, detail::share, "as pytorch-eager"},
    .host_overhead = {2e-6, detail::per_kernel,
                      "assumed: the C++ graph executor launches without Python"},
    .norms = norm_kernel::as_run,
    // One ApplyMomentum / ResourceApplyAdam kernel per variable (tf.train optimizers).
    .optimizer_kernels = optimizer_kernel::per_tensor_fused,
    .optimizer_host_overhead = {2e-6, detail::per_kernel,
                                "assumed: the C++ graph executor launches without Python"},
    .vendors = vendor_set::only(vendor::nvidia)};

/// TensorFlow with XLA: fused element-wise ops, cuDNN convolutions.
inline constexpr software_stack tensorflow_xla{
    .id = stack_id::tensorflow_xla,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::as_run,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {0.80, detail::fraction, "fitted on the evidence: RN50-TF training rows"},
    .tf32_conv_efficiency = {0.65, detail::fraction,
                             "as pytorch-eager (the same cuDNN); RN50-TF TF32 rows agree"},
    .gemv_dram_share = {0.72, detail::share, "as pytorch-eager"},
    .quantized_gemv_dram_share = {0.60, detail::share, "as pytorch-eager"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.80, detail::share, "fitted on the evidence: RN50-TF training rows"},
    .host_overhead = {2e-6, detail::per_kernel,
                      "assumed: XLA launches its compiled thunks from C++"},
    .norms = norm_kernel::as_run,
    // One ApplyMomentum / ResourceApplyAdam kernel per variable (tf.train optimizers).
    .optimizer_kernels = optimizer_kernel::per_tensor_fused,
    .optimizer_host_overhead = {2e-6, detail::per_kernel,
                                "assumed: XLA launches its compiled thunks from C++"},
    .vendors = vendor_set::only(vendor::nvidia)};

/// Megatron-LM with Transformer Engine: fused kernels, FlashAttention, fused optimizers. On
/// Hopper and later Transformer Engine takes cuDNN's fused attention over FlashAttention-2
/// ("Disabling FlashAttention to give FusedAttention preference on Hopper+ for performance
/// reasons", transformer_engine/pytorch/attention/dot_product_attention/utils.py,
/// get_attention_backend), so its attention runs at the architecture's full tensor rate.
inline constexpr software_stack megatron{
    .id = stack_id::megatron,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.72, detail::share, "as pytorch-eager"},
    .quantized_gemv_dram_share = {0.60, detail::share, "as pytorch-eager"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share,
                             "assumed: fused Apex/TE kernels near the STREAM rate"},
    .host_overhead = {2e-6, detail::per_kernel, "assumed: C++ launches of fused kernels"},
    .norms = norm_kernel::as_run,
    // Megatron-LM's optimizer is Apex's (or Transformer Engine's) FusedAdam: one multi-tensor
    // pass (megatron/core/optimizer/__init__.py).
    .optimizer_kernels = optimizer_kernel::fused,
    .optimizer_host_overhead = {2e-6, detail::per_kernel, "assumed: C++ launches of fused kernels"},
    .vendors = vendor_set::only(vendor::nvidia)};

/// TensorRT-LLM: fused engine, its own attention (XQA/FMHA), CUDA graphs.
inline constexpr software_stack tensorrt_llm{
    .id = stack_id::tensorrt_llm,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::vendor,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.80, detail::share,
                        "assumed: weight-streaming GEMV kernels at ~80 % of peak DRAM rate"},
    .quantized_gemv_dram_share = {0.70, detail::share,
                                  "assumed: FpA_IntB kernels dequantise in the inner loop"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share, "assumed: fused kernels near the STREAM rate"},
    .host_overhead = {1e-6, detail::per_kernel, detail::cuda_graphs},
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = {split_mode::tensor,
                  "TensorRT-LLM --tp_size",
                  {},
                  {seconds(3.7e-6), seconds(5.9e-6), mebibytes(8),
                   "TensorRT-LLM's one-shot custom all-reduce kernel timed on H100 at 2 KB: 3.7 us "
                   "over 2 GPUs, 5.9 us over 8 (github.com/sgl-project/sglang/pull/2904, "
                   "2025-01); peer-to-peer links only, NCCL above the limit"}}};

namespace detail {
// vLLM's kernels, with or without CUDA graphs.
inline constexpr stack_figure vllm_gemv{0.75, share,
                                        "assumed: cuBLAS GEMV at ~75 % of peak DRAM rate"};
inline constexpr stack_figure vllm_quantized_gemv{
    0.65, share, "assumed: Marlin/AWQ kernels dequantise in the inner loop"};
inline constexpr multi_gpu_kernels vllm_tensor{
    split_mode::tensor,
    "vLLM --tensor-parallel-size",
    {},
    {seconds(9.5e-6), seconds(10.1e-6), mebibytes(8),
     "vLLM custom all-reduce (csrc/custom_all_reduce.cu, max_size 8 MiB) timed on "
     "H100 at 2 KB: 9.5 us over 2 GPUs, 10.1 us over 8 "
     "(github.com/sgl-project/sglang/pull/2904, 2025-01); peer-to-peer links only, "
     "NCCL above the limit"}};
}  // namespace detail

/// vLLM: PagedAttention / FlashAttention, CUDA graphs for decode.
inline constexpr software_stack vllm{
    .id = stack_id::vllm,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = detail::vllm_gemv,
    .quantized_gemv_dram_share = detail::vllm_quantized_gemv,
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share, "assumed: fused kernels near the STREAM rate"},
    .host_overhead = {1e-6, detail::per_kernel, detail::cuda_graphs},
    .trains = false,
    // CUDA and ROCm builds (the evidence has both); vLLM has no Metal backend.
    .vendors = vendor_set::both(vendor::nvidia, vendor::amd),
    .multi_gpu = detail::vllm_tensor};

/// vLLM run eagerly: every kernel of a decode step issued from its Python model code, as with
/// `--enforce-eager` and in every release before CUDA graphs came (pull 1926, 2023-12-17,
/// v0.2.6). The kernels are vLLM's; each operator call pays eager PyTorch's measured host time
/// (`pytorch_host`), which at batch 1 outlasts most of a decode step's kernels. Releases before
/// pull 2192 (2023-12) had no custom all-reduce; the one kept here needs peer-to-peer links, so
/// over PCIe both all-reduce with NCCL (docs/stacks.md, "vLLM without CUDA graphs").
inline constexpr software_stack vllm_eager{
    .id = stack_id::vllm_eager,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = detail::vllm_gemv,
    .quantized_gemv_dram_share = detail::vllm_quantized_gemv,
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share, "assumed: fused kernels near the STREAM rate"},
    .host_overhead = detail::pytorch_host,
    .trains = false,
    // CUDA and ROCm builds (the evidence has both); vLLM has no Metal backend.
    .vendors = vendor_set::both(vendor::nvidia, vendor::amd),
    .multi_gpu = detail::vllm_tensor};

/// LMDeploy TurboMind: hand-fused C++ engine.
inline constexpr software_stack lmdeploy{
    .id = stack_id::lmdeploy,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::vendor,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.78, detail::share,
                        "fitted on the evidence: LMD decode rows (Llama-2-7B and 13B)"},
    .quantized_gemv_dram_share = {0.65, detail::share,
                                  "assumed: below the FP16 share (dequantisation)"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share, "assumed: fused kernels near the STREAM rate"},
    .host_overhead = {4e-6, detail::per_kernel, "fitted on the evidence: LMD decode rows"},
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia)};

/// llama.cpp with its CUDA backend (ggml kernels, CUDA graphs since 2024-05), as the evidence's
/// builds (2023-12 to 2024-05) ran it: batch-1 products of quantised weights in MMVQ kernels
/// (quantised blocks and their scales read once, dot products on int8 activations), products over
/// more than 32 rows by a dequantisation of the weights to FP16 and cuBLAS.
inline constexpr software_stack llama_cpp{
    .id = stack_id::llama_cpp,
    .fusion = kernel_fusion::eager,
    // As the run says: FlashAttention is llama-bench's `-fa 1`, off by default in the evidence's
    // builds (attention as two cuBLAS GEMMs around ggml's softmax; the rows say which).
    .attention = attention_kernel::as_run,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.95, detail::share,
                        "fitted on the evidence: LCPP F16 tg128 rows (RTX 4090, RTX 3090) and "
                        "XDAI-LLAMA3 F16 tg512/tg4096 rows (RTX 3090, 4080, 4090)"},
    .quantized_gemv_dram_share =
        {0.95, detail::share,
         "fitted on the evidence: XDAI-LLAMA3 Q4_K_M tg512/tg4096 rows (RTX 3070, 3080, 3090, "
         "4070 Ti, 4080, 4090) and LCPP-4766 Q4_0 tg128 (RTX 3090): MMVQ kernels read the "
         "quantised blocks and their scales, which the format's bytes price; the fit (0.98) held "
         "at the 16-bit share, as dequantising never makes a kernel stream faster"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.80, detail::share,
                             "assumed: as pytorch-eager's element-wise kernels"},
    .host_overhead = {2e-6, detail::per_kernel, "assumed: ggml launches from C++"},
    .norms = norm_kernel::as_run,
    .prompt_dequantize = {32, 512,
                          "ggml-cuda.cu to 2024-06: quantised products over more than "
                          "MMQ_MAX_BATCH_SIZE = 32 rows dequantise to FP16 and call cuBLAS on GPUs "
                          "with FP16 tensor cores (MMQ the default on Turing and later only from "
                          "github.com/ggml-org/llama.cpp/pull/8075, 2024-06); llama-bench and "
                          "main process a prompt in micro-batches of 512 tokens (n_ubatch / "
                          "n_batch default)"},
    // llama.cpp's unfused attention (llama.cpp, build_attn without -fa): Q and the cached K/V as
    // ggml_permute views, ggml_soft_max_ext(kq, mask, scale) one kernel, the merged heads one
    // ggml_cont copy (github.com/ggml-org/llama.cpp, src/llama.cpp, 2024).
    .fused_softmax_glue = true,
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = detail::llama_cpp_layers,
    // What the GEMV kernels of the evidence's builds move per SM clock: llama.cpp 0df0aa8
    // (2024-05, the XDAI-LLAMA3 rows' month) timed on a lent H100 SXM (132 SMs at 1.98 GHz) by
    // Nsight Compute, Llama-3-8B shapes, the slope of kernel time over DRAM bytes read:
    // dequantize_mul_mat_vec<f16> 2.07 TB/s over 12 kernels of 33.6 and 117.5 MB; mul_mat_vec_q
    // over Q4_K 2.04 TB/s over 14 kernels of 2.4 to 33 MB (tests/data/measured/
    // h100_sxm_llama_cpp_2026-11-27.json; docs/stacks.md, "GEMV kernels per SM clock").
    .gemv_bytes_per_sm_cycle =
        {7.91, detail::per_sm_cycle,
         "measured: llama.cpp 0df0aa8 dequantize_mul_mat_vec<f16> on an H100 SXM, Nsight Compute",
         "2026-11"},
    .quantized_gemv_bytes_per_sm_cycle =
        {7.80, detail::per_sm_cycle,
         "measured: llama.cpp 0df0aa8 mul_mat_vec_q (Q4_K) on an H100 SXM, Nsight Compute",
         "2026-11"},
    // ggml keeps every activation in FP32 between kernels; ggml_cuda_op_mul_mat_cublas, on
    // compute capability 7.0 and later, casts the FP32 activations to FP16, calls cublasGemmEx
    // with CUBLAS_COMPUTE_16F into an FP16 result and casts that back to FP32; the batched
    // products of unfused attention (ggml_cuda_mul_mat_batched_cublas) do the same
    // (ggml-cuda.cu, 2024-05, 0df0aa8; the casts are the convert_unary kernels timed beside each
    // GEMM on the lent H100, tests/data/measured/h100_sxm_llama_cpp_2026-11-27.json).
    .gemm_call = {true, true,
                  "ggml-cuda.cu (llama.cpp 0df0aa8, 2024-05): ggml_cuda_op_mul_mat_cublas and "
                  "ggml_cuda_mul_mat_batched_cublas, CUBLAS_COMPUTE_16F between FP32-to-FP16 "
                  "casts"},
    // -ngl N: ggml's scheduler runs an op whose weights sit in host memory on the GPU when the
    // CUDA backend's offload_op agrees, i.e. for a product over at least 32 tokens
    // (ggml_backend_cuda_device_offload_op, GGML_OP_OFFLOAD_MIN_BATCH default 32; the weights
    // become inputs of the GPU's split, copied before each evaluation: ggml-backend.cpp since
    // github.com/ggml-org/llama.cpp/pull/6083, 2024-03); a decode step's products stay on the CPU.
    // The copy's rate: ik_llama.cpp issue 255 (2025-03, same rule), an RTX 4080 on PCIe 4.0 x16
    // prompting Qwen2.5-32B Q4_K_M with 2,048-token micro-batches: 45 host layers (13 GiB) cost
    // 0.9 s more than none, 14.4 GiB/s = 15.5 GB/s of the link's 31.5 GB/s one way. The CPU's
    // reads: fitted on one row, inventivehq.com "The VRAM Cliff" (i7-8700, DDR4-2400 in 2
    // channels, Qwen2.5-Coder-14B Q4_K_M at -ngl 0: 2.89 tokens/s); docs/models.md, "Partial
    // offload", gives its error on the rows it was not fitted on.
    .offload = {
        32,
        {0.49, "fraction of the host link, one direction",
         "measured: ik_llama.cpp issue 255, RTX 4080 prompt at -ngl 45 against 0", "2025-03"},
        {0.648, "fraction of the host memory's peak",
         "fitted on the evidence: inventivehq.com VRAM Cliff, -ngl 0 decode (1 row)", "2025-10"},
        "ggml-cuda.cu ggml_backend_cuda_device_offload_op (op batch >= 32, "
        "GGML_OP_OFFLOAD_MIN_BATCH) and ggml-backend.cpp's scheduler, llama.cpp pull 6083"}};

/// ExLlamaV2 (github.com/turboderp/exllamav2) with its CUDA kernels, as its README's benchmark ran
/// it (v0.1.8, 2024-08): batch-1 decode of EXL2 or GPTQ weights in its own matrix-vector kernels
/// (exllamav2/exllamav2_ext/cuda/q_gemm.cu), norms, RoPE and residual adds in kernels of its own,
/// attention by the flash-attn package, each module launched from a Python loop over the layers.
/// CUDA graphs came only in July 2024 and cover part of each layer (norm, QKV and RoPE; the MLP):
/// attention, the output projection and the Python loop are not graphed. No measurement of its
/// kernels' DRAM share, of what they move per SM clock or of its host time per kernel is
/// published, so the three are fitted on its README's decode rows (docs/evidence.md, "Under the
/// software stacks", gives their cross-validations). ExLlamaV2 also builds for ROCm; its HIP
/// kernels are unmeasured, so the record is CUDA's and a run on an AMD GPU is refused.
inline constexpr software_stack exllamav2{
    .id = stack_id::exllamav2,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {0.99, detail::share,
                        "assumed: held at its quantised kernels' fitted share, as dequantising "
                        "never makes a kernel stream faster (FP16 models run through torch.matmul; "
                        "no row measures them)"},
    .quantized_gemv_dram_share = {0.99, detail::share,
                                  "fitted on the evidence: EXL2-README decode rows (Llama 1 and 2, "
                                  "Code Llama, TinyLlama; RTX 3090 Ti and RTX 4090)"},
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share, "assumed: fused kernels near the STREAM rate"},
    // The fit puts no host time above the kernels': a module's Python call overlaps the GPU's
    // work on the kernels before it, and every kernel of these rows outlasts its launch.
    .host_overhead = {0.0, detail::per_kernel, "fitted on the evidence: EXL2-README decode rows"},
    .norms = norm_kernel::fused,
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = {split_mode::layer,
                  "ExLlamaV2 gpu_split / load_autosplit: consecutive layers on each GPU in turn "
                  "(exllamav2/model.py)",
                  {},
                  {}},
    // Why the RTX 3090 Ti runs the same EXL2 weights 9-18 % slower than the RTX 4090 at the same
    // 1008 GB/s: streaming the DRAM rate asks 6.5 bytes per SM per clock of its 84 SMs at
    // 1.86 GHz and 3.1 of the 4090's 128 at 2.52 GHz, and EXL2's kernels, which unpack 2- to
    // 8-bit groups in the inner loop, move fewer than the former. Fitted jointly with the share
    // (docs/stacks.md, "GEMV kernels per SM clock"); no Nsight measurement of them is published.
    .quantized_gemv_bytes_per_sm_cycle = {5.5, detail::per_sm_cycle,
                                          "fitted on the evidence: EXL2-README decode rows, RTX "
                                          "3090 Ti against RTX 4090"}};

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
    .host_overhead = {3e-6, detail::per_kernel, "assumed: HIP launches cost more than CUDA's"},
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
    .host_overhead = {7.75e-6, detail::per_kernel,
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
    .host_overhead = {5.25e-6, detail::per_kernel,
                      "fitted on the evidence: every row (the GPU's cost per dependent dispatch, "
                      "added to the kernels' time)"},
    .host_serial = true,
    .norms = norm_kernel::fused,
    .fused_softmax_glue = true,
    .trains = false,
    .vendors = vendor_set::only(vendor::apple)};

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
    .host_overhead = {7e-6, detail::per_kernel, "assumed: HIP launches cost more than CUDA's"},
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
    .host_overhead = {2e-6, detail::per_kernel, "as megatron: C++ launches of fused kernels"},
    .norms = norm_kernel::as_run,
    .optimizer_kernels = optimizer_kernel::fused,  // as megatron: one multi-tensor FusedAdam pass
    .optimizer_host_overhead = {2e-6, detail::per_kernel, "as megatron"},
    .vendors = vendor_set::only(vendor::amd)};

/// Every stack, in `stack_id` order.
inline constexpr std::array<const software_stack*, enum_count<stack_id>> all{&ceiling,
                                                                             &pytorch_eager,
                                                                             &torch_compile,
                                                                             &tensorflow,
                                                                             &tensorflow_xla,
                                                                             &megatron,
                                                                             &tensorrt_llm,
                                                                             &vllm,
                                                                             &vllm_eager,
                                                                             &lmdeploy,
                                                                             &llama_cpp,
                                                                             &llama_cpp_rocm,
                                                                             &pytorch_rocm,
                                                                             &megatron_rocm,
                                                                             &exllamav2,
                                                                             &llama_cpp_metal,
                                                                             &mlx};

/// The record of stack @p id.
constexpr const software_stack& of(stack_id id) { return *all[enum_index(id)]; }

/// One engine's builds for each vendor's GPUs, indexed by `vendor`: the same code over CUDA's,
/// ROCm's or Metal's libraries (llama.cpp's CUDA, HIP and Metal backends; PyTorch's CUDA and ROCm
/// wheels; Megatron-LM over Transformer Engine's CUDA and ROCm builds). Empty where the engine has
/// no build dlperf models for that vendor.
using engine_builds = std::array<std::optional<stack_id>, enum_count<vendor>>;

/// Every engine built for more than one vendor.
inline constexpr std::array<engine_builds, 3> builds_of_one_engine{
    {{stack_id::llama_cpp, stack_id::llama_cpp_rocm, stack_id::llama_cpp_metal},
     {stack_id::pytorch_eager, stack_id::pytorch_rocm, std::nullopt},
     {stack_id::megatron, stack_id::megatron_rocm, std::nullopt}}};

/// Stack @p id as built for @p v's GPUs: itself where it runs on them, else the build of the same
/// engine that does (llama.cpp on an AMD GPU is llama.cpp-rocm, on an Apple GPU llama.cpp-metal),
/// else itself, which `check_runs_on` then refuses. What a buyer comparing vendors under one
/// engine runs on each.
constexpr stack_id build_for(stack_id id, vendor v) {
  if (of(id).vendors.has(v)) return id;
  for (const engine_builds& builds : builds_of_one_engine)
    if (std::find(builds.begin(), builds.end(), std::optional<stack_id>(id)) != builds.end())
      return builds[enum_index(v)].value_or(id);
  return id;
}

namespace detail {
// The message of check_runs_on: a function of its own, reached only to throw (libc++ 14, the
// browser build's, has no constexpr std::string for a constexpr function's variables).
inline std::string vendor_mismatch(const software_stack& s, vendor v, std::string_view gpu) {
  std::string can;
  for (const software_stack* other : all)
    if (other->vendors.has(v)) can += (can.empty() ? "" : ", ") + std::string(other->name());
  return "stack " + std::string(s.name()) + " does not run on " + std::string(description(v)) +
         " GPUs (" + std::string(gpu) + "); stacks that do: " + can;
}
}  // namespace detail

/// Throws unsupported when stack @p s does not run on @p v's GPUs (@p gpu names the GPU),
/// naming the stacks that do.
constexpr void check_runs_on(const software_stack& s, vendor v, std::string_view gpu) {
  if (!s.vendors.has(v)) dlperf::detail::throw_unsupported(detail::vendor_mismatch(s, v, gpu));
}

/// Stack @p s running fused attention kernel @p k in place of its own: the kernel, its
/// efficiency figure (FlashAttention-2's, -3's or the Triton kernel's, each with its source) and
/// whether it issues warp-level mma.sync (FlashAttention-2 and the Triton kernel do); `unfused`
/// runs attention as GEMMs around a softmax, `as_run` leaves @p s as it is. The ceiling keeps
/// its efficiencies of 1 and takes the kernel choice only. Throws invalid_argument for `vendor`,
/// an engine's own kernel, which only its stack runs.
constexpr software_stack with_attention(software_stack s, attention_kernel k) {
  if (k == attention_kernel::as_run) return s;
  if (k == attention_kernel::vendor)
    dlperf::detail::throw_invalid_argument(
        "attention kernel vendor is an engine's own: run the engine's stack instead");
  s.attention = k;
  if (s.id == stack_id::ceiling) return s;
  s.warp_mma_attention = k == attention_kernel::flash2 || k == attention_kernel::flash_triton;
  if (k == attention_kernel::flash2) s.attention_efficiency = detail::flash2;
  if (k == attention_kernel::flash3) s.attention_efficiency = detail::flash3;
  if (k == attention_kernel::flash_triton) s.attention_efficiency = detail::flash_triton;
  return s;
}

/// The stack named @p name. Throws not_found listing the valid names.
constexpr const software_stack& find(std::string_view name) { return of(parse<stack_id>(name)); }

}  // namespace dlperf::stacks
