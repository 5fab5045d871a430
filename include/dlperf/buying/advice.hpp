/// @file
/// Advice: which GPUs to buy for a task, ranked, each with its reasons (docs/buying.md,
/// "Advice"). The order is the guide's (Dettmers, Which GPU(s) to Get for Deep Learning, 2020
/// and 2023 editions, https://timdettmers.com/2023/01/30/which-gpu-for-deep-learning/): memory
/// first, then the budget, then performance per dollar among the GPUs that fit; every
/// recommendation says why, with the figures it used: memory margin, performance per dollar,
/// multi-GPU scaling, power and PSU, cooling, and the limits of consumer cards.
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
#include <dlperf/buying/power.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/memory.hpp>

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
  price_table prices;                     ///< prices (launch prices unless overridden)
  power_parameters power;                 ///< the power budget's parameters
};

/// One recommendation.
struct recommendation {
  const gpu_spec* gpu = nullptr;     ///< the GPU
  bool fits = false;                 ///< the model (or the use case's threshold) fits its memory
  byte_count need{};                 ///< memory needed per GPU (the model's, or the threshold)
  byte_count margin{};               ///< DRAM - need; negative when it does not fit
  bool priced = false;               ///< a price is known (launch price or the price table)
  bool within_budget = true;         ///< the system costs no more than the budget (or no budget)
  std::optional<rank_entry> ranked;  ///< relative performance and cost, when it runs the workload
  double scaling = 1;                ///< N-GPU speed-up over one (training over PCIe), else N
  double perf_per_dollar = 0;        ///< relative performance x scaling / N / cost share
  money system_cost{};               ///< N x price + host(N)
  power_budget power;                ///< N GPUs at their TDP and the rest of the system
  std::vector<std::string> reasons;  ///< why, each with its figures
};

namespace detail {

// A number for a reason's text: three significant digits, whole numbers from 1000 up (watts,
// dollars) without an exponent (the estimators stay free of fmt; g++ 12 has no <format>).
inline std::string sig3(double v) {
  std::array<char, 48> buf{};
  const auto [end, ec] =
      std::abs(v) >= 1000
          ? std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 0)
          : std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general, 3);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}
inline std::string dollars_text(money m) {
  std::array<char, 48> buf{};
  const auto [end, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), m.value(), std::chars_format::fixed, 0);
  return ec == std::errc{} ? "$" + std::string(buf.data(), end) : std::string("$?");
}
inline std::string gb_text(byte_count b) {
  return sig3(b.value() / (1024.0 * 1024 * 1024)) + " GB";
}

// The link between the cards of one system: NVLink where a data-centre board has it (its
// servers connect every card), else each card's own PCIe link at x16 (the guide's PCIe builds).
inline const link_spec& system_link(const gpu_spec& g) {
  const interconnect& peer = g.facts().peer_link;
  if (g.facts().segment == segment::datacenter && peer.kind == interconnect_kind::nvlink &&
      peer.generation >= 2 && peer.generation <= 5)
    return find_link("nvlink" + std::to_string(peer.generation));
  const int gen = std::clamp(g.facts().host_link.generation, 3, 5);
  return find_link("pcie" + std::to_string(gen) + "_x16");
}

// Whether @p g has tensor-core math at all.
inline bool has_tensor_cores(const gpu_spec& g) { return g.arch().tensor_cores_per_sm > 0; }

// Step 1, memory: the model's need on @p g (in @p type), else the use case's threshold.
inline void advise_memory(const advice_request& q, const gpu_spec& g, dtype type,
                          recommendation& r) {
  if (q.model == nullptr) {
    r.need = memory_threshold(q.use);
    r.margin = g.facts().memory - r.need;
    r.fits = r.margin.value() >= 0;
    r.reasons.emplace_back(std::string(r.fits ? "fits" : "does not fit") + ": " +
                           gb_text(g.facts().memory) + " against the " + gb_text(r.need) +
                           " the guide asks for " + std::string(name(q.use)));
    return;
  }
  run_config run = q.run;
  run.type = type;
  const std::string model(q.model->name);
  try {
    const fit_verdict v = check_fit(g, *q.model, run);
    r.fits = v.fits;
    r.need = v.need.total();
    r.margin = v.margin;
    if (v.fits)
      r.reasons.emplace_back("fits: " + model + " needs " + gb_text(r.need) + " of its " +
                             gb_text(v.capacity) + " (margin " + gb_text(v.margin) + ")");
    else
      r.reasons.emplace_back(
          "does not fit: " + model + " needs " + gb_text(r.need) + ", it has " +
          gb_text(v.capacity) +
          (v.max_batch > 0 ? " (largest batch that fits: " + std::to_string(v.max_batch) + ")"
                           : ""));
  } catch (const unsupported& e) {
    r.fits = false;
    r.reasons.emplace_back(std::string("cannot run it: ") + e.what());
  }
}

// Step 2, budget: N x price + host against it.
inline void advise_budget(const advice_request& q, const gpu_spec& g, money host,
                          recommendation& r) {
  const std::optional<money> price = q.prices.gpu(g);
  r.priced = price.has_value();
  if (!price) {
    r.reasons.emplace_back("no price known: give one in a price file");
    return;
  }
  r.system_cost = static_cast<double>(q.gpus) * *price + host;
  if (!q.budget) return;
  r.within_budget = r.system_cost <= *q.budget;
  r.reasons.emplace_back((r.within_budget ? "within budget: " : "over budget: ") +
                         std::to_string(q.gpus) + " x " + dollars_text(*price) + " + host " +
                         dollars_text(host) + " = " + dollars_text(r.system_cost) +
                         (r.within_budget ? " of " : " > ") + dollars_text(*q.budget));
}

// Step 3, performance per dollar, with the N-GPU scaling of a training run.
inline void advise_performance(const advice_request& q, const gpu_spec& g,
                               std::string_view reference, recommendation& r) {
  if (!r.ranked) {
    if (r.priced)
      r.reasons.emplace_back("cannot run the workload " + q.workload.name +
                             " (no datatype for it, or too little memory)");
    return;
  }
  const auto n = static_cast<double>(q.gpus);
  r.scaling = n;
  std::string scaling_text;
  if (q.gpus > 1 && q.model != nullptr && q.run.training()) {
    run_config run = q.run;
    run.type = r.ranked->type;
    run.gpus = 1;
    const link_spec& link = system_link(g);
    const cluster_estimate c = estimate_cluster(g, q.gpus, *q.model, run, link);
    r.scaling = c.speedup;
    scaling_text = "; " + std::to_string(q.gpus) + " GPUs over " + std::string(link.id) +
                   " train " + sig3(c.speedup) + "x as fast as one (" + sig3(100 * c.efficiency) +
                   " % efficiency)";
  }
  r.perf_per_dollar =
      r.ranked->relative_performance * r.scaling / n / r.ranked->system_cost.value();
  r.reasons.emplace_back("performance " + sig3(r.ranked->relative_performance) + " of " +
                         std::string(reference) + " in " + std::string(name(r.ranked->type)) +
                         " on " + q.workload.name + scaling_text + "; " +
                         sig3(1000 * r.perf_per_dollar) + " per $1000");
}

// Steps 4 and 5: power and PSU, cooling, consumer limits, tensor cores.
inline void advise_hardware(const advice_request& q, const gpu_spec& g, recommendation& r) {
  r.power = power_budget_of(g, q.gpus, q.power);
  std::string power_text =
      "power: " + std::to_string(q.gpus) + " x " + sig3(r.power.board.value()) + " W + " +
      sig3(q.power.rest_of_system.value()) + " W = " + sig3(r.power.system.value()) + " W; PSU " +
      sig3(r.power.recommended_psu.value()) + " W";
  if (r.power.warns(power_warning::psu_beyond_desktop))
    power_text += ", more than a " + sig3(q.power.desktop_psu_limit.value()) +
                  " W desktop PSU: power-limit the cards or use a server";
  r.reasons.push_back(std::move(power_text));
  const segment seg = g.facts().segment;
  const bool consumer = seg == segment::geforce || seg == segment::radeon;
  if (q.gpus > 1 && consumer)
    r.reasons.emplace_back("cooling: open-air consumer coolers stacked " + std::to_string(q.gpus) +
                           " deep run hot and throttle above about 80 C; leave a slot between "
                           "cards (10-30 C cooler) or use blower or water cooling");
  if (seg == segment::datacenter)
    r.reasons.emplace_back("cooling: passively cooled, needs a server chassis's airflow");
  if (g.consumer_tensor_rate() && g.supports(dtype::fp16, accumulator::fp16) &&
      g.peak(dtype::fp16, accumulator::fp32) < g.peak(dtype::fp16, accumulator::fp16))
    r.reasons.emplace_back(
        "consumer card: 16-bit tensor math accumulating in FP32 runs at half rate");
  if (q.gpus > 1 && !pcie_peer_to_peer(seg))
    r.reasons.emplace_back(
        "consumer card: no PCIe peer-to-peer, gradients pass through host memory");
  if (!has_tensor_cores(g))
    r.reasons.emplace_back("no tensor cores: the guide advises an RTX 2060-class card or better");
}

// Where a recommendation ranks: fits and within budget (0), fits but over budget (1), fits but
// not ranked (2), does not fit (3).
inline int advice_group(const recommendation& r) {
  if (!r.fits) return 3;
  if (!r.ranked || !r.priced) return 2;
  return r.within_budget ? 0 : 1;
}

}  // namespace detail

/// Advice for @p q over @p candidates (the catalog by default): every candidate, best first.
/// Order: fits and within budget, by performance per dollar; fits but over budget; fits but
/// cannot run the workload or has no price; does not fit (most memory first). Throws
/// invalid_argument for a GPU count other than 1, 2, 4, 8 or a negative budget, and what
/// check_fit and rank_gpus throw for a bad run.
inline std::vector<recommendation> advise(
    const advice_request& q, std::span<const gpu_spec* const> candidates = catalog::all) {
  if (q.budget && !(q.budget->value() >= 0 && detail::is_finite(q.budget->value())))
    detail::throw_invalid_argument("budget: must be >= 0 and finite");
  const money host = q.prices.host.for_gpus(q.gpus);  // throws for a count not priced
  rank_options ro;
  ro.gpus = q.gpus;
  ro.candidates = candidates;
  const std::vector<rank_entry> ranked = rank_gpus(q.workload, q.prices, ro);

  std::vector<recommendation> out;
  out.reserve(candidates.size());
  for (const gpu_spec* g : candidates) {
    recommendation r;
    r.gpu = g;
    const auto it =
        std::find_if(ranked.begin(), ranked.end(), [&](const rank_entry& e) { return e.gpu == g; });
    if (it != ranked.end()) r.ranked = *it;
    // The type the workload gave this GPU, else the run's own.
    detail::advise_memory(q, *g, r.ranked ? r.ranked->type : q.run.type, r);
    detail::advise_budget(q, *g, host, r);
    detail::advise_performance(q, *g, ro.reference->id(), r);
    detail::advise_hardware(q, *g, r);
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const recommendation& a, const recommendation& b) {
    const int ga = detail::advice_group(a);
    const int gb = detail::advice_group(b);
    if (ga != gb) return ga < gb;
    if (ga < 2) return a.perf_per_dollar > b.perf_per_dollar;
    return a.gpu->facts().memory > b.gpu->facts().memory;
  });
  return out;
}

}  // namespace dlperf
