/// @file
/// A whole model's training step or inference on one GPU, op by op (docs/models.md,
/// @ref models_step): the forward pass from the layer estimators (tile-reuse GEMMs, fused or
/// unfused attention, streaming kernels), the backward pass as each GEMM's two gradient GEMMs
///
///     forward  C[M x N] = A[M x K] B[K x N]
///     dgrad    dA[M x K] = dC[M x N] B^T      (a GEMM of M x K x N)
///     wgrad    dB[K x N] = A^T dC[M x N]      (a GEMM of K x N x M)
///
/// plus the attention and streaming kernels' backward passes, the recomputed forward under
/// activation checkpointing, and the optimizer's memory-bound pass over the parameters. A layer
/// repeated L times is estimated once and held with repeats L (`op_sequence::add(block, L)`),
/// and GEMMs of equal shape (a forward and a gradient GEMM often are) are searched once.
///
/// Decoder inference is a prefill over the prompt (time to first token) and one decode step
/// per generated token, estimated at the middle of the generated span (decode time is affine
/// in the context length, so the mid-point step times the tokens is the sum). Quantised weight
/// formats (core/weight_format.hpp) run each weight GEMM with the weights as the A operand (the
/// "swap AB" layout of small-batch kernels) so the DRAM bytes of the weights are those of the
/// format (model/weight_file.hpp: a K-quant mix's mean, the LM head's own layout), in the
/// format's compute type where the GPU has it (GGUF: int8; FP8; FP4), else the run's. A decode
/// step's attention reads the KV cache in its datatype (`run_config::kv_cache`).
///
/// Under LoRA (model/adapters.hpp) the frozen weight GEMMs run forward and dgrad only (no
/// wgrad: 2 m n k backward FLOP instead of 4 m n k), each adapted layer adds its two thin
/// adapter GEMMs with their gradients, the embedding has no backward pass and the optimizer
/// updates the adapters only; under QLoRA each block weight is dequantised from NF4 to the
/// compute type before its forward GEMM and again before its dgrad (a streaming kernel reading
/// nf4_bits_per_weight / 8 bytes and writing the compute type per weight, as bitsandbytes runs).
///
/// Communication between GPUs (tensor-parallel and gradient all-reduces) is not in these
/// estimates: with several GPUs the step time is one GPU's compute on its shard.
#pragma once
#pragma once

#include <dlperf/core/library_support.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/step/cnn.hpp>
#include <dlperf/model/step/estimate.hpp>
#include <dlperf/model/step/transformer.hpp>

namespace dlperf {

/// The training step (`run_mode::train`) or inference (`run_mode::infer`) of @p m on @p d under
/// @p r: the operators of each phase, the step time and the rates derived from it. Throws
/// invalid_argument for a bad model or run and unsupported when @p d cannot run the datatype.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate estimate_model(const D& d, const model_spec& m,
                                                      const run_config& r) {
  m.validate();
  r.validate();
  validate_model_run(m, r);
  if (m.kind == model_kind::cnn) return detail::cnn_step(d, m.cnn, r);
  if (!r.training() && m.transformer.generates())
    return detail::transformer_generation(d, m.transformer, r);
  return detail::transformer_step(d, m.transformer, r);
}

}  // namespace dlperf
