/// @file
/// Renting instead of buying (docs/buying.md, "Renting"): every GPU with a cloud price (a price
/// file's, else the built-in reference offer, buying/cloud_prices.hpp), at the fewest of 1, 2, 4
/// and 8 that hold the model (its fastest split there, `smallest_fitting_split`), ranked by what a
/// task costs: dollars per million tokens, generated ones for inference, trained ones for
/// training.
///
///     cost per hour        = N x price per GPU-hour
///     tokens per second    = requests (or samples) per second of the N GPUs x tokens of each
///     cost per 1M tokens   = cost per hour / (tokens per second x 3600) x 10^6
///
/// The run is the one given (its batch, prompt and answer): a batch-1 chat request costs far more
/// per token than a batch of 64 served together, and the ranking says which it priced.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include <dlperf/buying/cloud_prices.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf {

/// One GPU rented for a task.
struct rental {
  const gpu_spec* gpu = nullptr;     ///< the GPU
  split_choice split;                ///< the splits tried and the one chosen
  hourly_price per_gpu_hour{};       ///< the price of one GPU
  std::optional<cloud_offer> offer;  ///< the built-in offer priced at (none: a price file's)
  hourly_price per_hour{};           ///< the N GPUs
  double tokens_per_second = 0;      ///< generated (inference) or trained tokens, all N GPUs
  money per_million_tokens{};        ///< what a million such tokens cost
  dtype type = dtype::bf16;          ///< the type it ran

  /// GPUs rented.
  [[nodiscard]] long long gpus() const { return split.chosen ? split.chosen->split.gpus : 0; }
};

/// Tokens each request (or sample) of run @p r counts: the generated ones of decoder inference,
/// every token of a training sample or an encoder's batch. Throws invalid_argument for decoder
/// inference that generates nothing (its cost per generated token is not defined).
template <class = void>
double tokens_per_request(const model_spec& m, const run_config& r) {
  if (m.kind != model_kind::transformer)
    detail::throw_invalid_argument("rent: prices tokens, and " + std::string(m.name) +
                                   " is not a transformer");
  if (!r.training() && m.transformer.generates()) {
    if (r.generate < 1)
      detail::throw_invalid_argument(
          "rent: an inference run is priced per generated token; give generate >= 1");
    return static_cast<double>(r.generate);
  }
  // A sample's useful tokens: a padded document (run.document without packing) trains only its
  // own tokens, not the padding up to seq.
  const detail::transformer_shapes s = detail::transformer_shapes::of(m.transformer, r);
  return s.batch > 0 ? s.useful_tokens / static_cast<double>(s.batch) : static_cast<double>(s.seq);
}

/// Every GPU of @p gpus with a cloud price in @p prices, renting run @p r of @p m at its fewest
/// GPUs that hold it (each under its vendor's build of r's stack, `best_split`), cheapest per
/// million tokens first; each GPU runs the first type of @p precision it has (r's own type
/// under `as_given`). GPUs without a price, without the type, or on which no split of up to 8
/// fits are left out.
template <class = void>
std::vector<rental> rank_rentals(const model_spec& m, const run_config& r,
                                 const price_table& prices, std::span<const gpu_spec* const> gpus,
                                 precision_choice precision = precision_choice::as_given) {
  const double tokens = tokens_per_request(m, r);
  const std::vector<dtype> candidates = precision_dtypes(precision, r.type);
  std::vector<rental> out;
  for (const gpu_spec* g : gpus) {
    const std::optional<hourly_price> price = prices.cloud_hourly(g->id());
    if (!price) continue;
    run_config run = r;
    const auto type = std::find_if(candidates.begin(), candidates.end(),
                                   [&](dtype t) { return g->supports(t, default_accumulator(t)); });
    if (type == candidates.end()) continue;
    run.type = *type;
    rental x;
    x.type = *type;
    x.gpu = g;
    x.per_gpu_hour = *price;
    x.offer = prices.built_in_cloud_offer(g->id());
    x.split = smallest_fitting_split(*g, m, run);
    if (!x.split.chosen) continue;
    x.per_hour = static_cast<double>(x.gpus()) * x.per_gpu_hour;
    x.tokens_per_second = x.split.chosen->samples_per_second * tokens;
    x.per_million_tokens =
        dollars(in_dollars_per_hour(x.per_hour) / (x.tokens_per_second * 3600.0) * 1e6);
    out.push_back(std::move(x));
  }
  std::stable_sort(out.begin(), out.end(), [](const rental& a, const rental& b) {
    return a.per_million_tokens < b.per_million_tokens;
  });
  return out;
}

}  // namespace dlperf
