/// @file
/// Cloud or desktop: what a desktop costs over a period (its price plus electricity) against
/// renting a cloud GPU for the same hours, the break-even, and the carbon of the electricity
/// (docs/buying.md, "Cloud or desktop").
///
///     energy per year       = (GPU W + other W) x utilisation x 24 h x 365 d
///     electricity per year  = energy per year x price per kWh
///     cloud cost            = hourly price x utilisation x 24 h x days
///     desktop cost          = system price + electricity per year x started years
///     break-even            = system price / (cloud per day - electricity per day)
///     CO2 per year          = energy per year x grid intensity
///
/// Electricity is charged per started year of use, the convention of the worked example this
/// reproduces (Dettmers, Which GPU(s) to Get for Deep Learning, 2020 edition); the break-even is
/// solved with electricity per day (pro rata), as that example's "$0.19/day" does.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// How much of the time a GPU is busy, by who owns it (Dettmers, Which GPU(s) to Get for Deep
/// Learning, 2020 edition: personal machines 5-15 %, a PhD student's shared Slurm cluster more
/// than 35 %, a company-wide cluster more than 60 %).
enum class utilization_preset : std::uint8_t {
  personal,  ///< a personal desktop: 5-15 %; the preset takes 15 %, as the guide's example
  shared,    ///< a PhD group's shared Slurm cluster: more than 35 %; the preset takes 35 %
  company    ///< a company-wide cluster: more than 60 %; the preset takes 60 %
};

/// The utilisation presets, their stable names and what each means.
template <>
struct enum_list<utilization_preset> {
  static constexpr std::string_view kind = "utilization preset";  ///< what the enum names
  /// Every preset.
  static constexpr std::array values{
      enumerator{utilization_preset::personal, "personal", "a personal desktop, 5-15 % (15 %)"},
      enumerator{utilization_preset::shared, "shared",
                 "a PhD group's shared Slurm cluster, more than 35 % (35 %)"},
      enumerator{utilization_preset::company, "company",
                 "a company-wide cluster, more than 60 % (60 %)"}};
};

/// The utilisation preset @p p stands for: the top of the personal range (the guide's own
/// example uses it) and the lower bounds of the clusters' "more than" figures.
constexpr double utilization_of(utilization_preset p) {
  constexpr enum_array<utilization_preset, double> values{{{0.15, 0.35, 0.60}}};
  return values[p];
}

/// How the desktop's electricity is charged over a period.
enum class electricity_billing : std::uint8_t {
  per_started_year,  ///< a full year of electricity for every started year (the guide's example)
  pro_rata           ///< electricity for the days of the period only
};

/// The billing conventions and their stable names.
template <>
struct enum_list<electricity_billing> {
  static constexpr std::string_view kind = "electricity billing";  ///< what the enum names
  /// Every convention.
  static constexpr std::array values{
      enumerator{electricity_billing::per_started_year, "per_started_year",
                 "a full year of electricity for every started year"},
      enumerator{electricity_billing::pro_rata, "pro_rata", "electricity for the days used"}};
};

/// Seconds in a day, and days in the year the sums below use (no leap days).
namespace calendar {
inline constexpr double seconds_per_day = 24.0 * 3600.0;  ///< 86,400 s
inline constexpr double days_per_year = 365.0;            ///< the guide's 365-day year
/// A duration of @p d days.
constexpr duration days(double d) { return seconds(d * seconds_per_day); }
/// The value of @p t in days.
constexpr double in_days(duration t) { return t.value() / seconds_per_day; }
}  // namespace calendar

/// Average carbon intensity of US electricity, kg of CO2 per kWh: 1,532 million metric tons of
/// CO2 from 4,183,271 million kWh of utility-scale net generation in 2023 (U.S. Energy
/// Information Administration, "How much carbon dioxide is produced per kilowatthour of U.S.
/// electricity generation?", https://www.eia.gov/tools/faqs/faq.php?id=74&t=11; about 0.81 lb
/// per kWh). CO2 only: methane and nitrous oxide add about 1 % as CO2e.
inline constexpr double us_grid_kg_co2_per_kwh = 1532e9 / 4183271e6;

/// A desktop against the cloud (docs/buying.md, "Cloud or desktop").
struct tco_inputs {
  power gpu{};                  ///< the GPUs' power (all of them) while busy
  power other{};                ///< the rest of the system (CPU, ...) while busy
  double utilization = 0.15;    ///< fraction of the time the machine is busy, in [0, 1]
  energy_price kwh_price{};     ///< electricity price
  money system_price{};         ///< the desktop's price
  hourly_price cloud_hourly{};  ///< the cloud instance's price while rented
  duration period = calendar::days(calendar::days_per_year);  ///< how long it is used
  double grid_kg_co2_per_kwh = us_grid_kg_co2_per_kwh;        ///< carbon intensity of the grid
  electricity_billing billing = electricity_billing::per_started_year;  ///< see the enum

  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    detail::require_finite("tco", {{"gpu watts", gpu.value()},
                                   {"other watts", other.value()},
                                   {"utilization", utilization},
                                   {"kWh price", kwh_price.value()},
                                   {"system price", system_price.value()},
                                   {"cloud hourly price", in_dollars_per_hour(cloud_hourly)},
                                   {"grid kg CO2 per kWh", grid_kg_co2_per_kwh}});
    if (!(utilization >= 0.0 && utilization <= 1.0))
      detail::throw_invalid_argument("tco: utilization must be in [0, 1], got " +
                                     std::to_string(utilization));
    for (const auto& [field, v] : std::initializer_list<detail::named<double>>{
             {"gpu watts", gpu.value()},
             {"other watts", other.value()},
             {"kWh price", kwh_price.value()},
             {"system price", system_price.value()},
             {"cloud hourly price", in_dollars_per_hour(cloud_hourly)},
             {"grid kg CO2 per kWh", grid_kg_co2_per_kwh}})
      if (v < 0)
        detail::throw_invalid_argument(std::string("tco: ") + field +
                                       " must not be negative, got " + std::to_string(v));
    detail::require_positive_finite("tco", {{"period", period.value()}});
  }
};

/// The sums of a desktop against the cloud.
struct tco_result {
  energy energy_per_year{};            ///< (GPU + other) x utilisation x 365 days
  money electricity_per_year{};        ///< energy per year x price
  money electricity_per_day{};         ///< electricity per year / 365
  money cloud_per_day{};               ///< hourly price x utilisation x 24
  money cloud{};                       ///< the cloud over the period
  money desktop{};                     ///< system price + electricity over the period (billing)
  std::optional<duration> break_even;  ///< when the desktop becomes cheaper; none if never
  double co2_kg_per_year = 0;          ///< kg of CO2 from a year's electricity

  /// Whether the desktop costs no more than the cloud over the period.
  [[nodiscard]] constexpr bool desktop_cheaper() const { return desktop <= cloud; }
};

/// A desktop against the cloud under @p in. Throws invalid_argument for bad inputs.
constexpr tco_result total_cost(const tco_inputs& in) {
  in.validate();
  using calendar::days_per_year;
  using calendar::seconds_per_day;
  tco_result r;
  const duration year = calendar::days(days_per_year);
  r.energy_per_year = (in.gpu + in.other) * in.utilization * year;
  r.electricity_per_year = r.energy_per_year * in.kwh_price;
  r.electricity_per_day = r.electricity_per_year / days_per_year;
  r.cloud_per_day = in.cloud_hourly * calendar::days(1) * in.utilization;
  const double period_days = calendar::in_days(in.period);
  r.cloud = r.cloud_per_day * period_days;
  double years = period_days / days_per_year;
  if (in.billing == electricity_billing::per_started_year) {
    const auto whole = static_cast<double>(static_cast<long long>(years));
    years = whole < years ? whole + 1.0 : whole;  // started years: ceil
  }
  r.desktop = in.system_price + r.electricity_per_year * years;
  const money saved_per_day = r.cloud_per_day - r.electricity_per_day;
  if (saved_per_day.value() > 0)
    r.break_even = calendar::days((in.system_price / saved_per_day).value());
  r.co2_kg_per_year = in_kilowatt_hours(r.energy_per_year) * in.grid_kg_co2_per_kwh;
  return r;
}

}  // namespace dlperf
