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

#include <algorithm>

#include <dlperf/core/library_support.hpp>
#include <dlperf/estimate/sustained_clock.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/step/cnn.hpp>
#include <dlperf/model/step/estimate.hpp>
#include <dlperf/model/step/transformer.hpp>

namespace dlperf {

namespace detail {

// The step or inference of @p m on @p d under @p r at the clock @p d states.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate estimate_model_at_clock(const D& d, const model_spec& m,
                                                               const run_config& r) {
  if (m.kind == model_kind::cnn) return cnn_step(d, m.cnn, r);
  if (!r.training() && m.transformer.generates())
    return transformer_generation(d, m.transformer, r);
  return transformer_step(d, m.transformer, r);
}

// The time @p ops spend in tensor-bound operators: GEMMs and fused attention bound by their
// arithmetic, each run counted.
DLPERF_CONSTEXPR_VECTOR duration tensor_bound_time(const op_sequence& ops) {
  duration t{};
  for (const op_estimate& op : ops)
    if ((op.kind == op_kind::gemm || op.kind == op_kind::attention) && op.bound == bound::compute)
      t += static_cast<double>(op.repeats) * op.time;
  return t;
}

// The share of @p e's time in tensor-bound operators (GEMMs and attention bound by arithmetic),
// 0 when @p tensor_math is false (FP32 products run on the CUDA cores, which hold the clock).
DLPERF_CONSTEXPR_VECTOR double tensor_bound_share(const model_estimate& e, bool tensor_math) {
  if (!tensor_math || !(e.time.value() > 0)) return 0.0;
  duration bound_time{};
  for (step_phase p : enum_values<step_phase>)
    bound_time += e.runs(p) * tensor_bound_time(e.phase(p));
  return std::clamp(bound_time.value() / e.time.value(), 0.0, 1.0);
}

// Whether device @p d runs datatype @p t's products on tensor cores (its dense rate for the
// datatype's default accumulator on its segment), which is what draws a board to its power
// limit.
template <class D>
constexpr bool tensor_math_of(const D& d, dtype t) {
  return d.arch()
      .execution(t, default_accumulator(t), sparsity::dense, consumer_segment(d.facts().segment))
      .tensor_cores;
}

// Whether the SM clock sets an operator's time when it is bound by @p b: arithmetic, the
// register file, shared memory, L2 and pipeline fill run on it; DRAM, an off-die cache and the
// links between GPUs have clocks of their own (measured_device::slow_clock's split).
constexpr bool on_sm_clock(bound b) {
  switch (b) {
    case bound::compute:
    case bound::registers:
    case bound::shared:
    case bound::l2:
    case bound::latency:
      return true;
    case bound::llc:
    case bound::global:
    case bound::interconnect:
      break;
  }
  return false;
}

// @p ops with the SM clock at @p fraction of its speed: each operator the clock bounds takes
// 1 / fraction of its time, the others keep theirs. An operator bound by DRAM whose arithmetic
// came within the fraction of its DRAM time would turn arithmetic-bound, which this misses; a
// second estimate of the step would catch it at twice the cost, which a constant expression's
// budget does not allow.
DLPERF_CONSTEXPR_VECTOR op_sequence at_sm_clock(const op_sequence& ops, double fraction) {
  op_sequence out;
  for (op_estimate op : ops) {
    if (on_sm_clock(op.bound)) op.time = op.time / fraction;
    out.add(op);
  }
  return out;
}

// Whether an operator bound by @p b runs slower on fewer SMs: its arithmetic, register file and
// shared memory are each SM's own. DRAM, L2 and the links are shared by all SMs, and an
// operator bound by latency does not fill the SMs it has.
constexpr bool on_sm_count(bound b) {
  return b == bound::compute || b == bound::registers || b == bound::shared;
}

// The share of @p ops' time, each run counted, in operators that run slower on fewer SMs
// (on_sm_count); 0 for no time.
DLPERF_CONSTEXPR_VECTOR double sm_count_share(const op_sequence& ops) {
  duration all{}, held{};
  for (const op_estimate& op : ops) {
    const duration t = static_cast<double>(op.repeats) * op.time;
    all += t;
    if (on_sm_count(op.bound)) held += t;
  }
  return all.value() > 0 ? held.value() / all.value() : 0.0;
}

// sm_count_share of @p e's backward pass and the forward it runs again (recompute) together.
DLPERF_CONSTEXPR_VECTOR double backward_sm_count_share(const model_estimate& e) {
  const duration b = e.backward.time(), again = e.recompute.time();
  const duration all = b + again;
  if (!(all.value() > 0)) return 0.0;
  return (sm_count_share(e.backward) * b.value() + sm_count_share(e.recompute) * again.value()) /
         all.value();
}

}  // namespace detail

/// The training step (`run_mode::train`) or inference (`run_mode::infer`) of @p m on @p d under
/// @p r: the operators of each phase, the step time and the rates derived from it. A training
/// step runs at the clock the board holds through a long job (estimate/sustained_clock.hpp): on
/// a board with a measured sustained tensor clock, the step estimated at full clock gives its
/// tensor-bound share, and every operator the SM clock bounds then runs at
/// sustained_clock_fraction of that share (model_estimate::clock_fraction says which). Throws
/// invalid_argument for a bad model or run and unsupported when @p d cannot run the datatype.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate estimate_model(const D& d, const model_spec& m,
                                                      const run_config& r) {
  m.validate();
  r.validate();
  validate_model_run(m, r);
  model_estimate e = detail::estimate_model_at_clock(d, m, r);
  if constexpr (requires {
                  d.facts();
                  d.arch();
                }) {
    if (!r.training()) return e;
    const bool tensor_math = detail::tensor_math_of(d, r.type);
    const double f =
        sustained_clock_fraction(d.facts(), detail::tensor_bound_share(e, tensor_math), r.type);
    if (!(f < 1.0)) return e;
    e.forward = detail::at_sm_clock(e.forward, f);
    e.recompute = detail::at_sm_clock(e.recompute, f);
    e.backward = detail::at_sm_clock(e.backward, f);
    e.optimizer = detail::at_sm_clock(e.optimizer, f);
    e.sum_phases();
    e.clock_fraction = f;
  }
  return e;
}

}  // namespace dlperf
