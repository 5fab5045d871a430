/// @file
/// Splitting one job over the GPUs of one system (docs/buying.md, "Splits of a system"): tensor
/// parallelism cuts every layer's weights over tp GPUs (Megatron-LM), an inference engine that
/// splits by layers (llama.cpp, accelerate's device_map; docs/parallel.md) puts consecutive
/// layers on pp GPUs, and data parallelism runs gpus / (tp x pp) replicas of that. A split is
/// chosen memory first: among the splits of N GPUs whose share fits each GPU, the one with the most
/// samples per second; when no GPU count is given, the smallest of 1, 2, 4 and 8 (the priced host
/// sizes) that has a split that fits.
///
///     training   step = estimate_cluster: the tp shard's step, the gradient all-reduce the
///                       backward pass cannot hide and the tp all-reduces, over the system's link
///     inference  step = estimate_run (the run's stack) on the tp shard, with its tp all-reduces
///                       (model/parallel.hpp: two a layer, for the prompt and each token)
///     samples per second = batch x (gpus / tp) / step
///
/// The system's link is NVLink where a data-centre board has it (its servers connect every
/// card), else the card's own PCIe link at x16; GeForce cards stage PCIe traffic through host
/// memory (hardware/links.hpp: system_link, pcie_peer_to_peer).
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/reason_text.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf {

/// The GPU counts a search tries: the host sizes that are priced (prices.hpp, host_costs).
inline constexpr std::array<long long, 4> host_gpu_counts{1, 2, 4, 8};

/// How a job uses the GPUs of one system.
struct parallel_split {
  long long gpus = 1;  ///< GPUs of the system
  long long tp = 1;    ///< tensor-parallel degree (divides gpus)
  long long pp = 1;  ///< inference: GPUs of a layer split (docs/parallel.md); tp x pp divides gpus
  long long cp = 1;  ///< training: GPUs a sequence is split over (context parallelism)

  /// Data-parallel replicas: gpus / (tp x pp x cp).
  [[nodiscard]] constexpr long long data_parallel() const { return gpus / (tp * pp * cp); }
  /// Whether two splits are the same.
  [[nodiscard]] constexpr bool operator==(const parallel_split&) const = default;
};

/// One split of a run, tried on one GPU.
struct split_outcome {
  parallel_split split;           ///< the split
  bool runs = false;              ///< the GPU runs it (its type; tp divides the heads)
  std::string why_not;            ///< when it does not run: why
  fit_verdict fit;                ///< memory per GPU (when it runs)
  duration step{};                ///< one step (or request) of the whole system
  double samples_per_second = 0;  ///< of the whole system

  /// Whether the split runs and fits.
  [[nodiscard]] bool usable() const { return runs && fit.fits; }
};

/// The splits tried for a run on one GPU and the one chosen.
struct split_choice {
  std::vector<split_outcome> tried;     ///< every split tried, fewest GPUs and smallest tp first
  std::optional<split_outcome> chosen;  ///< the fastest that fits at the first count where any fits
  std::string link;                     ///< the system's link (links.hpp id)
  /// What samples_per_second counts: training samples, or whole requests (prompt and answer)
  /// of an inference run.
  std::string_view rate_unit = "samples/s";
};

/// Split @p s of run @p r of @p m on GPUs @p g: memory per GPU, step and samples per second
/// (see the file comment). A split the GPU cannot run (no path for the type, a tp that does not
/// divide the heads) comes back with runs false and the reason; the run's own errors (a
/// sequence beyond the context) are thrown as estimate_model throws them.
template <class = void>
split_outcome evaluate_split(const gpu_spec& g, const model_spec& m, const run_config& r,
                             parallel_split s) {
  split_outcome out;
  out.split = s;
  run_config x = r;
  x.gpus = s.gpus;
  x.tp = s.tp;
  x.pp = s.pp;
  x.cp = s.cp;
  x.shard_group = 0;  // a split's own data parallelism shards over all of it
  try {
    check_gpus_per_machine(g, s.gpus);
    out.fit = check_fit(g, m, x);
    if (x.training() && s.gpus > 1) {
      out.step = estimate_cluster(g, s.gpus, m, x, system_link(g)).step_time;
    } else {
      out.step = estimate_run(g, m, x).time;  // with the tp all-reduces (model/parallel.hpp)
    }
    out.runs = true;
    out.samples_per_second = static_cast<double>(x.batch * s.data_parallel()) / out.step.value();
  } catch (const unsupported& e) {
    out.why_not = e.what();
  } catch (const invalid_argument& e) {
    if (s.tp == 1) throw;  // the run itself is wrong, not the split
    out.why_not = e.what();
  }
  return out;
}

/// The splits of @p gpus GPUs for @p m by @p mode: tp (or, by layers, pp) = 1, 2, 4, ...
/// dividing gpus, the rest replicas; above 1 for transformers only (a CNN's layers are not cut).
/// Throws invalid_argument for gpus < 1.
template <class = void>
std::vector<parallel_split> splits_of(const model_spec& m, long long gpus,
                                      split_mode mode = split_mode::tensor) {
  detail::require_positive(gpus, "split", "gpus");
  std::vector<parallel_split> out;
  for (long long n = 1; n <= gpus; n *= 2) {
    if (gpus % n != 0 || (n > 1 && m.kind != model_kind::transformer)) continue;
    if (mode == split_mode::layer)
      out.push_back({gpus, 1, n});
    else
      out.push_back({gpus, n, 1});
  }
  return out;
}

/// How run @p r spreads one model over several GPUs: its stack's split for inference (llama.cpp
/// and eager PyTorch by layers; docs/parallel.md), tensors for training.
constexpr split_mode split_of_run(const run_config& r) {
  return r.training() ? split_mode::tensor : stacks::of(r.stack).multi_gpu.split;
}

/// The fastest split of @p gpus GPUs @p g that fits @p m under @p r (ties: the smaller tp).
/// The run is taken under r.stack's build for g's vendor (`stacks::build_for`: llama.cpp-rocm
/// on an AMD GPU where r names llama.cpp).
template <class = void>
split_choice best_split(const gpu_spec& g, const model_spec& m, const run_config& r,
                        long long gpus) {
  split_choice c;
  c.link = std::string(system_link(g).id);
  c.rate_unit = r.training() ? "samples/s" : "requests/s";
  run_config x = r;
  x.stack = stacks::build_for(r.stack, g.arch().vendor);
  for (const parallel_split& s : splits_of(m, gpus, split_of_run(x))) {
    c.tried.push_back(evaluate_split(g, m, x, s));
    const split_outcome& o = c.tried.back();
    if (o.usable() && (!c.chosen || o.samples_per_second > c.chosen->samples_per_second))
      c.chosen = o;
  }
  return c;
}

/// The smallest count of host_gpu_counts at which a split of GPUs @p g fits @p m under @p r,
/// and its fastest split; every split tried on the way is kept.
template <class = void>
split_choice smallest_fitting_split(const gpu_spec& g, const model_spec& m, const run_config& r) {
  split_choice all;
  for (long long n : host_gpu_counts) {
    split_choice c = best_split(g, m, r, n);
    all.link = c.link;
    all.rate_unit = c.rate_unit;
    all.tried.insert(all.tried.end(), c.tried.begin(), c.tried.end());
    if (c.chosen) {
      all.chosen = c.chosen;
      break;
    }
  }
  return all;
}

/// The smallest tensor-parallel degree (2, 4, ... dividing r.gpus) at which @p m fits device
/// @p d under @p r, keeping r's GPU count and ZeRO stage; none when r.tp already fits, the model
/// is not a transformer, or no degree fits.
template <class D>
std::optional<long long> smallest_fitting_tp(const D& d, const model_spec& m, run_config r) {
  if (m.kind != model_kind::transformer || check_fit(d, m, r).fits) return std::nullopt;
  for (long long tp = r.tp * 2; tp <= r.gpus; tp *= 2) {
    if (r.gpus % tp != 0) continue;
    r.tp = tp;
    try {
      if (check_fit(d, m, r).fits) return tp;
    } catch (const invalid_argument&) {
      // tp does not divide the heads: try the next degree
    }
  }
  return std::nullopt;
}

/// A split for people: "1 GPU", "2 GPUs, tp 2", "4 GPUs, tp 2 x dp 2", "8 GPUs, dp 8", "2 GPUs,
/// pp 2" (a layer split), "8 GPUs, cp 4 x dp 2".
template <class = void>
std::string describe(const parallel_split& s) {
  if (s.gpus == 1) return "1 GPU";
  const std::string n = std::to_string(s.gpus) + " GPUs, ";
  std::string parts;
  if (s.tp > 1) parts = "tp " + std::to_string(s.tp);
  if (s.pp > 1) parts += (parts.empty() ? "" : " x ") + ("pp " + std::to_string(s.pp));
  if (s.cp > 1) parts += (parts.empty() ? "" : " x ") + ("cp " + std::to_string(s.cp));
  if (s.data_parallel() > 1)
    parts += (parts.empty() ? "" : " x ") + ("dp " + std::to_string(s.data_parallel()));
  return n + parts;
}

namespace detail {

// One outcome for a reason: "does not fit (needs 34.4 GB of 24 GB)", "cannot run (...)",
// "1.2 samples/s" (or @p unit).
template <class = void>
std::string outcome_text(const split_outcome& o, std::string_view unit) {
  if (!o.runs) return "cannot run (" + o.why_not + ")";
  if (!o.fit.fits)
    return "does not fit (needs " + bytes_text(o.fit.need.total()) + " of " +
           bytes_text(o.fit.capacity) + ")";
  return sig3(o.samples_per_second) + " " + std::string(unit);
}

}  // namespace detail

/// Why @p c chose its split, with the figures of the others: "split: 2 GPUs, tp 2 over
/// pcie4_x16 (0.206 samples/s), the fastest that fits; 2 GPUs, dp 2: does not fit (needs
/// 35.9 GB of 24 GB)". A smaller GPU count where nothing fits is summed up by its split that
/// needs least memory ("1 GPU: does not fit (...)", "4 GPUs: no split fits, least: tp 4 needs
/// ..."). Empty when one GPU was the only split tried and it fits.
template <class = void>
std::string explain(const split_choice& c) {
  if (c.tried.size() == 1 && c.chosen) return {};
  std::string text;
  if (c.chosen)
    text = "split: " + describe(c.chosen->split) +
           (c.chosen->split.gpus > 1 ? " over " + c.link : std::string()) + " (" +
           detail::sig3(c.chosen->samples_per_second) + " " + std::string(c.rate_unit) +
           "), the fastest that fits";
  else
    text = "no split fits";
  const long long chosen_gpus = c.chosen ? c.chosen->split.gpus : 0;
  for (std::size_t i = 0; i < c.tried.size();) {
    // The outcomes of one GPU count: c.tried holds them together.
    std::size_t end = i;
    while (end < c.tried.size() && c.tried[end].split.gpus == c.tried[i].split.gpus) ++end;
    if (c.tried[i].split.gpus == chosen_gpus || end - i == 1) {
      for (std::size_t k = i; k < end; ++k) {
        const split_outcome& o = c.tried[k];
        if (c.chosen && o.split == c.chosen->split) continue;
        text += "; " + describe(o.split) + ": " + detail::outcome_text(o, c.rate_unit);
      }
    } else {
      // Nothing fits at this count (else the search would have stopped): its leanest split.
      const split_outcome* least = nullptr;
      for (std::size_t k = i; k < end; ++k)
        if (c.tried[k].runs &&
            (least == nullptr || c.tried[k].fit.need.total() < least->fit.need.total()))
          least = &c.tried[k];
      text += "; " + std::to_string(c.tried[i].split.gpus) + " GPUs: no split fits" +
              (least != nullptr ? ", least: " + describe(least->split) + " " +
                                      detail::outcome_text(*least, c.rate_unit)
                                : std::string());
    }
    i = end;
  }
  return text;
}

}  // namespace dlperf
