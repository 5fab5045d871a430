// `dlperf tco (--gpu ID | --device FILE) [--count N] [--prices FILE] [--host-cost USD] ...` or
// `dlperf tco --gpu-watts W --other-watts W --system-price USD --cloud-hourly USD ...`: a
// desktop against the cloud, the break-even and the carbon (docs/buying.md, "Cloud or desktop").
// With a GPU the board power, the system price (count x price + host) and, from a price file,
// the cloud price come from the catalog; explicit flags override each.
#include <fmt/format.h>
#include <array>
#include <memory>
#include <optional>

#include <dlperf/io/price_json.hpp>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct tco_options {
  std::string gpu, device, count, prices, host_cost;
  std::string gpu_watts, other_watts, utilization, kwh_price, system_price, cloud_hourly;
  std::string days = "365", grid;
  std::optional<utilization_preset> preset;
  electricity_billing billing = electricity_billing::per_started_year;
  bool json = false;
};

std::string format_usd(money m) { return cli::format_usd(m.value()); }

// What the board of --gpu or --device gives: its id, TDP and price (none without one).
struct board {
  std::string id;
  power tdp{};
  std::optional<money> price;
  form_factor form = form_factor::card;  ///< an integrated GPU's power and price are the machine's
};

std::optional<board> selected_board(const tco_options& o, const price_table& prices) {
  if (o.gpu.empty() && o.device.empty()) return std::nullopt;
  const cli_device dev = select_device(o.gpu, o.device);
  if (const auto* g = std::get_if<const gpu_spec*>(&dev))
    return board{std::string((*g)->id()), (*g)->facts().tdp, prices.gpu(**g), (*g)->facts().form};
  if (const auto* m = std::get_if<measured_device>(&dev)) {
    const price_point& p = m->facts().price;
    return board{std::string(m->id()), m->facts().tdp,
                 p.kind == price_kind::none ? std::nullopt : std::optional(p.amount),
                 m->facts().form};
  }
  throw usage_error("--device: tco needs a GPU; '" + o.device + "' describes a host CPU");
}

// The inputs of the sum, the board of --gpu or --device, the desktop's GPU count and the
// built-in cloud offer the cloud price came from (none when a flag or price file gave it).
tco_inputs make_inputs(const tco_options& o, std::optional<board>& b, long long& count,
                       std::optional<cloud_offer>& offer) {
  if (o.utilization.empty() == !o.preset.has_value())
    throw usage_error("give exactly one of --utilization and --preset-utilization");
  const price_table prices = read_price_file(o.prices, o.host_cost);
  b = selected_board(o, prices);
  if (!o.count.empty() && !b) throw usage_error("--count goes with --gpu ID or --device FILE");
  count = o.count.empty() ? 1 : parse_plausible_count("--count", o.count);
  // A Mac: its power is the machine's at the wall and its price the machine's, one to a machine.
  const bool machine = b && b->form == form_factor::integrated;
  if (machine && count != 1) throw usage_error("--count: " + one_to_a_machine_text(b->id));
  const auto n = static_cast<double>(count);
  const auto needs = [&](const std::string& flag) {
    return usage_error(flag + " is required without --gpu ID or --device FILE");
  };
  tco_inputs in;
  if (!o.gpu_watts.empty())
    in.gpu = watts(parse_plausible("--gpu-watts", o.gpu_watts));
  else if (b)
    in.gpu = n * b->tdp;
  else
    throw needs("--gpu-watts");
  if (!o.other_watts.empty())
    in.other = watts(parse_plausible("--other-watts", o.other_watts));
  else if (b)
    in.other = power_parameters_for(b->form).rest_of_system;
  else
    throw needs("--other-watts");
  in.utilization =
      o.preset ? utilization_of(*o.preset) : parse_plausible("--utilization", o.utilization);
  if (o.kwh_price.empty()) throw usage_error("--kwh-price is required");
  in.kwh_price = dollars_per_kwh(parse_plausible("--kwh-price", o.kwh_price));
  if (!o.system_price.empty()) {
    in.system_price = dollars(parse_plausible("--system-price", o.system_price));
  } else if (b) {
    if (!b->price)
      throw usage_error("--system-price: no price known for " + b->id +
                        " (give --system-price or a --prices file)");
    if (count != 1 && count != 2 && count != 4 && count != 8)
      throw usage_error("--count: hosts are priced for 1, 2, 4 or 8 GPUs, got " + o.count +
                        " (give --system-price)");
    in.system_price = n * *b->price + prices.host.for_boards(count, b->form);
  } else {
    throw needs("--system-price");
  }
  if (!o.cloud_hourly.empty()) {
    in.cloud_hourly = dollars_per_hour(parse_plausible("--cloud-hourly", o.cloud_hourly));
  } else if (const auto cloud = b ? prices.cloud_hourly(b->id) : std::nullopt) {
    in.cloud_hourly = n * *cloud;
    offer = prices.built_in_cloud_offer(b->id);
  } else {
    throw usage_error("--cloud-hourly is required" +
                      (b ? " (no cloud price is built in for " + b->id +
                               "; or give a --prices file with "
                               "cloud_hourly." +
                               b->id + ")"
                         : std::string()));
  }
  in.period = calendar::days(parse_plausible("--days", o.days));
  if (!o.grid.empty()) in.grid_kg_co2_per_kwh = parse_plausible("--grid-kg-per-kwh", o.grid);
  in.billing = o.billing;
  return in;
}

void run(const tco_options& o) {
  std::optional<board> b;
  long long count = 1;
  std::optional<cloud_offer> offer;
  const tco_inputs in = make_inputs(o, b, count, offer);
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
        {"co2_kg_per_year", r.co2_kg_per_year},
        {"gpu", b ? nlohmann::json(b->id) : nlohmann::json(nullptr)},
        {"count", count},
        {"gpu_watts", in.gpu.value()},
        {"other_watts", in.other.value()},
        {"system_price_usd", in.system_price.value()},
        {"cloud_usd_per_hour", in_dollars_per_hour(in.cloud_hourly)},
        {"cloud_price_source", offer ? io::to_json(*offer) : nlohmann::json(nullptr)}};
    print_json(std::move(out));
    return;
  }
  if (b)
    fmt::print("{} x {}: {} W of GPUs, system {}, cloud {} per hour\n", count, b->id,
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
  auto o = command_options<tco_options>(cmd);
  add_device_options(cmd, o->gpu, o->device);
  cmd->add_option("--count", o->count, "GPUs of the desktop, with --gpu or --device (default 1)");
  cmd->add_option("--prices", o->prices, "Price file for --gpu (JSON: gpus, cloud_hourly, host)");
  cmd->add_option("--host-cost", o->host_cost,
                  "With --gpu: the host in USD whatever the count; 0 leaves it out");
  cmd->add_option("--gpu-watts", o->gpu_watts,
                  "Power of the GPUs while busy, W (default: count x the board power of --gpu)");
  cmd->add_option("--other-watts", o->other_watts,
                  "Power of the rest (CPU, ...) while busy, W (default with --gpu: 250)");
  cmd->add_option("--utilization", o->utilization, "Fraction of the time busy, in [0, 1]");
  add_enum_option<utilization_preset>(cmd, "--preset-utilization", o->preset,
                                      "Utilisation of a kind of owner, instead of --utilization");
  cmd->add_option("--kwh-price", o->kwh_price, "Electricity price, USD per kWh")->required();
  cmd->add_option("--system-price", o->system_price,
                  "Price of the desktop, USD (default with --gpu: count x price + host)");
  cmd->add_option("--cloud-hourly", o->cloud_hourly,
                  "Cloud price per hour for the whole machine, USD (default with --gpu: count x "
                  "the price file's cloud_hourly, else the built-in price of the GPU)");
  cmd->add_option("--days", o->days, "Days of use")->capture_default_str();
  cmd->add_option("--grid-kg-per-kwh", o->grid,
                  "Grid carbon intensity, kg CO2 per kWh (default: US average 2023, EIA)");
  add_enum_option<electricity_billing>(cmd, "--billing", o->billing,
                                       "How electricity is charged (default per_started_year)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
