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

#include <dlperf/buying/context_ring.hpp>
#include <dlperf/buying/expert_collectives.hpp>
#include <dlperf/buying/sharded_collectives.hpp>
#include <dlperf/buying/step_collective.hpp>
#include <dlperf/buying/tensor_parallel_collectives.hpp>
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
  bool peer_to_peer = true;          ///< false: NCCL's traffic staged through host memory (PCIe)
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

namespace detail {

// The gradients' reduction over every GPU holding the same parameters (data parallel x cp):
// a sharded job's collectives (sharded_collectives), or whole gradients all-reduced bucket by
// bucket in the last micro-batch's backward (DDP, ZeRO 1; the earlier ones accumulate under
// no_sync), and under expert parallelism the experts' own.
template <class = void>
void add_gradient_reduction(cluster_part& p, const model_spec& m, const run_config& r,
                            const cluster_topology& net, const model_estimate& e, byte_count grad,
                            byte_count bucket, long long buckets) {
  const long long dp = r.data_parallel_with_cp();
  if (r.zero >= 2 && dp > 1) {
    p.collectives = sharded_collectives(m, r, e, net);
  } else {
    // Each bucket is one NCCL all-reduce of its own size, so a 25 MiB bucket runs at the bus
    // bandwidth NCCL reaches at 25 MiB, not at the whole gradient's (stack/nccl.hpp).
    const byte_count last = grad - static_cast<double>(buckets - 1) * bucket;
    const nccl_collective each = net.run(collective::all_reduce, bucket, dp);
    p.last = net.time(collective::all_reduce, last, dp);
    const duration before_last = static_cast<double>(buckets - 1) * each.time;
    p.allreduce = before_last + p.last;
    const byte_count first = std::min(bucket, grad);
    p.overlappable = p.backward * (1.0 - (first / grad).value());
    // Every bucket but the last runs beside the backward pass and takes its SMs from it
    // (overlap_of); the last runs after it.
    p.taken = p.backward_sm * net.held(each) * before_last;
    const duration waited = std::max(p.allreduce - p.overlappable, p.last);
    p.exposed = std::max(waited, p.last + p.taken);
    if (dp == 1) p.exposed = seconds(0);
    if (dp > 1)
      p.collectives.push_back({"gradient all-reduce", collective::all_reduce, bucket, buckets,
                               p.allreduce, p.exposed, false, false, each.channels,
                               p.exposed - waited, true});
    if (r.ep > 1) add_expert_gradients(p, m, r, net, bucket);
  }
}

// A pipeline's hand-offs: each micro-batch crosses every stage boundary of each of the v chunks
// twice, its activations forward and their gradients back, @p micro_batch the time of one
// micro-batch through the stage.
template <class = void>
void add_pipeline_handoffs(cluster_part& p, const model_spec& m, const run_config& r,
                           const cluster_topology& net, duration micro_batch) {
  const double k = static_cast<double>(r.grad_accumulation);
  // Megatron's stages are the outermost rank dimension, so neighbours are gpus / pp ranks apart:
  // across servers once a stage fills one.
  const byte_count data = pipeline_handoff_bytes(m, r);
  const bool across = r.gpus / r.pp >= net.per_node * r.tp;
  const duration each = across
                            ? nccl_time(collective::send_recv, data, 2, net.network).time
                            : nccl_time(collective::send_recv, data, 2, net.intra, net.staged).time;
  const double v = static_cast<double>(r.virtual_stages);
  const long long calls = static_cast<long long>(2.0 * v * k);
  const duration all = static_cast<double>(calls) * each;
  // The interleaved schedule overlaps its hand-offs with the next chunk's compute (Megatron's
  // overlap_p2p_comm, which it requires there); plain 1F1B waits for each.
  const duration chunk = micro_batch / (2.0 * v);
  const duration exposed =
      r.virtual_stages > 1 ? static_cast<double>(calls) * std::max(duration{}, each - chunk) : all;
  p.collectives.push_back({"pipeline hand-off (send/recv)", collective::send_recv, data, calls, all,
                           exposed, true, false});
}

// One GPU's share of training job @p r of @p m on devices like @p g over @p net (its gradients
// @p grad in @p buckets of @p bucket): its stage's step as the stack runs it, and every
// collective of the step with the part of it that is exposed.
template <class D>
cluster_part cluster_share(const D& g, const model_spec& m, const run_config& r,
                           const cluster_topology& job, byte_count grad, byte_count bucket,
                           long long buckets) {
  cluster_topology net = job;
  net.sms = g.facts().sms;  // what NCCL's channels take SMs from
  const model_estimate e = estimate_run(g, m, pipeline_stage_run(r));
  const double pp = static_cast<double>(r.pp);
  cluster_part p{};
  p.clock_fraction = e.clock_fraction;
  // One micro-batch through one stage: 1/pp of every layer (and of the embeddings and head,
  // which the first and last stages share out in time with the layers they hold).
  const duration micro_batch = (e.forward.time() + e.recompute.time() + e.backward.time()) / pp;
  p.bubble = (pp - 1.0) / static_cast<double>(r.virtual_stages) * micro_batch;
  p.compute = e.time / pp + p.bubble;
  p.backward = (e.backward.time() + e.recompute.time()) / pp;
  p.backward_sm = backward_sm_count_share(e);
  add_gradient_reduction(p, m, r, net, e, grad, bucket, buckets);
  if (r.tp > 1) add_tensor_parallel(p, m, r, net, e);
  if (r.cp > 1) add_context_ring(p.collectives, m, r, e, net);
  if (r.ep > 1) add_expert_all_to_all(p.collectives, m, r, net);
  if (r.pp > 1) add_pipeline_handoffs(p, m, r, net, micro_batch);
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
  // Every collective and hand-off of a training job is the collective library's: NCCL's goes
  // through host memory over PCIe whatever the cards (stack/nccl.hpp, nccl_through_host), and
  // any library's does between GeForce boards, which have no peer-to-peer.
  for (const D* g : gpus)
    if (nccl_through_host(g->arch().vendor, link) ||
        (link.link.kind == interconnect_kind::pcie && !pcie_peer_to_peer(g->facts().segment)))
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
