// `dlperf tco` as a typed request and report (dlperf/app/tco_report.hpp).
#include <dlperf/app/tco_report.hpp>

#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/price_file.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/buying/power.hpp>
#include <dlperf/model/stacked.hpp>
#include <variant>

namespace dlperf::app {
namespace {

// Every text keyword of a tco request and the option it sets (the utilisation preset and the
// billing are read apart: enumerators): one list for tco_request_from_keywords and tco_keywords.
constexpr std::array<text_keyword<tco_options>, 13> cost_fields{
    {{"gpu", &tco_options::gpu},
     {"device", &tco_options::device},
     {"count", &tco_options::count},
     {"prices", &tco_options::prices},
     {"host_cost", &tco_options::host_cost},
     {"gpu_watts", &tco_options::gpu_watts},
     {"other_watts", &tco_options::other_watts},
     {"utilization", &tco_options::utilization},
     {"kwh_price", &tco_options::kwh_price},
     {"system_price", &tco_options::system_price},
     {"cloud_hourly", &tco_options::cloud_hourly},
     {"days", &tco_options::days},
     {"grid_kg_per_kwh", &tco_options::grid}}};
constexpr auto cost_keywords =
    keyword_names(cost_fields, std::array<std::string_view, 2>{"preset_utilization", "billing"});

// What the board of --gpu or --device gives: its id, TDP and price (none without one).
struct board {
  std::string id;
  power tdp{};
  std::optional<money> price;
  form_factor form = form_factor::card;  // an integrated GPU's power and price are the machine's
};

std::optional<board> selected_board(const tco_options& o, const price_table& prices) {
  if (o.gpu.empty() && o.device.empty()) return std::nullopt;
  const device_choice dev = select_device(o.gpu, o.device);
  if (const auto* g = std::get_if<const gpu_spec*>(&dev))
    return board{std::string((*g)->id()), (*g)->facts().tdp, prices.gpu(**g), (*g)->facts().form};
  if (const auto* m = std::get_if<measured_device>(&dev)) {
    const price_point& p = m->facts().price;
    return board{std::string(m->id()), m->facts().tdp,
                 p.kind == price_kind::none ? std::nullopt : std::optional(p.amount),
                 m->facts().form};
  }
  throw request_error("--device: tco needs a GPU; '" + o.device + "' describes a host CPU");
}

}  // namespace

tco_request make_tco_request(const tco_options& o) {
  if (o.utilization.empty() == !o.preset.has_value())
    throw request_error("give exactly one of --utilization and --preset-utilization");
  const price_table prices = read_price_file(o.prices, o.host_cost);
  const std::optional<board> b = selected_board(o, prices);
  if (!o.count.empty() && !b) throw request_error("--count goes with --gpu ID or --device FILE");
  tco_request q;
  q.count = o.count.empty() ? 1 : parse_plausible_count("--count", o.count);
  if (b) q.gpu = b->id;
  // A Mac: its power is the machine's at the wall and its price the machine's, one to a machine.
  const bool machine = b && b->form == form_factor::integrated;
  if (machine && q.count != 1) throw request_error("--count: " + one_to_a_machine_text(b->id));
  const auto n = static_cast<double>(q.count);
  const auto needs = [&](const std::string& flag) {
    return request_error(flag + " is required without --gpu ID or --device FILE");
  };
  tco_inputs& in = q.inputs;
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
  if (o.kwh_price.empty()) throw request_error("--kwh-price is required");
  in.kwh_price = dollars_per_kwh(parse_plausible("--kwh-price", o.kwh_price));
  if (!o.system_price.empty()) {
    in.system_price = dollars(parse_plausible("--system-price", o.system_price));
  } else if (b) {
    if (!b->price)
      throw request_error("--system-price: no price known for " + b->id +
                          " (give --system-price or a --prices file)");
    if (q.count != 1 && q.count != 2 && q.count != 4 && q.count != 8)
      throw request_error("--count: hosts are priced for 1, 2, 4 or 8 GPUs, got " + o.count +
                          " (give --system-price)");
    in.system_price = n * *b->price + prices.host.for_boards(q.count, b->form);
  } else {
    throw needs("--system-price");
  }
  if (!o.cloud_hourly.empty()) {
    in.cloud_hourly = dollars_per_hour(parse_plausible("--cloud-hourly", o.cloud_hourly));
  } else if (const auto cloud = b ? prices.cloud_hourly(b->id) : std::nullopt) {
    in.cloud_hourly = n * *cloud;
    q.offer = prices.built_in_cloud_offer(b->id);
  } else {
    throw request_error("--cloud-hourly is required" +
                        (b ? " (no cloud price is built in for " + b->id +
                                 "; or give a --prices file with "
                                 "cloud_hourly." +
                                 b->id + ")"
                           : std::string()));
  }
  in.period = calendar::days(parse_plausible("--days", o.days));
  if (!o.grid.empty()) in.grid_kg_co2_per_kwh = parse_plausible("--grid-kg-per-kwh", o.grid);
  in.billing = o.billing;
  return q;
}

std::span<const std::string_view> tco_keywords() { return cost_keywords; }

tco_request tco_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  const tco_options o = options_from_keywords(
      fields, cost_fields, "tco", [](tco_options& t, std::string_view k, const std::string& value) {
        if (k == "preset_utilization")
          t.preset = parse_named<utilization_preset>("--preset-utilization", value);
        else if (k == "billing")
          t.billing = parse_named<electricity_billing>("--billing", value);
        else
          return false;
        return true;
      });
  return make_tco_request(o);
}

tco_report estimate(const tco_request& q) { return {q, total_cost(q.inputs)}; }

}  // namespace dlperf::app
