/// @file
/// What a task costs on a system one owns (docs/buying.md, "Advice"): its price spread over the
/// work it does while owned, plus the electricity that work draws.
///
///     busy seconds     = years x 365 d x 24 h x 3600 s x utilisation
///     tasks            = tasks per second x busy seconds
///     cost per task    = (system price + system W x busy seconds x price per kWh) / tasks
///
/// Resale value at the end is left out (it is unknown at purchase), so the figure is what owning
/// costs when the system is kept until it is worth nothing: an upper bound for cards that keep
/// their value, as the used market of 2026 shows several do.
#pragma once

#include <initializer_list>
#include <string>

#include <dlperf/buying/tco.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// The average price US households paid for electricity in 2023, USD per kWh: 15.98 US cents
/// (U.S. Energy Information Administration's residential average retail price, as Statista's
/// series of it reports; EIA's monthly figures for 2024 ran 15.45-16.88 cents, Electricity
/// Monthly Update, January and April 2024, https://www.eia.gov/electricity/monthly/update/).
inline constexpr double us_residential_usd_per_kwh_2023 = 0.1598;

/// How long and how hard an owned system works, and what its electricity costs.
struct ownership_terms {
  /// Years the system is kept: the 2020 edition of Dettmers' guide (Which GPU(s) to Get for Deep
  /// Learning) advises selling and buying the next generation after about three years.
  double years = 3;
  /// Share of the time it is busy: the guide's personal desktop (utilization_preset::personal).
  double utilization = utilization_of(utilization_preset::personal);
  energy_price kwh_price = dollars_per_kwh(us_residential_usd_per_kwh_2023);  ///< electricity

  /// Throws invalid_argument naming the first field out of its domain: years and utilisation
  /// must be positive (utilisation at most 1), the price not negative; all finite.
  constexpr void validate() const {
    detail::require_positive_finite("ownership", {{"years", years}, {"utilization", utilization}});
    if (utilization > 1.0)
      detail::throw_invalid_argument("ownership: utilization must be in (0, 1], got " +
                                     std::to_string(utilization));
    detail::require_finite("ownership", {{"kWh price", kwh_price.value()}});
    if (kwh_price.value() < 0)
      detail::throw_invalid_argument("ownership: kWh price must not be negative");
  }

  /// Seconds the system is busy while owned.
  [[nodiscard]] constexpr double busy_seconds() const {
    return years * calendar::days_per_year * calendar::seconds_per_day * utilization;
  }
};

/// What one task costs on an owned system, split into its two parts.
struct task_cost {
  money purchase{};     ///< the system's price over the tasks it does while owned
  money electricity{};  ///< the energy of one task at the system's power
  /// The sum.
  [[nodiscard]] constexpr money total() const { return purchase + electricity; }
};

/// One task's cost on a system priced @p system_price drawing @p system_power while it does
/// @p tasks_per_second, under terms @p t. Throws invalid_argument for a rate that is not positive
/// and finite, a negative or non-finite price or power, or terms out of their domain.
constexpr task_cost cost_per_task(money system_price, power system_power, double tasks_per_second,
                                  const ownership_terms& t) {
  t.validate();
  detail::require_positive_finite("cost per task", {{"tasks per second", tasks_per_second}});
  detail::require_finite("cost per task", {{"system price", system_price.value()},
                                           {"system power", system_power.value()}});
  if (system_price.value() < 0 || system_power.value() < 0)
    detail::throw_invalid_argument("cost per task: price and power must not be negative");
  const double busy = t.busy_seconds();
  const double tasks = tasks_per_second * busy;
  // Energy per task = W x s per task; J x USD/J.
  const double joules_per_task = system_power.value() / tasks_per_second;
  return {system_price / tasks, dollars(joules_per_task * t.kwh_price.value())};
}

}  // namespace dlperf
