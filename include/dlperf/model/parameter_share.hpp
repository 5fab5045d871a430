/// @file
/// The parameters one GPU of a job holds, before and after ZeRO shards them: a tensor split's
/// share of every layer, or under expert parallelism the dense parameters' tensor-split share
/// beside the routed experts' expert-parallel share (docs/parallel.md, "Expert parallelism").
/// The memory need (model/memory.hpp), the optimizer's update (model/step) and the gradients a
/// multi-GPU job reduces (buying/cluster.hpp) read these one set of figures.
#pragma once

#include <dlperf/model/model_spec.hpp>
#include <dlperf/model/run.hpp>

namespace dlperf {

/// Parameters on one GPU, by the GPUs that share them.
struct parameter_share {
  double dense = 0;    ///< held by the tp split: every parameter but the routed experts' / tp
  double experts = 0;  ///< the routed experts on this GPU: theirs / ep (0 without ep)
  long long dense_copies = 1;   ///< GPUs holding the same dense parameters (ZeRO shards over)
  long long expert_copies = 1;  ///< GPUs holding the same experts (expert data parallel)

  /// Every parameter the GPU holds.
  [[nodiscard]] constexpr double total() const { return dense + experts; }
  /// What the GPU keeps of them when they are sharded over their copies (ZeRO's shards).
  [[nodiscard]] constexpr double sharded() const {
    return dense / static_cast<double>(dense_copies) + experts / static_cast<double>(expert_copies);
  }
};

/// The parameters one GPU of run @p r holds of @p m (every layer: a pipeline stage takes its
/// share of these): m's parameters / tp, or under expert parallelism (run_config::ep, experts
/// whole on their GPUs) the routed experts' / ep beside the rest / tp. Dense parameters are
/// sharded over the sharding degree, experts over the expert data-parallel GPUs.
constexpr parameter_share parameters_per_gpu(const model_spec& m, const run_config& r) {
  parameter_share p;
  const double experts = m.kind == model_kind::transformer && r.ep > 1
                             ? m.transformer.routed_expert_parameters()
                             : 0.0;
  p.dense = (m.parameters() - experts) / static_cast<double>(r.tp);
  p.experts = experts / static_cast<double>(r.ep);
  p.dense_copies = r.sharding_degree();
  p.expert_copies = r.ep > 1 ? r.expert_data_parallel() : p.dense_copies;
  return p;
}

}  // namespace dlperf
