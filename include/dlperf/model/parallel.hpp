/// @file
/// Inference of one model copy spread over several GPUs (docs/parallel.md): the communication a
/// split adds to the estimate of one GPU's share, as operators of their own.
///
///     tensor split (tp GPUs):  two all-reduces a layer (attention and MLP outputs, Megatron-LM:
///                              Shoeybi et al. 2019, arXiv:1909.08053) of the pass's activations,
///                              tokens x hidden: once for the prompt, once per generated token;
///                              each the faster of NCCL (its ring or NVLS, stack/nccl.hpp)
///                              and the engine's own all-reduce where its links allow one
///                              (stack/multi_gpu.hpp)
///     layer split (pp GPUs):   the GPUs run their layers in turn, so a pass takes every GPU's
///                              share one after another, the whole model's time, plus pp - 1
///                              hand-offs of the activations (a copy between two GPUs); a stack
///                              that pipelines a prompt's micro-batches over the GPUs overlaps
///                              them, and the prompt takes its pipeline's fraction of that time
///
/// The estimate it starts from is one GPU's: its tensor-parallel share (run_config::tp), all of
/// the model's layers. A layer split of equal GPUs runs that same sequence, one share on each.
#pragma once

#include <algorithm>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/nccl.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf {

/// One all-reduce of a tensor split and what ran it.
struct tp_all_reduce {
  duration time{};            ///< of one call
  bool custom = false;        ///< the engine's own all-reduce (else NCCL's)
  nccl_collective library{};  ///< what NCCL would take: its time, protocol and algorithm
};

/// An all-reduce of @p data bytes over the @p n GPUs of a tensor split under stack @p s, on
/// @p link (@p staged: no peer-to-peer, through host memory): the faster of the collective
/// library (nccl_time; through host memory when @p staged or @p library_staged, which
/// nccl_through_host gives for NVIDIA's GPUs over any PCIe) and the stack's own all-reduce,
/// which needs peer-to-peer links (NVLink or Infinity Fabric, or PCIe between two GPUs that have
/// it), at most 8 GPUs and a buffer within its limit. Its kernels load and store peer to peer,
/// never through a switch's reduction (NVLS): its bandwidth term is the ring's bus-bandwidth
/// floor (link_spec::ring_rate).
constexpr tp_all_reduce tensor_parallel_all_reduce(const software_stack& s, byte_count data,
                                                   long long n, const link_spec& link, bool staged,
                                                   bool library_staged = false) {
  const nccl_collective library =
      nccl_time(collective::all_reduce, data, n, link, staged || library_staged);
  tp_all_reduce out{library.time, false, library};
  const custom_all_reduce& own = s.multi_gpu.all_reduce;
  const bool fabric = link.link.kind == interconnect_kind::nvlink ||
                      link.link.kind == interconnect_kind::infinity_fabric;
  const bool peer = fabric || (link.link.kind == interconnect_kind::pcie && !staged && n == 2);
  if (own.exists() && peer && n >= 2 && n <= 8 && data <= own.max_bytes) {
    const duration t =
        own.latency(n) + collective_floor(collective::all_reduce, data, n, link.ring_rate(n));
    if (t < out.time) out = {t, true, library};
  }
  return out;
}

/// A hand-off of @p data bytes from one GPU of a layer split to the next on @p link (@p staged:
/// through host memory, two bus crossings): one step's latency per crossing and the bytes at
/// the link's one-way rate (a device-to-device copy, cudaMemcpyPeerAsync; on a mesh, the one
/// link between the two GPUs).
constexpr duration layer_handoff(byte_count data, const link_spec& link, bool staged) {
  const double crossings = staged ? 2.0 : 1.0;
  return collective_time(collective::send_recv, data, 2, link.collective_rate(2),
                         {seconds(0), crossings * link.latency, 1.0 / crossings});
}

/// Kernels @p ops launches: every operator's kernels times its repeats.
constexpr double kernels_of(const op_sequence& ops) {
  double n = 0;
  for (const op_estimate& op : ops)
    n += static_cast<double>(op.kernels) * static_cast<double>(op.repeats);
  return n;
}

namespace detail {

// @p ops with every operator's time scaled by @p fraction (a pipeline's overlap).
DLPERF_CONSTEXPR_VECTOR op_sequence scaled(const op_sequence& ops, double fraction) {
  op_sequence out;
  for (op_estimate op : ops) {
    op.time = fraction * op.time;
    out.add(op);
  }
  return out;
}

// A communication operator: @p repeats calls of @p time each.
constexpr op_estimate communication_op(std::string_view name, duration time, byte_count data,
                                       long long repeats) {
  op_estimate op;
  op.name = name;
  op.time = time;
  op.dram = data;
  op.bound = bound::interconnect;
  op.kernels = 1;
  op.repeats = repeats;
  op.kind = op_kind::communication;
  return op;
}

// The communication of one pass (the prompt, one generated token, an encoder's forward) of
// @p tokens tokens through @p layers layers under run @p r on @p link, added to @p ops; a
// generated token of a layer split also pays @p launch_gap per kernel for the CUDA graphs the
// split costs its stack.
DLPERF_CONSTEXPR_VECTOR op_sequence
with_pass_communication(op_sequence ops, const software_stack& s, const run_config& r,
                        double tokens, double hidden, long long layers, const link_spec& link,
                        bool staged, bool library_staged, bool prompt, duration launch_gap) {
  if (r.pp > 1 && !prompt && launch_gap > duration{}) {
    op_estimate launches;
    launches.name = "launches without CUDA graphs";
    launches.time = launch_gap;
    launches.bound = bound::latency;
    launches.repeats = std::max(1LL, static_cast<long long>(kernels_of(ops)));
    ops.add(launches);
  }
  if (r.pp > 1) {
    const multi_gpu_kernels& k = s.multi_gpu;
    const double element =
        k.pipeline.activation_bytes > 0 ? k.pipeline.activation_bytes : activation_bytes(r.type);
    const byte_count data = bytes(tokens * hidden * element);
    ops.add(communication_op("layer hand-off", layer_handoff(data, link, staged), data, r.pp - 1));
    if (prompt) ops = scaled(ops, k.pipeline.prompt_fraction(tokens, r.pp));
  }
  if (r.tp > 1) {
    const byte_count data = bytes(tokens * hidden * activation_bytes(r.type));
    const tp_all_reduce a = tensor_parallel_all_reduce(s, data, r.tp, link, staged, library_staged);
    ops.add(communication_op(a.custom ? "tp all-reduce (engine's own)" : "tp all-reduce (NCCL)",
                             a.time, data, 2 * layers));
  }
  return ops;
}

}  // namespace detail

/// Estimate @p e of inference run @p r of @p m under stack @p s (one GPU's share: estimate_model
/// or apply_stack) with the communication of r's split over its GPUs on @p link, between GPUs of
/// segment @p seg made by @p maker (whose collective library may go through host memory:
/// nccl_through_host; see the file comment); @p e itself for a training run, one GPU per model copy
/// or a CNN. The phases gain operators of kind `communication`, a layer split's generated token
/// @p launch_gap per kernel where the split costs the stack its CUDA graphs
/// (layer_pipeline::graphs_lost; stacked.hpp, launch_gap_without_graphs), and the times are
/// summed again.
DLPERF_CONSTEXPR_VECTOR model_estimate with_communication(model_estimate e, const model_spec& m,
                                                          const run_config& r,
                                                          const software_stack& s,
                                                          const link_spec& link, segment seg,
                                                          vendor maker, duration launch_gap = {}) {
  if (r.training() || r.model_parallel() == 1 || m.kind != model_kind::transformer) return e;
  const transformer_config& t = m.transformer;
  const detail::transformer_shapes sh = detail::transformer_shapes::of(t, r);
  const bool staged = staged_through_host(seg, link);
  const bool library = nccl_through_host(maker, link);
  if (t.generates()) {
    e.prefill = detail::with_pass_communication(e.prefill, s, r, sh.tokens, sh.h, t.layers, link,
                                                staged, library, true, launch_gap);
    const long long decoding =
        t.kind == transformer_kind::encoder_decoder ? t.decoder_layers : t.layers;
    if (e.decode.size() > 0)
      e.decode =
          detail::with_pass_communication(e.decode, s, r, static_cast<double>(sh.batch), sh.h,
                                          decoding, link, staged, library, false, launch_gap);
  } else {
    e.forward = detail::with_pass_communication(e.forward, s, r, sh.tokens, sh.h, t.total_layers(),
                                                link, staged, library, true, launch_gap);
  }
  e.sum_phases();
  return e;
}

}  // namespace dlperf
