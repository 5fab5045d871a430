/// @file
/// A sharded data-parallel job's collectives (ZeRO 2 and 3, PyTorch FSDP; docs/parallel.md,
/// "Sharded data parallelism"): the per-unit all-gathers and reduce-scatters, their prefetch, and
/// the all-reduce across shard groups of hybrid sharding.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <dlperf/buying/step_collective.hpp>
#include <dlperf/model/parameter_share.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/step.hpp>

namespace dlperf::detail {

// Parameters a sharded job gathers once for the whole model rather than unit by unit (FSDP's
// root unit: embeddings, positions, the final norm; the whole model for a CNN), per GPU of a
// tensor split.
template <class = void>
double root_parameters(const model_spec& m, const run_config& r) {
  const double root =
      m.kind == model_kind::transformer ? m.transformer.outer_parameters() : m.parameters();
  return root / static_cast<double>(r.tp);
}

// Hybrid sharding: a shard of @p gradient_bytes / @p dp all-reduced across the @p copies of its
// shard group, the ring's GPUs a shard group apart (in other servers once a group fills one);
// nothing when there is one copy.
inline nccl_collective across_shard_groups(double gradient_bytes, long long dp, long long copies,
                                           const cluster_topology& net) {
  if (copies <= 1) return {};
  const long long per_server = std::max(1LL, net.per_node / dp);
  return nccl_time(collective::all_reduce, bytes(gradient_bytes / static_cast<double>(dp)), copies,
                   net.intra, net.staged, net.network, per_server);
}

// A sharded job's collectives (ZeRO 2 and 3; PyTorch FSDP's SHARD_GRAD_OP and FULL_SHARD), one
// unit per layer as FSDP wraps a transformer's blocks, the rest of the model the root unit
// (docs/parallel.md, "Sharded data parallelism"):
//
//   ZeRO 3, each micro-batch:  all-gather each unit's parameters before its forward and again
//                              before its backward, reduce-scatter its gradients after it
//   ZeRO 2:                    all-gather once a step (after the update), reduce-scatter each
//                              micro-batch
//
// The next unit's collective is issued while this unit computes (FSDP's forward and
// BACKWARD_PRE prefetch, DeepSpeed's prefetch bucket), so a layer waits only for what its
// neighbour's compute could not hide; the first all-gather and the last reduce-scatter of each
// pass wait whole.
template <class = void>
std::vector<step_collective> sharded_collectives(const model_spec& m, const run_config& r,
                                                 const model_estimate& e,
                                                 const cluster_topology& net) {
  // FSDP shards over the cp GPUs too, or over a shard group of them (hybrid sharding).
  const long long dp = r.sharding_degree();
  const long long copies = r.data_parallel_with_cp() / dp;
  const double layers =
      m.kind == model_kind::transformer ? static_cast<double>(m.transformer.total_layers()) : 1.0;
  const double root = root_parameters(m, r);
  const double unit = (m.parameters() / static_cast<double>(r.tp) - root) / layers;
  // A pipeline stage shards its own layers (and, on the first and last stages, the root unit);
  // @p e holds every layer of the tensor split, each layer's time the same on any stage.
  const double units = std::ceil(layers / static_cast<double>(r.pp));
  const double w = training_weight_bytes(r.type);
  const double g = r.fp32_gradient_reduce ? 4.0 : w;
  const double k = static_cast<double>(r.grad_accumulation);
  const nccl_collective ag_run = net.run(collective::all_gather, bytes(unit * w), dp);
  const nccl_collective rs_run = net.run(collective::reduce_scatter, bytes(unit * g), dp);
  const duration ag = ag_run.time;
  const duration rs = rs_run.time;
  const duration root_ag = net.time(collective::all_gather, bytes(root * w), dp);
  const duration root_rs = net.time(collective::reduce_scatter, bytes(root * g), dp);
  const nccl_collective ar_run = across_shard_groups(unit * g, dp, copies, net);
  const duration root_ar = across_shard_groups(root * g, dp, copies, net).time;
  const duration ar = ar_run.time;
  const duration fwd = e.forward.time() / layers;
  const duration bwd = (e.backward.time() + e.recompute.time()) / layers;
  // A unit's collectives run beside its neighbour's pass and take SMs from it (overlap_of).
  const double fwd_sm = sm_count_share(e.forward);
  const double bwd_sm = backward_sm_count_share(e);
  const auto lost = [&](const nccl_collective& c) { return net.held(c) * c.time; };
  const long long calls = static_cast<long long>(units);
  std::vector<step_collective> out;
  const bool every_micro_batch = r.zero >= 3;
  const double gathers = every_micro_batch ? k : 1.0;
  const overlap_cost fwd_unit = overlap_of(ag, fwd, fwd_sm * lost(ag_run));
  step_collective gather{"parameter all-gather (forward)",
                         collective::all_gather,
                         bytes(unit * w),
                         static_cast<long long>(gathers) * (calls + 1),
                         gathers * (units * ag + root_ag),
                         gathers * (root_ag + ag + (units - 1.0) * fwd_unit.added()),
                         every_micro_batch,
                         true,
                         ag_run.channels,
                         gathers * (units - 1.0) * fwd_unit.slowed,
                         true};
  out.push_back(gather);
  // A unit's backward window carries its neighbour's gather, its reduce-scatter and, hybrid,
  // the all-reduce of its shard.
  const duration bwd_comm = (every_micro_batch ? ag + rs : rs) + ar;
  const duration bwd_lost =
      bwd_sm * ((every_micro_batch ? lost(ag_run) : duration{}) + lost(rs_run) + lost(ar_run));
  const overlap_cost bwd_unit = overlap_of(bwd_comm, bwd, bwd_lost);
  if (every_micro_batch)
    out.push_back({"parameter all-gather (backward)", collective::all_gather, bytes(unit * w),
                   static_cast<long long>(k) * calls, k * units * ag,
                   // The first unit of the backward pass waits for its gather; the others'
                   // gathers share the window with the reduce-scatters below, which carries
                   // what their SMs cost it.
                   k * ag, true, false, ag_run.channels, duration{}, true});
  // The window's cost is the reduce-scatter's: it runs in every backward window.
  out.push_back({"gradient reduce-scatter", collective::reduce_scatter, bytes(unit * g),
                 static_cast<long long>(k) * (calls + 1), k * (units * rs + root_rs),
                 k * ((units - 1.0) * bwd_unit.added() + rs + root_rs), true, false,
                 rs_run.channels, k * (units - 1.0) * bwd_unit.slowed, true});
  if (copies > 1)  // the last unit's and the root's wait whole; the others' share the window
    out.push_back({"gradient all-reduce across shard groups", collective::all_reduce,
                   bytes(unit * g / static_cast<double>(dp)),
                   static_cast<long long>(k) * (calls + 1), k * (units * ar + root_ar),
                   k * (ar + root_ar), true, false, ar_run.channels, duration{}, true});
  return out;
}

}  // namespace dlperf::detail
