/// @file
/// The power a deep-learning box draws, the power supply it needs, and what a GPU power limit
/// saves and costs (docs/buying.md, "Power").
///
///     GPU power          = N x board power (the catalog's TDP, or the power limit)
///     system power       = GPU power + rest of the system (CPU, board, drives, fans)
///     recommended PSU    = system power x (1 + margin)
///     clock fraction     = (limit / TDP)^(1/3)                     estimate/power_limit.hpp
///     performance        = 1 / (s / clock fraction + (1 - s))      s: clock-bound share of time
///     energy per step    = system power x step time                (every GPU at its board power)
///
/// The clock-bound share s is the time in operators whose bound runs in the SM clock domain
/// (arithmetic, registers, shared memory, L2, latency); DRAM-bound time does not slow down with
/// the SM clock. It comes from a model estimate (`clock_bound_share`) or is given.
///
/// Its functions are templates with an unused parameter (`template <class = void>`), so that
/// only a file that calls one compiles its body and the model it runs (docs/layers.md,
/// "Compile cost"); they are called as plain functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/power_limit.hpp>
#include <dlperf/model/step.hpp>

namespace dlperf {

/// The parameters of a power budget that are not facts of the GPU (docs/buying.md, "Power").
struct power_parameters {
  /// Everything but the GPUs: a 150 W CPU plus 100 W for the other components (Dettmers, A Full
  /// Hardware Guide to Deep Learning (2018), "Power supply unit": "4x250 + 150 + 100 = 1250
  /// watts", https://timdettmers.com/2018/12/16/deep-learning-hardware-guide/).
  power rest_of_system = watts(150 + 100);
  /// Headroom on top of the system power for power spikes: "I would usually add another 10%"
  /// (same source, same section).
  double psu_margin = 0.10;
  /// Largest common desktop (ATX) PSU: "The highest rated workstation PSU on the market offers
  /// at most 1600W at standard home/office voltages" (Lambda, Deep Learning Hardware Deep Dive -
  /// RTX 3090, RTX 3080, and RTX 3070, 2020,
  /// https://lambdalabs.com/blog/deep-learning-hardware-deep-dive-rtx-30xx/).
  power desktop_psu_limit = watts(1600);
  /// A US household circuit: 15 A x 120 V (the same Lambda post derates it to 80 %, 1440 W, for
  /// a continuous load; this is the breaker's nominal figure).
  power circuit_limit = watts(15 * 120);

  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    detail::require_finite("power parameters", {{"rest_of_system", rest_of_system.value()},
                                                {"psu_margin", psu_margin}});
    if (rest_of_system.value() < 0)
      detail::throw_invalid_argument("power parameters: rest_of_system must not be negative");
    if (psu_margin < 0)
      detail::throw_invalid_argument("power parameters: psu_margin must not be negative");
    detail::require_positive_finite("power parameters",
                                    {{"desktop_psu_limit", desktop_psu_limit.value()},
                                     {"circuit_limit", circuit_limit.value()}});
  }
};

/// What a power budget warns about.
enum class power_warning : std::uint8_t {
  psu_beyond_desktop,     ///< the recommended PSU is larger than the largest desktop PSU
  system_beyond_desktop,  ///< the system draws more than the largest desktop PSU delivers
  beyond_circuit          ///< the system draws more than a US 15 A circuit supplies
};

/// The warnings, their stable names and what each means.
template <>
struct enum_list<power_warning> {
  static constexpr std::string_view kind = "power warning";  ///< what the enum names
  /// Every warning.
  static constexpr std::array values{
      enumerator{power_warning::psu_beyond_desktop, "psu_beyond_desktop",
                 "the recommended PSU is larger than the largest desktop PSU"},
      enumerator{power_warning::system_beyond_desktop, "system_beyond_desktop",
                 "the system draws more than the largest desktop PSU delivers"},
      enumerator{power_warning::beyond_circuit, "beyond_circuit",
                 "the system draws more than a US 15 A household circuit supplies"}};
};

/// The power of N GPUs and the system around them.
struct power_budget {
  power board{};                               ///< per GPU: its TDP, or the power limit
  long long count = 0;                         ///< GPUs
  power gpus{};                                ///< count x board
  power system{};                              ///< gpus + rest of the system
  power recommended_psu{};                     ///< system x (1 + margin)
  enum_array<power_warning, bool> warnings{};  ///< which warnings apply

  /// Whether warning @p w applies.
  [[nodiscard]] constexpr bool warns(power_warning w) const { return warnings[w]; }
  /// What a PSU of @p psu leaves for everything but the GPUs (negative: not even the GPUs fit).
  [[nodiscard]] constexpr power left_by(power psu) const { return psu - gpus; }
};

/// The power budget of @p count GPUs drawing @p board each (a TDP or a power limit) under @p p.
/// Throws invalid_argument for a count below 1, a negative or non-finite board power, or bad
/// parameters.
constexpr power_budget power_budget_of(power board, long long count,
                                       const power_parameters& p = {}) {
  p.validate();
  detail::require_positive(count, "power budget", "count");
  detail::require_positive_finite("power budget", {{"board power", board.value()}});
  power_budget b;
  b.board = board;
  b.count = count;
  b.gpus = count * board;
  b.system = b.gpus + p.rest_of_system;
  b.recommended_psu = b.system * (1.0 + p.psu_margin);
  b.warnings[power_warning::psu_beyond_desktop] = b.recommended_psu > p.desktop_psu_limit;
  b.warnings[power_warning::system_beyond_desktop] = b.system > p.desktop_psu_limit;
  b.warnings[power_warning::beyond_circuit] = b.system > p.circuit_limit;
  return b;
}

/// Parameters @p p for a system of boards of form @p f: a system-on-chip's board power is its
/// whole machine's at the wall (Apple's maximum for a Mac), so nothing is added for the rest of
/// the system; any other form keeps @p p.
constexpr power_parameters power_parameters_for(form_factor f, power_parameters p = {}) {
  if (f == form_factor::integrated) p.rest_of_system = watts(0);
  return p;
}

/// The power budget of @p count GPUs @p g at their board power (the catalog's TDP), the rest of
/// the system as power_parameters_for its form factor.
template <class G>
requires requires(const G& g) { g.facts().tdp; }
constexpr power_budget power_budget_of(const G& g, long long count,
                                       const power_parameters& p = {}) {
  return power_budget_of(g.facts().tdp, count, power_parameters_for(g.facts().form, p));
}

/// Watts saved by limiting @p count GPUs of board power @p tdp to @p limit each.
constexpr power power_limit_saving(power tdp, power limit, long long count) {
  check_power_limit(limit, tdp);
  detail::require_positive(count, "power limit", "count");
  return count * (tdp - limit);
}

/// Whether time bound by @p b runs at the SM clock: arithmetic, the on-chip memories (registers,
/// shared memory, L2) and latency do; DRAM, an off-die last-level cache (AMD's Infinity Cache, on
/// its own fabric clock) and the links between GPUs do not.
constexpr bool scales_with_sm_clock(bound b) {
  return b != bound::global && b != bound::llc && b != bound::interconnect;
}

/// The share of @p e's operator time that scales with the SM clock (see scales_with_sm_clock),
/// over every operator kind and phase; 0 for an estimate without operators.
constexpr double clock_bound_share(const model_estimate& e) {
  double all = 0, clocked = 0;
  for (op_kind k : enum_values<op_kind>) {
    const double t = e.time_of(k).value();
    all += t;
    for (bound b : enum_values<bound>)
      if (scales_with_sm_clock(b)) clocked += t * e.bound_share(k, b);
  }
  return all > 0 ? clocked / all : 0.0;
}

/// Speed of a workload, as a fraction of its speed at the board power, when the clock-bound
/// share @p share of its time runs at @p clock (a fraction) and the rest does not slow:
/// 1 / (share / clock + 1 - share). Throws invalid_argument for a share outside [0, 1] or a
/// clock fraction outside (0, 1].
constexpr double performance_fraction(double share, double clock) {
  if (!(share >= 0.0 && share <= 1.0))
    detail::throw_invalid_argument("power limit: compute share must be in [0, 1], got " +
                                   std::to_string(share));
  if (!(clock > 0.0 && clock <= 1.0))
    detail::throw_invalid_argument("power limit: clock fraction must be in (0, 1], got " +
                                   std::to_string(clock));
  return 1.0 / (share / clock + (1.0 - share));
}

/// Speed under a power limit of a workload whose clock-bound share of time is @p share.
template <class = void>
double performance_fraction(double share, power limit, power tdp) {
  return performance_fraction(share, clock_fraction(limit, tdp));
}

/// Speed under a power limit of the workload @p e estimates (its share from clock_bound_share).
template <class = void>
double performance_fraction(const model_estimate& e, power limit, power tdp) {
  return performance_fraction(clock_bound_share(e), limit, tdp);
}

/// Energy of one step (or batch, or generation) of @p e in the system of @p b: system power x
/// step time, every GPU drawing its board power for the whole step (100 % GPU utilisation).
constexpr energy energy_per_step(const power_budget& b, const model_estimate& e) {
  return b.system * e.time;
}

/// Energy per generated or processed token (0 when @p e has no tokens): energy_per_step over
/// the tokens of every replica.
constexpr energy energy_per_token(const power_budget& b, const model_estimate& e) {
  const double tokens = e.tokens * static_cast<double>(e.replicas);
  return tokens > 0 ? energy_per_step(b, e) / tokens : energy{};
}

}  // namespace dlperf
