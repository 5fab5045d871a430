/// @file
/// Context parallelism's ring attention as the step runs it (docs/parallel.md, "Context
/// parallelism"): each layer's keys and values passed round the ring of cp GPUs beside the
/// attention of the block in hand.
#pragma once

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <dlperf/buying/step_collective.hpp>
#include <dlperf/model/step.hpp>

namespace dlperf::detail {

// Ring attention's traffic (context parallelism, docs/parallel.md): in every layer each GPU's
// keys and values pass round the ring of cp GPUs, cp - 1 send/recv steps in the forward pass
// (and again where the backward pass recomputes it), and in the backward pass the keys and
// values again with their gradients beside them, as Megatron's Transformer Engine runs its p2p
// ring (`cp_comm_type` p2p; PyTorch's `context_parallel` rotates by all-gather by default, which
// this prices as the ring). Each step's transfer runs while the GPU computes the attention of
// the block in hand (a 1/cp share of the layer's attention), so a step waits only for what that
// block does not hide. The ring's neighbours are tp ranks apart (the tensor split innermost):
// across servers once cp x tp exceeds a server.
template <class = void>
void add_context_ring(std::vector<step_collective>& out, const model_spec& m, const run_config& r,
                      const model_estimate& e, const cluster_topology& net) {
  const transformer_shapes s = transformer_shapes::of(m.transformer, pipeline_stage_run(r));
  const double cp = static_cast<double>(r.cp);
  const double layers = static_cast<double>(m.transformer.total_layers());
  const double stage_layers = std::ceil(layers / static_cast<double>(r.pp));
  // K and V of one GPU's seq / cp tokens, in the attention's 16-bit type (latent attention's
  // values are v_dim wide, its keys the full head dimension).
  const double v_width = s.mla ? static_cast<double>(s.kv_heads_per_gpu * s.v_dim) : s.kv;
  const byte_count chunk = bytes(static_cast<double>(s.batch) * static_cast<double>(s.seq) *
                                 (s.kv + v_width) * activation_bytes(r.type));
  const duration step =
      r.cp > net.per_node  // per_node: a server's GPUs over tp, the ring's stride
          ? nccl_time(collective::send_recv, chunk, 2, net.network).time
          : nccl_time(collective::send_recv, chunk, 2, net.intra, net.staged).time;
  // The fused attention's (context parallelism refuses unfused attention: transformer_shapes).
  const duration fwd_block = e.forward.time_of(op_kind::attention) / layers / cp;
  const duration bwd_block = e.backward.time_of(op_kind::attention) / layers / cp;
  const double layer_steps = static_cast<double>(r.grad_accumulation) * stage_layers * (cp - 1.0);
  const auto ring = [&](std::string_view name, double calls, bool forward) {
    out.push_back({name, collective::send_recv, chunk, static_cast<long long>(calls), calls * step,
                   calls * std::max(duration{}, step - fwd_block), true, forward});
  };
  ring("context-parallel ring (forward)", layer_steps, true);
  // The recomputed forward passes the ring again where it recomputes the attention; it runs in
  // the backward pass.
  const double again = recomputed_layer_share(r);
  if (again > 0) ring("context-parallel ring (recompute)", again * layer_steps, false);
  // Backward: the keys and values and their gradients, two transfers a step.
  out.push_back({"context-parallel ring (backward)", collective::send_recv, chunk,
                 static_cast<long long>(2.0 * layer_steps), 2.0 * layer_steps * step,
                 layer_steps * std::max(duration{}, 2.0 * step - bwd_block), true, false});
}

}  // namespace dlperf::detail
