/// @file
/// Device files: a device, nominal or measured, GPU or host, as JSON (schema "dlperf-device",
/// version 1). Optional header: it needs nlohmann_json, which the core library does not.
///
/// Schema, version 1 (every measured figure M is {"value": number, "method": string,
/// "spread": number (optional)}; units are part of the field names):
///
///     {"schema": "dlperf-device", "version": 1, "kind": "gpu",
///      "base": "rtx_4090"                        either a catalog id ...
///      "arch": "ada_ad10x", "facts": {...},      ... or an architecture and datasheet facts:
///          id, name, segment, year, sms, base_clock_mhz, boost_clock_mhz, tensor_clock_mhz,
///          memory_gib, memory_type, bus_width_bits, data_rate_gbps, l2_mib, tdp_w, pcie_gen,
///          nvlink_gen, nvlink_gbps, source
///      "measurements": {                         optional, every part optional
///          "sm_clock_mhz": M,
///          "tiers": {"global"|"l2"|"shared"|"registers": {"bandwidth_gbps": M,
///                                                         "latency_cycles": M}},
///          "achieved": [{"dtype": "fp16", "accumulator": "fp32", "tflops": number,
///                        "method": string, "spread": number}],
///          "gemm_efficiency": {"fp16": M, ...},
///          "launch_overhead_us": M}}
///
///     {"schema": "dlperf-device", "version": 1, "kind": "host", "name": string,
///      "clock_mhz": M, "fp32_tflops": M,
///      "dram": {"capacity_bytes": number, "bandwidth_gbps": M, "latency_ns": M},
///      "cache": {"capacity_bytes": number, "bandwidth_gbps": M, "latency_ns": M}}
///
/// Reading is strict: malformed JSON, a missing or unknown field (a figure in the wrong unit has
/// the wrong name), a wrong type, a non-positive figure, an unknown architecture, catalog id or
/// datatype all throw, naming the field, before any device is built.
#pragma once

#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include <dlperf/core/error.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/hardware/architectures.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/host_device.hpp>
#include <dlperf/hardware/measured_device.hpp>

namespace dlperf::calibrate {

/// Schema name every device file carries.
inline constexpr std::string_view device_file_schema = "dlperf-device";
/// Schema version this library reads and writes.
inline constexpr int device_file_version = 1;

/// What a device file holds.
using any_device = std::variant<measured_device, host_device>;

namespace detail {

using json = nlohmann::json;

[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  ::dlperf::detail::throw_invalid_argument("device file: " + path + ": " + what);
}

inline std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

inline const json& object_at(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path.empty() ? "(top level)" : path, "must be a JSON object");
  return j;
}

// Rejects keys outside `allowed`: a figure in another unit has another name.
inline void only(const json& j, const std::string& path,
                 std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) fail(join(path, key), "unknown field (check its name and unit)");
  }
}

inline const json& field(const json& j, const std::string& path, std::string_view key) {
  const auto it = j.find(std::string(key));
  if (it == j.end()) fail(join(path, key), "missing");
  return *it;
}

inline double number(const json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "must be a number");
  const double v = j.get<double>();
  if (!::dlperf::detail::is_finite(v)) fail(path, "must be finite");
  return v;
}

inline double positive(const json& j, const std::string& path) {
  const double v = number(j, path);
  if (!(v > 0.0)) fail(path, "must be positive, got " + j.dump());
  return v;
}

inline std::string text(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "must be a string");
  return j.get<std::string>();
}

inline int whole(const json& j, const std::string& path) {
  const double v = number(j, path);
  if (v != static_cast<double>(static_cast<long long>(v)) || v < 0 || v > 1e9)
    fail(path, "must be a whole number >= 0");
  return static_cast<int>(v);
}

inline measured_value measurement(const json& j, const std::string& path) {
  object_at(j, path);
  only(j, path, {"value", "method", "spread"});
  measured_value m;
  m.value = positive(field(j, path, "value"), join(path, "value"));
  m.method = text(field(j, path, "method"), join(path, "method"));
  if (j.contains("spread")) {
    m.spread = number(j["spread"], join(path, "spread"));
    if (m.spread < 0) fail(join(path, "spread"), "must be >= 0");
  }
  return m;
}

inline json to_json(const measured_value& m) {
  return {{"value", m.value}, {"method", m.method}, {"spread", m.spread}};
}

template <class E, class Range>
E enum_named(const json& j, const std::string& path, const Range& all) {
  const std::string s = text(j, path);
  for (E e : all)
    if (dlperf::name(e) == s) return e;
  std::string valid;
  for (E e : all) valid += (valid.empty() ? "" : ", ") + std::string(dlperf::name(e));
  fail(path, "unknown value '" + s + "' (valid: " + valid + ")");
}

inline constexpr auto all_segments = enum_values<segment>;
inline constexpr auto all_memory_kinds = enum_values<memory_kind>;
inline constexpr auto all_accumulators = enum_values<accumulator>;

// Facts read from a file; the strings live here until measured_device copies them.
struct owned_facts {
  std::string id, name, source;
  gpu_facts facts{};
};

inline owned_facts read_facts(const json& j, const std::string& path) {
  object_at(j, path);
  only(j, path,
       {"id", "name", "segment", "year", "sms", "base_clock_mhz", "boost_clock_mhz",
        "tensor_clock_mhz", "memory_gib", "memory_type", "bus_width_bits", "data_rate_gbps",
        "l2_mib", "tdp_w", "pcie_gen", "nvlink_gen", "nvlink_gbps", "source"});
  owned_facts o;
  const auto at = [&](std::string_view key) -> const json& { return field(j, path, key); };
  const auto p = [&](std::string_view key) { return join(path, key); };
  o.id = text(at("id"), p("id"));
  o.name = text(at("name"), p("name"));
  o.source = j.contains("source") ? text(j["source"], p("source")) : std::string("device file");
  gpu_facts& f = o.facts;
  f.segment = enum_named<segment>(at("segment"), p("segment"), all_segments);
  f.year = whole(at("year"), p("year"));
  f.sms = whole(at("sms"), p("sms"));
  if (f.sms == 0) fail(p("sms"), "must be positive");
  f.base_clock = j.contains("base_clock_mhz")
                     ? megahertz(number(j["base_clock_mhz"], p("base_clock_mhz")))
                     : frequency{};
  f.boost_clock = megahertz(positive(at("boost_clock_mhz"), p("boost_clock_mhz")));
  f.tensor_clock = j.contains("tensor_clock_mhz")
                       ? megahertz(positive(j["tensor_clock_mhz"], p("tensor_clock_mhz")))
                       : frequency{};
  f.memory = gibibytes(positive(at("memory_gib"), p("memory_gib")));
  f.memory_type = enum_named<memory_kind>(at("memory_type"), p("memory_type"), all_memory_kinds);
  f.bus_width_bits = whole(at("bus_width_bits"), p("bus_width_bits"));
  if (f.bus_width_bits == 0) fail(p("bus_width_bits"), "must be positive");
  f.data_rate_gbps = positive(at("data_rate_gbps"), p("data_rate_gbps"));
  f.l2 = mebibytes(positive(at("l2_mib"), p("l2_mib")));
  f.tdp = watts(positive(at("tdp_w"), p("tdp_w")));
  f.host_link = pcie_link(whole(at("pcie_gen"), p("pcie_gen")), 16);
  if (j.contains("nvlink_gen") && whole(j["nvlink_gen"], p("nvlink_gen")) > 0)
    f.peer_link = {interconnect_kind::nvlink, whole(j["nvlink_gen"], p("nvlink_gen")),
                   j.contains("nvlink_gbps")
                       ? gigabytes_per_second(number(j["nvlink_gbps"], p("nvlink_gbps")))
                       : bandwidth{}};
  return o;
}

inline json facts_to_json(const gpu_spec& g) {
  const gpu_facts& f = g.facts();
  return {{"id", f.id},
          {"name", f.name},
          {"segment", dlperf::name(f.segment)},
          {"year", f.year},
          {"sms", f.sms},
          {"base_clock_mhz", in_megahertz(f.base_clock)},
          {"boost_clock_mhz", in_megahertz(f.boost_clock)},
          {"tensor_clock_mhz", in_megahertz(g.tensor_clock())},
          {"memory_gib", in_gibibytes(f.memory)},
          {"memory_type", dlperf::name(f.memory_type)},
          {"bus_width_bits", f.bus_width_bits},
          {"data_rate_gbps", f.data_rate_gbps},
          {"l2_mib", in_mebibytes(f.l2)},
          {"tdp_w", f.tdp.value()},
          {"pcie_gen", f.host_link.generation},
          {"nvlink_gen", f.peer_link.generation},
          {"nvlink_gbps", in_gigabytes_per_second(f.peer_link.throughput)},
          {"source", f.source}};
}

inline measured_device read_gpu(const json& j) {
  only(j, "", {"schema", "version", "kind", "base", "arch", "facts", "measurements"});
  const bool has_base = j.contains("base");
  if (has_base == (j.contains("arch") || j.contains("facts")))
    fail("base", "give either a catalog id in 'base' or both 'arch' and 'facts'");
  std::optional<measured_device> d;
  if (has_base) {
    const std::string id = text(j["base"], "base");
    try {
      d.emplace(catalog::find(id));
    } catch (const not_found& e) {
      fail("base", e.what());
    }
  } else {
    const std::string arch_name = text(field(j, "", "arch"), "arch");
    const architecture_spec* arch = nullptr;
    try {
      arch = &find_architecture(arch_name);
    } catch (const not_found& e) {
      fail("arch", e.what());
    }
    owned_facts o = read_facts(field(j, "", "facts"), "facts");
    o.facts.id = o.id;
    o.facts.name = o.name;
    o.facts.source = o.source;
    try {
      d.emplace(*arch, o.facts);
    } catch (const ::dlperf::invalid_argument& e) {
      fail("facts", e.what());
    }
  }
  if (!j.contains("measurements")) return *d;
  const json& m = object_at(j["measurements"], "measurements");
  only(m, "measurements",
       {"sm_clock_mhz", "tiers", "achieved", "gemm_efficiency", "launch_overhead_us"});
  if (m.contains("sm_clock_mhz")) {
    const measured_value v = measurement(m["sm_clock_mhz"], "measurements.sm_clock_mhz");
    d->set_sm_clock(megahertz(v.value), v.method, v.spread);
  }
  if (m.contains("tiers")) {
    const json& tiers = object_at(m["tiers"], "measurements.tiers");
    for (const auto& [key, value] : tiers.items()) {
      const std::string path = "measurements.tiers." + key;
      tier t{};
      try {
        t = parse_tier(key);
      } catch (const not_found& e) {
        fail(path, e.what());
      }
      object_at(value, path);
      only(value, path, {"bandwidth_gbps", "latency_cycles"});
      if (value.contains("bandwidth_gbps")) {
        const measured_value v = measurement(value["bandwidth_gbps"], path + ".bandwidth_gbps");
        d->set_bandwidth(t, gigabytes_per_second(v.value), v.method, v.spread);
      }
      if (value.contains("latency_cycles")) {
        const measured_value v = measurement(value["latency_cycles"], path + ".latency_cycles");
        d->set_latency_cycles(t, v.value, v.method, v.spread);
      }
    }
  }
  if (m.contains("achieved")) {
    const json& list = m["achieved"];
    if (!list.is_array()) fail("measurements.achieved", "must be an array");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "measurements.achieved[" + std::to_string(i) + "]";
      const json& a = object_at(list[i], path);
      only(a, path, {"dtype", "accumulator", "tflops", "method", "spread"});
      const std::string type_name = text(field(a, path, "dtype"), path + ".dtype");
      dtype t{};
      try {
        t = parse_dtype(type_name);
      } catch (const not_found& e) {
        fail(path + ".dtype", e.what());
      }
      const accumulator acc =
          a.contains("accumulator")
              ? enum_named<accumulator>(a["accumulator"], path + ".accumulator", all_accumulators)
              : default_accumulator(t);
      const double tflops = positive(field(a, path, "tflops"), path + ".tflops");
      const std::string method = text(field(a, path, "method"), path + ".method");
      const double spread = a.contains("spread") ? number(a["spread"], path + ".spread") : 0.0;
      try {
        d->set_achieved(t, acc, teraflops(tflops), method, spread);
      } catch (const unsupported& e) {
        fail(path, e.what());
      }
    }
  }
  if (m.contains("gemm_efficiency")) {
    const json& eff = object_at(m["gemm_efficiency"], "measurements.gemm_efficiency");
    for (const auto& [key, value] : eff.items()) {
      const std::string path = "measurements.gemm_efficiency." + key;
      dtype t{};
      try {
        t = parse_dtype(key);
      } catch (const not_found& e) {
        fail(path, e.what());
      }
      const measured_value v = measurement(value, path);
      if (v.value > 1.5) fail(path + ".value", "must be in (0, 1.5]");
      d->set_gemm_efficiency(t, v.value, v.method);
    }
  }
  if (m.contains("launch_overhead_us")) {
    const measured_value v =
        measurement(m["launch_overhead_us"], "measurements.launch_overhead_us");
    d->set_launch_overhead(seconds(v.value * 1e-6), v.method, v.spread);
  }
  return *d;
}

inline host_device read_host(const json& j) {
  only(j, "", {"schema", "version", "kind", "name", "clock_mhz", "fp32_tflops", "dram", "cache"});
  host_device::figures f;
  f.name = text(field(j, "", "name"), "name");
  f.clock_mhz = measurement(field(j, "", "clock_mhz"), "clock_mhz");
  f.fp32_tflops = measurement(field(j, "", "fp32_tflops"), "fp32_tflops");
  const auto tier_of = [&](std::string_view key, byte_count& capacity, measured_value& gbps,
                           measured_value& latency) {
    const std::string path(key);
    const json& t = object_at(field(j, "", key), path);
    only(t, path, {"capacity_bytes", "bandwidth_gbps", "latency_ns"});
    capacity = bytes(positive(field(t, path, "capacity_bytes"), path + ".capacity_bytes"));
    gbps = measurement(field(t, path, "bandwidth_gbps"), path + ".bandwidth_gbps");
    latency = measurement(field(t, path, "latency_ns"), path + ".latency_ns");
  };
  tier_of("dram", f.dram_capacity, f.dram_gbps, f.dram_latency_ns);
  tier_of("cache", f.cache_capacity, f.cache_gbps, f.cache_latency_ns);
  return host_device(std::move(f));
}

}  // namespace detail

/// Parses a device file's text. Throws invalid_argument naming the field for anything wrong.
inline any_device parse_device(std::string_view text) {
  using detail::fail;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    fail("(text)", std::string("malformed JSON: ") + e.what());
  }
  detail::object_at(j, "");
  if (detail::text(detail::field(j, "", "schema"), "schema") != device_file_schema)
    fail("schema", "must be \"dlperf-device\"");
  const int version = detail::whole(detail::field(j, "", "version"), "version");
  if (version != device_file_version)
    fail("version", "unsupported version " + std::to_string(version) + " (this dlperf reads " +
                        std::to_string(device_file_version) + ")");
  const std::string kind = detail::text(detail::field(j, "", "kind"), "kind");
  if (kind == "gpu") return detail::read_gpu(j);
  if (kind == "host") return detail::read_host(j);
  fail("kind", "must be \"gpu\" or \"host\", got \"" + kind + "\"");
}

/// Reads the device file at @p path. Throws invalid_argument when it cannot be read or parsed.
inline any_device read_device_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) ::dlperf::detail::throw_invalid_argument("device file: cannot open '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_device(buffer.str());
}

/// A GPU device as device-file JSON: its full facts (the file stands alone) and every
/// measurement with its method.
inline nlohmann::json to_json(const measured_device& d) {
  nlohmann::json measurements = nlohmann::json::object();
  if (const auto& c = d.clock_record()) {
    measured_value mhz = *c;
    mhz.value /= 1e6;
    measurements["sm_clock_mhz"] = detail::to_json(mhz);
  }
  nlohmann::json tiers = nlohmann::json::object();
  for (tier t : all_tiers) {
    nlohmann::json entry = nlohmann::json::object();
    if (const auto& b = d.bandwidth_record(t)) {
      measured_value gbps = *b;
      gbps.value /= 1e9;
      entry["bandwidth_gbps"] = detail::to_json(gbps);
    }
    if (const auto& l = d.latency_record(t)) entry["latency_cycles"] = detail::to_json(*l);
    if (!entry.empty()) tiers[std::string(dlperf::name(t))] = entry;
  }
  if (!tiers.empty()) measurements["tiers"] = tiers;
  nlohmann::json achieved = nlohmann::json::array();
  nlohmann::json efficiency = nlohmann::json::object();
  for (dtype t : all_dtypes) {
    for (accumulator a : detail::all_accumulators)
      if (const auto& r = d.achieved_record(t, a))
        achieved.push_back({{"dtype", dlperf::name(t)},
                            {"accumulator", dlperf::name(a)},
                            {"tflops", r->value / 1e12},
                            {"method", r->method},
                            {"spread", r->spread}});
    if (const auto& e = d.efficiency_record(t))
      efficiency[std::string(dlperf::name(t))] = detail::to_json(*e);
  }
  if (!achieved.empty()) measurements["achieved"] = achieved;
  if (!efficiency.empty()) measurements["gemm_efficiency"] = efficiency;
  if (const auto& l = d.launch_record()) {
    measured_value us = *l;
    us.value *= 1e6;
    measurements["launch_overhead_us"] = detail::to_json(us);
  }
  nlohmann::json out = {{"schema", device_file_schema},
                        {"version", device_file_version},
                        {"kind", "gpu"},
                        {"arch", d.arch().name},
                        {"facts", detail::facts_to_json(d.nominal())}};
  if (!measurements.empty()) out["measurements"] = measurements;
  return out;
}

/// A host device as device-file JSON.
inline nlohmann::json to_json(const host_device& d) {
  const host_device::figures& f = d.measured();
  const auto tier_json = [](byte_count capacity, const measured_value& gbps,
                            const measured_value& ns) {
    return nlohmann::json{{"capacity_bytes", capacity.value()},
                          {"bandwidth_gbps", detail::to_json(gbps)},
                          {"latency_ns", detail::to_json(ns)}};
  };
  return {{"schema", device_file_schema},
          {"version", device_file_version},
          {"kind", "host"},
          {"name", f.name},
          {"clock_mhz", detail::to_json(f.clock_mhz)},
          {"fp32_tflops", detail::to_json(f.fp32_tflops)},
          {"dram", tier_json(f.dram_capacity, f.dram_gbps, f.dram_latency_ns)},
          {"cache", tier_json(f.cache_capacity, f.cache_gbps, f.cache_latency_ns)}};
}

/// Writes @p d to @p path as a device file. Throws invalid_argument when the file cannot be
/// written.
template <class Device>
void write_device_file(const Device& d, const std::string& path) {
  std::ofstream out(path);
  if (!out) ::dlperf::detail::throw_invalid_argument("device file: cannot write '" + path + "'");
  out << to_json(d).dump(2) << "\n";
  if (!out) ::dlperf::detail::throw_invalid_argument("device file: failed writing '" + path + "'");
}

}  // namespace dlperf::calibrate
