/// @file
/// `dlperf tco` as a typed request and report: a desktop against the cloud over a period, the
/// break-even and the carbon of the power (buying/tco.hpp; docs/buying.md, "Cloud or desktop").
/// With a GPU, its board power, the system's price (count x price + host) and the cloud price
/// come from the catalog or a price file; explicit values override each. The tool prints a
/// report, and its JSON (report_json.hpp) is the one every front end reads (docs/layers.md, "The
/// application layer").
#pragma once

#include <dlperf/buying/cloud_prices.hpp>
#include <dlperf/buying/tco.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// What to cost: the inputs of the sum, resolved, and the machine they came from.
struct tco_request {
  tco_inputs inputs;                 ///< the power, utilisation, prices, period, grid and billing
  std::optional<std::string> gpu;    ///< the GPU of --gpu or --device, if one gave the defaults
  long long count = 1;               ///< GPUs of the desktop
  std::optional<cloud_offer> offer;  ///< the built-in cloud offer the cloud price came from
};

/// The estimate of a tco_request.
struct tco_report {
  tco_request request;  ///< what was costed
  tco_result result;    ///< the costs, the break-even and the carbon
};

/// A comparison as the tool's flags (`dlperf tco --gpu ... --kwh-price ...`) and Python's
/// keywords state it; numbers stay text until make_tco_request reads them, so that a bad one is
/// named by its flag.
struct tco_options {
  std::string gpu;          ///< --gpu ID
  std::string device;       ///< --device FILE, instead of --gpu
  std::string count;        ///< --count (empty: 1)
  std::string prices;       ///< --prices FILE
  std::string host_cost;    ///< --host-cost USD
  std::string gpu_watts;    ///< --gpu-watts (empty: count x the board power)
  std::string other_watts;  ///< --other-watts (empty: the rest of the system's default)
  std::string utilization;  ///< --utilization, or:
  std::optional<utilization_preset> preset;  ///< --preset-utilization
  std::string kwh_price;                     ///< --kwh-price (required)
  std::string system_price;                  ///< --system-price (empty: count x price + host)
  std::string cloud_hourly;  ///< --cloud-hourly (empty: the price file's or the built-in one)
  std::string days = "365";  ///< --days
  std::string grid;          ///< --grid-kg-per-kwh (empty: the US average)
  electricity_billing billing = electricity_billing::per_started_year;  ///< --billing
};

/// The request @p o states. Throws request_error naming the flag at fault (a missing or
/// implausible value, no price known for the GPU, a count a host is not priced for, a Mac with a
/// count, a host CPU), and dlperf's errors for an unknown GPU or a bad device or price file.
tco_request make_tco_request(const tco_options& o);

/// The keywords a tco request takes: gpu, device, count, prices, host_cost, gpu_watts,
/// other_watts, utilization, kwh_price, system_price, cloud_hourly, days, grid_kg_per_kwh,
/// preset_utilization, billing.
std::span<const std::string_view> tco_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.tco` gives them.
/// Throws request_error for an unknown or repeated keyword and as make_tco_request does.
tco_request tco_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Estimates @p q (total_cost). Throws the library's invalid_argument for inputs out of their
/// domain.
tco_report estimate(const tco_request& q);

}  // namespace dlperf::app
