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

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include <dlperf/buying/tco.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf {

/// The average price US households paid for electricity in 2023, USD per kWh: 15.98 US cents
/// (U.S. Energy Information Administration's residential average retail price, as Statista's
/// series of it reports; EIA's monthly figures for 2024 ran 15.45-16.88 cents, Electricity
/// Monthly Update, January and April 2024, https://www.eia.gov/electricity/monthly/update/).
inline constexpr double us_residential_usd_per_kwh_2023 = 0.1598;

/// The average price US commercial customers paid for electricity in 2022, USD per kWh: 12.41 US
/// cents (U.S. Department of Energy figures, as the 2024 Competitiveness Redbook's Table 43 prints
/// them; EIA's March 2023 monthly figure was 12.52 cents). EIA counts data centres in the
/// commercial sector ("Commercial electricity demand grew fastest in states with rapid computing
/// facility growth", Today in Energy, 28 June 2024).
inline constexpr double us_commercial_usd_per_kwh_2022 = 0.1241;

/// A data centre's power usage effectiveness: the facility's energy over its IT equipment's, the
/// cooling, power conversion and lighting a server's own draw does not count. 1.58 is the average
/// of the Uptime Institute's Global Data Center Survey 2023 (flat at 1.55-1.59 since 2019; large
/// hyperscale sites report 1.1-1.2).
inline constexpr double data_centre_pue_2023 = 1.58;

/// Where an owned system runs, which decides what a kWh of its draw costs.
enum class site : std::uint8_t {
  desk,        ///< at home or in an office: the wall socket's (residential) price
  data_centre  ///< a server room: the commercial price times the facility's PUE
};

/// The sites, their stable names and what each costs.
template <>
struct enum_list<site> {
  static constexpr std::string_view kind = "site";  ///< what the enum names
  /// Every site.
  static constexpr std::array values{
      enumerator{site::desk, "desk", "a desktop or workstation at the wall socket's price"},
      enumerator{site::data_centre, "data_centre",
                 "a server in a data centre: commercial price x PUE"}};
};

/// Where a system of GPUs of segment @p s runs: data-centre boards are passively cooled and need
/// a server chassis's airflow (the reason advice gives them), so they run in a data centre; every
/// other board, and every Mac, at a desk.
constexpr site site_of(segment s) {
  return s == segment::datacenter ? site::data_centre : site::desk;
}

/// How long and how hard an owned system works, and what its electricity costs.
struct ownership_terms {
  /// Years the system is kept: the 2020 edition of Dettmers' guide (Which GPU(s) to Get for Deep
  /// Learning) advises selling and buying the next generation after about three years.
  double years = 3;
  /// Share of the time it is busy: the guide's personal desktop (utilization_preset::personal).
  double utilization = utilization_of(utilization_preset::personal);
  /// A kWh at a desk: the 2023 US residential average.
  energy_price kwh_price = dollars_per_kwh(us_residential_usd_per_kwh_2023);
  /// A kWh a server draws in a data centre, the facility's share included: the US commercial
  /// average times the average PUE (0.196 USD: dearer than a home's kWh, for the cooling).
  energy_price data_centre_kwh_price =
      dollars_per_kwh(us_commercial_usd_per_kwh_2022 * data_centre_pue_2023);

  /// One price for every site (a user's own tariff, the facility's share included).
  constexpr void set_kwh_price(energy_price p) {
    kwh_price = p;
    data_centre_kwh_price = p;
  }
  /// What a kWh of a system's draw costs at site @p s.
  [[nodiscard]] constexpr energy_price kwh_price_at(site s) const {
    return s == site::data_centre ? data_centre_kwh_price : kwh_price;
  }

  /// Throws invalid_argument naming the first field out of its domain: years and utilisation
  /// must be positive (utilisation at most 1), the prices not negative; all finite.
  constexpr void validate() const {
    detail::require_positive_finite("ownership", {{"years", years}, {"utilization", utilization}});
    if (utilization > 1.0)
      detail::throw_invalid_argument("ownership: utilization must be in (0, 1], got " +
                                     std::to_string(utilization));
    detail::require_finite("ownership", {{"kWh price", kwh_price.value()},
                                         {"data-centre kWh price", data_centre_kwh_price.value()}});
    if (kwh_price.value() < 0 || data_centre_kwh_price.value() < 0)
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
/// @p tasks_per_second at site @p where, under terms @p t. Throws invalid_argument for a rate that
/// is not positive and finite, a negative or non-finite price or power, or terms out of their
/// domain.
constexpr task_cost cost_per_task(money system_price, power system_power, double tasks_per_second,
                                  const ownership_terms& t, site where = site::desk) {
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
  return {system_price / tasks, dollars(joules_per_task * t.kwh_price_at(where).value())};
}

}  // namespace dlperf
