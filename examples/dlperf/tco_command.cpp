// `dlperf tco --gpu-watts W --other-watts W --utilization U --kwh-price P --system-price USD
// --cloud-hourly USD [--days D]`: a desktop against the cloud, the break-even and the carbon
// (docs/buying.md, "Cloud or desktop").
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct tco_options {
  std::string gpu_watts, other_watts, utilization, kwh_price, system_price, cloud_hourly;
  std::string days = "365", grid;
  std::optional<utilization_preset> preset;
  electricity_billing billing = electricity_billing::per_started_year;
  bool json = false;
};

std::string format_usd(money m) { return cli::format_usd(m.value()); }

tco_inputs make_inputs(const tco_options& o) {
  if (o.utilization.empty() == !o.preset.has_value())
    throw usage_error("give exactly one of --utilization and --preset-utilization");
  tco_inputs in;
  in.gpu = watts(parse_amount("--gpu-watts", o.gpu_watts));
  in.other = watts(parse_amount("--other-watts", o.other_watts));
  in.utilization =
      o.preset ? utilization_of(*o.preset) : parse_fraction("--utilization", o.utilization);
  in.kwh_price = dollars_per_kwh(parse_amount("--kwh-price", o.kwh_price));
  in.system_price = dollars(parse_amount("--system-price", o.system_price));
  in.cloud_hourly = dollars_per_hour(parse_amount("--cloud-hourly", o.cloud_hourly));
  const double days = parse_amount("--days", o.days);
  if (!(days > 0)) throw usage_error(fmt::format("--days '{}' must be positive", o.days));
  in.period = calendar::days(days);
  if (!o.grid.empty()) in.grid_kg_co2_per_kwh = parse_amount("--grid-kg-per-kwh", o.grid);
  in.billing = o.billing;
  return in;
}

void run(const tco_options& o) {
  const tco_inputs in = make_inputs(o);
  const tco_result r = total_cost(in);
  const double days = calendar::in_days(in.period);
  if (o.json) {
    const nlohmann::json out = {
        {"utilization", in.utilization},
        {"days", days},
        {"billing", name(in.billing)},
        {"kwh_per_year", in_kilowatt_hours(r.energy_per_year)},
        {"electricity_usd_per_year", r.electricity_per_year.value()},
        {"electricity_usd_per_day", r.electricity_per_day.value()},
        {"cloud_usd_per_day", r.cloud_per_day.value()},
        {"desktop_usd", r.desktop.value()},
        {"cloud_usd", r.cloud.value()},
        {"break_even_days",
         r.break_even ? nlohmann::json(calendar::in_days(*r.break_even)) : nlohmann::json(nullptr)},
        {"desktop_cheaper", r.desktop_cheaper()},
        {"grid_kg_per_kwh", in.grid_kg_co2_per_kwh},
        {"co2_kg_per_year", r.co2_kg_per_year}};
    print_json(out);
    return;
  }
  fmt::print(
      "electricity: {} kWh per year ({} W x {} busy x 24 h x 365 d), {} per year ({} per day)\n",
      three_digits(in_kilowatt_hours(r.energy_per_year)), three_digits((in.gpu + in.other).value()),
      format_percent(in.utilization, 1.0), format_usd(r.electricity_per_year),
      format_usd(r.electricity_per_day));
  fmt::print("cloud over {} days: {} ({} per day)\n", fmt::format("{:.0f}", days),
             format_usd(r.cloud), format_usd(r.cloud_per_day));
  fmt::print("desktop over {} days: {} ({} + electricity, {})\n", fmt::format("{:.0f}", days),
             format_usd(r.desktop), format_usd(in.system_price), description(in.billing));
  if (r.break_even)
    fmt::print("break-even: {:.0f} days\n", calendar::in_days(*r.break_even));
  else
    fmt::print("break-even: never (the cloud costs less per day than the electricity)\n");
  fmt::print("CO2: {} kg per year at {} kg per kWh\n", three_digits(r.co2_kg_per_year),
             three_digits(in.grid_kg_co2_per_kwh));
  fmt::print("over {} days the {} is cheaper\n", fmt::format("{:.0f}", days),
             r.desktop_cheaper() ? "desktop" : "cloud");
}

}  // namespace

void add_tco_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "tco", "Cloud or desktop: costs over a period, the break-even and the CO2 of the power");
  auto o = std::make_shared<tco_options>();
  cmd->add_option("--gpu-watts", o->gpu_watts, "Power of the GPUs while busy, W")->required();
  cmd->add_option("--other-watts", o->other_watts, "Power of the rest (CPU, ...) while busy, W")
      ->required();
  cmd->add_option("--utilization", o->utilization, "Fraction of the time busy, in [0, 1]");
  add_enum_option<utilization_preset>(cmd, "--preset-utilization", o->preset,
                                      "Utilisation of a kind of owner, instead of --utilization");
  cmd->add_option("--kwh-price", o->kwh_price, "Electricity price, USD per kWh")->required();
  cmd->add_option("--system-price", o->system_price, "Price of the desktop, USD")->required();
  cmd->add_option("--cloud-hourly", o->cloud_hourly, "Cloud instance price per hour, USD")
      ->required();
  cmd->add_option("--days", o->days, "Days of use")->capture_default_str();
  cmd->add_option("--grid-kg-per-kwh", o->grid,
                  "Grid carbon intensity, kg CO2 per kWh (default: US average 2023, EIA)");
  add_enum_option<electricity_billing>(cmd, "--billing", o->billing,
                                       "How electricity is charged (default per_started_year)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
