/// @file
/// Speed-up of one GPU over another, two ways (docs/buying.md, "Speed-up between two GPUs"):
///
/// - **the guide's rule** (Dettmers, Which GPU(s) to Get for Deep Learning, 2020 edition,
///   https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/): the ratio of DRAM
///   bandwidths times, for every generation crossed between the two GPUs, that generation's
///   factors for its larger shared memory / L1 and for its tensor cores (a low-high range each).
///   The factors are hardware facts held by the architecture entries
///   (`architecture_spec::rule_factors`, each with its source); going back a generation divides
///   by them. Within one generation the rule is the bandwidth ratio (2018 edition: GTX 1080 over
///   GTX 1070 = 320 / 256 = 1.25).
///
///       speed-up(from -> to) = BW(to) / BW(from) x prod_{generations into to} f
///                                               / prod_{generations into from} f
///
///   The rule does not apply, and `speedup_by_rule` throws `unsupported`, between a GPU with
///   tensor cores and one without (the guide: bandwidth predicts speed only once both run their
///   matrix math on tensor cores) and between architectures that no line of generations joins
///   (NVIDIA and AMD).
/// - **modelled**: the ratio of the two GPUs' whole-model step times from `estimate_run`
///   (model/stacked.hpp: under the run's software stack) for one model and run.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/architectures.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/step.hpp>

namespace dlperf {

/// The guide's rule for one pair of GPUs: its inputs and the resulting low-high speed-up.
struct rule_speedup {
  bandwidth from_bandwidth{};  ///< DRAM bandwidth of the GPU compared against
  bandwidth to_bandwidth{};    ///< DRAM bandwidth of the GPU whose speed-up this is
  factor_range shared_memory;  ///< product of the shared-memory factors over the generations
  factor_range tensor_cores;   ///< product of the tensor-core factors over the generations
  std::vector<std::string_view> gained;  ///< architectures stepped into towards `to`
  std::vector<std::string_view> lost;    ///< architectures stepped out of, leaving `from`

  /// BW(to) / BW(from).
  [[nodiscard]] constexpr double bandwidth_ratio() const {
    return to_bandwidth.value() / from_bandwidth.value();
  }
  /// The speed-up of `to` over `from`: bandwidth ratio x shared memory x tensor cores.
  [[nodiscard]] constexpr factor_range speedup() const {
    return {bandwidth_ratio() * shared_memory.low * tensor_cores.low,
            bandwidth_ratio() * shared_memory.high * tensor_cores.high};
  }
};

namespace detail {

// The line of generations from @p a back to the oldest of its line: a itself, then each
// `rule_factors.previous`.
// A device read from a file carries its architecture's facts but not the rule's factors: the
// catalog's entry of the same name stands in for it where there is one.
DLPERF_CONSTEXPR_VECTOR std::vector<const architecture_spec*> generation_line(
    const architecture_spec& a) {
  const architecture_spec* first = &a;
  for (const architecture_spec& known : all_architectures)
    if (known.name == a.name) first = &known;
  std::vector<const architecture_spec*> line{first};
  while (!line.back()->rule_factors.previous.empty() && line.size() <= all_architectures.size())
    line.push_back(&find_architecture(line.back()->rule_factors.previous));
  return line;
}

// Index in @p line of the first architecture of family @p f, or -1.
constexpr long long index_of_family(const std::vector<const architecture_spec*>& line, family f) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i]->family == f) return static_cast<long long>(i);
  return -1;
}

}  // namespace detail

/// The guide's speed-up of @p to over @p from (docs/buying.md, "Speed-up between two GPUs").
/// Walks each GPU's line of generations back to the first generation they share (two
/// architectures of one family, GA100 and GA10x, are one generation) and multiplies the factors
/// of the generations on @p to's side, divides by those on @p from's side. Throws unsupported
/// when one GPU has tensor cores and the other not, or when no generation joins them.
template <gemm_device From, gemm_device To>
DLPERF_CONSTEXPR_VECTOR rule_speedup speedup_by_rule(const From& from, const To& to) {
  const architecture_spec& a = from.arch();
  const architecture_spec& b = to.arch();
  const std::string pair = std::string(from.name()) + " and " + std::string(to.name());
  if ((a.tensor_cores_per_sm > 0) != (b.tensor_cores_per_sm > 0))
    detail::throw_unsupported(
        "the bandwidth rule does not apply between " + pair + ": " +
        std::string(a.tensor_cores_per_sm > 0 ? to.name() : from.name()) +
        " has no tensor cores (the guide compares bandwidth only between GPUs that both have "
        "them)");
  const std::vector<const architecture_spec*> from_line = detail::generation_line(a);
  const std::vector<const architecture_spec*> to_line = detail::generation_line(b);
  // The first architecture on `to`'s line whose generation is on `from`'s line.
  long long to_meet = -1, from_meet = -1;
  for (std::size_t i = 0; i < to_line.size() && to_meet < 0; ++i) {
    const long long j = detail::index_of_family(from_line, to_line[i]->family);
    if (j >= 0) {
      to_meet = static_cast<long long>(i);
      from_meet = j;
    }
  }
  if (to_meet < 0)
    detail::throw_unsupported("the bandwidth rule does not apply between " + pair + ": " +
                              std::string(a.name) + " and " + std::string(b.name) +
                              " share no line of generations (the guide's factors are stated "
                              "between NVIDIA generations)");
  rule_speedup r{
      from.memory(tier::global).throughput, to.memory(tier::global).throughput, {}, {}, {}, {}};
  for (long long i = 0; i < to_meet; ++i) {
    const generation_factors& g = to_line[static_cast<std::size_t>(i)]->rule_factors;
    r.shared_memory = {r.shared_memory.low * g.shared_memory.low,
                       r.shared_memory.high * g.shared_memory.high};
    r.tensor_cores = {r.tensor_cores.low * g.tensor_cores.low,
                      r.tensor_cores.high * g.tensor_cores.high};
    r.gained.push_back(to_line[static_cast<std::size_t>(i)]->name);
  }
  // Going back a generation divides by its factors: the low end by the high factor.
  for (long long i = 0; i < from_meet; ++i) {
    const generation_factors& g = from_line[static_cast<std::size_t>(i)]->rule_factors;
    r.shared_memory = {r.shared_memory.low / g.shared_memory.high,
                       r.shared_memory.high / g.shared_memory.low};
    r.tensor_cores = {r.tensor_cores.low / g.tensor_cores.high,
                      r.tensor_cores.high / g.tensor_cores.low};
    r.lost.push_back(from_line[static_cast<std::size_t>(i)]->name);
  }
  return r;
}

/// The modelled speed-up of one GPU over another for one model and run.
struct model_speedup {
  model_estimate from;  ///< the step on the GPU compared against
  model_estimate to;    ///< the step on the GPU whose speed-up this is

  /// Step time on `from` over step time on `to` (the same samples per step on both).
  [[nodiscard]] constexpr double ratio() const { return from.time.value() / to.time.value(); }
};

/// The modelled speed-up of @p to over @p from: the ratio of their step times from
/// `estimate_run(device, model, run)`, each under the run's software stack as built for its
/// vendor (`stacks::build_for`: llama.cpp is llama.cpp-rocm on an AMD GPU and llama.cpp-metal on
/// a Mac; docs/models.md, docs/stacks.md). Throws what estimate_model throws (unsupported when a
/// GPU cannot run the run's datatype, or its vendor has no build of the stack).
template <gemm_device From, gemm_device To>
DLPERF_CONSTEXPR_VECTOR model_speedup speedup_by_model(const From& from, const To& to,
                                                       const model_spec& model,
                                                       const run_config& run) {
  run_config on_from = run, on_to = run;
  on_from.stack = stacks::build_for(run.stack, from.arch().vendor);
  on_to.stack = stacks::build_for(run.stack, to.arch().vendor);
  return {estimate_run(from, model, on_from), estimate_run(to, model, on_to)};
}

}  // namespace dlperf
