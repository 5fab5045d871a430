/// @file
/// Price files (docs/buying.md, "Prices and host costs"): a JSON object
///
///     {"gpus": {"rtx_4090": 1799, ...},          GPU id -> USD (overrides the launch price)
///      "cloud_hourly": {"h100_sxm": 2.99, ...},  GPU id -> USD per GPU-hour
///      "host": {"1": 1500, "2": 1500, "4": 1500, "8": 6000}}  GPUs -> host cost, USD
///
/// Every key is optional; absent ones keep their defaults. Strict like the other JSON readers: not
/// JSON, an unknown top-level or host key, an unknown GPU id, or a price that is not a finite
/// number >= 0 throws io::json_error (an invalid_argument) or not_found naming the field
/// ("gpus.rtx_4090: must be >= 0, got -5").
#pragma once

#include <string>

#include <dlperf/buying/cloud_prices.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/io/json.hpp>

namespace dlperf::io {

/// A price file's host section: {"1", "2", "4", "8"} in USD.
template <>
struct field_table<host_costs> {
  /// The fields.
  static constexpr std::tuple fields{field{"1", &host_costs::one, 1.0, in(0, 1e7), if_present},
                                     field{"2", &host_costs::two, 1.0, in(0, 1e7), if_present},
                                     field{"4", &host_costs::four, 1.0, in(0, 1e7), if_present},
                                     field{"8", &host_costs::eight, 1.0, in(0, 1e7), if_present}};
};

/// A built-in cloud offer (buying/cloud_prices.hpp) as every command that prices renting shows
/// it in JSON (tco's "cloud_price_source", advise --rent's "price_source"): the listing as given,
/// its instance's GPU count and its month.
template <>
struct field_table<cloud_offer> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"provider", &cloud_offer::provider}, field{"offering", &cloud_offer::offering},
      field{"gpus", &cloud_offer::gpus},         field{"usd_per_hour", &cloud_offer::usd_per_hour},
      field{"year", &cloud_offer::year},         field{"month", &cloud_offer::month},
      field{"source", &cloud_offer::source}};
};

/// The prices of document @p j over @p base (the defaults unless given). Throws json_error or
/// not_found naming the field.
inline price_table prices_from_json(const json& j, price_table base = {}) {
  detail::object_at(j, "");
  for (const auto& [key, v] : j.items())
    if (key != "gpus" && key != "cloud_hourly" && key != "host")
      fail(key, "unknown field (a price file has gpus, cloud_hourly and host)");
  const auto each = [&](const char* section, auto&& set) {
    const auto it = j.find(section);
    if (it == j.end()) return;
    detail::object_at(*it, section);
    for (const auto& [id, v] : it->items()) {
      const std::string path = join(section, id);
      try {
        (void)catalog::find(id);
      } catch (const not_found& e) {
        throw not_found(path + ": " + e.what());
      }
      set(id, detail::number(v, path, in(0, 1e7)));
    }
  };
  each("gpus", [&](const std::string& id, double usd) { base.set_gpu(id, dollars(usd)); });
  each("cloud_hourly", [&](const std::string& id, double usd) {
    base.set_cloud_hourly(id, dollars_per_hour(usd));
  });
  if (const auto it = j.find("host"); it != j.end()) {
    string_store strings;
    base.host = from_json<host_costs>(*it, "host", strings, base.host);
  }
  return base;
}

/// The prices of JSON text @p text. Throws json_error when it is not JSON or holds a number no
/// double holds (naming the field), else as above.
inline price_table prices_from_text(const std::string& text, price_table base = {}) {
  return prices_from_json(parse_json(text), std::move(base));
}

}  // namespace dlperf::io
