/// @file
/// Ranking GPUs by relative performance and performance per dollar (docs/buying.md, "Ranking and
/// performance per dollar"), after Dettmers, Which GPU(s) to Get for Deep Learning (2023
/// edition, https://timdettmers.com/2023/01/30/which-gpu-for-deep-learning/).
///
/// A workload is a mix of whole-model runs. Relative performance of GPU g = geometric mean over
/// the mix of (reference GPU's GPU-seconds per sample / g's), each run at its fastest split of
/// the system's GPUs that fits (split.hpp); performance per dollar = relative performance /
/// (g's price + host(N) / N) for a host of N GPUs. With one GPU per system this is the ratio of
/// step times.
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf {

/// The guide's three comparisons.
enum class rank_task : std::uint8_t {
  train16,  ///< 16-bit training: BERT-large and ResNet-50
  infer16,  ///< 16-bit inference of the same models
  infer8    ///< 8-bit inference: FP8 where the GPU has it, else INT8; GPUs with neither drop out
};

/// The tasks and their stable names.
template <>
struct enum_list<rank_task> {
  static constexpr std::string_view kind = "task";  ///< what the enum names
  /// Every task.
  static constexpr std::array values{
      enumerator{rank_task::train16, "train16", "16-bit training: BERT-large, ResNet-50"},
      enumerator{rank_task::infer16, "infer16", "16-bit inference: BERT-large, ResNet-50"},
      enumerator{rank_task::infer8, "infer8", "8-bit inference (FP8, else INT8)"}};
};

/// How a workload's compute type is chosen on each GPU.
enum class precision_choice : std::uint8_t {
  as_given,     ///< the runs' own type; a GPU without it drops out
  sixteen_bit,  ///< BF16 where the GPU has it, else FP16
  eight_bit     ///< FP8 (OCP, else AMD's FNUZ) where the GPU has it, else INT8
};

/// The precision choices and their stable names.
template <>
struct enum_list<precision_choice> {
  static constexpr std::string_view kind = "precision choice";  ///< what the enum names
  /// Every choice.
  static constexpr std::array values{enumerator{precision_choice::as_given, "as_given"},
                                     enumerator{precision_choice::sixteen_bit, "sixteen_bit"},
                                     enumerator{precision_choice::eight_bit, "eight_bit"}};
};

/// One model run of a workload.
struct rank_item {
  const model_spec* model;  ///< the model (a preset)
  run_config run;           ///< its run; run.type is replaced per GPU unless as_given
};

/// A mix of runs that a GPU is ranked on.
struct rank_workload {
  std::string name;                                         ///< task or preset name
  std::vector<rank_item> items;                             ///< the mix
  precision_choice precision = precision_choice::as_given;  ///< how each GPU's type is chosen
};

/// Batch sizes of the guide's tasks. BERT-large at 128 tokens, batch 32, and ResNet-50 at 224 px,
/// batch 64: what the guide's 2023 figures assume a 10-12 GB GPU trains (Dettmers 2023: "8 GB
/// ... enough for ... research", 12 GB for most), and the inference batches kept equal so that
/// the three tasks compare the same work.
inline constexpr long long rank_bert_batch = 32;    ///< BERT-large sequences per step
inline constexpr long long rank_bert_seq = 128;     ///< BERT-large tokens per sequence
inline constexpr long long rank_resnet_batch = 64;  ///< ResNet-50 images per step

/// The mix of task @p t, each run under software stack @p stack (default: the hardware model).
/// Throws invalid_argument for train16 under an inference engine (`check_runs`).
template <class = void>
rank_workload make_workload(rank_task t, stack_id stack = stack_id::ceiling) {
  run_config bert{.batch = rank_bert_batch, .seq = rank_bert_seq};
  run_config resnet{.batch = rank_resnet_batch};
  const run_mode mode = t == rank_task::train16 ? run_mode::train : run_mode::infer;
  check_runs(stacks::of(stack), mode == run_mode::train);
  bert.mode = resnet.mode = mode;
  bert.stack = resnet.stack = stack;
  return {std::string(name(t)),
          {{&presets::bert_large, bert}, {&presets::resnet50, resnet}},
          t == rank_task::infer8 ? precision_choice::eight_bit : precision_choice::sixteen_bit};
}

/// A one-model workload: preset @p m with run @p r, at r's own type.
template <class = void>
rank_workload make_workload(const model_spec& m, const run_config& r) {
  return {std::string(m.name), {{&m, r}}, precision_choice::as_given};
}

/// The types choice @p p allows, most preferred first: BF16 then FP16 (sixteen_bit); FP8, AMD's
/// FNUZ FP8, then INT8 (eight_bit); @p given, the run's own (as_given).
template <class = void>
std::vector<dtype> precision_dtypes(precision_choice p, dtype given) {
  switch (p) {
    case precision_choice::sixteen_bit:
      return {dtype::bf16, dtype::fp16};
    case precision_choice::eight_bit:
      return {dtype::fp8_e4m3, dtype::fp8_e4m3_fnuz, dtype::int8};
    case precision_choice::as_given:
      break;
  }
  return {given};
}

/// The types workload @p w may run in, most preferred first (precision_dtypes of its first run's
/// type; none for an as-given workload without runs).
template <class = void>
std::vector<dtype> workload_dtypes(const rank_workload& w) {
  if (w.precision == precision_choice::as_given && w.items.empty()) return {};
  return precision_dtypes(w.precision, w.items.empty() ? dtype::bf16 : w.items.front().run.type);
}

/// What a ranking compares.
struct rank_options {
  long long gpus = 1;        ///< GPUs per host: 1, 2, 4 or 8
  bool search_gpus = false;  ///< instead of gpus: the smallest of 1, 2, 4, 8 with a split that fits
  byte_count min_memory{};   ///< GPUs with less DRAM drop out
  /// Relative performance 1 when it runs the workload; else the fastest GPU that does
  /// (docs/buying.md).
  const gpu_spec* reference = &catalog::h100_sxm;
  std::span<const gpu_spec* const> candidates = catalog::all;  ///< GPUs ranked
};

/// A workload run on one GPU type: its type and, per run of the mix, the split chosen.
struct workload_run {
  dtype type = dtype::bf16;          ///< the type it ran in
  long long gpus = 1;                ///< GPUs of the system
  std::vector<split_choice> splits;  ///< per run of the mix: the splits tried and chosen
  std::vector<double> gpu_seconds;   ///< per run: GPU-seconds per sample (gpus / rate)
};

/// One ranked GPU.
struct rank_entry {
  const gpu_spec* gpu = nullptr;        ///< the GPU
  dtype type = dtype::bf16;             ///< the type it ran the workload in
  double relative_performance = 0;      ///< geometric mean of the reference's GPU-seconds per
                                        ///< sample / this GPU's (one GPU's share of its system)
  money system_cost{};                  ///< GPU price + host(N) / N: one GPU's share of its system
  double perf_per_dollar = 0;           ///< relative performance per US dollar of system_cost
  long long gpus = 1;                   ///< GPUs of the system (N)
  std::vector<parallel_split> splits;   ///< per run of the mix: the split used
  const gpu_spec* reference = nullptr;  ///< the GPU whose relative performance is 1
  money gpu_price{};                    ///< the GPU's price
  money host_share{};                   ///< host(N) / N
};

/// Workload @p w on @p g in type @p t on @p gpus GPUs (each run at its fastest split that
/// fits), or on the smallest of host_gpu_counts where every run fits when @p search; none when
/// no split fits or g has no path for t (an 8-bit workload on a GPU without FP8 or INT8).
template <class = void>
std::optional<workload_run> workload_times(const rank_workload& w, const gpu_spec& g, dtype t,
                                           long long gpus, bool search = false) {
  const std::span<const long long> counts =
      search ? std::span<const long long>(host_gpu_counts) : std::span<const long long>(&gpus, 1);
  for (long long n : counts) {
    workload_run out{t, n, {}, {}};
    for (const rank_item& i : w.items) {
      run_config r = i.run;
      r.type = t;
      out.splits.push_back(best_split(g, *i.model, r, n));
      const auto& chosen = out.splits.back().chosen;
      if (!chosen) break;
      out.gpu_seconds.push_back(static_cast<double>(n) / chosen->samples_per_second);
    }
    if (out.gpu_seconds.size() == w.items.size()) return out;
  }
  return std::nullopt;
}

/// Workload @p w on @p g in the first type of workload_dtypes(w) that g runs and fits (see
/// workload_times for @p gpus and @p search), or none.
template <class = void>
std::optional<workload_run> workload_on(const rank_workload& w, const gpu_spec& g,
                                        long long gpus = 1, bool search = false) {
  for (dtype t : workload_dtypes(w)) {
    const bool has = g.supports(t, default_accumulator(t));
    if (!has) continue;
    if (auto run = workload_times(w, g, t, gpus, search)) return run;
    // A type the GPU has but cannot fit: a smaller one would not be the task's precision.
    if (w.precision != precision_choice::eight_bit) return std::nullopt;
  }
  return std::nullopt;
}

namespace detail {

// ln of the geometric mean of @p run's GPU-seconds per sample.
template <class = void>
double mean_log_time(const workload_run& run) {
  double sum = 0;
  for (double t : run.gpu_seconds) sum += std::log(t);
  return sum / static_cast<double>(run.gpu_seconds.size());
}

// The @p n-th root (n >= 1) of @p x > 0 by Newton's method, in additions, products and
// quotients only: the same bits wherever doubles are IEEE's. std::exp and std::log are not:
// glibc's and emscripten's (musl's) part in the last bit, and the page must show the tool's
// numbers bit for bit. The guess 1 + (x - 1) / n lies above the root (Bernoulli's inequality),
// so the steps fall to it; they stop when one no longer does.
constexpr double nth_root(double x, std::size_t n) {
  if (n <= 1) return x;
  const double k = static_cast<double>(n);
  double y = 1.0 + (x - 1.0) / k;
  for (int step = 0; step < 200; ++step) {
    double power = 1.0;  // y^(n-1)
    for (std::size_t i = 1; i < n; ++i) power *= y;
    const double next = ((k - 1.0) * y + x / power) / k;
    if (!(next < y)) break;
    y = next;
  }
  return y;
}

}  // namespace detail

/// The reference of a ranking of @p w under @p o and its run: o.reference where it runs and
/// fits the workload, else the candidate with the fewest GPU-seconds per sample (geometric
/// mean over the mix), price or not. Throws invalid_argument when no candidate runs it.
template <class = void>
std::pair<const gpu_spec*, workload_run> rank_reference(const rank_workload& w,
                                                        const rank_options& o) {
  if (auto run = workload_on(w, *o.reference, o.gpus, o.search_gpus))
    return {o.reference, std::move(*run)};
  std::optional<std::pair<const gpu_spec*, workload_run>> best;
  for (const gpu_spec* g : o.candidates) {
    auto run = workload_on(w, *g, o.gpus, o.search_gpus);
    if (run && (!best || detail::mean_log_time(*run) < detail::mean_log_time(best->second)))
      best = std::pair{g, std::move(*run)};
  }
  if (!best)
    detail::throw_invalid_argument(
        "rank: no GPU runs and fits workload '" + w.name + "'" +
        (o.search_gpus ? " on up to 8 GPUs" : " on " + std::to_string(o.gpus) + " GPU(s)"));
  return std::move(*best);
}

/// GPU @p g's entry against reference @p ref (its run @p ref_run), with @p run its own run of
/// @p w and @p price its price, in a host costing @p host.
template <class = void>
rank_entry make_rank_entry(const gpu_spec& g, const workload_run& run, money price,
                           const host_costs& host, const gpu_spec& ref,
                           const workload_run& ref_run) {
  // The geometric mean of the ratios, without std::exp and std::log (detail::nth_root).
  double product = 1;
  for (std::size_t i = 0; i < run.gpu_seconds.size(); ++i)
    product *= ref_run.gpu_seconds[i] / run.gpu_seconds[i];
  rank_entry e;
  e.gpu = &g;
  e.type = run.type;
  e.relative_performance = detail::nth_root(product, run.gpu_seconds.size());
  e.gpus = run.gpus;
  e.gpu_price = price;
  e.host_share = host.for_boards(run.gpus, g.facts().form) / static_cast<double>(run.gpus);
  e.system_cost = price + e.host_share;
  e.perf_per_dollar = e.relative_performance / e.system_cost.value();
  for (const split_choice& c : run.splits) e.splits.push_back(c.chosen->split);
  e.reference = &ref;
  return e;
}

/// The GPUs of @p o.candidates that run @p w, fit it and have a price in @p p, best performance
/// per dollar first. Each GPU x run x split is estimated once. GPUs without a price (MI250X,
/// MI325X unless a price file gives one), without the workload's type or without the memory
/// drop out. Throws invalid_argument for a host size other than 1, 2, 4, 8, an empty workload,
/// or a workload no candidate runs (rank_reference).
template <class = void>
std::vector<rank_entry> rank_gpus(const rank_workload& w, const price_table& p,
                                  const rank_options& o = {}) {
  if (!o.search_gpus) (void)p.host.for_gpus(o.gpus);  // throws for a count not priced
  if (w.items.empty()) detail::throw_invalid_argument("rank: the workload has no runs");
  const auto [ref, ref_run] = rank_reference(w, o);
  std::vector<rank_entry> out;
  for (const gpu_spec* g : o.candidates) {
    const std::optional<money> price = p.gpu(*g);
    if (!price || g->facts().memory < o.min_memory) continue;
    const auto run = g == ref ? std::optional(ref_run) : workload_on(w, *g, o.gpus, o.search_gpus);
    if (!run) continue;
    out.push_back(make_rank_entry(*g, *run, *price, p.host, *ref, ref_run));
  }
  std::stable_sort(out.begin(), out.end(), [](const rank_entry& a, const rank_entry& b) {
    return a.perf_per_dollar > b.perf_per_dollar;
  });
  return out;
}

}  // namespace dlperf
