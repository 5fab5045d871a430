/// @file
/// A software stack as data (docs/stacks.md): which kernel family runs each class of operator and
/// how close it comes to the hardware model's ceiling, each figure with its unit, source and
/// date. `apply_stack` turns one operator's ceiling estimate into the stack's; the named stacks
/// are in stack/stacks.hpp (their records in each backend's file, stack/cuda_stacks.hpp and its
/// siblings).
///
/// For an operator whose ceiling time is t (launch included) and which launches k kernels:
///
///     device time = t / efficiency         efficiency by operator class, all in (0, 1]:
///                                          GEMM (compute-bound) gemm_efficiency
///                                                               (x conv_efficiency for CNNs,
///                                                               tf32_conv_efficiency in TF32)
///                                          GEMM (DRAM-bound)    gemv_dram_share
///                                                               (quantised weights:
///                                                               quantized_gemv_dram_share)
///                                          attention            attention_efficiency
///                                                               (x the architecture's
///                                                               warp_mma_share when compute-
///                                                               bound under a stack whose
///                                                               attention issues mma.sync)
///                                          streaming, other     streaming_dram_share
///     device time = max(device time, DRAM bytes / (DRAM bandwidth x GEMV share))
///                                          for a GEMM the ceiling finds bound by anything but
///                                          DRAM, where the context gives the bandwidth
///     time        = max(device time, k x host_overhead_per_kernel)
///                   or, for a stack whose per-kernel cost adds to the GPU's (`host_serial`:
///                   a host that encodes a step's kernels before the GPU runs them, or a GPU
///                   that pays a gap per dependent dispatch), device time + k x
///                   host_overhead_per_kernel
///
/// where a stack whose GEMV kernels were measured to move at most B bytes of weights per SM per
/// SM clock (gemv_bytes_per_sm_cycle; quantized_gemv_bytes_per_sm_cycle for quantised weights)
/// has, on a device of S SMs at clock f,
///
///     GEMV share  = min(the fitted share, B x S x f / DRAM bandwidth)
///
/// The same holds for a stack's own streaming kernels whose rate it measured, by class
/// (`stream_kernel`: dequantisation ahead of a library GEMM, unfused attention's softmax, strided
/// copies): such a kernel of B' bytes per SM cycle takes at least its bytes / (B' x S x f).
///
/// A batch-1 GEMV's warps either wait on DRAM (Little's law: bytes in flight per SM over the
/// latency in SM cycles) or issue the dequantisation's instructions; either way what one SM
/// moves per clock is the kernel's, so a GPU whose DRAM asks more bytes per SM cycle than the
/// kernel moves (an A100 SXM asks 13.4, an H100 SXM 12.8, a GTX 1080 9.2) is held to the
/// kernel's rate, and one that asks fewer (every GDDR6 and GDDR6X board: 2-7.7) streams at the
/// fitted share (docs/stacks.md, "GEMV kernels per SM clock").
///
/// The second line is the roofline at the stack's figures: a GEMM the ceiling finds
/// compute-bound (a batch-1 decode GEMM on a GPU without tensor cores, whose tile does far more
/// arithmetic than the one token needs) slows by the stack's GEMM efficiency, but its weights
/// still cannot stream faster than the stack's GEMV kernels read DRAM.
///
/// The host issues kernels asynchronously, so its per-kernel cost only shows where the GPU
/// finishes a kernel sooner than the host can issue the next one. With every efficiency 1 and no
/// host overhead (the `ceiling` stack) the time is exactly the ceiling's; no stack is faster than
/// the ceiling of the kernels it runs (its `gemm_call` may accumulate in FP16, which on a GeForce
/// board beats the run's own FP32-accumulate ceiling).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/hardware/vendor.hpp>
#include <dlperf/stack/decode_graphs.hpp>
#include <dlperf/stack/kernel_choices.hpp>
#include <dlperf/stack/multi_gpu.hpp>
#include <dlperf/stack/optimizer_kernels.hpp>
#include <dlperf/stack/serving_scheduler.hpp>
#include <dlperf/stack/stack_figure.hpp>

namespace dlperf {

/// The named software stacks (stack/stacks.hpp lists their records).
enum class stack_id : std::uint8_t {
  ceiling,          ///< the hardware model itself: every efficiency 1, no host overhead
  pytorch_eager,    ///< PyTorch eager on CUDA (cuBLAS/cuDNN, one kernel per element-wise op)
  torch_compile,    ///< PyTorch 2 with torch.compile (Inductor fusion, CUDA graphs)
  tensorflow,       ///< TensorFlow graph mode without XLA (one kernel per op)
  tensorflow_xla,   ///< TensorFlow with XLA
  megatron,         ///< Megatron-LM / Transformer Engine training
  tensorrt_llm,     ///< TensorRT-LLM inference
  vllm,             ///< vLLM inference
  vllm_eager,       ///< vLLM without CUDA graphs (--enforce-eager, or releases before them)
  lmdeploy,         ///< LMDeploy TurboMind inference
  llama_cpp,        ///< llama.cpp, CUDA backend
  llama_cpp_rocm,   ///< llama.cpp, HIP/ROCm backend
  pytorch_rocm,     ///< PyTorch eager on ROCm (rocBLAS/hipBLASLt, MIOpen)
  megatron_rocm,    ///< Megatron-LM on ROCm with ROCm's Transformer Engine (AMD's Primus)
  vllm_rocm,        ///< vLLM's ROCm build (AITER and ROCm kernels, HIP graphs)
  exllamav2,        ///< ExLlamaV2, CUDA: EXL2/GPTQ kernels driven from Python
  llama_cpp_metal,  ///< llama.cpp, Metal backend (Apple silicon)
  mlx,              ///< MLX through mlx-lm (Apple silicon)
  sglang            ///< SGLang inference, CUDA (FlashInfer/FlashAttention-3 kernels, CUDA graphs)
};

/// The stacks and their stable names (the CLI's `--stack`).
template <>
struct enum_list<stack_id> {
  static constexpr std::string_view kind = "software stack";  ///< what the enum names
  /// Every stack.
  static constexpr std::array values{
      enumerator{stack_id::ceiling, "ceiling", "the hardware model: well-tuned kernels, no host"},
      enumerator{stack_id::pytorch_eager, "pytorch-eager", "PyTorch eager, CUDA"},
      enumerator{stack_id::torch_compile, "torch-compile", "PyTorch 2 torch.compile, CUDA graphs"},
      enumerator{stack_id::tensorflow, "tensorflow", "TensorFlow without XLA: one kernel per op"},
      enumerator{stack_id::tensorflow_xla, "tensorflow-xla", "TensorFlow with XLA"},
      enumerator{stack_id::megatron, "megatron", "Megatron-LM / Transformer Engine training"},
      enumerator{stack_id::tensorrt_llm, "tensorrt-llm", "TensorRT-LLM inference"},
      enumerator{stack_id::vllm, "vllm", "vLLM inference"},
      enumerator{stack_id::vllm_eager, "vllm-eager",
                 "vLLM without CUDA graphs: --enforce-eager, or before v0.2.6"},
      enumerator{stack_id::lmdeploy, "lmdeploy", "LMDeploy TurboMind inference"},
      enumerator{stack_id::llama_cpp, "llama.cpp", "llama.cpp, CUDA backend"},
      enumerator{stack_id::llama_cpp_rocm, "llama.cpp-rocm", "llama.cpp, ROCm backend"},
      enumerator{stack_id::pytorch_rocm, "pytorch-rocm", "PyTorch eager, ROCm"},
      enumerator{stack_id::megatron_rocm, "megatron-rocm",
                 "Megatron-LM / Transformer Engine training, ROCm"},
      enumerator{stack_id::vllm_rocm, "vllm-rocm", "vLLM inference, ROCm build"},
      enumerator{stack_id::exllamav2, "exllamav2", "ExLlamaV2 inference, CUDA"},
      enumerator{stack_id::llama_cpp_metal, "llama.cpp-metal", "llama.cpp, Metal backend (Apple)"},
      enumerator{stack_id::mlx, "mlx", "MLX through mlx-lm (Apple)"},
      enumerator{stack_id::sglang, "sglang", "SGLang inference, CUDA"}};
};

/// How a stack multiplies weight-only quantised weights in products over many rows (a prompt):
/// in the product's inner loop (the default), or by a pass that dequantises the weights to the
/// run's 16-bit type once per micro-batch, followed by a 16-bit library GEMM. llama.cpp's CUDA
/// backend chose the second for more than 32 rows on GPUs with FP16 tensor cores until it made
/// its int8 MMQ kernels the default (docs/stacks.md).
struct dequantize_pass {
  long long above_rows = 0;   ///< products over more rows than this take the pass; 0: never
  long long ubatch = 0;       ///< rows per micro-batch: the pass runs once per micro-batch, and
                              ///< unfused attention scores each against the keys cached so far
  std::string_view source{};  ///< where the choice and the numbers come from

  /// Whether a product over @p rows rows takes the pass.
  [[nodiscard]] constexpr bool applies(double rows) const {
    return above_rows > 0 && ubatch > 0 && rows > static_cast<double>(above_rows);
  }
  /// How often the pass runs over @p rows rows: once per micro-batch.
  [[nodiscard]] constexpr double passes(double rows) const {
    const double u = static_cast<double>(ubatch);
    const double whole = static_cast<double>(static_cast<long long>(rows / u));
    return whole * u < rows ? whole + 1.0 : whole;
  }
};

/// How a stack hands products over more than one row to its 16-bit library GEMM (cuBLAS) on a
/// GPU of compute capability 7.0 or later: the accumulator it asks for, and whether its activations
/// live in FP32 between kernels, so that each call casts its activation operand to 16 bits before
/// and its result back to FP32 after (read 4 bytes and write 2 per element, then read 2 and write
/// 4). llama.cpp's CUDA backend does both (docs/stacks.md, "The library GEMM as llama.cpp calls
/// it"); a stack that leaves both false calls the GEMM as the ceiling does.
struct library_gemm_call {
  bool fp16_accumulate = false;   ///< asks for FP16 accumulation (`CUBLAS_COMPUTE_16F`)
  bool fp32_activations = false;  ///< activations are FP32 between kernels, cast around each call
  std::string_view source{};      ///< where the choice comes from

  /// Whether the call differs from the ceiling's at all.
  [[nodiscard]] constexpr bool any() const { return fp16_accumulate || fp32_activations; }
  /// Whether two calls are the same choice (their sources aside).
  [[nodiscard]] constexpr bool same(const library_gemm_call& o) const {
    return fp16_accumulate == o.fp16_accumulate && fp32_activations == o.fp32_activations;
  }
};

/// How a stack runs a model whose layers do not all fit the GPU (llama.cpp's `-ngl N`,
/// model/offload.hpp): the layers left in host memory run on the CPU, reading their weights from
/// the host's DRAM, except a product over at least `min_offload_batch` tokens, for which the
/// scheduler copies their weights to the GPU and multiplies there (docs/models.md, "Partial
/// offload"). A stack whose min_offload_batch is 0 keeps every layer on the GPU.
struct layer_offload {
  long long min_offload_batch = 0;  ///< tokens from which a host layer's product runs on the GPU
  /// The weights' copy to the GPU: a share of the host link's bandwidth in one direction.
  stack_figure upload_link_share{0.0, "fraction of the host link, one direction", "not measured"};
  /// The CPU reading the host layers' weights (and keys and values): a share of the host
  /// memory's peak.
  stack_figure host_dram_share{0.0, "fraction of the host memory's peak", "not measured"};
  std::string_view source{};  ///< where the scheduler's rule comes from

  /// Whether the stack offloads layers at all.
  [[nodiscard]] constexpr bool supported() const { return min_offload_batch > 0; }
};

/// The GPU vendors a stack runs on: one bit per `vendor`, in its enumerator order.
struct vendor_set {
  std::uint8_t bits = 0xFF;  ///< bit enum_index(v) set: runs on vendor v (default: every vendor)

  /// The set of one vendor.
  static constexpr vendor_set only(vendor v) {
    return {static_cast<std::uint8_t>(1U << enum_index(v))};
  }
  /// The set of two vendors.
  static constexpr vendor_set both(vendor a, vendor b) {
    return {static_cast<std::uint8_t>(only(a).bits | only(b).bits)};
  }
  /// Whether the set holds @p v.
  [[nodiscard]] constexpr bool has(vendor v) const { return ((bits >> enum_index(v)) & 1U) != 0; }
};

/// A software stack: the kernel families it runs and how efficiently, as data.
struct software_stack {
  stack_id id = stack_id::ceiling;               ///< its name
  kernel_fusion fusion = kernel_fusion::as_run;  ///< element-wise ops: own kernels or fused
  attention_kernel attention = attention_kernel::as_run;  ///< attention kernel family
  stack_figure gemm_efficiency;            ///< compute-bound GEMMs: ceiling time / stack's time
  stack_figure conv_efficiency;            ///< convolutions: further factor on gemm_efficiency
  stack_figure tf32_conv_efficiency;       ///< TF32 convolutions: instead of conv_efficiency
  stack_figure gemv_dram_share;            ///< DRAM-bound GEMMs (decode): share of the model's
                                           ///< DRAM rate reached, 16-bit weights
  stack_figure quantized_gemv_dram_share;  ///< the same with weight-only quantised weights
                                           ///< (dequantisation in the inner loop)
  stack_figure attention_efficiency;       ///< attention: ceiling time / stack's time
  stack_figure streaming_dram_share;       ///< norms, element-wise, optimizer: share of the
                                           ///< model's DRAM rate reached
  stack_figure host_overhead{0.0, "s per kernel", "none"};  ///< host time to issue one kernel
  /// Whether the cost per kernel adds to the GPU's time rather than hiding behind it: an engine
  /// that encodes a whole graph into command buffers and only then lets the GPU run them
  /// (llama.cpp's Metal backend) pays both, as does one whose GPU pays its own gap between
  /// dependent dispatches (MLX on Apple silicon); one that launches asynchronously while the GPU
  /// works (CUDA streams) pays the longer of the two.
  bool host_serial = false;
  norm_kernel norms = norm_kernel::as_run;  ///< RMSNorm: one kernel, or the framework's ops
  /// Quantised weights in products over many rows: dequantised first or in the inner loop.
  dequantize_pass prompt_dequantize{};
  /// Unfused attention as ggml builds it: the softmax kernel takes the score scaling and the
  /// mask, and the heads are strided views of the projections, not copies (false: as the run
  /// says, eager code's kernels of their own; `run_config::fused_softmax_glue`).
  bool fused_softmax_glue = false;
  /// The kernels that apply the optimizer's update unless the run says otherwise
  /// (stack/optimizer_kernels.hpp; never as_stack).
  optimizer_kernel optimizer_kernels = optimizer_kernel::fused;
  /// Host time to issue one of the optimizer's kernels: a per-tensor loop pays a framework op
  /// call per kernel, which costs far less than a module call (`host_overhead`).
  stack_figure optimizer_host_overhead{0.0, "s per kernel", "none"};
  /// Whether the stack runs training steps; an inference engine (TensorRT-LLM, vLLM, LMDeploy,
  /// llama.cpp) does not, and a training run under it is rejected (`check_runs`).
  bool trains = true;
  /// The GPU vendors whose GPUs the stack runs on (its libraries: CUDA's or ROCm's); a run on
  /// another vendor's GPU is rejected (stacks.hpp, `check_runs_on`). Beside `trains`, which
  /// it packs with.
  vendor_set vendors{};
  /// How the stack runs one model over several GPUs: its default split, its prompt pipeline
  /// over a layer split, its own small-message all-reduce (stack/multi_gpu.hpp).
  multi_gpu_kernels multi_gpu{};
  /// How it schedules continuous batching when serving (stack/serving_scheduler.hpp): its cap
  /// on sequences, its tokens per step, chunked prompts, the KV it reserves per sequence.
  serving_scheduler serving{};
  /// The decode batches it replays as CUDA graphs, and the host time per kernel of a larger
  /// step, which it runs eagerly (stack/decode_graphs.hpp); no limit by default.
  decode_graph_limit decode_graphs{};
  /// Whether its fused attention issues warp-level `mma.sync` on every architecture, as
  /// FlashAttention-2 does (PyTorch SDPA's flash backend, the flash-attn 2 package): on an
  /// architecture whose full tensor rate needs a newer instruction it runs at that
  /// architecture's `warp_mma_share` (stacks.hpp, pytorch_eager).
  bool warp_mma_attention = false;
  /// Its fused attention is FlashAttention's (2, 3 or the Triton kernel), whose rate grows with
  /// the sequence as the tile's fixed cost shrinks against its loop (ops/attention.hpp,
  /// flash_tile_share, from the kernels' published sweeps): attention runs at no less than
  /// op_estimate::tile_floor. Other kernels (cuDNN's, engines' own, Metal's, ROCm's) have no
  /// such sweep in the model and run at their fused time.
  bool flash_tiles = false;
  /// The most weight bytes its 16-bit batch-1 GEMV kernels move per SM per SM clock, measured
  /// (see the file comment); 0: not measured, the GEMV share alone applies.
  stack_figure gemv_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// The same for its GEMV kernels over weight-only quantised weights.
  stack_figure quantized_gemv_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// The most bytes (read and written) its own streaming kernels of each class move per SM per
  /// SM clock, measured (see the file comment); 0: not measured, the streaming share alone
  /// applies. Its dequantisation kernels ahead of a library GEMM:
  stack_figure dequantize_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// Its unfused attention's softmax kernel.
  stack_figure softmax_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// Its copies through strided indices (a permuted tensor made contiguous, keys and values
  /// written into the cache).
  stack_figure strided_copy_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// Which of a layer's fused operators it runs as several kernels over a prompt.
  layer_kernels prompt_kernels{};
  /// How it calls its 16-bit library GEMM over more than one row (FP16 accumulation, FP32
  /// activations cast around each call).
  library_gemm_call gemm_call{};
  /// Whether its FP8 linears cast their inputs and output gradients in kernels of their own.
  fp8_cast_kernels fp8_casts{};
  /// How it runs layers that stay in host memory, if it can (llama.cpp's -ngl).
  layer_offload offload{};

  /// The stack's name.
  [[nodiscard]] constexpr std::string_view name() const { return dlperf::name(id); }

  /// Throws invalid_argument naming the first figure (stack_figure_id) out of its domain: the
  /// efficiencies and shares in [0.01, 1] (core/plausible.hpp), the host times finite and >= 0; and
  /// for an optimizer family left as-stack or a half-set prompt_dequantize.
  constexpr void validate() const;
};

/// The member of software_stack that figure @p f names.
constexpr stack_figure software_stack::*stack_figure_member(stack_figure_id f) {
  switch (f) {
    case stack_figure_id::gemm_efficiency:
      return &software_stack::gemm_efficiency;
    case stack_figure_id::conv_efficiency:
      return &software_stack::conv_efficiency;
    case stack_figure_id::tf32_conv_efficiency:
      return &software_stack::tf32_conv_efficiency;
    case stack_figure_id::gemv_dram_share:
      return &software_stack::gemv_dram_share;
    case stack_figure_id::quantized_gemv_dram_share:
      return &software_stack::quantized_gemv_dram_share;
    case stack_figure_id::attention_efficiency:
      return &software_stack::attention_efficiency;
    case stack_figure_id::streaming_dram_share:
      return &software_stack::streaming_dram_share;
    case stack_figure_id::host_overhead:
      return &software_stack::host_overhead;
    case stack_figure_id::optimizer_host_overhead:
      return &software_stack::optimizer_host_overhead;
    case stack_figure_id::gemv_bytes_per_sm_cycle:
      return &software_stack::gemv_bytes_per_sm_cycle;
    case stack_figure_id::quantized_gemv_bytes_per_sm_cycle:
      return &software_stack::quantized_gemv_bytes_per_sm_cycle;
    case stack_figure_id::dequantize_bytes_per_sm_cycle:
      return &software_stack::dequantize_bytes_per_sm_cycle;
    case stack_figure_id::softmax_bytes_per_sm_cycle:
      return &software_stack::softmax_bytes_per_sm_cycle;
    case stack_figure_id::strided_copy_bytes_per_sm_cycle:
      break;
  }
  return &software_stack::strided_copy_bytes_per_sm_cycle;
}

constexpr void software_stack::validate() const {
  for (const auto& e : enum_list<stack_figure_id>::values) {
    const double v = (this->*stack_figure_member(e.value)).value;
    if (is_host_time(e.value)) {
      if (!(v >= 0.0) || !detail::is_finite(v))
        detail::throw_invalid_argument("stack " + std::string(name()) + ": " + std::string(e.name) +
                                       " must be finite and >= 0");
    } else if (is_sm_cycle_rate(e.value)) {
      if (!(v >= 0.0) || !(v <= max_bytes_per_sm_cycle))
        detail::throw_invalid_argument(
            "stack " + std::string(name()) + ": " + std::string(e.name) + " must be in [0, " +
            detail::figure_text(max_bytes_per_sm_cycle) +
            "] bytes per SM cycle (0: not measured), got " + detail::figure_text(v));
    } else if (!plausible::fraction(v)) {
      detail::throw_invalid_argument("stack " + std::string(name()) + ": " + std::string(e.name) +
                                     " must be in [0.01, 1] (a share of the ceiling), got " +
                                     detail::figure_text(v));
    }
  }
  if (optimizer_kernels == optimizer_kernel::as_stack)
    detail::throw_invalid_argument("stack " + std::string(name()) +
                                   ": optimizer_kernels must name a kernel family, not as-stack");
  if (prompt_dequantize.above_rows < 0 || prompt_dequantize.ubatch < 0 ||
      (prompt_dequantize.above_rows > 0) != (prompt_dequantize.ubatch > 0))
    detail::throw_invalid_argument("stack " + std::string(name()) +
                                   ": prompt_dequantize needs above_rows and ubatch both > 0 "
                                   "(or both 0: no pass)");
  if (offload.min_offload_batch < 0 ||
      (offload.supported() && (!plausible::fraction(offload.upload_link_share.value) ||
                               !plausible::fraction(offload.host_dram_share.value))))
    detail::throw_invalid_argument("stack " + std::string(name()) +
                                   ": offload needs min_offload_batch >= 0 and, when it offloads, "
                                   "its two shares in [0.01, 1]");
  multi_gpu.validate(name());
  serving.validate(name());
  decode_graphs.validate(name());
}

/// Throws invalid_argument when stack @p s cannot run a run whose mode is @p training: a
/// training step under an inference engine.
constexpr void check_runs(const software_stack& s, bool training) {
  if (training && !s.trains)
    detail::throw_invalid_argument("stack " + std::string(s.name()) +
                                   " is an inference engine: it runs no training step");
}

/// What the stack needs to know about an operator beyond its estimate.
struct stack_op_context {
  bool convolution = false;        ///< GEMMs are convolutions (a CNN)
  bool quantized_weights = false;  ///< weight GEMMs read weight-only quantised weights (the
                                   ///< quantised share applies to the ops that say so)
  bool tf32 = false;               ///< GEMMs run in TF32
  /// The device's DRAM bandwidth: a GEMM is then never faster than its DRAM traffic at the
  /// stack's GEMV share (see the file comment). Zero leaves that bound out.
  bandwidth dram_bandwidth{};
  /// The share of the tensor peak warp-level `mma.sync` reaches on the device's architecture
  /// (architecture_spec::warp_mma_share): a stack whose fused attention issues it
  /// (`warp_mma_attention`) runs its compute-bound attention at it.
  double warp_mma_share = 1.0;
  /// The device's SM count times its SM clock: with `dram_bandwidth`, how many bytes per SM
  /// cycle a GEMV must move to stream at the full DRAM rate (the GEMV share's cap, see the file
  /// comment). Zero leaves the cap out.
  frequency sm_cycles{};
  /// The device's memory: the decode batches a stack replays as graphs may depend on it
  /// (decode_graph_limit). Zero: the smallest tier's.
  byte_count memory{};
};

/// The GEMV share @p s was fitted or measured at, over 16-bit weights or, where @p quantized,
/// weight-only quantised ones: on any device, before the cap of its kernels' rate per SM clock.
constexpr double fitted_gemv_share(const software_stack& s, bool quantized) {
  return quantized ? s.quantized_gemv_dram_share.value : s.gemv_dram_share.value;
}

/// The share of DRAM bandwidth @p s's GEMV kernels reach over 16-bit weights, or over
/// weight-only quantised ones where @p quantized: the stack's fitted share, held to what its
/// kernels move per SM clock on the device @p c describes where both are known (see the file
/// comment).
constexpr double gemv_share(const software_stack& s, bool quantized, const stack_op_context& c) {
  const double share = fitted_gemv_share(s, quantized);
  const double per_cycle =
      quantized ? s.quantized_gemv_bytes_per_sm_cycle.value : s.gemv_bytes_per_sm_cycle.value;
  if (per_cycle <= 0.0 || c.sm_cycles <= frequency{} || c.dram_bandwidth <= bandwidth{})
    return share;
  const double kernel_rate = per_cycle * c.sm_cycles.value();  // bytes per second
  return std::min(share, kernel_rate / c.dram_bandwidth.value());
}

/// The share of DRAM bandwidth @p s reaches when GEMM @p op streams its operands: the
/// quantised-GEMV share where @p op dequantises weight-only quantised weights, else the GEMV
/// share; for a weight GEMV (`op_estimate::weight_gemv`) held to what the stack's GEMV kernels
/// move per SM clock on the device @p c describes.
constexpr double gemv_share(const software_stack& s, const op_estimate& op,
                            const stack_op_context& c = {}) {
  const bool quantized = c.quantized_weights && op.quantized_weights;
  return op.weight_gemv ? gemv_share(s, quantized, c) : fitted_gemv_share(s, quantized);
}

/// The most bytes @p s's own streaming kernel of class @p k moves per SM per SM clock (0: not
/// measured).
constexpr double stream_bytes_per_sm_cycle(const software_stack& s, stream_kernel k) {
  switch (k) {
    case stream_kernel::dequantize:
      return s.dequantize_bytes_per_sm_cycle.value;
    case stream_kernel::softmax:
      return s.softmax_bytes_per_sm_cycle.value;
    case stream_kernel::strided_copy:
      return s.strided_copy_bytes_per_sm_cycle.value;
    case stream_kernel::generic:
      break;
  }
  return 0.0;
}

/// The least time streaming operator @p op takes as @p s's own kernel of its class on the device
/// @p c describes: its bytes at what that kernel moves per SM clock (see the file comment);
/// zero where the stack has not measured the class or @p c gives no SM cycles.
constexpr duration stream_kernel_floor(const software_stack& s, const op_estimate& op,
                                       const stack_op_context& c) {
  const double per_cycle = stream_bytes_per_sm_cycle(s, op.stream);
  if (per_cycle <= 0.0 || c.sm_cycles <= frequency{}) return duration{};
  return seconds(op.dram.value() / (per_cycle * c.sm_cycles.value()));
}

/// The context of a device @p d for `apply_stack`: its DRAM bandwidth, its architecture's
/// warp-level MMA share and its SM cycles a second (the run's own fields left at their defaults,
/// which the model's `apply_stack` sets).
template <class D>
constexpr stack_op_context device_context(const D& d) {
  stack_op_context c;
  c.dram_bandwidth = d.memory(tier::global).throughput;
  c.warp_mma_share = d.arch().warp_mma_share;
  c.sm_cycles = static_cast<double>(d.sm_count()) * d.sm_clock();
  c.memory = d.memory(tier::global).capacity;
  return c;
}

/// The efficiency @p s reaches on operator @p op (see the file comment), in (0, 1].
constexpr double stack_efficiency(const software_stack& s, const op_estimate& op,
                                  const stack_op_context& c = {}) {
  switch (op.kind) {
    case op_kind::gemm:
      if (op.bound == bound::global) return gemv_share(s, op, c);
      if (!c.convolution) return s.gemm_efficiency.value;
      return s.gemm_efficiency.value *
             (c.tf32 ? s.tf32_conv_efficiency.value : s.conv_efficiency.value);
    case op_kind::attention:
      return s.attention_efficiency.value *
             (s.warp_mma_attention && op.bound == bound::compute ? c.warp_mma_share : 1.0);
    case op_kind::communication:
      // A link's time is the collective library's (stack/nccl.hpp), not a kernel's share.
      return 1.0;
    case op_kind::streaming:
    case op_kind::other:
      break;
  }
  return s.streaming_dram_share.value;
}

/// Operator @p op as stack @p s runs it: the ceiling time (for fused attention under a stack
/// with `flash_tiles`, no less than its tile floor) over the stack's efficiency for its class;
/// for a GEMM not bound by DRAM, never less than its DRAM traffic at the stack's GEMV
/// share (when @p c gives the bandwidth); and never less than the host's time to issue its
/// kernels, or with that time added where the stack's host does not overlap its GPU
/// (`host_serial`).
constexpr op_estimate apply_stack(const software_stack& s, op_estimate op,
                                  const stack_op_context& c = {}) {
  if (op.kind == op_kind::attention && s.flash_tiles && op.tile_floor > op.time) {
    op.time = op.tile_floor;
    op.bound = bound::compute;
  }
  duration device = op.time / stack_efficiency(s, op, c);
  if (op.kind == op_kind::gemm && op.bound != bound::global && c.dram_bandwidth > bandwidth{}) {
    const duration stream = op.dram / (c.dram_bandwidth * gemv_share(s, op, c));
    if (stream > device) {
      device = stream;
      op.bound = bound::global;
    }
  }
  if (op.kind == op_kind::streaming) {
    const duration own = stream_kernel_floor(s, op, c);
    if (own > device) {
      device = own;
      op.bound = bound::global;
    }
  }
  const duration host = static_cast<double>(op.kernels) * seconds(s.host_overhead.value);
  if (s.host_serial) {
    op.time = device + host;
    if (host > device) op.bound = bound::latency;
  } else if (host > device) {
    op.time = host;
    op.bound = bound::latency;
  } else {
    op.time = device;
  }
  return op;
}

/// Every operator of @p ops as stack @p s runs it.
DLPERF_CONSTEXPR_VECTOR op_sequence apply_stack(const software_stack& s, const op_sequence& ops,
                                                const stack_op_context& c = {}) {
  op_sequence out;
  out.reserve(ops.size());
  for (const op_estimate& op : ops) out.add(apply_stack(s, op, c));
  return out;
}

}  // namespace dlperf
