/// @file
/// The figures and units several named stacks share (docs/stacks.md, "The stacks and where every
/// figure comes from"): library GEMMs at the ceiling, FlashAttention's kernels, PyTorch's host
/// time per call, and the multi-GPU kernels of Accelerate and llama.cpp. Each with its source.
#pragma once

#include <string_view>

#include <dlperf/stack/stack.hpp>

namespace dlperf::stacks::detail {

inline constexpr std::string_view fraction = "fraction of the ceiling";
inline constexpr std::string_view share = "fraction of the model's DRAM rate";
inline constexpr std::string_view per_kernel = "s per kernel";
inline constexpr std::string_view cuda_graphs = "CUDA graphs: one launch per graph";
// GEMMs through cuBLAS/rocBLAS: the tile model's large-GEMM efficiencies are themselves
// measured cuBLAS/rocBLAS figures (hardware/<vendor>/arch), so library GEMMs sit at the ceiling.
inline constexpr stack_share library_gemm{1.0, fraction,
                                          "the architectures' large-GEMM efficiencies are "
                                          "cuBLAS/rocBLAS measurements (docs/gemm.md)"};
// vLLM's scheduler as its offline LLM class (benchmark_throughput.py) sets it when the run gives
// no limits: EngineArgs.get_batch_defaults in vllm/engine/arg_utils.py (v0.9 to v0.11, the V1
// engine's): max_num_seqs 256 and max_num_batched_tokens 8192, and 1024 and 16384 on GPUs of at
// least 70 GiB whose name lacks "a100" (pull 17885 measured the larger limits costing the A100
// throughput); chunked prefill always on in V1; KV blocks allocated as tokens arrive, with
// preemption (the paged KV cache, Kwon et al., SOSP 2023). The V0 engine's max_num_seqs was 256
// on every GPU.
inline constexpr serving_scheduler vllm_scheduler{
    .limits = {256, 8192},
    .large = {1024, 16384},
    .large_from = gibibytes(70),
    .large_except = family::ampere,
    .chunked_prefill = true,
    .reservation = kv_reservation::as_generated,
    .source =
        "vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults, LLM class (v0.9-v0.11, "
        "read 2026-11)"};
// vLLM's V0 engine (releases before v0.8, which the run-eagerly stack stands for): max_num_seqs
// 256 (EngineArgs, v0.2-v0.7); its token budget was max(max_model_len, 2048) with whole prompts,
// the model's context, which the serving model does not know: 8192 kept.
inline constexpr serving_scheduler vllm_v0_scheduler{
    .limits = {256, 8192},
    .reservation = kv_reservation::as_generated,
    .source = "vllm/engine/arg_utils.py, EngineArgs.max_num_seqs = 256 (v0.2-v0.7)"};
// vLLM's tensor split, CUDA and ROCm builds alike: its custom all-reduce below 8 MiB (the same
// kernel source builds for HIP, and on ROCm peer access between Infinity Fabric GPUs is taken as
// given: vllm/distributed/device_communicators/custom_all_reduce.py), NCCL or RCCL above it.
inline constexpr multi_gpu_kernels vllm_tensor{
    split_mode::tensor,
    "vLLM --tensor-parallel-size",
    {},
    {seconds(9.5e-6), seconds(10.1e-6), mebibytes(8),
     "vLLM custom all-reduce (csrc/custom_all_reduce.cu, max_size 8 MiB) timed on "
     "H100 at 2 KB: 9.5 us over 2 GPUs, 10.1 us over 8 "
     "(github.com/sgl-project/sglang/pull/2904, 2025-01); peer-to-peer links only, "
     "NCCL above the limit"}};
// Eager PyTorch's host time per operator call: Python module call, dispatcher, autocast and
// the cuDNN call's set-up. Measured at 51.95 us per nn.Conv2d forward call on CUDA (about 130k
// CPU instructions) in pytorch/pytorch PR #51390 (comment of 2021-05-26, the PyTorch 1.9 and
// cuDNN 8 generation of the evidence's NGC containers); NVIDIA's ResNet-50 inference table
// (DeepLearningExamples, NGC 21.03) shows the same floor: 10.4 ms for its ~200 operators at
// batch 1 to 4, on V100 and T4 alike (docs/stacks.md). Launches alone cost far less (~5 us);
// newer PyTorch on faster hosts costs less per call.
inline constexpr stack_host_time pytorch_host{
    microseconds(50), per_kernel,
    "pytorch/pytorch PR #51390: 51.95 us per nn.Conv2d forward call (PyTorch 1.9, cuDNN 8); "
    "DeepLearningExamples ResNet-50 inference floor ~50 us per operator",
    "2021-05"};
// Eager PyTorch's host time per kernel of the optimizer's update: an element-wise op call from
// Python (dispatcher, allocation, launch), far cheaper than a module call. pytorch/pytorch
// PR #45299 timed torch.optim.SGD (momentum, no weight decay: 3 kernels per tensor) over
// torchvision's ResNet-101 (314 tensors) at 6.28 ms per step, 6.7 us per kernel; issue #41383
// measured 5-6.8 us per small eager op. The same PR's Adam loop costs 17 us per kernel
// (42.69 ms over 314 x 8 kernels): docs/stacks.md, "The optimizer", says where this misses.
inline constexpr stack_host_time pytorch_op_host{
    microseconds(7), per_kernel,
    "pytorch/pytorch PR #45299: torch.optim.SGD over ResNet-101, 6.28 ms for 314 tensors x 3 "
    "kernels (6.7 us per kernel); issue #41383: 5-6.8 us per eager op",
    "2020-09"};
// FlashAttention-2 reaches 50-73 % of A100's FP16 peak in the forward pass (Dao 2023,
// arXiv 2307.08691, Fig. 5); the tile model's fused attention assumes the large-GEMM efficiency
// of the architecture (~0.8-0.9 of peak): 0.62 / 0.85 = 0.73 of the ceiling.
inline constexpr stack_share flash2{0.73, fraction,
                                    "FlashAttention-2 forward 50-73 % of A100 FP16 peak, "
                                    "arXiv 2307.08691 Fig. 5; midpoint over the GEMM efficiency",
                                    "2023-07"};
// FlashAttention-3 reaches 740 TFLOPS (75 %) of H100's FP16 peak (Shah et al. 2024,
// arXiv 2407.08608): 0.75 / 0.85 = 0.88 of the ceiling.
inline constexpr stack_share flash3{0.88, fraction,
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
inline constexpr stack_share flash_triton{
    flash2.value * triton_tflops / flash2_tflops, fraction,
    "FlashAttention Triton kernel 78 vs FlashAttention-2 182 TFLOPs/s forward and backward, "
    "A100 causal head dim 128, 8k tokens (arXiv 2307.08691 Fig. 4), times flash2's figure",
    "2023-07"};
inline constexpr std::string_view per_sm_cycle = "bytes of weights per SM per SM clock";
inline constexpr std::string_view stream_per_sm_cycle =
    "bytes read and written per SM per SM clock";
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

// Transformer Engine's FP8 linears (docs/stacks.md, "FP8 casts"): each casts its input to FP8
// with a transposed copy for the weight gradient (cast_transpose) before the GEMM, and its output
// gradient the same way before the backward GEMMs, in kernels of their own
// (transformer_engine/pytorch/module/linear.py, _Linear.forward and backward; the grouped
// linears of a mixture of experts cast their permuted tokens alike, grouped_linear.py).
inline constexpr fp8_cast_kernels transformer_engine_casts{
    true,
    "Transformer Engine's Linear and GroupedLinear: cast_transpose of the input forward, "
    "of the output gradient backward (transformer_engine/pytorch/module/linear.py)"};

}  // namespace dlperf::stacks::detail
