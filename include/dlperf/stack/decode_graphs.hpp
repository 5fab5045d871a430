/// @file
/// How far a serving engine replays its decode steps as CUDA graphs (docs/stacks.md,
/// @ref stacks_decode_graphs "Decode steps beyond the captured graphs"). An engine captures a
/// graph per batch size up to a limit when it starts (SGLang's `cuda_graph_max_bs`); a decode
/// step of more sequences runs its model code eagerly, every kernel launched from the framework
/// at a module call's host time, which at large batches outlasts the step's small kernels (its
/// norms, rotary embeddings, activations and residual adds). The step then costs each operator
/// the longer of its device time and its kernels' host time, as any stack's does, at the eager
/// figure instead of the graph's.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/stack/stack_figure.hpp>

namespace dlperf {

/// The batch sizes a stack's decode steps replay as CUDA graphs, and the host time per kernel of
/// a larger step, which runs eagerly. A stack without a limit (the default) replays every decode
/// step at its own host_overhead, or has no graphs at all.
struct decode_graph_limit {
  /// The largest batch captured on GPUs of at least `from` bytes of memory.
  struct tier {
    byte_count from{};        ///< the least GPU memory the tier applies to
    long long max_batch = 0;  ///< the largest decode batch replayed as a graph; 0: no tier
  };
  /// The tiers, by `from` ascending; the first has `from` 0. All max_batch 0: no limit.
  std::array<tier, 3> tiers{};
  /// Host time per kernel of a decode step above the limit (its framework's eager op call).
  stack_host_time eager_host_overhead{{}, "s per kernel", "none"};
  std::string_view source{};  ///< where the limits come from (file, release, read date)

  /// Whether decode steps above some batch run eagerly.
  [[nodiscard]] constexpr bool limited() const { return tiers[0].max_batch > 0; }
  /// The largest decode batch replayed as a graph on a GPU of @p memory bytes (limited() only).
  [[nodiscard]] constexpr long long max_batch_on(byte_count memory) const {
    long long out = tiers[0].max_batch;
    for (const tier& t : tiers)
      if (t.max_batch > 0 && memory >= t.from) out = t.max_batch;
    return out;
  }
  /// Whether a decode step of @p batch sequences on a GPU of @p memory bytes runs eagerly.
  [[nodiscard]] constexpr bool eager_at(long long batch, byte_count memory) const {
    return limited() && batch > max_batch_on(memory);
  }

  /// Throws invalid_argument naming stack @p stack when the tiers are out of order or empty
  /// ones precede set ones, a limit is negative, or the eager host time is not finite and >= 0.
  constexpr void validate(std::string_view stack) const {
    const auto bad = [&](const char* what) {
      detail::throw_invalid_argument("stack " + std::string(stack) + ": decode graphs " + what);
    };
    if (!limited()) {
      for (const tier& t : tiers)
        if (t.max_batch != 0) bad("need their first tier set before later ones");
      return;
    }
    if (tiers[0].from != byte_count{}) bad("need a first tier from 0 bytes");
    for (std::size_t i = 0; i < tiers.size(); ++i) {
      if (tiers[i].max_batch < 0) bad("limits must be >= 0");
      if (i > 0 && tiers[i].max_batch > 0 &&
          (tiers[i - 1].max_batch == 0 || !(tiers[i].from > tiers[i - 1].from)))
        bad("tiers must rise in memory, each after a set one");
    }
    if (!eager_host_overhead.in_domain()) bad("eager host time must be finite and >= 0");
  }
};

}  // namespace dlperf
