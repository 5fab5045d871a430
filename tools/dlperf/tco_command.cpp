// `dlperf tco (--gpu ID | --device FILE) [--count N] [--prices FILE] [--host-cost USD] ...` or
// `dlperf tco --gpu-watts W --other-watts W --system-price USD --cloud-hourly USD ...`: a
// desktop against the cloud, the break-even and the carbon (docs/buying.md, "Cloud or desktop").
// With a GPU the board power, the system price (count x price + host) and, from a price file,
// the cloud price come from the catalog; explicit flags override each. The command maps its
// flags to the application layer's request (dlperf/app/tco_report.hpp) and prints the report.
#include <fmt/format.h>
#include <dlperf/app/tco_report.hpp>
#include <memory>
#include <optional>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct tco_flags {
  app::tco_options request;
  bool json = false;
};

std::string format_usd(money m) { return cli::format_usd(m.value()); }

void print_report(const app::tco_report& report) {
  const app::tco_request& q = report.request;
  const tco_inputs& in = q.inputs;
  const tco_result& r = report.result;
  const double days = calendar::in_days(in.period);
  const std::optional<cloud_offer>& offer = q.offer;
  if (q.gpu)
    fmt::print("{} x {}: {} W of GPUs, system {}, cloud {} per hour\n", q.count, *q.gpu,
               three_digits(in.gpu.value()), format_usd(in.system_price),
               cli::format_usd(in_dollars_per_hour(in.cloud_hourly)));
  if (offer)
    fmt::print(
        "  cloud price built in: {} {}{}, {} ({} per GPU-hour; --cloud-hourly or a --prices file "
        "overrides it)\n",
        offer->provider, offer->offering,
        offer->gpus > 1 ? fmt::format(" ({} GPUs at {} an hour)", offer->gpus,
                                      cli::format_usd(offer->usd_per_hour))
                        : std::string(),
        format_month(offer->year, offer->month),
        cli::format_usd(in_dollars_per_hour(offer->per_gpu())));
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
  auto o = command_options<tco_flags>(cmd);
  app::tco_options& q = o->request;
  add_device_options(cmd, q.gpu, q.device);
  cmd->add_option("--count", q.count, "GPUs of the desktop, with --gpu or --device (default 1)");
  cmd->add_option("--prices", q.prices, "Price file for --gpu (JSON: gpus, cloud_hourly, host)");
  cmd->add_option("--host-cost", q.host_cost,
                  "With --gpu: the host in USD whatever the count; 0 leaves it out");
  cmd->add_option("--gpu-watts", q.gpu_watts,
                  "Power of the GPUs while busy, W (default: count x the board power of --gpu)");
  cmd->add_option("--other-watts", q.other_watts,
                  "Power of the rest (CPU, ...) while busy, W (default with --gpu: 250)");
  cmd->add_option("--utilization", q.utilization, "Fraction of the time busy, in [0, 1]");
  add_enum_option<utilization_preset>(cmd, "--preset-utilization", q.preset,
                                      "Utilisation of a kind of owner, instead of --utilization");
  cmd->add_option("--kwh-price", q.kwh_price, "Electricity price, USD per kWh")->required();
  cmd->add_option("--system-price", q.system_price,
                  "Price of the desktop, USD (default with --gpu: count x price + host)");
  cmd->add_option("--cloud-hourly", q.cloud_hourly,
                  "Cloud price per hour for the whole machine, USD (default with --gpu: count x "
                  "the price file's cloud_hourly, else the built-in price of the GPU)");
  cmd->add_option("--days", q.days, "Days of use")->capture_default_str();
  cmd->add_option("--grid-kg-per-kwh", q.grid,
                  "Grid carbon intensity, kg CO2 per kWh (default: US average 2023, EIA)");
  add_enum_option<electricity_billing>(cmd, "--billing", q.billing,
                                       "How electricity is charged (default per_started_year)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] {
    const app::tco_report r = app::estimate(app::make_tco_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
