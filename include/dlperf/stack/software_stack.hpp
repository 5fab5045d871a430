/// @file
/// A software stack's record (docs/stacks.md): its name, which kernel family runs each class of
/// operator, and how close each comes to the hardware model's ceiling, each figure with its
/// unit, source and date; the table of the figures a measurement can replace; and the checks of
/// a record's domain. stack/stack.hpp applies a record to an operator's estimate; the named
/// records are in stack/stacks.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/hardware/vendor.hpp>
#include <dlperf/stack/decode_graphs.hpp>
#include <dlperf/stack/gemv_occupancy.hpp>
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
  sglang,           ///< SGLang inference, CUDA (FlashInfer/FlashAttention-3 kernels, CUDA graphs)
  mlc_llm           ///< MLC LLM, CUDA: TVM-compiled kernels, CUDA graphs
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
      enumerator{stack_id::sglang, "sglang", "SGLang inference, CUDA"},
      enumerator{stack_id::mlc_llm, "mlc-llm", "MLC LLM inference, CUDA (TVM kernels)"}};
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
  stack_share upload_link_share{0.0, "fraction of the host link, one direction", "not measured"};
  /// The CPU reading the host layers' weights (and keys and values): a share of the host
  /// memory's peak.
  stack_share host_dram_share{0.0, "fraction of the host memory's peak", "not measured"};
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
  stack_share gemm_efficiency;            ///< compute-bound GEMMs: ceiling time / stack's time
  stack_share conv_efficiency;            ///< convolutions: further factor on gemm_efficiency
  stack_share tf32_conv_efficiency;       ///< TF32 convolutions: instead of conv_efficiency
  stack_share gemv_dram_share;            ///< DRAM-bound GEMMs (decode): share of the model's
                                          ///< DRAM rate reached, 16-bit weights
  stack_share quantized_gemv_dram_share;  ///< the same with weight-only quantised weights
                                          ///< (dequantisation in the inner loop)
  stack_share attention_efficiency;       ///< attention: ceiling time / stack's time
  stack_share streaming_dram_share;       ///< norms, element-wise, optimizer: share of the
                                          ///< model's DRAM rate reached
  stack_host_time host_overhead{{}, "s per kernel", "none"};  ///< host time to issue one kernel
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
  stack_host_time optimizer_host_overhead{{}, "s per kernel", "none"};
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
  stack_sm_rate gemv_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// The same for its GEMV kernels over weight-only quantised weights.
  stack_sm_rate quantized_gemv_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// The most bytes (read and written) its own streaming kernels of each class move per SM per
  /// SM clock, measured (see the file comment); 0: not measured, the streaming share alone
  /// applies. Its dequantisation kernels ahead of a library GEMM:
  stack_sm_rate dequantize_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// Its unfused attention's softmax kernel.
  stack_sm_rate softmax_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// Its copies through strided indices (a permuted tensor made contiguous, keys and values
  /// written into the cache).
  stack_sm_rate strided_copy_bytes_per_sm_cycle{0.0, "B per SM cycle", "not measured"};
  /// Which of a layer's fused operators it runs as several kernels over a prompt.
  layer_kernels prompt_kernels{};
  /// Which it runs as several kernels in a decode step.
  layer_kernels decode_kernels{};
  /// Its 16-bit GEMV kernel's warps per row and what one resident warp moves
  /// (stack/gemv_occupancy.hpp): a product of few rows streams below `gemv_bytes_per_sm_cycle`.
  gemv_occupancy gemv_kernel{};
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

/// One figure of a stack as a plain number in its domain's unit (a share, seconds, or bytes per
/// SM cycle), with its unit, source and date: what a device file, help text or a check of the
/// domain reads, whatever the figure's type.
struct stack_figure_view {
  double number = 0.0;      ///< the value in its domain's unit
  std::string_view unit;    ///< its unit as words
  std::string_view source;  ///< where it comes from
  std::string_view date;    ///< when that was published
};

/// One figure of software_stack that a measurement can replace: its id, its stable name (as a
/// device file spells it), its domain (the member's type), what it means, and how to read and
/// write the member as a plain number.
struct stack_figure_field {
  stack_figure_id id;          ///< the figure
  std::string_view name;       ///< stable name: the member's name
  stack_figure_domain domain;  ///< the values it may take, and its unit
  std::string_view meaning;    ///< what it measures, for help text
  /// The member's value, unit, source and date.
  stack_figure_view (*read)(const software_stack&);
  /// Sets the member's value from a plain number in its domain's unit, with its source and date.
  void (*write)(software_stack&, double number, std::string_view source, std::string_view date);
};

/// The table entry of figure @p id, held by member @p Member: its domain is the member's type's.
template <auto Member>
constexpr stack_figure_field figure_field_of(stack_figure_id id, std::string_view name,
                                             std::string_view meaning) {
  using figure = std::remove_cvref_t<decltype(std::declval<software_stack&>().*Member)>;
  return {id,
          name,
          figure::domain,
          meaning,
          [](const software_stack& s) {
            const figure& f = s.*Member;
            return stack_figure_view{f.number(), f.unit, f.source, f.date};
          },
          [](software_stack& s, double number, std::string_view source, std::string_view date) {
            figure& f = s.*Member;
            f.set_number(number);
            f.source = source;
            f.date = date;
          }};
}

/// The figures a measurement can replace, in stack_figure_id's order: the one table their names,
/// members, domains and help text come from.
inline constexpr std::array stack_figure_fields{
    figure_field_of<&software_stack::gemm_efficiency>(
        stack_figure_id::gemm_efficiency, "gemm_efficiency",
        "compute-bound GEMMs: fraction of the ceiling"),
    figure_field_of<&software_stack::conv_efficiency>(stack_figure_id::conv_efficiency,
                                                      "conv_efficiency",
                                                      "convolutions: factor on gemm_efficiency"),
    figure_field_of<&software_stack::tf32_conv_efficiency>(
        stack_figure_id::tf32_conv_efficiency, "tf32_conv_efficiency",
        "TF32 convolutions: instead of conv_efficiency"),
    figure_field_of<&software_stack::gemv_dram_share>(stack_figure_id::gemv_dram_share,
                                                      "gemv_dram_share",
                                                      "DRAM-bound GEMMs: share of the DRAM rate"),
    figure_field_of<&software_stack::quantized_gemv_dram_share>(
        stack_figure_id::quantized_gemv_dram_share, "quantized_gemv_dram_share",
        "DRAM-bound GEMMs over quantised weights: share of the DRAM rate"),
    figure_field_of<&software_stack::attention_efficiency>(stack_figure_id::attention_efficiency,
                                                           "attention_efficiency",
                                                           "attention: fraction of the ceiling"),
    figure_field_of<&software_stack::streaming_dram_share>(
        stack_figure_id::streaming_dram_share, "streaming_dram_share",
        "element-wise, norms, optimizer: share of the DRAM rate"),
    figure_field_of<&software_stack::host_overhead>(stack_figure_id::host_overhead, "host_overhead",
                                                    "s per kernel"),
    figure_field_of<&software_stack::optimizer_host_overhead>(
        stack_figure_id::optimizer_host_overhead, "optimizer_host_overhead",
        "s per optimizer call"),
    figure_field_of<&software_stack::gemv_bytes_per_sm_cycle>(
        stack_figure_id::gemv_bytes_per_sm_cycle, "gemv_bytes_per_sm_cycle",
        "16-bit GEMV kernels: weight bytes per SM per SM clock (0: not measured)"),
    figure_field_of<&software_stack::quantized_gemv_bytes_per_sm_cycle>(
        stack_figure_id::quantized_gemv_bytes_per_sm_cycle, "quantized_gemv_bytes_per_sm_cycle",
        "quantised GEMV kernels: weight bytes per SM per SM clock (0: not measured)"),
    figure_field_of<&software_stack::dequantize_bytes_per_sm_cycle>(
        stack_figure_id::dequantize_bytes_per_sm_cycle, "dequantize_bytes_per_sm_cycle",
        "dequantisation kernels: bytes read and written per SM per SM clock (0: "
        "not measured)"),
    figure_field_of<&software_stack::softmax_bytes_per_sm_cycle>(
        stack_figure_id::softmax_bytes_per_sm_cycle, "softmax_bytes_per_sm_cycle",
        "unfused attention's softmax: bytes per SM per SM clock (0: not measured)"),
    figure_field_of<&software_stack::strided_copy_bytes_per_sm_cycle>(
        stack_figure_id::strided_copy_bytes_per_sm_cycle, "strided_copy_bytes_per_sm_cycle",
        "strided copies (head merge, KV cache writes): bytes per SM per SM clock "
        "(0: not measured)")};

/// The stack figures' list, made from stack_figure_fields: their stable names and help text.
template <>
struct enum_list<stack_figure_id> {
  static constexpr std::string_view kind = "stack figure";  ///< what the enum names
  /// Every figure, with what it means.
  static constexpr std::array values = [] {
    std::array<enumerator<stack_figure_id>, stack_figure_fields.size()> out{};
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = {stack_figure_fields[i].id, stack_figure_fields[i].name,
                stack_figure_fields[i].meaning};
    return out;
  }();
};
static_assert(enum_is_dense<stack_figure_id>,
              "stack_figure_fields must list the figures in stack_figure_id's order");

/// Figure @p f of stack @p s as a plain number in its domain's unit, with its unit and source.
constexpr stack_figure_view read_figure(const software_stack& s, stack_figure_id f) {
  return stack_figure_fields[enum_index(f)].read(s);
}

/// Sets figure @p f of stack @p s to @p number (in its domain's unit), from @p source.
constexpr void write_figure(software_stack& s, stack_figure_id f, double number,
                            std::string_view source, std::string_view date = {}) {
  stack_figure_fields[enum_index(f)].write(s, number, source, date);
}

/// The domain of figure @p f: a fraction, a host time or a rate per SM clock.
constexpr stack_figure_domain domain(stack_figure_id f) {
  return stack_figure_fields[enum_index(f)].domain;
}

/// Whether figure @p f is a host time (seconds per kernel or call) rather than a fraction.
constexpr bool is_host_time(stack_figure_id f) {
  return domain(f) == stack_figure_domain::host_time;
}

/// Whether figure @p f is a kernel's rate per SM clock (bytes per SM cycle; 0: not measured).
constexpr bool is_sm_cycle_rate(stack_figure_id f) {
  return domain(f) == stack_figure_domain::sm_cycle_rate;
}

namespace detail {
// Not constexpr: libc++ before 15 (emscripten's) has no constexpr std::string, so a constexpr
// function may not define one; the message is built only on the way out.
[[noreturn]] inline void throw_figure_outside_domain(std::string_view stack,
                                                     std::string_view figure, stack_figure_domain d,
                                                     double v) {
  const std::string what = "stack " + std::string(stack) + ": " + std::string(figure);
  if (d == stack_figure_domain::host_time)
    throw_invalid_argument(what + " must be finite and >= 0");
  if (d == stack_figure_domain::sm_cycle_rate)
    throw_invalid_argument(what + " must be in [0, " + figure_text(max_bytes_per_sm_cycle) +
                           "] bytes per SM cycle (0: not measured), got " + figure_text(v));
  throw_invalid_argument(what + " must be in [0.01, 1] (a share of the ceiling), got " +
                         figure_text(v));
}
}  // namespace detail

constexpr void software_stack::validate() const {
  for (const auto& e : stack_figure_fields) {
    const double v = e.read(*this).number;
    if (!in_domain(e.domain, v)) detail::throw_figure_outside_domain(name(), e.name, e.domain, v);
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
      (offload.supported() &&
       (!offload.upload_link_share.in_domain() || !offload.host_dram_share.in_domain())))
    detail::throw_invalid_argument("stack " + std::string(name()) +
                                   ": offload needs min_offload_batch >= 0 and, when it offloads, "
                                   "its two shares in [0.01, 1]");
  multi_gpu.validate(name());
  serving.validate(name());
  decode_graphs.validate(name());
  gemv_kernel.validate(name());
}

/// Throws invalid_argument when stack @p s cannot run a run whose mode is @p training: a
/// training step under an inference engine.
constexpr void check_runs(const software_stack& s, bool training) {
  if (training && !s.trains)
    detail::throw_invalid_argument("stack " + std::string(s.name()) +
                                   " is an inference engine: it runs no training step");
}

}  // namespace dlperf
