/// @file
/// Partial offload as llama.cpp runs it (`-ngl N`, docs/models.md, "Partial offload"): the last
/// N layers of a decoder on the GPU, the rest in host memory. A step over fewer tokens than the
/// stack's `min_offload_batch` (a decode step) runs the host layers on the CPU, which reads their
/// weights and their keys and values from the host's DRAM; a step over more (a prompt's
/// micro-batch) copies the host layers' weights to the GPU and runs every layer there. The
/// estimate of the whole model on the GPU is rewritten accordingly: its layer operators run for
/// the GPU's layers only, and one operator each stands for the CPU's reads and the weights'
/// copies.
#pragma once

#include <algorithm>
#include <string>

#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/step/estimate.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf {

/// Where an offloaded model's layers are. llama.cpp's `-ngl N` puts the last N of the L layers
/// on the GPU and the output layer (final norm and LM head) too only when N > L; the token
/// embeddings stay in host memory whatever N is (llama.cpp, src/llama-model.cpp, load_tensors:
/// i_gpu_start = n_layer - n_gpu_layers, dev_output = the layer after the last).
struct layer_placement {
  long long layers = 0;       ///< L
  long long gpu_layers = 0;   ///< layers on the GPU, in [0, L]
  bool output_on_gpu = true;  ///< the final norm and LM head on the GPU

  /// The placement of `-ngl @p ngl` for a model of @p layers layers. Throws invalid_argument for
  /// a negative @p ngl or fewer than two layers.
  static constexpr layer_placement of(long long ngl, long long layers) {
    if (ngl < 0) detail::throw_invalid_argument("offload: gpu layers must be >= 0");
    if (layers < 2)
      detail::throw_invalid_argument("offload: a model of " + std::to_string(layers) +
                                     " layer has no layers to split between GPU and host");
    return {layers, std::min(ngl, layers), ngl > layers};
  }
  /// Layers in host memory.
  [[nodiscard]] constexpr long long host_layers() const { return layers - gpu_layers; }
  /// Everything but the embeddings on the GPU: nothing to offload.
  [[nodiscard]] constexpr bool all_on_gpu() const { return gpu_layers == layers && output_on_gpu; }
};

/// The host side of an offloaded run.
struct offload_host {
  bandwidth dram;                   ///< the CPU's reads of the host layers (peak x stack share)
  bandwidth upload;                 ///< the weights' copy to the GPU (link one way x stack share)
  long long min_offload_batch = 0;  ///< tokens from which the host layers run on the GPU
  long long ubatch = 512;           ///< prompt tokens per evaluation (llama.cpp's n_ubatch)
};

/// What one layer's weights and the output layer's weigh in the run's weight format.
struct offload_weights {
  byte_count layer;   ///< one layer's (the average over the layers)
  byte_count output;  ///< the LM head's (the embedding matrix again when tied)

  /// The split of @p weights, the whole model's weight bytes, by parameters.
  static constexpr offload_weights of(const transformer_config& t, byte_count weights) {
    const double per_parameter = weights.value() / t.parameters();
    const double h = static_cast<double>(t.hidden);
    const double layer_parameters =
        (t.parameters() - t.embedding_parameters()) / static_cast<double>(t.total_layers());
    return {bytes(per_parameter * layer_parameters),
            bytes(per_parameter * static_cast<double>(t.vocab) * h)};
  }
};

namespace detail {

// One phase of an offloaded run. Its layer operators (those it repeats: once a layer, or a
// micro-batch of a layer) take @p tokens tokens an evaluation, its output operators (those after
// them) @p output_tokens (a prompt asks for the last position's logits only): under the stack's
// min_offload_batch, the host's share of them runs on the CPU, one operator for their DRAM
// reads; from it, on the GPU after a copy of their weights, @p evaluations times.
DLPERF_CONSTEXPR_VECTOR op_sequence offloaded_phase(const op_sequence& ops,
                                                    const layer_placement& p, const offload_host& h,
                                                    const offload_weights& w, double tokens,
                                                    double output_tokens, long long evaluations) {
  const double least = static_cast<double>(h.min_offload_batch);
  const bool layers_on_gpu = tokens >= least;
  const bool output_copied = !p.output_on_gpu && output_tokens >= least;
  const bool output_on_cpu = !p.output_on_gpu && !output_copied;
  op_sequence out;
  byte_count host_reads{};
  bool seen_layers = false;
  for (op_estimate op : ops) {
    if (op.repeats > 1) {
      seen_layers = true;
      if (!layers_on_gpu) {
        // The layers' runs in proportion (repeats is the layer count, or a multiple of it).
        const long long gpu_runs =
            op.repeats / p.layers * p.gpu_layers + op.repeats % p.layers * p.gpu_layers / p.layers;
        host_reads += static_cast<double>(op.repeats - gpu_runs) * op.dram;
        if (gpu_runs == 0) continue;
        op.repeats = gpu_runs;
      }
    } else if (seen_layers && output_on_cpu) {
      host_reads += op.dram;
      continue;
    }
    out.add(op);
  }
  const byte_count copied = (layers_on_gpu ? static_cast<double>(p.host_layers()) : 0.0) * w.layer +
                            (output_copied ? w.output : bytes(0.0));
  if (copied.value() > 0)
    out.add(op_estimate{.name = "host layers' weights to the GPU",
                        .time = copied / h.upload,
                        .dram = copied,
                        .bound = bound::interconnect,
                        .repeats = std::max(1LL, evaluations),
                        .kind = op_kind::communication});
  if (host_reads.value() > 0)
    out.add(op_estimate{.name = "host layers on the CPU",
                        .time = host_reads / h.dram,
                        .dram = host_reads,
                        .bound = bound::global,
                        .kind = op_kind::other});
  return out;
}

}  // namespace detail

/// @p e, the estimate of a decoder's inference with every layer on the GPU, with the layers
/// @p p leaves in host memory run as llama.cpp runs them (the file comment). @p e unchanged when
/// everything is on the GPU.
DLPERF_CONSTEXPR_VECTOR model_estimate offloaded(model_estimate e, const layer_placement& p,
                                                 const offload_host& h, const offload_weights& w) {
  if (p.all_on_gpu()) return e;
  const double prompt = e.prompt_tokens;
  const long long evaluations = static_cast<long long>(
      (prompt + static_cast<double>(h.ubatch) - 1.0) / static_cast<double>(h.ubatch));
  e.prefill = detail::offloaded_phase(
      e.prefill, p, h, w, std::min(prompt, static_cast<double>(h.ubatch)), e.samples, evaluations);
  if (e.decode.size() > 0)
    e.decode = detail::offloaded_phase(e.decode, p, h, w, e.samples, e.samples, 1);
  e.sum_phases();
  return e;
}

/// @p full, the memory of the run with every layer on the GPU, with the placement @p p: the GPU
/// holds its layers' weights, keys and values, the output layer's weights when it has it, and,
/// when some layers are in host memory, room for one of them copied in for a prompt; the token
/// embeddings stay in host memory. The largest batch is not searched again (0).
constexpr fit_verdict offloaded_fit(const fit_verdict& full, const layer_placement& p,
                                    const offload_weights& w) {
  const double share = static_cast<double>(p.gpu_layers) / static_cast<double>(p.layers);
  fit_verdict f = full;
  f.need.weights = static_cast<double>(p.gpu_layers) * w.layer +
                   (p.output_on_gpu ? w.output : bytes(0.0)) +
                   (p.host_layers() > 0 ? w.layer : bytes(0.0));
  f.need.kv_cache = share * full.need.kv_cache;
  f.margin = f.capacity - f.need.total();
  f.fits = f.margin.value() >= 0;
  f.max_batch = 0;
  return f;
}

/// The largest `-ngl` whose placement fits (L + 1: every layer and the output layer), or -1
/// when even none does.
constexpr long long most_gpu_layers(const fit_verdict& full, long long layers,
                                    const offload_weights& w) {
  for (long long n = layers + 1; n >= 0; --n)
    if (offloaded_fit(full, layer_placement::of(n, layers), w).fits) return n;
  return -1;
}

}  // namespace dlperf
