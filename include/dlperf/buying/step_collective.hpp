/// @file
/// One GPU's share of a training step's collectives (docs/parallel.md): the record of each
/// collective and the part of it the step waits for, where the job's collectives run (inside a
/// server, across servers), and the sizes the tensor split and a pipeline move. buying/cluster.hpp
/// sums them into the multi-GPU estimate; the collectives of each kind of split are built in
/// their own headers (buying/sharded_collectives.hpp, buying/context_ring.hpp,
/// buying/expert_collectives.hpp, buying/tensor_parallel_collectives.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <dlperf/core/units.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/nccl.hpp>

namespace dlperf {

/// One kind of collective a training step runs, and how much of it the step waits for.
struct step_collective {
  std::string_view name;                     ///< what it moves, e.g. "parameter all-gather"
  collective kind = collective::all_reduce;  ///< which collective
  byte_count bytes{};                        ///< each GPU's buffer, per call
  long long calls = 0;                       ///< per optimizer step
  duration time{};                           ///< all calls of a step, one after another
  duration exposed{};                        ///< the part no computation hides
  bool per_micro_batch = true;  ///< runs with every micro-batch (else once an optimizer step)
  bool forward = false;         ///< in the forward pass (else the backward pass)
  /// SMs its kernels hold while it runs (NCCL's channels, nccl_collective::channels; 0 where no
  /// count is published or nothing is taken from the computation it overlaps).
  long long sms = 0;
  /// Of exposed, the computation it overlaps slowed by the SMs it holds
  /// (detail::overlap_of); the rest of exposed the step waits for it.
  duration slowed{};
  /// Priced with the SMs it holds (detail::overlap_of): a data-parallel collective beside the
  /// pass it overlaps. Where sms is 0 then, no count of NCCL's channels is published for its
  /// links and nothing was taken.
  bool sm_priced = false;
};

/// The run whose estimate (estimate_run) a pipeline's stages share: @p r with its stages folded
/// into one, every layer of the tensor split at the job's data-parallel degree (its optimizer
/// shards); each stage takes 1/pp of it (with_cluster_communication). @p r itself without a
/// pipeline.
constexpr run_config pipeline_stage_run(run_config r) {
  r.gpus /= r.pp;
  r.pp = 1;
  r.virtual_stages = 1;
  return r;
}

namespace detail {

// The buckets @p grad bytes of gradients fill at @p bucket bytes each: at least one, the last
// perhaps part-full.
constexpr long long buckets_of(byte_count grad, byte_count bucket) {
  const double ratio = (grad / bucket).value();
  long long n = std::max(1LL, static_cast<long long>(ratio));
  if (static_cast<double>(n) < ratio) ++n;
  return n;
}

// One GPU's share of a job: its compute step, backward window and communication.
struct cluster_part {
  duration compute, backward, exposed, tensor_parallel, allreduce, last, overlappable, bubble;
  // SM time the gradient all-reduces take from the backward pass they overlap (overlap_of).
  duration taken;
  // The share of the backward pass that runs slower on fewer SMs (backward_sm_count_share).
  double backward_sm = 0.0;
  double clock_fraction = 1.0;  // of the quoted tensor clock (model_estimate::clock_fraction)
  std::vector<step_collective> collectives;
  [[nodiscard]] constexpr duration step() const {
    duration t = compute;
    for (const step_collective& c : collectives) t += c.exposed;
    return t;
  }
};

// Where a job's collectives run: inside a server, across servers.
struct cluster_topology {
  link_spec intra;         // between the GPUs of a server
  link_spec network;       // each GPU's port to the other servers
  long long per_node = 8;  // GPUs of a server over tp: a data-parallel ring's GPUs in a server
  bool staged = false;     // intra-server traffic through host memory
  long long server = 8;    // GPUs of a server
  int sms = 0;             // SMs of the GPU whose share is priced (0: none are taken)

  // Collective @p c of @p data over @p n GPUs as NCCL runs it (stack/nccl.hpp), with the
  // channels it runs over.
  [[nodiscard]] constexpr nccl_collective run(collective c, byte_count data, long long n) const {
    return nccl_time(c, data, n, intra, staged, network, per_node);
  }
  // Its time alone.
  [[nodiscard]] constexpr duration time(collective c, byte_count data, long long n) const {
    return run(c, data, n).time;
  }
  // The share of the GPU's SMs that @p how's channels hold while it runs.
  [[nodiscard]] constexpr double held(const nccl_collective& how) const {
    if (sms <= 0 || how.time <= duration{}) return 0.0;
    return std::min(1.0, static_cast<double>(how.channels) / static_cast<double>(sms));
  }
};

// What collectives of @p comm, run beside @p compute of a pass's computation on the same GPU,
// add to it: NCCL's kernels hold SMs of their own while they run (nccl_collective::channels),
// so the computation they overlap runs on the rest. With @p lost the SM time they take from it
// (each collective's time x the share of the SMs it holds x the share of the computation that
// runs slower on fewer SMs, detail::sm_count_share), the computation done under the
// collectives is their time less what they took, and
//
//     added = max(comm - compute, lost)
//
// The first is waiting for the collectives (the computation ran out under them), the second
// the computation finishing late (the collectives ran out under it).
struct overlap_cost {
  duration wait{};    // the GPU idle until the collectives end
  duration slowed{};  // the computation late by the SMs they held
  [[nodiscard]] constexpr duration added() const { return wait + slowed; }
};
constexpr overlap_cost overlap_of(duration comm, duration compute, duration lost) {
  if (lost > comm - compute) return {duration{}, lost};
  return {comm - compute, duration{}};
}

// Bytes of one tensor-parallel activation all-reduce: batch x seq x hidden elements.
template <class = void>
byte_count tp_activation_bytes(const model_spec& m, const run_config& r) {
  const transformer_shapes s = transformer_shapes::of(m.transformer, r);
  return bytes(static_cast<double>(s.batch) * static_cast<double>(s.seq) *
               static_cast<double>(s.hidden) * activation_bytes(r.type));
}

// Bytes one pipeline stage hands the next per micro-batch: batch x seq x hidden activations,
// split over the tensor-parallel ranks (Megatron's sequence parallelism keeps them scattered
// along the sequence; without a tensor split the whole tensor).
template <class = void>
byte_count pipeline_handoff_bytes(const model_spec& m, const run_config& r) {
  return tp_activation_bytes(m, r) / static_cast<double>(r.tp);
}

// The share of a stage's layers whose forward pass the backward pass runs again, and with it
// their collectives (a context-parallel ring, an expert exchange): every layer under full
// checkpointing, every second under selective 'layers', none under selective 'ops' (it keeps the
// attention's output) or without checkpointing.
constexpr double recomputed_layer_share(const run_config& r) {
  if (r.checkpointing) return 1.0;
  return r.selective == selective_checkpointing::layers ? 0.5 : 0.0;
}

}  // namespace detail

}  // namespace dlperf
