/// @file
/// The kernel families a software stack chooses between for each class of operator
/// (docs/stacks.md): how it runs element-wise operations, attention and RMSNorm, each choice
/// with its stable name, whether its FP8 linears cast their operands in kernels of their own
/// in training, and which of a layer's fused operators it runs as several kernels. A stack's
/// record (stack/stack.hpp, software_stack) names one of each.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>

namespace dlperf {

/// How a stack runs element-wise operations.
enum class kernel_fusion : std::uint8_t {
  as_run,  ///< as the run says (`run_config::eager`)
  eager,   ///< every element-wise op a kernel of its own
  fused    ///< element-wise ops in the GEMM epilogues (a compiler or hand-fused engine)
};

/// The kernel fusion choices and their stable names.
template <>
struct enum_list<kernel_fusion> {
  static constexpr std::string_view kind = "kernel fusion";  ///< what the enum names
  /// Every choice.
  static constexpr std::array values{enumerator{kernel_fusion::as_run, "as-run"},
                                     enumerator{kernel_fusion::eager, "eager"},
                                     enumerator{kernel_fusion::fused, "fused"}};
};

/// Which attention kernel a stack runs.
enum class attention_kernel : std::uint8_t {
  as_run,   ///< as the run says (`run_config::flash_attention`)
  unfused,  ///< QK^T and PV GEMMs around a softmax kernel (scores through DRAM)
  flash2,   ///< FlashAttention-2 (or a kernel of its kind: fused, scores in shared memory)
  flash3,   ///< FlashAttention-3 (Hopper: wgmma and TMA, warp-specialised)
  vendor,   ///< the engine's own fused kernel (TensorRT-LLM XQA/FMHA, TurboMind, ggml)
  /// FlashAttention's Triton kernel of the FlashAttention-1 era (flash_attn_triton.py, which
  /// llm-foundry's `attn_impl: triton` runs)
  flash_triton
};

/// The attention kernels and their stable names.
template <>
struct enum_list<attention_kernel> {
  static constexpr std::string_view kind = "attention kernel";  ///< what the enum names
  /// Every kernel.
  static constexpr std::array values{
      enumerator{attention_kernel::as_run, "as-run"},
      enumerator{attention_kernel::unfused, "unfused"},
      enumerator{attention_kernel::flash2, "flash-attention-2"},
      enumerator{attention_kernel::flash3, "flash-attention-3"},
      enumerator{attention_kernel::vendor, "vendor"},
      enumerator{attention_kernel::flash_triton, "flash-attention-triton"}};
};

/// How a stack runs RMSNorm.
enum class norm_kernel : std::uint8_t {
  as_run,    ///< as the run says (`run_config::composite_norms`)
  fused,     ///< one kernel forward, one or two passes backward
  composite  ///< the framework's element-wise ops in FP32, each a kernel of its own
};

/// The norm kernel choices and their stable names.
template <>
struct enum_list<norm_kernel> {
  static constexpr std::string_view kind = "norm kernel";  ///< what the enum names
  /// Every choice.
  static constexpr std::array values{enumerator{norm_kernel::as_run, "as-run"},
                                     enumerator{norm_kernel::fused, "fused"},
                                     enumerator{norm_kernel::composite, "composite"}};
};

/// How a stack's FP8 linears get their operands in FP8 when training (docs/stacks.md, "FP8
/// casts"). Transformer Engine casts each linear's 16-bit input to FP8 with a transposed copy for
/// the weight gradient (`cast_transpose`: read 2 bytes an element, write 1 and 1), and in the
/// backward pass its output gradient the same way, each in a kernel of its own; a stack that
/// leaves `separate` false is charged none (its compiler folds the casts into the kernels around
/// them, or the ceiling).
struct fp8_cast_kernels {
  bool separate = false;      ///< each cast (and its transposed copy) is a kernel of its own
  std::string_view source{};  ///< where the choice comes from

  /// Whether two choices are the same (their sources aside).
  [[nodiscard]] constexpr bool same(const fp8_cast_kernels& o) const {
    return separate == o.separate;
  }
};

/// How a stack splits a transformer layer's prompt into kernels where the model's layer
/// (model/step/transformer.hpp) fuses them (docs/stacks.md, "A prompt layer as ggml builds it").
/// The model's layer multiplies Q, K and V in one product and gate and up in another, takes
/// RMSNorm's scale and the gated activation in one kernel each, and charges no kernel for the
/// rotary embedding or the KV cache's write. A stack that runs them apart pays a launch and a
/// pass over its tensors for each. They apply to steps over the prompt: a decode step's
/// kernels of one token each are replayed in the stack's CUDA graphs, whose cost per kernel
/// the decode figures were fitted with.
struct layer_kernels {
  /// Q, K and V each multiplied by a product of its own, and gate and up too.
  bool separate_projections = false;
  /// RMSNorm's normalisation, then its scale's product; SiLU of the gate, then its product with
  /// up: a kernel each.
  bool separate_scales = false;
  /// The rotary embedding of queries and of keys, and the copies of the new keys and values
  /// into the cache (cast to its type), a kernel each.
  bool rope_and_cache_writes = false;
  std::string_view source{};  ///< where the choice comes from

  /// Whether two choices are the same (their sources aside).
  [[nodiscard]] constexpr bool same(const layer_kernels& o) const {
    return separate_projections == o.separate_projections && separate_scales == o.separate_scales &&
           rope_and_cache_writes == o.rope_and_cache_writes;
  }
};

}  // namespace dlperf
