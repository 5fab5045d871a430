/// @file
/// Expert parallelism's collectives (docs/parallel.md, "Training a mixture of experts"): the
/// token exchange of every mixture-of-experts layer as the dispatcher sends it (per expert or per
/// GPU), and the routed experts' gradients reduced over the GPUs holding the same experts.
#pragma once

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <dlperf/buying/step_collective.hpp>
#include <dlperf/model/parameter_share.hpp>

namespace dlperf::detail {

// The chance that a token's @p k experts, @p k distinct of @p experts chosen alike (balanced
// routing), include one of a group of @p group: 1 - C(experts - group, k) / C(experts, k).
constexpr double routed_to_group(double experts, double group, double k) {
  double none = 1.0;
  for (long long i = 0; static_cast<double>(i) < k; ++i) {
    const double picked = static_cast<double>(i);
    none *= std::max(0.0, (experts - group - picked) / (experts - picked));
  }
  return 1.0 - none;
}

// One expert exchange of a GPU's tokens over the ep GPUs (consecutive ranks: g of them a server,
// ep / g servers), as @p r's dispatch sends them, @p copies the bytes of their k copies (each
// token h wide in the activations' type):
//
//   per expert:  k copies a token, (ep - g) / ep of them to other servers, (g - 1) / ep within
//   per GPU:     across, one copy to each other server holding any of its experts; within, one
//                to each other GPU of its server holding any, and each copy a server receives
//                passed on to the rest of that server's GPUs holding any (DeepEP's and HybridEP's
//                NVLink forwarding)
template <class = void>
nccl_collective expert_exchange(const transformer_shapes& s, const run_config& r,
                                const cluster_topology& net, byte_count copies) {
  const double k = s.experts_per_token, ep = static_cast<double>(r.ep);
  const double g = static_cast<double>(std::min(r.ep, net.server));
  const double servers = ep / g;
  if (r.dispatch == expert_dispatch::per_expert)
    return nccl_time(collective::all_to_all, copies, r.ep, net.intra, net.staged, net.network,
                     net.server);
  const byte_count once = copies / k;  // each of the GPU's own tokens once
  const double gpu_hit = routed_to_group(s.experts, s.experts / ep, k);
  const double server_hit = routed_to_group(s.experts, s.experts * g / ep, k);
  const double across = (servers - 1.0) * server_hit;
  const double within = (g - 1.0) * gpu_hit + (servers - 1.0) * (g * gpu_hit - server_hit);
  // The server's GPUs exchange within / (g - 1) tokens each way among themselves: an all-to-all
  // of g times that a GPU.
  const double buffer = g > 1.0 ? within * g / (g - 1.0) : 0.0;
  return nccl_exchange(across * once, buffer * once, static_cast<long long>(g), net.intra,
                       net.staged, net.network);
}

// Expert parallelism's token exchange (docs/parallel.md, "Expert parallelism"): in every mixture
// of experts' layer each GPU sends its tokens to the GPUs of their experts (dispatch) and takes
// the experts' outputs back (combine), two exchanges each way in the forward pass, two in the
// backward (the gradients of both), and again where the backward pass recomputes the layer,
// each as expert_exchange prices it. The ep GPUs are consecutive ranks (the expert split
// innermost, its tensor split 1), so they share a server up to its size and span servers
// beyond it. The dispatchers wait for each exchange: none is hidden.
template <class = void>
void add_expert_all_to_all(std::vector<step_collective>& out, const model_spec& m,
                           const run_config& r, const cluster_topology& net) {
  const transformer_shapes s = transformer_shapes::of(m.transformer, pipeline_stage_run(r));
  const double stage_layers =
      std::ceil(static_cast<double>(m.transformer.moe_layers()) / static_cast<double>(r.pp));
  // Each entry's bytes: a GPU's tokens' k copies, the buffer the dispatcher permutes.
  const byte_count data =
      bytes(s.tokens * s.routed_share * s.experts_per_token * s.h * activation_bytes(r.type));
  const duration each = expert_exchange(s, r, net, data).time;
  const double k = static_cast<double>(r.grad_accumulation);
  const auto exchange = [&](std::string_view name, double calls, bool forward) {
    out.push_back({name, collective::all_to_all, data, static_cast<long long>(calls), calls * each,
                   calls * each, true, forward});
  };
  exchange("expert all-to-all (forward)", 2.0 * k * stage_layers, true);
  const double again = recomputed_layer_share(r);
  if (again > 0) exchange("expert all-to-all (recompute)", 2.0 * again * k * stage_layers, false);
  exchange("expert all-to-all (backward)", 2.0 * k * stage_layers, false);
}

// The routed experts' gradients under expert parallelism: each GPU's experts all-reduced over the
// expert_data_parallel() GPUs holding the same ones, ep ranks apart (in other servers once the
// expert split fills one), bucket by bucket in the same backward window as the dense gradients
// (Megatron reduces both groups' buckets as they fill): the two share the window, so the experts'
// exposed part is what the pair leaves exposed beyond the dense gradients alone.
template <class = void>
void add_expert_gradients(cluster_part& p, const model_spec& m, const run_config& r,
                          const cluster_topology& net, byte_count bucket) {
  const long long copies = r.expert_data_parallel();
  if (copies <= 1) return;
  const byte_count grad = bytes(parameters_per_gpu(m, r).experts / static_cast<double>(r.pp) *
                                training_weight_bytes(r.type));
  const double buckets = static_cast<double>(buckets_of(grad, bucket));
  const byte_count each = grad / buckets;
  const long long per_server = std::max(1LL, net.server / r.ep);
  const nccl_collective run = nccl_time(collective::all_reduce, each, copies, net.intra, net.staged,
                                        net.network, per_server);
  const duration one = run.time;
  const duration all = buckets * one;
  // Its buckets take SMs from the same backward pass (overlap_of), beside the dense ones'.
  const duration taken = p.backward_sm * net.held(run) * all;
  const duration waited = std::max(p.allreduce + all - p.overlappable, std::max(p.last, one));
  const duration both = std::max(waited, std::max(p.last, one) + p.taken + taken);
  const duration exposed = std::max(duration{}, both - p.exposed);
  // At most exposed: max(waited, p.exposed) is at least p.exposed.
  const duration slowed = std::max(duration{}, both - std::max(waited, p.exposed));
  p.allreduce += all;
  p.exposed += exposed;
  p.taken += taken;
  p.collectives.push_back({"expert gradient all-reduce", collective::all_reduce, each,
                           static_cast<long long>(buckets), all, exposed, false, false,
                           run.channels, slowed, true});
}

}  // namespace dlperf::detail
