/// @file
/// The named stacks of NVIDIA GPUs (docs/stacks.md): PyTorch, TensorFlow, Megatron-LM and the
/// inference engines over CUDA, one record each with every figure's source.
#pragma once

#include <dlperf/stack/shared_figures.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf::stacks {

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
    .warp_mma_attention = true,
    .flash_tiles = true,
    // FP8 training in eager PyTorch runs Transformer Engine's linears (Composer's amp_fp8, which
    // llm-foundry's FP8 runs take) or torchao's Float8Linear without a compiler: casts of their
    // own either way.
    .fp8_casts = detail::transformer_engine_casts};

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
    .host_overhead = {microseconds(1), detail::per_kernel, detail::cuda_graphs},
    // torch.compile compiles the model, not the optimizer's step, unless the code compiles the
    // step too: the update is eager PyTorch's default.
    .optimizer_kernels = optimizer_kernel::multi_tensor,
    .optimizer_host_overhead = detail::pytorch_op_host,
    .vendors = vendor_set::only(vendor::nvidia),
    // Inductor's micro-pipeline pass rewrites the forward graph's all-gather -> matmul and
    // matmul -> reduce-scatter. Its authors measured the forward pass 20-29 % faster and a step
    // about 8 % faster (Llama 3 8B under selective checkpointing, 70B under full, 64 H100s):
    // the forward's share of a step (a third, a quarter recomputed) times its speed-up is the
    // whole gain, so the backward's collectives are taken as waited for whole.
    .multi_gpu = {.async_tp = {"torchtitan's async TP (enable_async_tensor_parallel, which needs "
                               "torch.compile)",
                               false,
                               "discuss.pytorch.org/t/209487 (PyTorch, 2024-09): all-gather and "
                               "reduce-scatter cut with their matmuls over symmetric memory, "
                               "copy-engine transfers; forward +20-29 %, step +8 %"}},
    .warp_mma_attention = true,  // SDPA's flash backend, as pytorch-eager's
    .flash_tiles = true};

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
    .host_overhead = {microseconds(2), detail::per_kernel,
                      "assumed: the C++ graph executor launches without Python"},
    .norms = norm_kernel::as_run,
    // One ApplyMomentum / ResourceApplyAdam kernel per variable (tf.train optimizers).
    .optimizer_kernels = optimizer_kernel::per_tensor_fused,
    .optimizer_host_overhead = {microseconds(2), detail::per_kernel,
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
    .host_overhead = {microseconds(2), detail::per_kernel,
                      "assumed: XLA launches its compiled thunks from C++"},
    .norms = norm_kernel::as_run,
    // One ApplyMomentum / ResourceApplyAdam kernel per variable (tf.train optimizers).
    .optimizer_kernels = optimizer_kernel::per_tensor_fused,
    .optimizer_host_overhead = {microseconds(2), detail::per_kernel,
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
    .host_overhead = {microseconds(2), detail::per_kernel,
                      "assumed: C++ launches of fused kernels"},
    .norms = norm_kernel::as_run,
    // Megatron-LM's optimizer is Apex's (or Transformer Engine's) FusedAdam: one multi-tensor
    // pass (megatron/core/optimizer/__init__.py).
    .optimizer_kernels = optimizer_kernel::fused,
    .optimizer_host_overhead = {microseconds(2), detail::per_kernel,
                                "assumed: C++ launches of fused kernels"},
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = {.async_tp = {"Megatron's --tp-comm-overlap (Transformer Engine's userbuffers)",
                               true,
                               "megatron/training/arguments.py, --tp-comm-overlap: 'overlap of "
                               "Tensor parallel communication and GEMM kernels'; Transformer "
                               "Engine's ub_overlap_ag/rs forward, rs_dgrad and bulk backward"},
                  .tp_backward = {"megatron/core/tensor_parallel/layers.py, "
                                  "LinearWithGradAccumulationAndAsyncCommunication.backward: the "
                                  "input's all-gather beside grad_output.matmul(weight), the input "
                                  "gradient's reduce-scatter beside the weight gradient (sequence "
                                  "parallelism); Transformer Engine's Linear does the same"}},
    .fp8_casts = detail::transformer_engine_casts};

namespace detail {
// TensorRT-LLM's scheduler as trtllm-bench, NVIDIA's throughput tool (the one its published
// tables ran), sets it from the dataset: tensorrt_llm/bench/build/tuning.py, finetune_setting
// (v0.20 to v1.0): max_batch_size the KV-limited count rounded up, capped at 4096 (the decoder's
// buffers), and max_num_tokens that count times 1 + ISL/OSL within 2048 and 32768; the capacity
// scheduler's GUARANTEED_NO_EVICT policy reserves each request's whole context. (The LLM API
// without trtllm-bench defaults to max_batch_size 2048 and max_num_tokens 8192: --max-seqs and
// --step-tokens.)
inline constexpr serving_scheduler trtllm_bench_scheduler{
    .limits = {4096, 8192},
    .reservation = kv_reservation::whole_context,
    .shaped_step = {2048, 32768},
    .source =
        "tensorrt_llm/bench/build/tuning.py, finetune_setting (trtllm-bench v0.20-v1.0, "
        "read 2026-11)"};
}  // namespace detail

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
    .host_overhead = {microseconds(1), detail::per_kernel, detail::cuda_graphs},
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = {split_mode::tensor,
                  "TensorRT-LLM --tp_size",
                  {},
                  {seconds(3.7e-6), seconds(5.9e-6), mebibytes(8),
                   "TensorRT-LLM's one-shot custom all-reduce kernel timed on H100 at 2 KB: 3.7 us "
                   "over 2 GPUs, 5.9 us over 8 (github.com/sgl-project/sglang/pull/2904, "
                   "2025-01); peer-to-peer links only, NCCL above the limit"}},
    .serving = detail::trtllm_bench_scheduler};

namespace detail {
// vLLM's kernels, with or without CUDA graphs.
inline constexpr stack_share vllm_gemv{0.75, share,
                                       "assumed: cuBLAS GEMV at ~75 % of peak DRAM rate"};
inline constexpr stack_share vllm_quantized_gemv{
    0.65, share, "assumed: Marlin/AWQ kernels dequantise in the inner loop"};
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
    .host_overhead = {microseconds(1), detail::per_kernel, detail::cuda_graphs},
    .trains = false,
    // The CUDA build; its ROCm build is vllm-rocm (rocm_stacks.hpp), with ROCm's kernels.
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = detail::vllm_tensor,
    .serving = detail::vllm_scheduler,
    // vLLM's flash-attn fork: FlashAttention-2 on Ampere, -3 on Hopper.
    .flash_tiles = true};

namespace detail {
// SGLang's scheduler as `python -m sglang.launch_server` and `sglang.bench_offline_throughput`
// set it when the run gives no limits (python/sglang/srt/server_args.py and
// model_executor/model_runner.py, v0.4-v0.5, 2025, read 2026-12): chunked prefill on, 8192
// tokens a chunk on GPUs below 160 GiB and 16384 from 160 GiB (B200 and MI300X class;
// server_args' gpu_mem tiers, from mid-2025; 8192 on every GPU above 25 GB before); at most
// min(max(KV tokens / context x 512, 2048), 4096) running requests, 2048 for the 128k-context
// models of the presets (their context is not part of a preset); the KV pool's slots (page_size
// 1) taken as tokens arrive, a new request admitted against its prompt and its remaining
// max_new_tokens, running ones against a decaying share of theirs (init_new_token_ratio 0.7 to
// 0.098), and the shortest-output request retracted to the queue when memory runs out: as
// generated.
inline constexpr serving_scheduler sglang_scheduler{
    .limits = {2048, 8192},
    .large = {2048, 16384},
    .large_from = gibibytes(160),
    .large_except = family::ampere,  // no Ampere board has 160 GiB: no exception in SGLang
    .chunked_prefill = true,
    .reservation = kv_reservation::as_generated,
    .source =
        "python/sglang/srt/server_args.py (chunked_prefill_size by GPU memory) and "
        "model_executor/model_runner.py (max_num_reqs), v0.4-v0.5, read 2026-12"};
// SGLang's CUDA graphs: captured for decode batches up to cuda_graph_max_bs, 160 on GPUs above
// 25 GB, with batches to 256 captured too on GPUs of more than 96 GiB and to 512 on those of more
// than 180,000 MiB (python/sglang/srt/model_executor/cuda_graph_runner.py, pull 6718,
// 2025-05-28; the catalog's B200 quotes 180 GB, 167.6 GiB, where the board reports about
// 183,000 MiB, so that tier starts at 160 GiB here, as its chunk size's does). A larger decode
// batch runs the model's PyTorch code eagerly (ModelRunner.forward_decode), each kernel an
// eager op call: PyTorch's measured host time, as vllm-eager's.
inline constexpr decode_graph_limit sglang_graphs{
    .tiers = {{{bytes(0), 160}, {gibibytes(96), 256}, {gibibytes(160), 512}}},
    .eager_host_overhead = pytorch_host,
    .source =
        "python/sglang/srt/server_args.py and model_executor/cuda_graph_runner.py "
        "(cuda_graph_max_bs; pull 6718, 2025-05-28), read 2026-12"};
}  // namespace detail

/// SGLang (github.com/sgl-project/sglang) on CUDA: the same kernel families as vLLM's CUDA build
/// (FlashInfer or FlashAttention-3 attention, cuBLAS GEMMs through PyTorch, fused norms and
/// activations, CUDA graphs for decode), so vLLM's record is taken, none of its figures being
/// measured for SGLang alone; its own scheduler (chunked prefill, a cap of 2048 requests,
/// 16384-token chunks from 160 GiB) and its tensor split (docs/stacks.md, @ref stacks_sglang
/// "SGLang").
inline constexpr software_stack sglang = [] {
  software_stack s = vllm;
  s.id = stack_id::sglang;
  // Its tensor split keeps vLLM's custom all-reduce, which SGLang's is
  // (python/sglang/srt/distributed/device_communicators/custom_all_reduce.py, "Adapted from"
  // vLLM v0.6.4.post1's, _MAX_CAR_SIZE 8 MiB, peer-to-peer links only), NCCL above it.
  s.multi_gpu.split_source = "SGLang --tp-size";
  s.serving = detail::sglang_scheduler;
  s.decode_graphs = detail::sglang_graphs;
  return s;
}();

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
    // The CUDA build's kernels; a ROCm build run eagerly is not modelled (vllm-rocm has graphs).
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = detail::vllm_tensor,
    .serving = detail::vllm_v0_scheduler,
    .flash_tiles = true};

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
    .host_overhead = {microseconds(4), detail::per_kernel,
                      "fitted on the evidence: LMD decode rows"},
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
    .host_overhead = {microseconds(2), detail::per_kernel, "assumed: ggml launches from C++"},
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
    // What ggml's own streaming kernels of a prompt layer move per SM clock, from the same
    // build's two 512-token Llama-3-8B layers on the lent H100 SXM (Nsight Compute; bytes read
    // and written as the kernel's elements give them; docs/stacks.md, "A prompt layer as ggml
    // builds it"): dequantize_block_q4_K and _q6_K to FP16, the slope over 12 kernels of 11 to
    // 166 MB (1.13 TB/s); soft_max_f32 over 512 x 512 F32 scores of 32 heads, 67.6 MB in
    // 53.6 us; cpy_f32_f16 (the head merge's permuted copy and the K and V cache writes), the
    // slope over 13 kernels of 3.1 and 16.8 MB (0.46 TB/s). Each sits below what an H100's HBM
    // asks per SM cycle (12.8 B) and above a GeForce board's (2-7.7 B), as the GEMV kernels do.
    .dequantize_bytes_per_sm_cycle = {4.31, detail::stream_per_sm_cycle,
                                      "measured: llama.cpp 0df0aa8 dequantize_block_q4_K/q6_K on "
                                      "an H100 SXM, Nsight Compute",
                                      "2026-11"},
    .softmax_bytes_per_sm_cycle = {4.83, detail::stream_per_sm_cycle,
                                   "measured: llama.cpp 0df0aa8 soft_max_f32 on an H100 SXM, "
                                   "Nsight Compute",
                                   "2026-11"},
    .strided_copy_bytes_per_sm_cycle = {1.77, detail::stream_per_sm_cycle,
                                        "measured: llama.cpp 0df0aa8 cpy_f32_f16 on an H100 SXM, "
                                        "Nsight Compute",
                                        "2026-11"},
    // The layer llama.cpp's graph builds (llm_build_llama and llm_build_ffn, 2023-12 to 2025;
    // the 0df0aa8 profile runs 43 kernels a 512-token F16 layer): wq, wk and wv apart, as
    // ffn_gate and ffn_up; ggml_rms_norm then ggml_mul by the norm's weight; ggml_silu then
    // ggml_mul by up; ggml_rope on Q and on K; ggml_cpy of K and V into the cache's views.
    .prompt_kernels = {true, true, true,
                       "llama.cpp src/llama.cpp llm_build_llama/llm_build_ffn (2023-12 to 2025; "
                       "kernels as the 0df0aa8 prompt profile on an H100 SXM lists them)"},
    // The same graph in a decode step: its one-token kernels, replayed in a CUDA graph.
    .decode_kernels = {true, false, false,
                       "llama.cpp llm_build_llama/llm_build_ffn: one graph builder for prompt and "
                       "decode (0df0aa8's decode GEMVs on an H100 SXM: Q, K, V apart)"},
    // convert_mul_mat_vec_f16_cuda (ggml-cuda/dmmv.cu, 0df0aa8): one block of one warp
    // (WARP_SIZE x GGML_CUDA_MMV_Y = 1) per row. On the lent H100 SXM its 1024-row products
    // (Llama 3's K and V, 8.4 MB) took 15.9 us, 3.7 us of it the fixed time of the line its
    // larger products lie on: 2.63 bytes per SM clock over 1024 / 132 = 7.76 warps a SM, 0.339
    // a warp (tests/data/measured/h100_sxm_llama_cpp_2026-11-27.json, gemv_kernels f16).
    .gemv_kernel = {1,
                    1,
                    {0.339, "bytes of weights per resident warp per SM clock",
                     "measured: llama.cpp 0df0aa8 dequantize_mul_mat_vec<f16>, 1024-row products "
                     "on an H100 SXM, Nsight Compute",
                     "2026-11"},
                    "ggml-cuda/dmmv.cu convert_mul_mat_vec_f16_cuda (0df0aa8): a 32-thread block "
                    "per row"},
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
    .host_overhead = {microseconds(0), detail::per_kernel,
                      "fitted on the evidence: EXL2-README decode rows"},
    .norms = norm_kernel::fused,
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = {split_mode::layer,
                  "ExLlamaV2 gpu_split / load_autosplit: consecutive layers on each GPU in turn "
                  "(exllamav2/model.py)",
                  {},
                  {}},
    .flash_tiles = true,  // the flash-attn 2 package
    // Why the RTX 3090 Ti runs the same EXL2 weights 9-18 % slower than the RTX 4090 at the same
    // 1008 GB/s: streaming the DRAM rate asks 6.5 bytes per SM per clock of its 84 SMs at
    // 1.86 GHz and 3.1 of the 4090's 128 at 2.52 GHz, and EXL2's kernels, which unpack 2- to
    // 8-bit groups in the inner loop, move fewer than the former. Fitted jointly with the share
    // (docs/stacks.md, "GEMV kernels per SM clock"); no Nsight measurement of them is published.
    .quantized_gemv_bytes_per_sm_cycle = {5.5, detail::per_sm_cycle,
                                          "fitted on the evidence: EXL2-README decode rows, RTX "
                                          "3090 Ti against RTX 4090"}};

/// MLC LLM (mlc-llm 8e94910 with mlc-ai/relax e5ca38d, 2023-10, as llm-perf-bench ran it): a model
/// compiled by TVM into one library whose element-wise work is fused into its kernels, replayed
/// through CUDA graphs (`mlc_llm.build --use-cuda-graph`), its weights in q4f16_1 (group-32 int4
/// dequantised in TVM's GEMV kernels) or FP16, split over GPUs by `--num-shards` (tensor
/// parallel, each layer's two all-reduces through NCCL from TVM's disco runtime).
inline constexpr software_stack mlc_llm{
    .id = stack_id::mlc_llm,
    .fusion = kernel_fusion::fused,
    .attention = attention_kernel::flash2,
    .gemm_efficiency = detail::library_gemm,
    .conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .tf32_conv_efficiency = {1.0, detail::fraction, "no convolutions"},
    .gemv_dram_share = {1.0, detail::share,
                        "assumed: held at its q4f16_1 kernels' fitted share, as dequantising never "
                        "makes a kernel stream faster (no single-GPU FP16 row is published)"},
    // The fit runs to its bound: the RTX 4090's Llama 2 7B at 204.8 tokens/s is 4.9 ms a token,
    // above the ceiling's 196, whose 5 us launch a kernel a CUDA-graph replay does not pay in
    // full (docs/stacks.md, "MLC LLM").
    .quantized_gemv_dram_share = {1.0, detail::share,
                                  "fitted on the evidence: MLC-PERF single-GPU q4f16_1 decode rows "
                                  "(Llama 2 7B and 13B; RTX 3090 Ti and RTX 4090)"},
    // Assumed as FlashAttention-2's: TVM's decode attention is not timed, and a 7-token prompt's
    // cache is a negligible read in the evidence's rows.
    .attention_efficiency = detail::flash2,
    .streaming_dram_share = {0.85, detail::share, "assumed: fused kernels near the STREAM rate"},
    .host_overhead = {microseconds(1), detail::per_kernel, detail::cuda_graphs},
    .trains = false,
    .vendors = vendor_set::only(vendor::nvidia),
    .multi_gpu = {split_mode::tensor,
                  "mlc_llm.build --num-shards (2023-10): tensor parallel, NCCL all-reduce through "
                  "TVM's disco runtime",
                  {},
                  {}}};

}  // namespace dlperf::stacks
