/// @file
/// How a software stack spreads one model over several GPUs, as data (docs/parallel.md): by
/// tensors (every layer's weights cut over the GPUs, two all-reduces a layer: Megatron-LM, vLLM,
/// TensorRT-LLM) or by layers (consecutive layers on each GPU in turn: llama.cpp's default
/// `--split-mode layer`, Hugging Face accelerate's `device_map`, ExLlamaV2); whether a layer
/// split pipelines a prompt's micro-batches over its GPUs; and the engine's own all-reduce for
/// small messages where it has one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/core/weight_format.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// How one model is spread over the GPUs that hold it.
enum class split_mode : std::uint8_t {
  tensor,  ///< every layer's weights cut over the GPUs; all-reduces of activations a layer
  layer    ///< consecutive layers on each GPU; the GPUs take turns, activations handed on
};

/// The split modes and their stable names (`--split`).
template <>
struct enum_list<split_mode> {
  static constexpr std::string_view kind = "split mode";  ///< what the enum names
  /// Every split mode.
  static constexpr std::array values{
      enumerator{split_mode::tensor, "tensor", "tensor parallel: every layer over the GPUs"},
      enumerator{split_mode::layer, "layer", "layers in turn, one GPU after another"}};
};

/// A published measurement of what CUDA graphs save a stack per generated token: one batch-1
/// decode timed with and without them, on the architecture families where the stack uses them.
/// A split that keeps the stack from using its graphs pays the difference, spread over the
/// kernels of that run's token (model/parallel.hpp, launch_gap_without_graphs).
struct graph_saving {
  std::string_view model{};                       ///< preset id of the measured run
  std::string_view gpu{};                         ///< catalog id of its GPU
  weight_format weights = weight_format::native;  ///< its weights
  double without = 0;                             ///< tokens/s without CUDA graphs
  double with = 0;                                ///< tokens/s with them
  std::array<family, 4> families{};               ///< where the stack uses graphs
  std::size_t family_count = 0;                   ///< how many of `families` are set
  std::string_view source{};                      ///< where the figures come from

  /// Whether there is a measurement.
  [[nodiscard]] constexpr bool exists() const { return with > 0; }
  /// Whether the stack uses CUDA graphs on architecture family @p f.
  [[nodiscard]] constexpr bool applies(family f) const {
    for (std::size_t i = 0; i < family_count && i < families.size(); ++i)
      if (families[i] == f) return true;
    return false;
  }
  /// The time graphs saved the measured run per token.
  [[nodiscard]] constexpr duration per_token() const { return seconds(1.0 / without - 1.0 / with); }
};

/// How a layer split pipelines a prompt: micro-batches of `ubatch` tokens flow through the GPUs
/// one after another, at most `in_flight` at once, so that GPU k works on micro-batch j while GPU
/// k + 1 works on j - 1. A stack without it (ubatch 0) runs a prompt through the GPUs in turn.
struct layer_pipeline {
  long long ubatch = 0;         ///< tokens per micro-batch; 0: no pipelining
  long long in_flight = 0;      ///< micro-batches in flight at most
  double activation_bytes = 0;  ///< bytes per element handed on; 0: the run's activation type
  std::string_view source{};    ///< where the figures come from
  /// CUDA graphs the pipeline keeps the stack from using in decode (none: it keeps them).
  graph_saving graphs_lost{};

  /// Whether prompts are pipelined.
  [[nodiscard]] constexpr bool pipelines() const { return ubatch > 0; }

  /// The wall time of a prompt of @p tokens over @p stages GPUs in turn, as a fraction of the
  /// time the GPUs take one after another (their summed time): with u micro-batches and c in
  /// flight, (S + (u - 1) S / min(S, c)) / (u S). 1 for one stage, one micro-batch or no
  /// pipelining.
  [[nodiscard]] constexpr double prompt_fraction(double tokens, long long stages) const {
    if (!pipelines() || stages <= 1 || tokens <= 0) return 1.0;
    const double u = static_cast<double>(static_cast<long long>(
        (tokens + static_cast<double>(ubatch) - 1.0) / static_cast<double>(ubatch)));
    const double s = static_cast<double>(stages);
    const double c = static_cast<double>(in_flight < stages ? in_flight : stages);
    return (s + (u - 1.0) * s / c) / (u * s);
  }
};

/// An engine's own all-reduce for small messages over peer-to-peer links (vLLM's and
/// TensorRT-LLM's one-shot kernels): its time of one call at 2 and at 8 GPUs, straight between
/// those, and the largest message it takes (larger ones go to NCCL).
struct custom_all_reduce {
  duration at_2{};            ///< one call over 2 GPUs; zero: the stack has none
  duration at_8{};            ///< one call over 8 GPUs
  byte_count max_bytes{};     ///< the largest buffer it reduces
  std::string_view source{};  ///< where the figures come from

  /// Whether the stack has one.
  [[nodiscard]] constexpr bool exists() const { return at_2 > duration{}; }
  /// Its latency over @p n GPUs (2 to 8), straight between the two figures.
  [[nodiscard]] constexpr duration latency(long long n) const {
    const double x = static_cast<double>(n - 2) / 6.0;
    return at_2 + x * (at_8 - at_2);
  }
};

/// Whether a training stack can run its tensor split's collectives asynchronously: each
/// sequence-parallel all-gather and reduce-scatter cut into one chunk per GPU of the split and
/// pipelined with the chunks of the GEMM that takes or makes it (torchtitan's async TP under
/// torch.compile; Transformer Engine's userbuffer overlap under Megatron), which `--async-tp`
/// asks for (buying/cluster.hpp prices it).
struct tensor_parallel_overlap {
  std::string_view feature{};  ///< the stack's own name for it; empty: the stack has none
  /// Whether the backward pass's collectives (of the gradients, with the dgrad GEMMs) are cut
  /// and pipelined too, or only the forward pass's.
  bool backward = true;
  std::string_view source{};  ///< where it is documented, and what it overlaps

  /// Whether the stack has it.
  [[nodiscard]] constexpr bool exists() const { return !feature.empty(); }
};

/// Whether a training stack's column-parallel linears (the QKV projection, the FFN's first GEMM)
/// overlap their backward pass's collectives with its GEMMs by default, without `--async-tp`:
/// the sequence-split input gathered again beside the dgrad GEMM (the forward kept only the
/// GPU's share) and the input gradient's reduce-scatter beside the wgrad GEMM, as Megatron's
/// linear layers run them (buying/cluster.hpp prices both).
struct tensor_parallel_backward {
  std::string_view source{};  ///< where it is documented; empty: each collective waited for

  /// Whether the stack does it.
  [[nodiscard]] constexpr bool exists() const { return !source.empty(); }
};

/// How a stack runs a model over several GPUs: its default split, its prompt pipeline, its own
/// all-reduce, and how it overlaps a training tensor split's collectives.
struct multi_gpu_kernels {
  split_mode split = split_mode::tensor;   ///< the split the engine uses unless told otherwise
  std::string_view split_source{};         ///< where that default comes from
  layer_pipeline pipeline{};               ///< a layer split's prompt pipeline
  custom_all_reduce all_reduce{};          ///< the engine's small-message all-reduce
  tensor_parallel_overlap async_tp{};      ///< its asynchronous tensor split in training, if any
  tensor_parallel_backward tp_backward{};  ///< its backward's default overlap of the split

  /// Throws invalid_argument naming the first figure out of its domain, for stack @p stack.
  constexpr void validate(std::string_view stack) const {
    // Each message is built where it is thrown: libc++ 14 (emscripten's) has no constexpr
    // std::string, so a constexpr function may not hold one in a variable.
    if (pipeline.ubatch < 0 || pipeline.in_flight < 0 ||
        (pipeline.ubatch > 0) != (pipeline.in_flight > 0))
      detail::throw_invalid_argument("stack " + std::string(stack) +
                                     ": pipeline needs ubatch and in_flight both > 0 (or both 0)");
    if (!(pipeline.activation_bytes >= 0) || pipeline.activation_bytes > 16)
      detail::throw_invalid_argument("stack " + std::string(stack) +
                                     ": pipeline activation bytes must be in [0, 16]");
    const graph_saving& g = pipeline.graphs_lost;
    if (g.exists() && (!(g.without > 0) || !(g.without < g.with) || !detail::is_finite(g.with) ||
                       g.family_count < 1 || g.family_count > g.families.size() ||
                       g.model.empty() || g.gpu.empty()))
      detail::throw_invalid_argument(
          "stack " + std::string(stack) +
          ": graphs_lost needs a run (model, GPU), 0 < without < with tokens/s, and the "
          "families that use graphs");
    if (async_tp.exists() && async_tp.source.empty())
      detail::throw_invalid_argument("stack " + std::string(stack) +
                                     ": async_tp needs the source that documents it");
    if (all_reduce.exists() &&
        (!(all_reduce.at_8 >= all_reduce.at_2) || !detail::is_finite(all_reduce.at_8.value()) ||
         !(all_reduce.max_bytes.value() > 0)))
      detail::throw_invalid_argument(
          "stack " + std::string(stack) +
          ": custom all-reduce needs a latency at 8 GPUs >= at 2 and a positive size limit");
  }
};

}  // namespace dlperf
