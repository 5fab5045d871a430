/// @file
/// Advice: which GPUs to buy for a task, ranked, each with its reasons (docs/buying.md,
/// "Advice"). The steps are the guide's (Dettmers, Which GPU(s) to Get for Deep Learning, 2020
/// and 2023 editions, https://timdettmers.com/2023/01/30/which-gpu-for-deep-learning/): memory
/// first, then the budget, then, among the systems that fit, what a task costs on each (its
/// price and electricity over the work it does while owned, buying/ownership.hpp) or how long it
/// takes; every recommendation says why, with the figures it used: memory margin, cost and time
/// per task, multi-GPU scaling, power and PSU, cooling, the limits of consumer cards, and what
/// the next choice gives up.
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/ownership.hpp>
#include <dlperf/buying/power.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/buying/reason_text.hpp>
#include <dlperf/buying/rent.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/buying/training_job.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/stacked.hpp>

namespace dlperf {

/// What a GPU is for, when no model is named: each use case carries the guide's minimum memory.
enum class use_case : std::uint8_t {
  kaggle,                   ///< Kaggle competitions: >= 8 GB (2020 edition)
  prototyping,              ///< prototyping of any kind: >= 10 GB (2020 edition)
  computer_vision,          ///< computer-vision research: >= 10 GB (2020 edition)
  pretrained_transformers,  ///< fine-tuning pretrained or training small Transformers: >= 11 GB
  image_generation,         ///< image generation: >= 12 GB (2023 edition)
  transformers,             ///< Transformers (2023), large Transformers or CNNs in research or
                            ///< production (2020): >= 24 GB
};

/// The use cases and their stable names.
template <>
struct enum_list<use_case> {
  static constexpr std::string_view kind = "use case";  ///< what the enum names
  /// Every use case.
  static constexpr std::array values{
      enumerator{use_case::kaggle, "kaggle", "Kaggle competitions (>= 8 GB)"},
      enumerator{use_case::prototyping, "prototyping", "prototyping (>= 10 GB)"},
      enumerator{use_case::computer_vision, "computer_vision", "computer vision (>= 10 GB)"},
      enumerator{use_case::pretrained_transformers, "pretrained_transformers",
                 "pretrained or small Transformers (>= 11 GB)"},
      enumerator{use_case::image_generation, "image_generation", "image generation (>= 12 GB)"},
      enumerator{use_case::transformers, "transformers",
                 "Transformers, large models in research or production (>= 24 GB)"}};
};

/// The memory use case @p u needs per GPU, the guide's threshold. GPU memory is marketed in
/// binary gigabytes (a "24 GB" card has 24 GiB), so the thresholds are GiB too.
constexpr byte_count memory_threshold(use_case u) {
  switch (u) {
    case use_case::kaggle:
      return gibibytes(8);           // 2020 edition: "Kaggle: >= 8 GB"
    case use_case::prototyping:      // 2020 edition: "prototyping: >= 10 GB"
    case use_case::computer_vision:  // 2020 edition: "computer vision: >= 10 GB"
      return gibibytes(10);
    case use_case::pretrained_transformers:
      return gibibytes(11);  // 2020 edition: ">= 11 GB" for both
    case use_case::image_generation:
      return gibibytes(12);  // 2023 edition: "image generation: >= 12 GB"
    case use_case::transformers:
      break;  // 2023 edition: "Transformers: >= 24 GB"; 2020: research/production >= 24 GB
  }
  return gibibytes(24);
}

/// What advice ranks the systems that fit and are within budget by.
enum class advice_order : std::uint8_t {
  cost,            ///< cost per task: price and electricity over the work done while owned
  time,            ///< time per task: the fastest system first
  perf_per_dollar  ///< the guide's performance per dollar of purchase price
};

/// The orders and their stable names.
template <>
struct enum_list<advice_order> {
  static constexpr std::string_view kind = "advice order";  ///< what the enum names
  /// Every order.
  static constexpr std::array values{
      enumerator{advice_order::cost, "cost", "cost per task, purchase and electricity"},
      enumerator{advice_order::time, "time", "time per task, fastest first"},
      enumerator{advice_order::perf_per_dollar, "perf_per_dollar",
                 "the guide's performance per dollar of purchase price"}};
};

/// What to advise on: either a model run (its memory need decides the fit) or a use case (its
/// threshold does), a workload for relative performance, a budget and a GPU count.
struct advice_request {
  const model_spec* model = nullptr;      ///< the model; null: use `use`
  run_config run{};                       ///< the model's run (per GPU; its type may vary, see
                                          ///< workload.precision)
  use_case use = use_case::transformers;  ///< without a model: the memory threshold
  rank_workload workload;                 ///< relative performance is measured on it
  std::optional<money> budget;            ///< the whole system: GPUs and host
  long long gpus = 1;                     ///< GPUs per system: 1, 2, 4 or 8
  /// Instead of gpus: per GPU, the smallest of 1, 2, 4, 8 with a split that fits the model.
  bool search_gpus = false;
  price_table prices;         ///< prices (launch prices unless overridden or prices.basis says)
  power_parameters power;     ///< the power budget's parameters
  ownership_terms ownership;  ///< years, utilisation, electricity of a cost per task
  /// A training job to time and price on each system (a transformer's training run only).
  std::optional<training_job> job;
  advice_order order = advice_order::cost;  ///< how the systems that fit and are affordable rank
};

/// The unit of work advice prices and times: a million tokens (generated by decoder inference,
/// else processed) for a transformer's own run, else a thousand samples (requests, images,
/// sequences; the mix's geometric mean for a task of several models).
struct advice_task {
  std::string name;             ///< "1M generated tokens", "1k samples", ...
  double per_sample = 1;        ///< units of work in one sample (tokens, or 1)
  double units_per_task = 1e3;  ///< units in one task
  bool trained_tokens = false;  ///< the units are trained tokens (a training job can be priced)
};

/// The task advice prices for @p q: see advice_task.
template <class = void>
advice_task task_of(const advice_request& q) {
  const bool own_run = q.model != nullptr && q.workload.items.size() == 1 &&
                       q.workload.items.front().model == q.model;
  if (!own_run || q.model->kind != model_kind::transformer)
    return {q.run.training() && own_run ? "1k training samples" : "1k samples", 1, 1e3};
  const run_config& r = q.workload.items.front().run;
  if (!r.training() && q.model->transformer.generates() && r.generate >= 1)
    return {"1M generated tokens", static_cast<double>(r.generate), 1e6};
  // A decoder's inference without generated tokens is its prompt; otherwise a sample's useful
  // tokens (tokens_per_request: a padded document counts its own tokens).
  const double tokens =
      !r.training() && q.model->transformer.generates()
          ? static_cast<double>(detail::transformer_shapes::of(q.model->transformer, r).seq)
          : tokens_per_request(*q.model, r);
  return {r.training() ? "1M trained tokens" : "1M tokens", tokens, 1e6, r.training()};
}

/// One recommendation.
struct recommendation {
  const gpu_spec* gpu = nullptr;      ///< the GPU
  bool fits = false;                  ///< the model (or the use case's threshold) fits its memory
  long long gpus = 1;                 ///< GPUs of the system (N)
  std::optional<split_choice> split;  ///< a model's splits tried and the one chosen
  byte_count need{};                  ///< memory needed per GPU (the model's, or the threshold)
  byte_count margin{};                ///< DRAM - need; negative when it does not fit
  bool priced = false;                ///< a price is known (launch price or the price table)
  bool within_budget = true;          ///< the system costs no more than the budget (or no budget)
  std::optional<rank_entry> ranked;   ///< relative performance and cost, when it runs the workload
  double scaling = 1;                 ///< the system's samples per second over one GPU's (a
                                      ///< model's run; memory aside), else N
  double perf_per_dollar = 0;         ///< relative performance / cost share
  money system_cost{};                ///< N x price + host(N)
  money host_cost{};                  ///< host(N), in system_cost
  power_budget power;                 ///< N GPUs at their TDP and the rest of the system
  money gpu_price{};                  ///< one GPU's price (when priced)
  std::optional<price_point> price;   ///< the catalog price used, with its date and kind (none:
                                      ///< a price file's, or no price)
  double samples_per_second = 0;      ///< the system's rate on the workload (0: not ranked)
  double seconds_per_task = 0;        ///< the system's time for one task (0: not ranked)
  std::optional<task_cost> cost;      ///< one task's cost when owned (priced and ranked)
  site where = site::desk;            ///< where the system runs (`site_of` its GPU's segment),
                                      ///< which sets its electricity's price
  double job_seconds = 0;             ///< the request's training job: its time (0: none)
  std::optional<money> job_cost;      ///< and its cost when owned (priced and ranked)
  std::vector<std::string> reasons;   ///< why, each with its figures
  std::string verdict;  ///< the systems recommended: why this one wins or what it gives up
                        ///< against the first (empty for the others)
};

namespace detail {

// Whether @p g has tensor-core math at all.
template <class = void>
bool has_tensor_cores(const gpu_spec& g) {
  return g.arch().tensor_cores_per_sm > 0;
}

// The type the model's memory step runs in on @p g: the workload's first type g has when the
// workload is the model's own run, else the run's type.
template <class = void>
dtype advice_type(const advice_request& q, const gpu_spec& g) {
  if (q.workload.items.size() == 1 && q.workload.items.front().model == q.model)
    for (dtype t : workload_dtypes(q.workload))
      if (g.supports(t, default_accumulator(t))) return t;
  return q.run.type;
}

// Step 1, memory: the model's need on @p g at its split (the fastest split of q.gpus that fits,
// or of the smallest count that has one), else the use case's threshold on one GPU.
template <class = void>
void advise_memory(const advice_request& q, const gpu_spec& g, recommendation& r) {
  r.gpus = q.search_gpus ? 1 : q.gpus;
  if (q.model == nullptr) {
    r.need = memory_threshold(q.use);
    r.margin = g.facts().memory - r.need;
    r.fits = r.margin.value() >= 0;
    r.reasons.emplace_back(std::string(r.fits ? "fits" : "does not fit") + ": " +
                           bytes_text(g.facts().memory) + " against the " + bytes_text(r.need) +
                           " the guide asks for " + std::string(name(q.use)));
    return;
  }
  run_config run = q.run;
  run.type = advice_type(q, g);
  const std::string model(q.model->name);
  // One engine across vendors: its build for this GPU's (llama.cpp-rocm for llama.cpp on AMD).
  if (const stack_id own = stacks::build_for(run.stack, g.arch().vendor); own != run.stack)
    r.reasons.emplace_back("stack: " + std::string(name(own)) + ", " +
                           std::string(name(run.stack)) + "'s build for " +
                           std::string(description(g.arch().vendor)) + " GPUs");
  const split_choice c = q.search_gpus ? smallest_fitting_split(g, *q.model, run)
                                       : best_split(g, *q.model, run, q.gpus);
  r.split = c;
  // The outcome reported: the chosen split, else the one needing least memory per GPU.
  const split_outcome* shown = c.chosen ? &*c.chosen : nullptr;
  for (const split_outcome& o : c.tried)
    if (o.runs && (shown == nullptr || o.fit.need.total() < shown->fit.need.total())) shown = &o;
  if (shown == nullptr) {
    r.fits = false;
    r.reasons.emplace_back("cannot run it: " +
                           (c.tried.empty() ? std::string("no split") : c.tried.front().why_not));
    return;
  }
  const fit_verdict& v = shown->fit;
  r.gpus = shown->split.gpus;
  r.fits = v.fits;
  r.need = v.need.total();
  r.margin = v.margin;
  const std::string per_gpu =
      shown->split.gpus > 1 ? " per GPU (" + describe(shown->split) + ")" : "";
  if (v.fits)
    r.reasons.emplace_back("fits: " + model + " needs " + bytes_text(r.need) + per_gpu +
                           " of its " + bytes_text(v.capacity) + " (margin " +
                           bytes_text(v.margin) + ")");
  else
    r.reasons.emplace_back(
        "does not fit: " + model + " needs " + bytes_text(r.need) + per_gpu + ", it has " +
        bytes_text(v.capacity) +
        (v.max_batch > 0 ? " (largest batch that fits: " + std::to_string(v.max_batch) + ")" : "") +
        (q.search_gpus ? " on up to 8 GPUs" : ""));
  if (std::string why = explain(c); !why.empty()) r.reasons.push_back(std::move(why));
}

// Step 2, budget: N x price + host against it. A GPU without a price is never within a budget.
template <class = void>
void advise_budget(const advice_request& q, const gpu_spec& g, recommendation& r) {
  const std::optional<money> price = q.prices.gpu(g);
  r.priced = price.has_value();
  if (!price) {
    if (q.budget) r.within_budget = false;
    r.reasons.emplace_back("no price known: give one in a price file");
    return;
  }
  if (g.facts().form == form_factor::integrated && r.gpus != 1) {
    // A Mac's GPU comes one to a machine (and advise_memory said it cannot run the split).
    if (q.budget) r.within_budget = false;
    return;
  }
  r.gpu_price = *price;
  r.price = q.prices.catalog_price(g);
  r.host_cost = q.prices.host.for_boards(r.gpus, g.facts().form);
  if (g.facts().form == form_factor::mezzanine)
    r.reasons.emplace_back(
        "host: a module board needs a server built for its baseboard, priced "
        "as the 8-GPU server (" +
        dollars_text(q.prices.host.eight) + ") whatever the count");
  r.system_cost = static_cast<double>(r.gpus) * r.gpu_price + r.host_cost;
  if (!q.budget) return;
  r.within_budget = r.system_cost <= *q.budget;
  r.reasons.emplace_back((r.within_budget ? "within budget: " : "over budget: ") +
                         std::to_string(r.gpus) + " x " + dollars_text(*price) + " + host " +
                         dollars_text(r.host_cost) + " = " + dollars_text(r.system_cost) +
                         (r.within_budget ? " of " : " > ") + dollars_text(*q.budget));
}

// Step 3, performance per dollar: the ranking's relative performance of one GPU's share of its
// system (its split's throughput / N), and, for a model, the system's speed-up over one GPU.
template <class = void>
void advise_performance(const advice_request& q, const gpu_spec& g, recommendation& r) {
  if (!r.ranked) {
    if (r.priced)
      r.reasons.emplace_back("cannot run the workload " + q.workload.name +
                             " (no datatype for it, or too little memory)");
    return;
  }
  const auto n = static_cast<double>(r.gpus);
  r.scaling = n;
  std::string scaling_text;
  if (r.gpus > 1 && q.model != nullptr && r.split && r.split->chosen) {
    run_config one = q.run;
    one.type = advice_type(q, g);
    one.stack = stacks::build_for(q.run.stack, g.arch().vendor);
    const double single =
        static_cast<double>(one.batch) / estimate_run(g, *q.model, one).time.value();
    r.scaling = r.split->chosen->samples_per_second / single;
    scaling_text = "; " + describe(r.split->chosen->split) + " over " + r.split->link + " run " +
                   sig3(r.scaling) + "x as fast as one (" + sig3(100 * r.scaling / n) +
                   " % efficiency)";
  }
  r.perf_per_dollar = r.ranked->perf_per_dollar;
  // The weights' format where it is not the run's type: "in bf16 with q4_k_m weights".
  const bool own_weights =
      q.model != nullptr && !q.run.training() && q.run.weights != weight_format::native;
  r.reasons.emplace_back(
      "performance " + sig3(r.ranked->relative_performance) + " of " +
      std::string(r.ranked->reference->id()) + " per GPU in " + std::string(name(r.ranked->type)) +
      (own_weights ? " with " + std::string(name(q.run.weights)) + " weights" : std::string()) +
      " on " + q.workload.name + scaling_text + "; " + sig3(1000 * r.perf_per_dollar) +
      " per $1000");
}

// Steps 4 and 5: power and PSU, cooling, consumer limits, tensor cores.
template <class = void>
void advise_hardware(const advice_request& q, const gpu_spec& g, recommendation& r) {
  r.power = power_budget_of(g, r.gpus, q.power);
  if (g.facts().form == form_factor::integrated) {
    // A Mac: its figure is the machine's at the wall, on its own power supply.
    r.reasons.push_back("power: the machine draws at most " + sig3(r.power.system.value()) +
                        " W at the wall (its maker's figure), on its own power supply");
    r.reasons.emplace_back(
        "no matrix units: its GPU multiplies on the ALUs, so compute-bound work (prompts, "
        "training) runs far below a card with tensor or matrix cores");
    if (q.run.training())
      r.reasons.emplace_back(
          "training: no stack dlperf models trains on Apple GPUs (PyTorch's MPS backend is "
          "unmeasured here), so this is the hardware's ceiling");
    return;
  }
  std::string power_text =
      "power: " + std::to_string(r.gpus) + " x " + sig3(r.power.board.value()) + " W + " +
      sig3(q.power.rest_of_system.value()) + " W = " + sig3(r.power.system.value()) + " W; PSU " +
      sig3(r.power.recommended_psu.value()) + " W";
  if (r.power.warns(power_warning::psu_beyond_desktop))
    power_text += ", more than a " + sig3(q.power.desktop_psu_limit.value()) +
                  " W desktop PSU: power-limit the cards or use a server";
  r.reasons.push_back(std::move(power_text));
  const segment seg = g.facts().segment;
  if (r.gpus > 1 && consumer_segment(seg))
    r.reasons.emplace_back("cooling: open-air consumer coolers stacked " + std::to_string(r.gpus) +
                           " deep run hot and throttle above about 80 C; leave a slot between "
                           "cards (10-30 C cooler) or use blower or water cooling");
  if (seg == segment::datacenter)
    r.reasons.emplace_back("cooling: passively cooled, needs a server chassis's airflow");
  if (g.consumer_tensor_rate() && g.supports(dtype::fp16, accumulator::fp16) &&
      g.peak(dtype::fp16, accumulator::fp32) < g.peak(dtype::fp16, accumulator::fp16))
    r.reasons.emplace_back(
        "consumer card: 16-bit tensor math accumulating in FP32 runs at half rate");
  if (r.gpus > 1 && !pcie_peer_to_peer(seg))
    r.reasons.emplace_back(
        "consumer card: no PCIe peer-to-peer, gradients and activations pass through host "
        "memory");
  if (!has_tensor_cores(g))
    r.reasons.emplace_back("no tensor cores: the guide advises an RTX 2060-class card or better");
}

// Step 6, per task: the system's rate on the workload (N GPUs over the mix's geometric mean of
// GPU-seconds per sample), the time of one task and, when priced, its cost when owned.
template <class = void>
void advise_task(const advice_request& q, const advice_task& task, const workload_run& run,
                 recommendation& r) {
  r.samples_per_second = static_cast<double>(run.gpus) / std::exp(mean_log_time(run));
  const double tasks_per_second = r.samples_per_second * task.per_sample / task.units_per_task;
  r.seconds_per_task = 1.0 / tasks_per_second;
  std::string text = "per " + task.name + ": " + duration_text(r.seconds_per_task);
  if (r.priced) {
    r.cost = cost_per_task(r.system_cost, r.power.system, tasks_per_second, q.ownership, r.where);
    text += ", " + cost_text(r.cost->total()) + " (" + cost_text(r.cost->purchase) +
            " of the system over " + sig3(q.ownership.years) + " years at " +
            sig3(100 * q.ownership.utilization) + " % use, " + cost_text(r.cost->electricity) +
            " of electricity at " +
            cost_text(dollars(in_dollars_per_kwh(q.ownership.kwh_price_at(r.where)))) + "/kWh" +
            (r.where == site::data_centre ? " in a data centre" : "") + ")";
  }
  if (q.job) {  // the task is a million trained tokens (advise checks it)
    r.job_seconds = q.job->seconds_at(tasks_per_second * task.units_per_task);
    text += "; the job (" + sig3(q.job->epochs) + " epoch" + (q.job->epochs == 1 ? "" : "s") +
            " of " + sig3(q.job->dataset_tokens / 1e6) +
            "M tokens): " + duration_text(r.job_seconds);
    if (r.cost) {
      r.job_cost = q.job->cost_at(r.cost->total());
      text += ", " + cost_text(*r.job_cost);
    }
  }
  r.reasons.push_back(std::move(text));
}

// Where a recommendation ranks: fits and within budget (0), fits but over budget (1), fits but
// not ranked (2), does not fit (3).
template <class = void>
int advice_group(const recommendation& r) {
  if (!r.fits) return 3;
  if (!r.ranked || !r.priced) return 2;
  return r.within_budget ? 0 : 1;
}

// Whether @p a ranks before @p b within the systems that fit (groups 0 and 1) under @p o.
template <class = void>
bool ranks_before(const recommendation& a, const recommendation& b, advice_order o) {
  switch (o) {
    case advice_order::cost:
      if (a.cost.has_value() != b.cost.has_value()) return a.cost.has_value();
      if (a.cost) return a.cost->total() < b.cost->total();
      break;
    case advice_order::time:
      return a.seconds_per_task < b.seconds_per_task;
    case advice_order::perf_per_dollar:
      break;
  }
  return a.perf_per_dollar > b.perf_per_dollar;
}

// "1.52x as fast" or "0.660x as fast" (time per task), and "+12 %" or "-8 %" (cost per task).
template <class = void>
std::string against(const recommendation& r, const recommendation& other) {
  std::string text = digits3(other.seconds_per_task / r.seconds_per_task) + "x as fast";
  if (r.cost && other.cost) {
    const double change = 100 * (r.cost->total() / other.cost->total() - 1);
    text += std::abs(change) < 0.5
                ? std::string(", the same cost per task (within 0.5 %)")
                : ", " + std::string(change >= 0 ? "+" : "") + sig3(change) + " % cost per task";
  }
  return text;
}

// The systems recommended (group 0), best first: why the first wins and what each other one
// gives up against it; the fastest, where it is not the first, and the best system over budget,
// where it would rank first, named on the first.
template <class = void>
void explain_choices(std::vector<recommendation>& out, const advice_request& q,
                     const advice_task& task) {
  if (out.empty() || advice_group(out.front()) != 0) return;
  recommendation& best = out.front();
  const auto label = [](const recommendation& r) {
    return std::string(r.gpu->id()) + (r.gpus > 1 ? " x" + std::to_string(r.gpus) : "");
  };
  const recommendation* fastest = &best;
  const recommendation* second = nullptr;
  for (std::size_t i = 1; i < out.size() && advice_group(out[i]) == 0; ++i) {
    if (second == nullptr) second = &out[i];
    if (out[i].seconds_per_task < fastest->seconds_per_task) fastest = &out[i];
    out[i].verdict = "gives up against " + label(best) + ": " + against(out[i], best);
  }
  switch (q.order) {
    case advice_order::cost:
      best.verdict = "wins: the lowest cost per " + task.name;
      break;
    case advice_order::time:
      best.verdict = "wins: the shortest time per " + task.name;
      break;
    case advice_order::perf_per_dollar:
      best.verdict = "wins: the most performance per dollar";
      break;
  }
  best.verdict += q.budget ? " within budget" : "";
  if (second != nullptr)
    best.verdict += "; next, " + label(*second) + ": " + against(*second, best);
  if (fastest != &best && fastest != second)
    best.verdict += "; fastest, " + label(*fastest) + ": " + against(*fastest, best);
  // The best system the budget rules out, where it would rank first: what the budget costs.
  const auto over = std::find_if(out.begin(), out.end(),
                                 [](const recommendation& r) { return advice_group(r) == 1; });
  if (over != out.end() && ranks_before(*over, best, q.order))
    best.verdict += "; over budget, " + label(*over) + " at " + dollars_text(over->system_cost) +
                    ": " + against(*over, best);
}

}  // namespace detail

/// Advice for @p q over @p candidates (the catalog by default): every candidate, best first.
/// Order: fits and within budget, then fits but over budget, each by q.order (cost per task by
/// default); fits but cannot run the workload or has no price; does not fit (most memory
/// first). Relative performance is against rank_reference (H100 SXM where it runs the workload,
/// else the fastest GPU that does). Throws invalid_argument for a GPU count other than 1, 2, 4, 8,
/// a negative budget, ownership terms out of their domain, and what check_fit and rank_gpus throw
/// for a bad run.
template <class = void>
std::vector<recommendation> advise(const advice_request& q,
                                   std::span<const gpu_spec* const> candidates = catalog::all) {
  if (q.budget && !(q.budget->value() >= 0 && detail::is_finite(q.budget->value())))
    detail::throw_invalid_argument("budget: must be >= 0 and finite");
  if (!q.search_gpus) (void)q.prices.host.for_gpus(q.gpus);  // throws for a count not priced
  q.ownership.validate();
  const advice_task task = task_of(q);
  if (q.job) {
    q.job->validate();
    if (!task.trained_tokens)
      detail::throw_invalid_argument(
          "training job: needs a transformer's training run, and the "
          "task here is " +
          task.name);
  }
  rank_options ro;
  ro.gpus = q.gpus;
  ro.search_gpus = q.search_gpus;
  ro.candidates = candidates;
  const auto [ref, ref_run] = rank_reference(q.workload, ro);

  std::vector<recommendation> out;
  out.reserve(candidates.size());
  for (const gpu_spec* g : candidates) {
    recommendation r;
    r.gpu = g;
    r.where = site_of(g->facts().segment);
    detail::advise_memory(q, *g, r);
    // The workload at this GPU's count (the model's split when the workload is the model).
    std::optional<workload_run> run;
    if (const std::optional<money> price = q.prices.gpu(*g))
      if ((run = workload_on(q.workload, *g, r.gpus)))
        r.ranked = make_rank_entry(*g, *run, *price, q.prices.host, *ref, ref_run);
    detail::advise_budget(q, *g, r);
    detail::advise_performance(q, *g, r);
    detail::advise_hardware(q, *g, r);
    if (r.ranked) detail::advise_task(q, task, *run, r);
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [&](const recommendation& a, const recommendation& b) {
    const int ga = detail::advice_group(a);
    const int gb = detail::advice_group(b);
    if (ga != gb) return ga < gb;
    if (ga < 2) return detail::ranks_before(a, b, q.order);
    return a.gpu->facts().memory > b.gpu->facts().memory;
  });
  detail::explain_choices(out, q, task);
  return out;
}

}  // namespace dlperf
