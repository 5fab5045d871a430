/// @file
/// The named software stacks (docs/stacks.md has every figure with its source): one record per
/// `stack_id`, looked up with `stacks::find` or `stacks::of`. The records live with their
/// vendor's backend (stack/cuda_stacks.hpp, rocm_stacks.hpp, metal_stacks.hpp; the figures they
/// share in shared_figures.hpp); adding a stack touches its backend's file, the list below and
/// the enumerator list in stack/stack.hpp, nothing else.
///
/// Figures come from published measurements where one exists; where none does, the figure is
/// "fitted on the evidence" and names the rows of tests/evidence/model_evidence_test.cpp it was
/// fitted on. No figure is fitted to one GPU: a stack's figures hold for every GPU it runs on.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/stack/cuda_stacks.hpp>
#include <dlperf/stack/metal_stacks.hpp>
#include <dlperf/stack/rocm_stacks.hpp>
#include <dlperf/stack/shared_figures.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf::stacks {

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
    .host_overhead = {microseconds(0), detail::per_kernel, "definition"}};

/// Every stack, in `stack_id` order.
inline constexpr std::array<const software_stack*, enum_count<stack_id>> all{
    &ceiling,   &pytorch_eager,   &torch_compile, &tensorflow,    &tensorflow_xla,
    &megatron,  &tensorrt_llm,    &vllm,          &vllm_eager,    &lmdeploy,
    &llama_cpp, &llama_cpp_rocm,  &pytorch_rocm,  &megatron_rocm, &vllm_rocm,
    &exllamav2, &llama_cpp_metal, &mlx,           &sglang,        &mlc_llm};

/// The record of stack @p id.
constexpr const software_stack& of(stack_id id) { return *all[enum_index(id)]; }

/// One engine's builds for each vendor's GPUs, indexed by `vendor`: the same code over CUDA's,
/// ROCm's or Metal's libraries (llama.cpp's CUDA, HIP and Metal backends; PyTorch's CUDA and ROCm
/// wheels; Megatron-LM over Transformer Engine's CUDA and ROCm builds; vLLM's CUDA and ROCm
/// builds). Empty where the engine has no build dlperf models for that vendor.
using engine_builds = std::array<std::optional<stack_id>, enum_count<vendor>>;

/// Every engine built for more than one vendor.
inline constexpr std::array builds_of_one_engine{
    engine_builds{stack_id::llama_cpp, stack_id::llama_cpp_rocm, stack_id::llama_cpp_metal},
    engine_builds{stack_id::pytorch_eager, stack_id::pytorch_rocm, std::nullopt},
    engine_builds{stack_id::megatron, stack_id::megatron_rocm, std::nullopt},
    engine_builds{stack_id::vllm, stack_id::vllm_rocm, std::nullopt}};

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
  const stack_id own = build_for(s.id, v);
  const std::string build =
      own == s.id ? std::string() : "; its build for them is " + std::string(name(own));
  return "stack " + std::string(s.name()) + " does not run on " + std::string(description(v)) +
         " GPUs (" + std::string(gpu) + ")" + build + "; stacks that do: " + can;
}
}  // namespace detail

/// Throws unsupported when stack @p s does not run on @p v's GPUs (@p gpu names the GPU),
/// naming the stacks that do.
constexpr void check_runs_on(const software_stack& s, vendor v, std::string_view gpu) {
  if (!s.vendors.has(v)) dlperf::detail::throw_unsupported(detail::vendor_mismatch(s, v, gpu));
}

namespace detail {
// The message of check_async_tp (see vendor_mismatch for why it is a function of its own).
inline std::string no_async_tp(const software_stack& s) {
  std::string can;
  for (const software_stack* other : all)
    if (other->multi_gpu.async_tp.exists())
      can += (can.empty() ? "" : "; ") + std::string(other->name()) + ": " +
             std::string(other->multi_gpu.async_tp.feature);
  return "stack " + std::string(s.name()) +
         " runs its tensor split's collectives whole, not overlapped with their GEMMs; stacks "
         "that overlap them: " +
         can;
}
}  // namespace detail

/// Throws unsupported when a run asks for an asynchronous tensor split (@p async_tp) of stack
/// @p s, which has none, naming the stacks that have one and their name for it.
constexpr void check_async_tp(const software_stack& s, bool async_tp) {
  if (async_tp && !s.multi_gpu.async_tp.exists())
    dlperf::detail::throw_unsupported(detail::no_async_tp(s));
}

/// Stack @p s running fused attention kernel @p k in place of its own: the kernel, its
/// efficiency figure (FlashAttention-2's, -3's or the Triton kernel's, each with its source),
/// whether it issues warp-level mma.sync (FlashAttention-2 and the Triton kernel do) and whether
/// it pays FlashAttention's tile cost (all three do: software_stack::flash_tiles); `unfused`
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
  s.flash_tiles = k == attention_kernel::flash2 || k == attention_kernel::flash3 ||
                  k == attention_kernel::flash_triton;
  if (k == attention_kernel::flash2) s.attention_efficiency = detail::flash2;
  if (k == attention_kernel::flash3) s.attention_efficiency = detail::flash3;
  if (k == attention_kernel::flash_triton) s.attention_efficiency = detail::flash_triton;
  return s;
}

/// The stack named @p name. Throws not_found listing the valid names.
constexpr const software_stack& find(std::string_view name) { return of(parse<stack_id>(name)); }

}  // namespace dlperf::stacks
