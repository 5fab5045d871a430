/// @file
/// A training or fine-tuning job as a buyer prices it (docs/buying.md, "Advice" and "Renting"):
/// epochs over a dataset of tokens, whose time and cost follow from a system's rate and its cost
/// per million trained tokens.
///
///     tokens      = dataset tokens x epochs
///     time        = tokens / trained tokens per second
///     cost        = tokens / 10^6 x cost per million trained tokens
#pragma once

#include <string>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// Epochs over a dataset.
struct training_job {
  double dataset_tokens = 0;  ///< tokens in the dataset (a sample's useful tokens, summed)
  double epochs = 1;          ///< passes over it

  /// The most tokens a job may hold: 10^15, a thousand times the largest published pretraining
  /// runs' 15 T tokens (Llama 3), so a sum over it stays a readable figure.
  static constexpr double max_tokens = 1e15;

  /// Throws invalid_argument naming the field unless the dataset has at least one token, the
  /// epochs are positive and the job holds at most max_tokens; all finite.
  constexpr void validate() const {
    detail::require_positive_finite("training job",
                                    {{"dataset tokens", dataset_tokens}, {"epochs", epochs}});
    if (dataset_tokens < 1)
      detail::throw_invalid_argument("training job: dataset tokens must be at least 1");
    if (tokens() > max_tokens)
      detail::throw_invalid_argument("training job: dataset tokens x epochs must be at most 1e15");
  }
  /// Tokens trained on over the job.
  [[nodiscard]] constexpr double tokens() const { return dataset_tokens * epochs; }
  /// Seconds the job takes at @p tokens_per_second (positive and finite).
  [[nodiscard]] constexpr double seconds_at(double tokens_per_second) const {
    detail::require_positive_finite("training job", {{"tokens per second", tokens_per_second}});
    return tokens() / tokens_per_second;
  }
  /// What the job costs at @p per_million trained tokens.
  [[nodiscard]] constexpr money cost_at(money per_million) const {
    return per_million * (tokens() / 1e6);
  }
};

}  // namespace dlperf
