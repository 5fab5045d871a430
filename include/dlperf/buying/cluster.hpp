/// @file
/// Scaling a training job to several GPUs (docs/buying.md, Multi-GPU): the ring all-reduce of
/// the gradients over the slowest link, overlapped bucket by bucket with the backward pass as
/// PyTorch DistributedDataParallel does, the tensor-parallel all-reduces of the activations,
/// and the speed-up and efficiency over one GPU.
///
///     all-reduce(bytes, N) = 2 (N-1)/N x bytes / per-direction bandwidth + 2 (N-1) x latency
///     exposed             = max(all-reduce of all buckets - overlappable backward,
///                               all-reduce of the last bucket)
///     step(N)             = compute step on N GPUs + exposed + tensor-parallel all-reduces
///     speedup             = data-parallel replicas x step(1) / step(N);  efficiency = speedup / N
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/interconnect.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/parallel.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/model/transformer_shapes.hpp>

namespace dlperf {

/// PyTorch DistributedDataParallel's default gradient bucket: `bucket_cap_mb=25`, in MiB
/// (https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html).
/// Gradients are all-reduced bucket by bucket as the backward pass produces them.
inline constexpr byte_count ddp_bucket_bytes = mebibytes(25);

/// Communication volume of ZeRO stage 3 relative to an all-reduce: 1.5x (the parameters are
/// all-gathered in the forward and again in the backward pass, the gradients reduce-scattered);
/// stages 1 and 2 move what an all-reduce moves. Rajbhandari et al., ZeRO (2020),
/// arXiv:1910.02054, section 7.
inline constexpr double zero3_volume_factor = 1.5;

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

/// Time of a ring all-reduce of @p data over @p n GPUs on links of @p per_direction bytes per
/// second each way and @p latency per step: 2 (n-1)/n x data / bandwidth + 2 (n-1) x latency
/// (n-1 reduce-scatter and n-1 all-gather steps), the collective formula
/// (estimate/collective.hpp) with no base latency and the whole link. Zero for one GPU.
constexpr duration ring_allreduce_time(byte_count data, long long n, bandwidth per_direction,
                                       duration latency) {
  if (n < 1) detail::throw_invalid_argument("all-reduce: GPUs must be positive");
  return collective_time(collective::all_reduce, data, n, per_direction,
                         {seconds(0), latency, 1.0});
}

/// The multi-GPU estimate of a training job and what went into it.
struct cluster_estimate {
  long long gpus = 1;                ///< GPUs of the job
  long long data_parallel = 1;       ///< data-parallel replicas (gpus / tp)
  long long tp = 1;                  ///< tensor-parallel degree
  link_spec link;                    ///< the slowest link between the GPUs
  bool peer_to_peer = true;          ///< false: PCIe traffic staged through host memory (GeForce)
  bandwidth effective_bandwidth{};   ///< per direction, after staging through the host
  byte_count gradient_bytes{};       ///< gradients all-reduced per GPU and step
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
  duration step_time{};              ///< step on N GPUs: compute + exposed + tensor parallel
  double speedup = 1;                ///< data_parallel x single_gpu_step / step_time
  double efficiency = 1;             ///< speedup / gpus
};

namespace detail {

// One GPU's share of a job: its compute step, backward window and communication.
struct cluster_part {
  duration compute, backward, exposed, tensor_parallel, allreduce, last, overlappable;
  [[nodiscard]] constexpr duration step() const { return compute + exposed + tensor_parallel; }
};

// Bytes of one tensor-parallel activation all-reduce: batch x seq x hidden elements.
template <class = void>
byte_count tp_activation_bytes(const model_spec& m, const run_config& r) {
  const transformer_shapes s = transformer_shapes::of(m.transformer, r);
  return bytes(static_cast<double>(s.batch) * static_cast<double>(s.seq) *
               static_cast<double>(s.hidden) * activation_bytes(r.type));
}

template <class D>
cluster_part cluster_share(const D& g, const model_spec& m, const run_config& r,
                           const link_spec& link, bandwidth bw, byte_count grad, byte_count bucket,
                           long long buckets) {
  const model_estimate e = estimate_run(g, m, r);
  cluster_part p{};
  p.compute = e.time;
  p.backward = e.backward.time() + e.recompute.time();
  const long long dp = r.data_parallel();
  const double volume = r.zero == 3 ? zero3_volume_factor : 1.0;
  const byte_count last = grad - static_cast<double>(buckets - 1) * bucket;
  p.last = ring_allreduce_time(volume * last, dp, bw, link.latency);
  p.allreduce = static_cast<double>(buckets - 1) *
                    ring_allreduce_time(volume * bucket, dp, bw, link.latency) +
                p.last;
  const byte_count first = std::min(bucket, grad);
  p.overlappable = p.backward * (1.0 - (first / grad).value());
  p.exposed = std::max(p.allreduce - p.overlappable, p.last);
  if (dp == 1) p.exposed = seconds(0);
  if (r.tp > 1) {
    // Megatron-style: two all-reduces per layer forward (attention and MLP outputs), two
    // backward (their inputs' gradients), none overlapped.
    const double per_step = 4.0 * static_cast<double>(m.transformer.total_layers());
    p.tensor_parallel =
        per_step * ring_allreduce_time(tp_activation_bytes(m, r), r.tp, bw, link.latency);
  }
  return p;
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
  if (gpus.empty()) detail::throw_invalid_argument("cluster: gpus must be positive, got 0");
  if (!(bucket.value() > 0) || !detail::is_finite(bucket.value()))
    detail::throw_invalid_argument("cluster: bucket must be positive and finite");
  r.gpus = static_cast<long long>(gpus.size());
  r.validate();
  if (!r.training())
    detail::throw_invalid_argument("cluster: the multi-GPU model covers training steps only");
  if (r.tp > 1 && m.kind != model_kind::transformer)
    detail::throw_invalid_argument("cluster: tensor parallelism is for transformers only");

  cluster_estimate c;
  c.gpus = r.gpus;
  c.tp = r.tp;
  c.data_parallel = r.data_parallel();
  c.link = link;
  c.bucket = bucket;
  for (const D* g : gpus)
    if (link.link.kind == interconnect_kind::pcie && !pcie_peer_to_peer(g->facts().segment))
      c.peer_to_peer = false;
  c.effective_bandwidth = link.per_direction() / (c.peer_to_peer ? 1.0 : 2.0);
  c.gradient_bytes =
      bytes(m.parameters() / static_cast<double>(r.tp) * detail::training_weight_bytes(r.type));
  const double ratio = (c.gradient_bytes / bucket).value();
  c.buckets = std::max(1LL, static_cast<long long>(ratio));
  if (static_cast<double>(c.buckets) < ratio) ++c.buckets;

  run_config one = r;
  one.gpus = 1;
  one.tp = 1;
  one.zero = 0;
  bool first = true;
  for (auto it = gpus.begin(); it != gpus.end(); ++it) {
    const D* g = *it;
    if (std::find(gpus.begin(), it, g) != it) continue;  // each GPU type once
    const duration t1 = estimate_run(*g, m, one).time;
    const detail::cluster_part p = detail::cluster_share(*g, m, r, link, c.effective_bandwidth,
                                                         c.gradient_bytes, bucket, c.buckets);
    if (first || t1 < c.single_gpu_step) c.single_gpu_step = t1;
    if (first || p.step() > c.step_time) {
      c.step_time = p.step();
      c.compute_step = p.compute;
      c.backward = p.backward;
      c.allreduce = p.allreduce;
      c.last_bucket_allreduce = p.last;
      c.overlappable = p.overlappable;
      c.exposed_allreduce = p.exposed;
      c.tensor_parallel = p.tensor_parallel;
    }
    first = false;
  }
  c.speedup = static_cast<double>(c.data_parallel) * (c.single_gpu_step / c.step_time).value();
  c.efficiency = c.speedup / static_cast<double>(c.gpus);
  return c;
}

/// Estimate @p e of one GPU's share of training job @p c of model @p m (its step as the job's
/// stack runs it) with the job's communication as operators of kind `communication`
/// (model/parallel.hpp): the gradient all-reduce the backward pass cannot hide, in the backward
/// phase, and a tensor split's all-reduces, two a layer in the forward phase and two in the
/// backward; the times are summed again. `dlperf model --train --gpus N` prints it, so that its
/// step is the multi-GPU model's (docs/buying.md, Multi-GPU).
template <class = void>
model_estimate with_cluster_communication(model_estimate e, const model_spec& m,
                                          const cluster_estimate& c) {
  if (c.gpus <= 1) return e;
  if (c.data_parallel > 1)
    e.backward.add(detail::communication_op("gradient all-reduce (exposed)", c.exposed_allreduce,
                                            c.gradient_bytes, 1));
  if (c.tp > 1 && m.kind == model_kind::transformer) {
    const long long layers = m.transformer.total_layers();
    const duration each = c.tensor_parallel / (4.0 * static_cast<double>(layers));
    e.forward.add(detail::communication_op("tp all-reduce (NCCL)", each, byte_count{}, 2 * layers));
    e.backward.add(
        detail::communication_op("tp all-reduce (NCCL)", each, byte_count{}, 2 * layers));
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
