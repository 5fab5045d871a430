/// @file
/// How a model is run: training or inference, batch and sequence, precision, optimizer, weight
/// format, activation checkpointing, low-rank adaptation (model/lora.hpp) and the split over GPUs.
/// One `run_config` answers both the time question (model/step.hpp) and the memory question
/// (model/memory.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/weight_format.hpp>
#include <dlperf/hardware/host_memory.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/lora.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stack_calibration.hpp>

namespace dlperf {

/// Training step or inference.
enum class run_mode : std::uint8_t {
  train,  ///< forward, backward and optimizer update
  infer   ///< forward only (decoders: prefill and token-by-token decode)
};

/// The run modes and their stable names.
template <>
struct enum_list<run_mode> {
  static constexpr std::string_view kind = "mode";  ///< what the enum names
  /// Every mode.
  static constexpr std::array values{enumerator{run_mode::train, "train"},
                                     enumerator{run_mode::infer, "infer"}};
};

/// Which datatype inference keeps the KV cache in (`--kv-dtype`).
enum class kv_cache_type : std::uint8_t {
  as_run,   ///< the run's activation type (FP8 runs: FP8), as before the choice existed
  float16,  ///< 16 bits (FP16 or BF16)
  float8,   ///< FP8 (E4M3 or E5M2), one scale per tensor (vLLM, TensorRT-LLM)
  integer8  ///< INT8, one scale per tensor (TensorRT-LLM INT8 KV cache)
};

/// The KV-cache types and their stable names.
template <>
struct enum_list<kv_cache_type> {
  static constexpr std::string_view kind = "KV-cache dtype";  ///< what the enum names
  /// Every KV-cache type.
  static constexpr std::array values{
      enumerator{kv_cache_type::as_run, "auto", "the run's activation type; FP8 runs: fp8"},
      enumerator{kv_cache_type::float16, "fp16", "16 bits (FP16 or BF16)"},
      enumerator{kv_cache_type::float8, "fp8", "FP8, per-tensor scale"},
      enumerator{kv_cache_type::integer8, "int8", "INT8, per-tensor scale"}};
};

/// Training: activation checkpointing of part of the forward pass, between none and all
/// (`run_config::checkpointing`), as torchtitan's `mode = "selective"` runs it
/// (torchtitan/models/llama3/parallelize_llama.py, `_apply_ac_to_transformer_block`).
enum class selective_checkpointing : std::uint8_t {
  none,  ///< no selective checkpointing (`checkpointing` says none or every layer)
  /// torchtitan's per-op policy (`selective_ac_option = "op"`): a layer's forward is recomputed
  /// except the outputs it saves, those of its matrix products but every second one (the second,
  /// fourth, ... in the order they run) and the fused attention's
  ops,
  /// Every second layer checkpointed whole (`selective_ac_option = "2"`)
  layers
};

/// The selective checkpointing policies and their stable names.
template <>
struct enum_list<selective_checkpointing> {
  static constexpr std::string_view kind = "selective checkpointing";  ///< what the enum names
  /// Every policy.
  static constexpr std::array values{
      enumerator{selective_checkpointing::none, "none", "none selective"},
      enumerator{selective_checkpointing::ops, "ops",
                 "torchtitan's per-op policy: every op recomputed but every other matrix "
                 "product and the attention kernel"},
      enumerator{selective_checkpointing::layers, "layers", "every second layer recomputed whole"}};
};

/// Training a mixture of experts over several GPUs (run_config::ep): what a GPU sends the GPUs
/// of a token's experts (docs/parallel.md, "Expert parallelism").
enum class expert_dispatch : std::uint8_t {
  /// Each of a token's k copies, one per routed expert (Megatron's `alltoall` token dispatcher)
  per_expert,
  /// The token once to each GPU holding any of its experts, and across the network once to
  /// each other server holding any, whose GPUs pass it on over their own links (Megatron's
  /// `flex` dispatcher over DeepEP or HybridEP)
  per_gpu
};

/// The expert dispatches and their stable names.
template <>
struct enum_list<expert_dispatch> {
  static constexpr std::string_view kind = "expert dispatch";  ///< what the enum names
  /// Every dispatch.
  static constexpr std::array values{
      enumerator{expert_dispatch::per_expert, "per-expert",
                 "each of a token's k copies (Megatron's alltoall dispatcher)"},
      enumerator{expert_dispatch::per_gpu, "per-gpu",
                 "a token once a GPU, once a server across the network (DeepEP, HybridEP)"}};
};

/// Bytes per cached key or value element of @p k when the run computes in @p t: 16-bit and
/// wider runs keep their type, FP8 runs FP8 (as_run); per-tensor scales are negligible.
constexpr double kv_cache_element_bytes(kv_cache_type k, dtype t) {
  switch (k) {
    case kv_cache_type::float16:
      return 2.0;
    case kv_cache_type::float8:
    case kv_cache_type::integer8:
      return 1.0;
    case kv_cache_type::as_run:
      break;
  }
  const double e = traits(t).storage().value();
  return e >= 2.0 ? e : 1.0;
}

/// One run of a model.
struct run_config {
  /// The largest value of each count validate() admits: counts stay exact in doubles and far
  /// from overflow. The tool's flag ranges (app's plausible_ranges) read these, so a flag names
  /// the limit its field has here.
  struct limits {
    static constexpr long long batch = 1LL << 24;              ///< batch
    static constexpr long long image = 1LL << 16;              ///< image side
    static constexpr long long gpus = 1LL << 20;               ///< gpus, tp, pp
    static constexpr long long tokens = 1LL << 30;             ///< seq, prompt, generate, document
    static constexpr long long grad_accumulation = 1LL << 20;  ///< grad_accumulation
    static constexpr long long gpus_per_node = 1LL << 10;      ///< gpus_per_node
    static constexpr long long virtual_stages = 1LL << 10;     ///< virtual_stages
    static constexpr long long lora_rank = 1LL << 20;          ///< lora.rank
    static constexpr long long gpu_layers = (1LL << 16) + 1;   ///< gpu_layers (layers + output)
  };

  run_mode mode = run_mode::train;  ///< training or inference
  long long batch = 1;              ///< sequences or images per data-parallel replica
  long long seq = 0;                ///< tokens per sequence (transformers); 0 = the model's context
  long long image = 224;            ///< image side in pixels (CNNs)
  long long prompt = 0;             ///< decoder inference: prompt tokens; 0 = seq, else the
                                    ///< context less the generated tokens
  long long generate = 0;           ///< decoder inference: tokens generated after the prompt
  /// Training a transformer: mean tokens per training document (an example of a fine-tuning
  /// set); 0 = every sequence is one document of `seq` tokens. A shorter document is padded to
  /// `seq`, whose padding is computed and not learned from, unless `packing` (docs/models.md,
  /// "Padding and packing").
  long long document = 0;
  dtype type = dtype::bf16;  ///< compute type; 16-bit and FP8 training keep FP32 master weights
  weight_format weights = weight_format::native;    ///< inference weight storage
  kv_cache_type kv_cache = kv_cache_type::as_run;   ///< decoder inference: KV-cache datatype
  optimizer_kind optimizer = optimizer_kind::adam;  ///< training optimizer
  bool checkpointing = false;   ///< training: keep only layer inputs, recompute the rest
  bool flash_attention = true;  ///< fused attention (no score matrix in DRAM or memory)
  /// Every element-wise op its own kernel, as an eager framework runs it (no epilogue fusion,
  /// batch norm not folded at inference).
  bool eager = false;
  /// RMSNorm as the framework's element-wise ops, each a kernel in FP32 (Hugging Face's
  /// Python RMSNorm under eager PyTorch) instead of one kernel.
  bool composite_norms = false;
  long long gpus = 1;  ///< GPUs of the job
  int zero = 0;        ///< ZeRO stage over the data-parallel GPUs: 0 to 3
  long long tp = 1;    ///< tensor-parallel degree (divides gpus)
  /// GPUs a layer split runs the model over, each holding consecutive layers. Inference: they
  /// run them in turn (llama.cpp's default `--split-mode layer`, accelerate's `device_map`).
  /// Training: pipeline stages under Megatron's 1F1B schedule, `grad_accumulation` micro-batches
  /// in flight (docs/parallel.md). tp x pp divides gpus.
  long long pp = 1;
  /// Training with pp > 1: model chunks per GPU of Megatron's interleaved 1F1B schedule (its
  /// virtual pipeline stages, `--num-layers-per-virtual-pipeline-stage`), which divides the
  /// pipeline's bubble by this; 1: plain 1F1B.
  long long virtual_stages = 1;
  /// Training a decoder: GPUs each sequence's tokens are split over (context parallelism, ring
  /// attention: Megatron's `context_parallel_size`, torchtitan's `context_parallel_degree`).
  /// Each GPU runs seq / cp tokens through the layers and attends its queries to every key as
  /// the keys pass round the ring; the cp GPUs share the parameters, so gradients are reduced
  /// (and ZeRO shards) over data parallel x cp (docs/parallel.md). tp x pp x cp divides gpus.
  long long cp = 1;
  /// Training a mixture of experts: GPUs each MoE layer's routed experts are spread over
  /// (expert parallelism: Megatron's `expert_model_parallel_size`), experts / ep whole experts
  /// a GPU. The expert layers take their ep GPUs from the tp x cp x dp GPUs of a pipeline stage,
  /// one token share each (Megatron's MoE parallel folding with `expert_tensor_parallel_size`
  /// 1): each GPU routes its tokens (a tp-th of a replica's under sequence parallelism) to the
  /// experts' GPUs by an all-to-all and gathers their outputs back by another. The dense layers
  /// keep tp x cp x dp; each expert's gradients are reduced over the expert_data_parallel()
  /// GPUs holding it (docs/parallel.md, "Expert parallelism"). ep divides gpus / pp.
  long long ep = 1;
  /// Training with zero 2 or 3: GPUs each shard group spans (hybrid sharding: FSDP's
  /// `HYBRID_SHARD` and `_HYBRID_SHARD_ZERO2`, FSDP2 over a 2-D mesh, torchtitan's
  /// `data_parallel_shard_degree` beside `data_parallel_replicate_degree`). Parameters,
  /// gradients and optimizer state are sharded over these GPUs only; each shard's gradients are
  /// then all-reduced across the data_parallel_with_cp() / shard_group copies of the group
  /// (docs/parallel.md). 0: every GPU holding the same parameters (plain ZeRO, FULL_SHARD).
  long long shard_group = 0;
  /// The link between the job's GPUs; none: the system's (hardware/links.hpp, system_link).
  const link_spec* link = nullptr;
  /// Training: micro-batches of `batch` each GPU runs (forward and backward) before one
  /// optimizer update, their gradients summed (gradient accumulation).
  long long grad_accumulation = 1;
  /// GPUs in one server: a job of more spans servers, its collectives cross `network`.
  long long gpus_per_node = 8;
  /// Each GPU's port to the other servers; none: the server's own (hardware/links.hpp,
  /// default_network).
  const link_spec* network = nullptr;
  /// Training with sharded gradients (ZeRO 2 and 3, FSDP): reduce-scatter the gradients in FP32
  /// (FSDP's `reduce_dtype=torch.float32`, Composer's DEFAULT mixed precision) instead of the
  /// run's 16-bit type.
  bool fp32_gradient_reduce = false;
  double overhead_bytes = 1073741824.0;  ///< framework and workspace memory per GPU (1 GiB)
  lora_config lora{};  ///< training: LoRA / QLoRA adapters instead of every weight (rank 0: off)
  /// Decoder inference on one GPU: the layers on the GPU, llama.cpp's `-ngl` (the last ones,
  /// and the output layer when it exceeds the layers; model/offload.hpp); -1: every layer.
  long long gpu_layers = -1;
  /// The host memory the offloaded layers are read from (none: host_memories::typical).
  const host_memory_spec* host_memory = nullptr;
  /// The software stack the run's kernels run under (docs/stacks.md). estimate_model gives the
  /// hardware model's ceiling whatever this says; estimate_run (model/stacked.hpp) and the
  /// buying layer give the stack's figures.
  stack_id stack = stack_id::ceiling;
  /// Weight-only quantised products over many rows: a dequantisation pass to 16 bits per
  /// micro-batch, then a 16-bit GEMM, where the stack's kernels do that (set by `run_under`,
  /// model/stacked.hpp; none by default: the product dequantises in its inner loop).
  dequantize_pass prompt_dequantize{};
  /// How the stack calls its 16-bit library GEMM over more than one row: FP16 accumulation,
  /// FP32 activations between kernels cast around each call (set by `run_under`; the ceiling's
  /// call by default).
  library_gemm_call gemm_call{};
  /// Whether FP8 linears in training cast their inputs and output gradients in kernels of their
  /// own (set by `run_under` from the stack; none by default, as the ceiling).
  fp8_cast_kernels fp8_casts{};
  /// Which of a layer's fused operators run as several kernels over a prompt (set by
  /// `run_under` from the stack; none by default, the model's fused layer).
  layer_kernels prompt_kernels{};
  /// The same in a decode step (set by `run_under` from the stack; none by default).
  layer_kernels decode_kernels{};
  /// Eager unfused attention whose softmax kernel takes the score scaling and the mask, with the
  /// heads split by strided views (ggml's `soft_max_ext` and `permute`), instead of eager
  /// PyTorch code's scale, mask and head-split kernels (set by `run_under`).
  bool fused_softmax_glue = false;
  /// Training: documents packed end to end into each sequence, every position a document's
  /// token; under fused attention each attends only within its document (variable-length
  /// FlashAttention, as `position_ids` or `cu_seqlens` give it). Needs `document`.
  bool packing = false;
  /// CNNs: activations in NCHW, PyTorch's default ("contiguous") layout, instead of NHWC
  /// (channels_last). cuDNN's 16-bit and FP8 tensor-core convolutions take NHWC, so it
  /// transposes the input and the output of each convolution (docs/models.md, "Tensor
  /// layout").
  bool nchw = false;
  /// Training: which kernels apply the optimizer's update (docs/stacks.md, "The optimizer"):
  /// the stack's default (as_stack), or what the run's code chose (PyTorch's `foreach` or
  /// `fused=True`, Apex's fused optimizers).
  optimizer_kernel optimizer_kernels = optimizer_kernel::as_stack;
  /// The attention kernel the stack runs instead of its own (stacks::with_attention): e.g.
  /// FlashAttention-3 against -2, or the Triton kernel an older stack ran; as_run: the stack's.
  /// A fused kernel needs flash_attention; `vendor` is an engine's own and is refused.
  attention_kernel attention = attention_kernel::as_run;
  /// Training: recompute part of the forward pass (torchtitan's selective activation
  /// checkpointing) instead of none or all of it (`checkpointing`).
  selective_checkpointing selective = selective_checkpointing::none;
  /// Under expert parallelism (ep > 1): what each GPU sends the GPUs of its tokens' experts.
  expert_dispatch dispatch = expert_dispatch::per_expert;
  /// Training with tp > 1: the tensor split's all-gathers and reduce-scatters cut into tp chunks
  /// and pipelined with the GEMMs that take or make them (torchtitan's async TP, Megatron's
  /// --tp-comm-overlap), rather than each waited for whole; the stack must have it
  /// (stacks::check_async_tp). buying/cluster.hpp prices what stays exposed.
  bool async_tp = false;
  /// Stacks measured on particular devices (a device file's `"stacks"`): where one is for
  /// `stack` and for the device a run is estimated on (by id), estimate_run and the buying layer
  /// take its figures (model/stacked.hpp, `stack_of_run`). The entries must outlive the run.
  std::span<const measured_stack> measured_stacks{};

  /// Whether the run trains.
  [[nodiscard]] constexpr bool training() const { return mode == run_mode::train; }
  /// Data-parallel replicas, each running `batch` whole sequences: gpus / (tp x pp x cp).
  [[nodiscard]] constexpr long long data_parallel() const { return gpus / (tp * pp * cp); }
  /// GPUs that run one replica's sequences: tp x pp x cp.
  [[nodiscard]] constexpr long long model_parallel() const { return tp * pp * cp; }
  /// GPUs that hold the same parameters, over which gradients are reduced and ZeRO shards:
  /// data parallel x cp, gpus / (tp x pp) (Megatron's data-parallel group "with context
  /// parallel", torchtitan's `dp_shard_cp` mesh).
  [[nodiscard]] constexpr long long data_parallel_with_cp() const { return gpus / (tp * pp); }
  /// GPUs holding the same routed experts, over which their gradients are reduced and ZeRO
  /// shards their optimizer state: gpus / (pp x ep) (Megatron's expert data-parallel group).
  [[nodiscard]] constexpr long long expert_data_parallel() const { return gpus / (pp * ep); }
  /// GPUs ZeRO shards over: shard_group, or every GPU holding the same parameters.
  [[nodiscard]] constexpr long long sharding_degree() const {
    return shard_group > 0 ? shard_group : data_parallel_with_cp();
  }

  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    detail::require_positive("run", {{"batch", batch},
                                     {"image", image},
                                     {"gpus", gpus},
                                     {"tp", tp},
                                     {"pp", pp},
                                     {"cp", cp},
                                     {"ep", ep}});
    if (seq < 0 || prompt < 0 || generate < 0)
      detail::throw_invalid_argument("run: seq, prompt and generate must be >= 0");
    if (zero < 0 || zero > 3) detail::throw_invalid_argument("run: zero must be 0, 1, 2 or 3");
    validate_split();
    if (async_tp && (!training() || tp < 2))
      detail::throw_invalid_argument(
          "run: an asynchronous tensor split overlaps a training job's tensor-parallel "
          "collectives with its GEMMs: it needs training with tp 2 or more");
    if (virtual_stages < 1 || virtual_stages > limits::virtual_stages)
      detail::throw_invalid_argument("run: virtual_stages must be 1 to 1024, got " +
                                     std::to_string(virtual_stages));
    if (virtual_stages > 1 && (pp < 2 || !training()))
      detail::throw_invalid_argument(
          "run: virtual pipeline stages (" + std::to_string(virtual_stages) +
          ") are an interleaved training schedule; they need training with pp >= 2");
    if (!(overhead_bytes >= 0) || !detail::is_finite(overhead_bytes))
      detail::throw_invalid_argument("run: overhead_bytes must be >= 0 and finite");
    if (batch > limits::batch || image > limits::image || gpus > limits::gpus ||
        seq > limits::tokens || prompt > limits::tokens || generate > limits::tokens)
      detail::throw_invalid_argument("run: batch <= 2^24, image <= 65536, gpus <= 2^20");
    if (grad_accumulation < 1 || grad_accumulation > limits::grad_accumulation)
      detail::throw_invalid_argument("run: grad_accumulation must be 1 to 2^20, got " +
                                     std::to_string(grad_accumulation));
    if (gpu_layers < -1 || gpu_layers > limits::gpu_layers)
      detail::throw_invalid_argument("run: gpu_layers must be -1 (all) to 2^16 + 1, got " +
                                     std::to_string(gpu_layers));
    if (gpu_layers >= 0 && (training() || gpus > 1))
      detail::throw_invalid_argument(
          "run: gpu_layers (a partial offload) is for inference on one GPU");
    if (grad_accumulation > 1 && !training())
      detail::throw_invalid_argument("run: gradient accumulation is for training");
    if (gpus_per_node < 1 || gpus_per_node > limits::gpus_per_node)
      detail::throw_invalid_argument("run: gpus_per_node must be 1 to 1024, got " +
                                     std::to_string(gpus_per_node));
    if (training() && weights != weight_format::native)
      detail::throw_invalid_argument("run: weight format " + std::string(name(weights)) +
                                     " is for inference (training keeps 16-bit weights)");
    validate_documents();
    if (kv_cache != kv_cache_type::as_run && training())
      detail::throw_invalid_argument("run: the KV-cache dtype is for inference");
    if (selective != selective_checkpointing::none && !training())
      detail::throw_invalid_argument("run: selective checkpointing is for training");
    if (selective != selective_checkpointing::none && checkpointing)
      detail::throw_invalid_argument(
          "run: selective checkpointing recomputes part of the forward, checkpointing all of it: "
          "give one");
    if (attention == attention_kernel::vendor)
      detail::throw_invalid_argument(
          "run: attention kernel vendor is an engine's own: run the engine's stack instead");
    if (attention != attention_kernel::as_run && attention != attention_kernel::unfused &&
        !flash_attention)
      detail::throw_invalid_argument("run: attention kernel " + std::string(name(attention)) +
                                     " is fused, but flash_attention is off (unfused attention)");
    if (kv_cache != kv_cache_type::as_run && kv_cache != kv_cache_type::float16 && !flash_attention)
      detail::throw_invalid_argument(
          "run: an 8-bit KV cache needs fused attention (engines dequantise it inside their "
          "attention kernels), not unfused attention");
    validate_lora();
    validate_optimizer_kernels();
    validate_measured_stacks();
  }

 private:
  // The job's split: tp, pp and cp divide the GPUs, cp only in training.
  constexpr void validate_split() const {
    if (gpus % tp != 0)
      detail::throw_invalid_argument("run: tp (" + std::to_string(tp) + ") must divide gpus (" +
                                     std::to_string(gpus) + ")");
    if ((gpus / tp) % pp != 0)
      detail::throw_invalid_argument("run: tp x pp (" + std::to_string(tp) + " x " +
                                     std::to_string(pp) + ") must divide gpus (" +
                                     std::to_string(gpus) + ")");
    if ((gpus / tp / pp) % cp != 0)
      detail::throw_invalid_argument("run: tp x pp x cp (" + std::to_string(tp) + " x " +
                                     std::to_string(pp) + " x " + std::to_string(cp) +
                                     ") must divide gpus (" + std::to_string(gpus) + ")");
    if (cp > 1 && !training())
      detail::throw_invalid_argument(
          "run: context parallelism (cp " + std::to_string(cp) +
          ") splits a training sequence; inference splits a model with tp or pp");
    validate_experts();
    if (shard_group < 0 || shard_group > limits::gpus)
      detail::throw_invalid_argument(
          "run: shard_group must be 0 (every data-parallel GPU) to "
          "2^20, got " +
          std::to_string(shard_group));
    if (shard_group > 0 && (!training() || zero < 2))
      detail::throw_invalid_argument(
          "run: a shard group (hybrid sharding over " + std::to_string(shard_group) +
          " GPUs) shards a training job's gradients: it needs zero 2 or 3");
    if (shard_group == 1)
      detail::throw_invalid_argument(
          "run: a shard group of one GPU shards nothing: give zero 0 or 1 (data parallelism "
          "with whole gradients) instead");
    if (shard_group > 0 && data_parallel_with_cp() % shard_group != 0)
      detail::throw_invalid_argument("run: the shard group (" + std::to_string(shard_group) +
                                     ") must divide the GPUs holding the same parameters (" +
                                     std::to_string(data_parallel_with_cp()) +
                                     ": gpus / (tp x pp))");
  }

  // Expert parallelism: ep divides a pipeline stage's GPUs, in training with whole gradients
  // (Megatron's distributed optimizer is ZeRO 1), without adapters.
  constexpr void validate_experts() const {
    if (ep == 1 && dispatch != expert_dispatch::per_expert)
      detail::throw_invalid_argument(
          "run: an expert dispatch sends tokens to the GPUs of their experts: it needs ep > 1");
    if (ep == 1) return;
    if (!training())
      expert_error(" is modelled for training; inference splits a model with tp or pp");
    if ((gpus / pp) % ep != 0)
      expert_error(" must divide the GPUs of a pipeline stage (" + std::to_string(gpus / pp) +
                   ": gpus / pp), whose tp x cp x dp GPUs the experts take");
    if (zero >= 2)
      expert_error(" with sharded gradients (zero " + std::to_string(zero) +
                   ") is not modelled: give zero 0 or 1 (Megatron's distributed optimizer)");
    if (lora.enabled()) expert_error(" with LoRA adapters is not modelled");
  }
  // Throws invalid_argument: "run: expert parallelism (ep N)" and @p rest. Not constexpr: it
  // runs only to throw, and a constexpr function may not hold a std::string (C++20).
  [[noreturn]] void expert_error(const std::string& rest) const {
    detail::throw_invalid_argument("run: expert parallelism (ep " + std::to_string(ep) + ")" +
                                   rest);
  }

  constexpr void validate_measured_stacks() const {
    for (std::size_t i = 0; i < measured_stacks.size(); ++i) {
      const measured_stack& m = measured_stacks[i];
      if (m.stack == nullptr || m.stack->id == stack_id::ceiling || m.device.empty())
        detail::throw_invalid_argument(
            "run: measured_stacks[" + std::to_string(i) +
            "] needs a device id and a named stack (ceiling is the hardware model itself)");
      for (std::size_t j = 0; j < i; ++j)
        if (measured_stacks[j].device == m.device && measured_stacks[j].stack->id == m.stack->id)
          detail::throw_invalid_argument("run: measured_stacks has two " +
                                         std::string(m.stack->name()) + " stacks for device '" +
                                         std::string(m.device) + "'");
    }
  }
  constexpr void validate_optimizer_kernels() const {
    if (optimizer_kernels == optimizer_kernel::as_stack) return;
    if (!training()) detail::throw_invalid_argument("run: optimizer kernels are for training");
    if (optimizer == optimizer_kind::adam8bit &&
        optimizer_kernels != optimizer_kernel::per_tensor_fused)
      detail::throw_invalid_argument(
          "run: adam8bit runs bitsandbytes' fused kernel per tensor; optimizer kernels must be "
          "per-tensor-fused (or the stack's), not " +
          std::string(name(optimizer_kernels)));
  }

  constexpr void validate_documents() const {
    if (document < 0)
      detail::throw_invalid_argument("run: document tokens must be >= 0 (0: one a sequence), got " +
                                     std::to_string(document));
    if (document > limits::tokens) detail::throw_invalid_argument("run: document tokens <= 2^30");
    if (packing && document == 0)
      detail::throw_invalid_argument(
          "run: packing needs the documents' mean length (document tokens), else every sequence "
          "is already one whole document");
    if ((document > 0 || packing) && !training())
      detail::throw_invalid_argument(
          "run: document tokens and packing describe a training set; inference takes its prompt "
          "as given");
  }

  constexpr void validate_lora() const {
    if (lora.rank < 0)
      detail::throw_invalid_argument("run: lora rank must be positive (0: no LoRA), got " +
                                     std::to_string(lora.rank));
    if (lora.qlora && !lora.enabled())
      detail::throw_invalid_argument(
          "run: qlora needs a lora rank (QLoRA is LoRA over a 4-bit base)");
    if (!lora.enabled()) return;
    if (!training())
      detail::throw_invalid_argument(
          "run: lora and qlora are training options (merge the "
          "adapters for inference)");
    if (lora.targets.empty()) detail::throw_invalid_argument("run: lora needs at least one target");
    if (lora.rank > limits::lora_rank) detail::throw_invalid_argument("run: lora rank <= 2^20");
    if (lora.qlora && type != dtype::bf16 && type != dtype::fp16)
      detail::throw_invalid_argument(
          "run: qlora computes in bf16 or fp16 (the 4-bit base is "
          "dequantised to it), not " +
          std::string(name(type)));
  }
};

}  // namespace dlperf
