/// @file
/// Scaling a training job to several GPUs (docs/buying.md, Multi-GPU): the all-reduce of the
/// gradients as NCCL runs it over the links inside and between servers, overlapped bucket by
/// bucket with the backward pass as PyTorch DistributedDataParallel does, the tensor-parallel
/// all-reduces of the activations, a pipeline's bubble and hand-offs, and the speed-up and
/// efficiency over one GPU.
///
///     all-reduce(bytes, N) = each bucket as NCCL runs it (stack/nccl.hpp, nccl_time: its
///                           protocol and bus bandwidth at the bucket's size, over the links
///                           inside and between servers); about 2 (N-1)/N x bytes / bus
///                           bandwidth + 2 (N-1) x step latency
///     exposed             = max(all-reduce of all buckets - overlappable backward,
///                               all-reduce of the last bucket)
///     pipeline compute    = (K + (p-1)/v) x (forward + backward of one micro-batch) / p
///                           + update / p        (1F1B over p stages, v chunks each, K micro-
///                                                batches; Narayanan et al. 2021)
///     step(N)             = compute step on N GPUs + exposed + tensor-parallel all-reduces
///                           + pipeline hand-offs
///     speedup             = data-parallel replicas x step(1) / step(N);  efficiency = speedup / N
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/interconnect.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/parallel.hpp>
#include <dlperf/model/parameter_share.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/nccl.hpp>

namespace dlperf {

/// PyTorch DistributedDataParallel's default gradient bucket: `bucket_cap_mb=25`, in MiB
/// (https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html).
/// Gradients are all-reduced bucket by bucket as the backward pass produces them.
inline constexpr byte_count ddp_bucket_bytes = mebibytes(25);

/// The guide's typical job, the default of `dlperf cluster`: ResNet-50 (ImageNet, 224 px)
/// training in FP16 with SGD and momentum, batch 64 per GPU: between the 32 per GPU of the
/// original multi-GPU recipes (He et al. 2016, arXiv:1512.03385: 256 over 8 GPUs; Goyal et al.
/// 2017, arXiv:1706.02677) and the 256 of NVIDIA's mixed-precision recipe (DeepLearningExamples
/// ResNet-50 v1.5), and about 4 GB, so it fits every card of the catalog. Dettmers' guide does
/// not name the job behind its multi-GPU figures; ResNet-50 is the standard data-parallel
/// benchmark of the era those figures come from. docs/buying.md (Multi-GPU) shows how the
/// results move with the batch and with BERT-large, which has 13 x the gradient bytes.
inline constexpr const model_spec& typical_cluster_model = presets::resnet50;
/// The run of the typical job (see typical_cluster_model).
inline constexpr run_config typical_cluster_run{
    .batch = 64, .type = dtype::fp16, .optimizer = optimizer_kind::sgd};

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
};

/// The multi-GPU estimate of a training job and what went into it.
struct cluster_estimate {
  long long gpus = 1;           ///< GPUs of the job
  long long data_parallel = 1;  ///< data-parallel replicas (gpus / (tp x pp x cp))
  long long tp = 1;             ///< tensor-parallel degree
  long long cp = 1;             ///< context-parallel degree (GPUs a sequence is split over)
  long long ep = 1;             ///< expert-parallel degree (GPUs the experts are spread over)
  expert_dispatch dispatch = expert_dispatch::per_expert;  ///< what goes to the experts' GPUs
  bool async_tp = false;             ///< the tensor split's collectives pipelined with their GEMMs
  long long shard_group = 1;         ///< GPUs ZeRO shards over (sharding_degree; 1: none)
  long long pp = 1;                  ///< pipeline stages
  long long virtual_stages = 1;      ///< model chunks per GPU (interleaved 1F1B)
  duration pipeline_bubble{};        ///< the stages' idle time while the pipeline fills and drains
  link_spec link;                    ///< the slowest link between the GPUs of a server
  link_spec network;                 ///< each GPU's port to the other servers
  long long gpus_per_node = 8;       ///< GPUs of one server
  long long nodes = 1;               ///< servers the job spans
  long long ring_in_server = 1;      ///< GPUs of a data-parallel ring in one server
  long long grad_accumulation = 1;   ///< micro-batches per optimizer step
  bool peer_to_peer = true;          ///< false: PCIe traffic staged through host memory (GeForce)
  bandwidth effective_bandwidth{};   ///< the ring's bus bandwidth, per direction, after
                                     ///< staging through the host (reported; each collective
                                     ///< is timed by nccl_time at its own size)
  byte_count gradient_bytes{};       ///< gradients all-reduced per GPU and step (under ep:
                                     ///< the dense parameters'; the experts' are reduced apart)
  byte_count bucket{};               ///< gradient bucket size
  long long buckets = 0;             ///< buckets per step
  duration single_gpu_step{};        ///< step of the fastest GPU alone (same batch)
  duration compute_step{};           ///< step on N GPUs without communication (the slowest GPU)
  duration backward{};               ///< backward (and recompute) time of the slowest GPU
  duration allreduce{};              ///< all-reduce of every bucket, one after the other
  duration last_bucket_allreduce{};  ///< all-reduce of the last bucket (cannot overlap)
  duration overlappable{};           ///< backward time after the first bucket is ready
  duration exposed_allreduce{};      ///< the all-reduce time not hidden behind backward
  duration tensor_parallel{};        ///< tensor-parallel all-reduces of activations (exposed)
  /// Every collective of the step (the gradient all-reduce, or a sharded job's all-gathers and
  /// reduce-scatters; the tensor split's all-reduces; a pipeline's hand-offs), with the part of
  /// each that is exposed.
  std::vector<step_collective> collectives;
  duration exposed_communication{};  ///< every collective's exposed part, summed
  duration step_time{};              ///< step on N GPUs: compute + exposed communication
  double speedup = 1;                ///< data_parallel x single_gpu_step / step_time
  double efficiency = 1;             ///< speedup / gpus
  /// The share of its quoted tensor clock the slowest GPU holds through the job
  /// (estimate/sustained_clock.hpp; 1 where no sustained clock is measured).
  double clock_fraction = 1;
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

  // Collective @p c of @p data over @p n GPUs as NCCL runs it (stack/nccl.hpp).
  [[nodiscard]] constexpr duration time(collective c, byte_count data, long long n) const {
    return nccl_time(c, data, n, intra, staged, network, per_node).time;
  }
};

// Parameters a sharded job gathers once for the whole model rather than unit by unit (FSDP's
// root unit: embeddings, positions, the final norm; the whole model for a CNN), per GPU of a
// tensor split.
template <class = void>
double root_parameters(const model_spec& m, const run_config& r) {
  const double root =
      m.kind == model_kind::transformer ? m.transformer.outer_parameters() : m.parameters();
  return root / static_cast<double>(r.tp);
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
  const duration ag = net.time(collective::all_gather, bytes(unit * w), dp);
  const duration rs = net.time(collective::reduce_scatter, bytes(unit * g), dp);
  const duration root_ag = net.time(collective::all_gather, bytes(root * w), dp);
  const duration root_rs = net.time(collective::reduce_scatter, bytes(root * g), dp);
  // Hybrid sharding: each shard's gradients all-reduced across the copies of its group, the
  // ring's GPUs a shard group apart (in other servers once a group fills one).
  duration ar{}, root_ar{};
  if (copies > 1) {
    const long long per_server = std::max(1LL, net.per_node / dp);
    const auto across = [&](double elements) {
      return nccl_time(collective::all_reduce, bytes(elements * g / static_cast<double>(dp)),
                       copies, net.intra, net.staged, net.network, per_server)
          .time;
    };
    ar = across(unit);
    root_ar = across(root);
  }
  const duration fwd = e.forward.time() / layers;
  const duration bwd = (e.backward.time() + e.recompute.time()) / layers;
  const auto hidden_behind = [](duration comm, duration compute) {
    return std::max(duration{}, comm - compute);
  };
  const long long calls = static_cast<long long>(units);
  std::vector<step_collective> out;
  const bool every_micro_batch = r.zero >= 3;
  const double gathers = every_micro_batch ? k : 1.0;
  step_collective gather{"parameter all-gather (forward)",
                         collective::all_gather,
                         bytes(unit * w),
                         static_cast<long long>(gathers) * (calls + 1),
                         gathers * (units * ag + root_ag),
                         gathers * (root_ag + ag + (units - 1.0) * hidden_behind(ag, fwd)),
                         every_micro_batch,
                         true};
  out.push_back(gather);
  // A unit's backward window carries its neighbour's gather, its reduce-scatter and, hybrid,
  // the all-reduce of its shard.
  const duration bwd_comm = (every_micro_batch ? ag + rs : rs) + ar;
  if (every_micro_batch)
    out.push_back({"parameter all-gather (backward)", collective::all_gather, bytes(unit * w),
                   static_cast<long long>(k) * calls, k * units * ag,
                   // The first unit of the backward pass waits for its gather; the others'
                   // gathers share the window with the reduce-scatters below.
                   k * ag, true, false});
  out.push_back({"gradient reduce-scatter", collective::reduce_scatter, bytes(unit * g),
                 static_cast<long long>(k) * (calls + 1), k * (units * rs + root_rs),
                 k * ((units - 1.0) * hidden_behind(bwd_comm, bwd) + rs + root_rs), true, false});
  if (copies > 1)  // the last unit's and the root's wait whole; the others' share the window
    out.push_back({"gradient all-reduce across shard groups", collective::all_reduce,
                   bytes(unit * g / static_cast<double>(dp)),
                   static_cast<long long>(k) * (calls + 1), k * (units * ar + root_ar),
                   k * (ar + root_ar), true, false});
  return out;
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
  const duration one = nccl_time(collective::all_reduce, each, copies, net.intra, net.staged,
                                 net.network, per_server)
                           .time;
  const duration all = buckets * one;
  const duration both = std::max(p.allreduce + all - p.overlappable, std::max(p.last, one));
  const duration exposed = std::max(duration{}, both - p.exposed);
  p.allreduce += all;
  p.exposed += exposed;
  p.collectives.push_back({"expert gradient all-reduce", collective::all_reduce, each,
                           static_cast<long long>(buckets), all, exposed, false, false});
}

// The GEMMs each half of a tensor-parallel all-reduce pipelines with under an asynchronous
// tensor split (run_config::async_tp), by operator name, in one pass: the sequence-parallel
// all-gather into the attention's input projection, the reduce-scatter out of its output
// projection, the all-gather into the FFN's first GEMM and the reduce-scatter out of its down
// projection; backward, the same collectives of the gradients with the dgrad GEMMs. A mixture of
// experts' layer reduces its experts' (and shared experts') outputs only without expert
// parallelism. Operators not named here (MLA's projections, cross-attention) pair with none.
struct tensor_overlap_pairs {
  using names = std::array<std::string_view, 2>;  // empty: none
  names attention_in, attention_out, ffn_in, ffn_out, expert_in, expert_out;
};
inline constexpr tensor_overlap_pairs forward_overlap_pairs{
    {"QKV projection", {}},
    {"output projection", {}},
    {"FFN gate+up", "FFN up"},
    {"FFN down", {}},
    {"expert FFN up", "shared expert gate+up"},
    {"expert FFN down", "shared expert down"}};
inline constexpr tensor_overlap_pairs backward_overlap_pairs{
    {"QKV dgrad", {}},
    {"output dgrad", {}},
    {"FFN gate+up dgrad", "FFN up dgrad"},
    {"FFN down dgrad", {}},
    {"expert up dgrad", "shared expert gate+up dgrad"},
    {"expert down dgrad", "shared expert down dgrad"}};

// The weight-gradient GEMMs of the column-parallel linears, beside which a stack whose backward
// overlaps its split by default (multi_gpu_kernels::tp_backward) reduce-scatters their input
// gradients.
inline constexpr tensor_overlap_pairs backward_wgrad_pairs{
    {"QKV wgrad", {}},
    {},
    {"FFN gate+up wgrad", "FFN up wgrad"},
    {},
    {"expert up wgrad", "shared expert gate+up wgrad"},
    {}};

// Time per run x runs of the operators of @p ops that @p names names.
constexpr duration named_time(const op_sequence& ops, const tensor_overlap_pairs::names& names) {
  duration t{};
  for (const op_estimate& op : ops)
    if (!op.name.empty() && (op.name == names[0] || op.name == names[1]))
      t += static_cast<double>(op.repeats) * op.time;
  return t;
}

// Time x runs of the FFN's GEMMs of @p n in @p ops (ffn_in or the like): a dense FFN's, and a
// mixture of experts' layer's experts' and shared experts' where their outputs are reduced over
// the tensor split (without expert parallelism).
constexpr duration ffn_gemm_time(const op_sequence& ops, const tensor_overlap_pairs::names& ffn,
                                 const tensor_overlap_pairs::names& experts, bool expert_parallel) {
  return named_time(ops, ffn) + (expert_parallel ? duration{} : named_time(ops, experts));
}

// What an asynchronous tensor split leaves exposed of one pass's tensor-parallel collectives, a
// micro-batch through one stage (docs/parallel.md, "Asynchronous tensor parallelism"). Each
// all-reduce of time @p each is an all-gather and a reduce-scatter of each / 2; each runs as tp
// chunks, one a GPU, pipelined with its GEMM cut the same way: chunk i's GEMM runs while chunk
// i + 1 moves (the GPU's own chunk needs no move), so a half of C beside a GEMM of G takes
// G / tp + (tp - 1) max(C / (tp - 1), G / tp), which leaves
//
//     exposed = max(0, C - G (tp - 1) / tp)
//
// beyond the GEMM. @p ops is the pass's operators over every layer of the stage run (1/pp of
// them a stage), @p layers and @p ffn_layers the stage's layers reducing their attention and
// their FFN; the pairs' GEMMs are summed over the stage, which equals the layer-by-layer sum
// where a stage's layers are alike.
template <class = void>
duration async_tp_exposed(const op_sequence& ops, const tensor_overlap_pairs& n, duration each,
                          double layers, double ffn_layers, double pp, long long tp,
                          bool expert_parallel) {
  const double cut = static_cast<double>(tp - 1) / static_cast<double>(tp);
  const auto left = [&](double count, duration gemm) {
    return std::max(duration{}, count * each / 2.0 - cut * gemm / pp);
  };
  return left(layers, named_time(ops, n.attention_in)) +
         left(layers, named_time(ops, n.attention_out)) +
         left(ffn_layers, ffn_gemm_time(ops, n.ffn_in, n.expert_in, expert_parallel)) +
         left(ffn_layers, ffn_gemm_time(ops, n.ffn_out, n.expert_out, expert_parallel));
}

// A backward pass's tensor-parallel collectives where the stack overlaps them by default
// (multi_gpu_kernels::tp_backward, Megatron's and Transformer Engine's linears under sequence
// parallelism), a micro-batch through one stage: the output gradients' all-gathers into the
// output projection's and the down projection's dgrad wait whole; each column-parallel linear
// (QKV, the FFN's first) gathers its sequence-split input again beside its dgrad GEMM (@p gather
// of time each), and reduce-scatters its input gradient (half an all-reduce of @p each) beside
// its wgrad GEMM, leaving max(0, C - G) of each. MLA's down projections are not split, so its
// attention (@p gathered_attention false) gathers nothing again. Returns what the all-reduces
// leave and what the gathers leave.
template <class = void>
std::pair<duration, duration> overlapped_backward(const op_sequence& ops, duration each,
                                                  duration gather, double layers, double ffn_layers,
                                                  double pp, bool expert_parallel,
                                                  bool gathered_attention) {
  const auto left = [&](double count, duration c, duration gemm) {
    return std::max(duration{}, count * c - gemm / pp);
  };
  const auto ffn = [&](const tensor_overlap_pairs& n) {
    return ffn_gemm_time(ops, n.ffn_in, n.expert_in, expert_parallel);
  };
  const duration half = each / 2.0;
  const duration reduced = (layers + ffn_layers) * half +
                           left(layers, half, named_time(ops, backward_wgrad_pairs.attention_in)) +
                           left(ffn_layers, half, ffn(backward_wgrad_pairs));
  const duration attention =
      gathered_attention
          ? left(layers, gather, named_time(ops, backward_overlap_pairs.attention_in))
          : duration{};
  return {reduced, attention + left(ffn_layers, gather, ffn(backward_overlap_pairs))};
}

template <class D>
cluster_part cluster_share(const D& g, const model_spec& m, const run_config& r,
                           const cluster_topology& net, byte_count grad, byte_count bucket,
                           long long buckets) {
  const model_estimate e = estimate_run(g, m, pipeline_stage_run(r));
  const double pp = static_cast<double>(r.pp);
  const double k = static_cast<double>(r.grad_accumulation);
  cluster_part p{};
  p.clock_fraction = e.clock_fraction;
  // One micro-batch through one stage: 1/pp of every layer (and of the embeddings and head,
  // which the first and last stages share out in time with the layers they hold).
  const duration micro_batch = (e.forward.time() + e.recompute.time() + e.backward.time()) / pp;
  p.bubble = (pp - 1.0) / static_cast<double>(r.virtual_stages) * micro_batch;
  p.compute = e.time / pp + p.bubble;
  p.backward = (e.backward.time() + e.recompute.time()) / pp;
  // The gradients are reduced over every GPU holding the same parameters: data parallel x cp.
  const long long dp = r.data_parallel_with_cp();
  if (r.zero >= 2 && dp > 1) {
    p.collectives = sharded_collectives(m, r, e, net);
  } else {
    // Data parallelism with whole gradients (DDP, ZeRO 1): the last micro-batch's backward
    // all-reduces them bucket by bucket (the earlier ones accumulate under no_sync).
    // Each bucket is one NCCL all-reduce of its own size, so a 25 MiB bucket runs at the bus
    // bandwidth NCCL reaches at 25 MiB, not at the whole gradient's (stack/nccl.hpp).
    const byte_count last = grad - static_cast<double>(buckets - 1) * bucket;
    p.last = net.time(collective::all_reduce, last, dp);
    p.allreduce =
        static_cast<double>(buckets - 1) * net.time(collective::all_reduce, bucket, dp) + p.last;
    const byte_count first = std::min(bucket, grad);
    p.overlappable = p.backward * (1.0 - (first / grad).value());
    p.exposed = std::max(p.allreduce - p.overlappable, p.last);
    if (dp == 1) p.exposed = seconds(0);
    if (dp > 1)
      p.collectives.push_back({"gradient all-reduce", collective::all_reduce, bucket, buckets,
                               p.allreduce, p.exposed, false, false});
    if (r.ep > 1) add_expert_gradients(p, m, r, net, bucket);
  }
  if (r.tp > 1) {
    // Megatron-style: two all-reduces per layer forward (attention and MLP outputs), two
    // backward (their inputs' gradients), two again in a recomputed forward, none overlapped
    // unless --async-tp; inside one server, as NCCL runs them
    // (its ring, or NVLS through a switch). Under expert parallelism a mixture of experts'
    // layer takes its tokens as the tensor split left them and reduces only its attention's.
    const double all = static_cast<double>(m.transformer.total_layers());
    const double whole_ffn = r.ep > 1 ? all - static_cast<double>(m.transformer.moe_layers()) : all;
    // A stage's layers reducing their attention's outputs, and those reducing their FFN's.
    const double layers = std::ceil(all / pp), ffn_layers = std::ceil(whole_ffn / pp);
    const auto per_pass = static_cast<long long>(layers + ffn_layers);
    const byte_count data = tp_activation_bytes(m, r);
    const duration each = nccl_time(collective::all_reduce, data, r.tp, net.intra, net.staged).time;
    const long long calls = per_pass * r.grad_accumulation;
    const duration pass = static_cast<double>(calls) * each;
    p.tensor_parallel = 2.0 * pass;
    // Under --async-tp, what the stack cuts (its forward's collectives, and its backward's where
    // it says so) leaves only what its GEMMs cannot cover.
    const auto exposed = [&](const op_sequence& ops, const tensor_overlap_pairs& names, bool cut) {
      return cut ? k * async_tp_exposed(ops, names, each, layers, ffn_layers, pp, r.tp, r.ep > 1)
                 : pass;
    };
    const multi_gpu_kernels& stack = stacks::of(r.stack).multi_gpu;
    const bool backward = r.async_tp && stack.async_tp.backward;
    p.collectives.push_back({"tp all-reduce (forward)", collective::all_reduce, data, calls, pass,
                             exposed(e.forward, forward_overlap_pairs, r.async_tp), true, true});
    if (!backward && stack.tp_backward.exists()) {
      // The stack's own backward overlap: the input gradients' reduce-scatters beside the wgrad
      // GEMMs, and the inputs gathered again beside the dgrad GEMMs (an entry of their own).
      const duration gather =
          nccl_time(collective::all_gather, data, r.tp, net.intra, net.staged).time;
      const bool gathered_attention = !m.transformer.mla();
      const auto [reduced, gathered] = overlapped_backward(
          e.backward, each, gather, layers, ffn_layers, pp, r.ep > 1, gathered_attention);
      p.collectives.push_back({"tp all-reduce (backward)", collective::all_reduce, data, calls,
                               pass, std::min(pass, k * reduced), true, false});
      const long long gathers =
          static_cast<long long>((gathered_attention ? layers : 0.0) + ffn_layers) *
          r.grad_accumulation;
      const duration all_gathers = static_cast<double>(gathers) * gather;
      p.tensor_parallel += all_gathers;
      p.collectives.push_back({"tp input all-gather (backward)", collective::all_gather, data,
                               gathers, all_gathers, std::min(all_gathers, k * gathered), true,
                               false});
    } else {
      p.collectives.push_back({"tp all-reduce (backward)", collective::all_reduce, data, calls,
                               pass, exposed(e.backward, backward_overlap_pairs, backward), true,
                               false});
    }
    // A recomputed forward runs its layers' collectives again, in the backward pass: under
    // --async-tp beside its own GEMMs where the stack cuts the backward's.
    const double again = recomputed_layer_share(r);
    if (again > 0) {
      const auto rerun = static_cast<long long>(std::ceil(again * static_cast<double>(per_pass)));
      const duration redo = static_cast<double>(rerun * r.grad_accumulation) * each;
      const duration left =
          backward ? k * async_tp_exposed(e.recompute, forward_overlap_pairs, each, again * layers,
                                          again * ffn_layers, pp, r.tp, r.ep > 1)
                   : redo;
      p.tensor_parallel += redo;
      p.collectives.push_back({"tp all-reduce (recompute)", collective::all_reduce, data,
                               rerun * r.grad_accumulation, redo, std::min(left, redo), true,
                               false});
    }
  }
  if (r.cp > 1) add_context_ring(p.collectives, m, r, e, net);
  if (r.ep > 1) add_expert_all_to_all(p.collectives, m, r, net);
  if (r.pp > 1) {
    // Each micro-batch crosses every stage boundary of each of the v chunks twice: its
    // activations forward, their gradients back. Megatron's stages are the outermost rank
    // dimension, so neighbours are gpus / pp ranks apart: across servers once a stage fills one.
    const byte_count data = pipeline_handoff_bytes(m, r);
    const bool across = r.gpus / r.pp >= net.per_node * r.tp;
    const duration each =
        across ? nccl_time(collective::send_recv, data, 2, net.network).time
               : nccl_time(collective::send_recv, data, 2, net.intra, net.staged).time;
    const double v = static_cast<double>(r.virtual_stages);
    const long long calls = static_cast<long long>(2.0 * v * k);
    const duration all = static_cast<double>(calls) * each;
    // The interleaved schedule overlaps its hand-offs with the next chunk's compute (Megatron's
    // overlap_p2p_comm, which it requires there); plain 1F1B waits for each.
    const duration chunk = micro_batch / (2.0 * v);
    const duration exposed = r.virtual_stages > 1
                                 ? static_cast<double>(calls) * std::max(duration{}, each - chunk)
                                 : all;
    p.collectives.push_back({"pipeline hand-off (send/recv)", collective::send_recv, data, calls,
                             all, exposed, true, false});
  }
  return p;
}

// The checks of estimate_cluster_on: @p n GPUs, a bucket, a training run whose split @p m takes
// (r.gpus set to @p n).
inline void check_cluster_job(std::size_t n, byte_count bucket, run_config& r,
                              const model_spec& m) {
  if (n == 0) throw_invalid_argument("cluster: gpus must be positive, got 0");
  if (!(bucket.value() > 0) || !is_finite(bucket.value()))
    throw_invalid_argument("cluster: bucket must be positive and finite");
  r.gpus = static_cast<long long>(n);
  r.validate();
  if (!r.training())
    throw_invalid_argument("cluster: the multi-GPU model covers training steps only");
  if (r.tp > 1 && m.kind != model_kind::transformer)
    throw_invalid_argument("cluster: tensor parallelism is for transformers only");
  validate_model_run(m, r);
}

// @p r on one GPU alone: the run a job's speed-up is measured against.
inline run_config one_gpu_run(run_config r) {
  r.gpus = 1;
  r.tp = 1;
  r.pp = 1;
  r.cp = 1;
  r.ep = 1;
  r.dispatch = expert_dispatch::per_expert;
  r.async_tp = false;
  r.shard_group = 0;
  r.virtual_stages = 1;
  r.zero = 0;
  r.gpus_per_node = 1;
  return r;
}

// @p c's step and its parts as GPU share @p p gives them (the job runs at its slowest GPU's).
inline void take_share(cluster_estimate& c, const cluster_part& p) {
  c.step_time = p.step();
  c.compute_step = p.compute;
  c.backward = p.backward;
  c.allreduce = p.allreduce;
  c.last_bucket_allreduce = p.last;
  c.overlappable = p.overlappable;
  c.exposed_allreduce = p.exposed;
  c.tensor_parallel = p.tensor_parallel;
  c.pipeline_bubble = p.bubble;
  c.clock_fraction = p.clock_fraction;
  c.collectives = p.collectives;
}

}  // namespace detail

/// A training job of @p m under @p r on the GPUs @p gpus (one per entry; `r.gpus` is taken
/// from their count), all connected through @p link (the slowest link of the ring), with
/// gradient buckets of @p bucket. Mixed GPU types run at the slowest GPU's step; the speed-up
/// is over the fastest GPU alone with the same per-replica batch. Throws invalid_argument for
/// no GPUs, inference, tensor parallelism of a CNN or a bucket that is not positive.
/// Devices of any type D with a board's facts (a gpu_spec, a measured_device from a device
/// file) go through estimate_cluster_on; estimate_cluster is its catalog-GPU spelling.
template <class D>
cluster_estimate estimate_cluster_on(std::span<const D* const> gpus, const model_spec& m,
                                     run_config r, const link_spec& link,
                                     byte_count bucket = ddp_bucket_bytes) {
  detail::check_cluster_job(gpus.size(), bucket, r, m);

  cluster_estimate c;
  c.gpus = r.gpus;
  c.tp = r.tp;
  c.cp = r.cp;
  c.ep = r.ep;
  c.dispatch = r.dispatch;
  c.async_tp = r.async_tp;
  c.shard_group = r.zero >= 1 ? r.sharding_degree() : 1;
  c.pp = r.pp;
  c.virtual_stages = r.virtual_stages;
  c.data_parallel = r.data_parallel();
  c.link = link;
  c.network = r.network != nullptr ? *r.network : default_network(*gpus.front());
  c.gpus_per_node = std::min(r.gpus_per_node, r.gpus);
  c.nodes = (r.gpus + c.gpus_per_node - 1) / c.gpus_per_node;
  c.grad_accumulation = r.grad_accumulation;
  c.bucket = bucket;
  for (const D* g : gpus)
    if (link.link.kind == interconnect_kind::pcie && !pcie_peer_to_peer(g->facts().segment))
      c.peer_to_peer = false;
  // Data-parallel rings of a job across servers: each server's ports carry the boundary
  // traffic, and a step waits on the network's latency (stack/nccl.hpp, nccl_time).
  // A tensor split keeps each model copy inside a server: its tp data-parallel rings run side
  // by side, each over gpus_per_node / tp GPUs (and ports) of every server.
  const long long ring_per_node = std::max(1LL, c.gpus_per_node / r.tp);
  const long long gradient_ring = r.data_parallel_with_cp();
  c.ring_in_server = std::min(gradient_ring, ring_per_node);  // collective_rate's count
  const detail::cluster_topology net{link, c.network, ring_per_node, !c.peer_to_peer,
                                     c.gpus_per_node};
  c.effective_bandwidth = ring_bandwidth(collective::all_reduce, link, net.staged, c.network,
                                         gradient_ring, ring_per_node);
  c.gradient_bytes = bytes(parameters_per_gpu(m, r).dense / static_cast<double>(r.pp) *
                           detail::training_weight_bytes(r.type));
  c.buckets = detail::buckets_of(c.gradient_bytes, bucket);

  const run_config one = detail::one_gpu_run(r);
  bool first = true;
  for (auto it = gpus.begin(); it != gpus.end(); ++it) {
    const D* g = *it;
    if (std::find(gpus.begin(), it, g) != it) continue;  // each GPU type once
    const duration t1 = estimate_run(*g, m, one).time;
    const detail::cluster_part p =
        detail::cluster_share(*g, m, r, net, c.gradient_bytes, bucket, c.buckets);
    if (first || t1 < c.single_gpu_step) c.single_gpu_step = t1;
    if (first || p.step() > c.step_time) detail::take_share(c, p);
    first = false;
  }
  c.exposed_communication = c.step_time - c.compute_step;
  c.speedup = static_cast<double>(c.data_parallel) * (c.single_gpu_step / c.step_time).value();
  c.efficiency = c.speedup / static_cast<double>(c.gpus);
  return c;
}

/// Estimate @p e of one GPU's share of training job @p c (its step as the job's
/// stack runs it, every layer of its tensor split: estimate_run of pipeline_stage_run) with the
/// job's communication as operators of kind `communication` (model/parallel.hpp): each
/// collective's exposed part, in the phase it runs in (a collective of once a step in the
/// update when micro-batches accumulate), and a pipeline's share: 1/pp of every operator and
/// its bubble; the times are summed again. `dlperf model --train --gpus N` prints it, so that
/// its step is the multi-GPU model's (docs/parallel.md).
template <class = void>
model_estimate with_cluster_communication(model_estimate e, const cluster_estimate& c) {
  if (c.gpus <= 1) return e;
  if (c.pp > 1) {
    // One stage's operators: 1/pp of each layer's runs, time, arithmetic and traffic, and 1/pp
    // of the model's work (a stage's model FLOPs utilisation counts its own layers).
    const double share = 1.0 / static_cast<double>(c.pp);
    for (op_sequence* phase : {&e.forward, &e.recompute, &e.backward, &e.optimizer}) {
      op_sequence stage;
      for (op_estimate op : *phase) {
        const long long runs = std::max(1LL, (op.repeats + c.pp - 1) / c.pp);
        const double per_run = share * static_cast<double>(op.repeats) / static_cast<double>(runs);
        op.time = per_run * op.time;
        op.work = per_run * op.work;
        op.dram = per_run * op.dram;
        op.repeats = runs;
        stage.add(op);
      }
      *phase = stage;
    }
    e.model_work = share * e.model_work;
    op_estimate bubble;
    bubble.name = "pipeline bubble (1F1B)";
    bubble.time = c.pipeline_bubble;
    bubble.bound = bound::latency;
    bubble.kind = op_kind::other;
    bubble.repeats = 1;
    e.optimizer.add(bubble);
  }
  const double k = static_cast<double>(e.micro_batches);
  for (const step_collective& x : c.collectives) {
    if (!(x.exposed > duration{})) continue;
    // The forward and backward phases hold one micro-batch; a collective of once a step joins
    // the update, which runs once.
    op_sequence& phase = !x.per_micro_batch && k > 1 ? e.optimizer
                         : x.forward                 ? e.forward
                                                     : e.backward;
    const duration each = x.per_micro_batch ? x.exposed / k : x.exposed;
    phase.add(detail::communication_op(x.name, each, x.bytes, 1));
  }
  e.sum_phases();
  return e;
}

/// A training job of @p m on the catalog GPUs @p gpus (estimate_cluster_on).
template <class = void>
cluster_estimate estimate_cluster(std::span<const gpu_spec* const> gpus, const model_spec& m,
                                  const run_config& r, const link_spec& link,
                                  byte_count bucket = ddp_bucket_bytes) {
  return estimate_cluster_on<gpu_spec>(gpus, m, r, link, bucket);
}

/// @p n devices of one type @p g (see estimate_cluster_on). Throws invalid_argument for
/// @p n < 1.
template <class D>
cluster_estimate estimate_cluster_on(const D& g, long long n, const model_spec& m,
                                     const run_config& r, const link_spec& link,
                                     byte_count bucket = ddp_bucket_bytes) {
  if (n < 1 || n > (1LL << 20))
    detail::throw_invalid_argument("cluster: gpus must be 1 to 2^20, got " + std::to_string(n));
  check_gpus_per_machine(g, n);
  const std::vector<const D*> list(static_cast<std::size_t>(n), &g);
  return estimate_cluster_on<D>(std::span<const D* const>(list), m, r, link, bucket);
}

/// @p n GPUs of one type @p g (see the overload over a list of GPUs). Throws invalid_argument
/// for @p n < 1.
template <class = void>
cluster_estimate estimate_cluster(const gpu_spec& g, long long n, const model_spec& m,
                                  const run_config& r, const link_spec& link,
                                  byte_count bucket = ddp_bucket_bytes) {
  return estimate_cluster_on<gpu_spec>(g, n, m, r, link, bucket);
}

}  // namespace dlperf
