/// @file
/// The GPU half of a device file (io/device_file.hpp): a GPU's description, measurements and
/// measured software stacks to and from JSON, each figure checked against its plausibility range
/// as it is read. Optional header: it needs nlohmann_json.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <dlperf/core/error.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/architectures.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/io/json.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf::calibrate::detail {

/// One measured achieved throughput, as the "achieved" list holds it.
struct achieved_entry {
  dtype input = dtype::fp32;            ///< operand datatype
  accumulator acc = accumulator::fp32;  ///< accumulation datatype
  double tflops = 0;                    ///< achieved TFLOP/s, dense
  std::string method;                   ///< how it was measured
  double spread = 0;                    ///< (max - min) / median
};

}  // namespace dlperf::calibrate::detail

namespace dlperf::io {

/// Field table of one measured achieved throughput in a device file.
template <>
struct field_table<calibrate::detail::achieved_entry> {
  using entry = calibrate::detail::achieved_entry;  ///< the type
  /// The fields.
  static constexpr std::tuple fields{
      field{"dtype", &entry::input}, field{"accumulator", &entry::acc, 1.0, rule::any, if_present},
      field{"tflops", &entry::tflops, 1.0, in(0.001, 1e5)}, field{"method", &entry::method},
      field{"spread", &entry::spread, 1.0, rule::non_negative, if_present}};
};

}  // namespace dlperf::io

namespace dlperf::calibrate::detail {

using io::fail;
using io::join;
using json = nlohmann::json;

// A measurement of the whole device: its key, the scale from the key's unit to SI, its
// plausibility range in the key's unit (docs/calibration.md), and the record it reads and sets.
struct device_measurement {
  std::string_view key;
  double scale;
  io::rule range;
  const std::optional<measured_value>& (*record)(const measured_device&);
  void (*set)(measured_device&, double si, const measured_value&);
};

inline constexpr std::array<device_measurement, 2> device_measurements{
    device_measurement{"sm_clock_mhz", 1e6, io::in(100, 1e4),
                       [](const measured_device& d) -> const std::optional<measured_value>& {
                         return d.clock_record();
                       },
                       [](measured_device& d, double si, const measured_value& m) {
                         d.set_sm_clock(make<frequency>(si), m.method, m.spread);
                       }},
    device_measurement{"launch_overhead_us", 1e-6, io::in(0.01, 1e5),
                       [](const measured_device& d) -> const std::optional<measured_value>& {
                         return d.launch_record();
                       },
                       [](measured_device& d, double si, const measured_value& m) {
                         d.set_launch_overhead(seconds(si), m.method, m.spread);
                       }}};

// A measurement of one memory tier, with its plausibility range in the key's unit.
struct tier_measurement {
  std::string_view key;
  double scale;
  io::rule range;
  const std::optional<measured_value>& (*record)(const measured_device&, tier);
  void (*set)(measured_device&, tier, double si, const measured_value&);
};

inline constexpr std::array<tier_measurement, 2> tier_measurements{
    tier_measurement{"bandwidth_gbps", 1e9, io::in(1, 1e6),
                     [](const measured_device& d, tier t) -> const std::optional<measured_value>& {
                       return d.bandwidth_record(t);
                     },
                     [](measured_device& d, tier t, double si, const measured_value& m) {
                       d.set_bandwidth(t, make<bandwidth>(si), m.method, m.spread);
                     }},
    tier_measurement{"latency_cycles", 1.0, io::in(1, 1e5),
                     [](const measured_device& d, tier t) -> const std::optional<measured_value>& {
                       return d.latency_record(t);
                     },
                     [](measured_device& d, tier t, double si, const measured_value& m) {
                       d.set_latency_cycles(t, si, m.method, m.spread);
                     }}};

// A measured GEMM efficiency or a stack's share: a plausible fraction of a peak
// (core/plausible.hpp), as the architecture's, the board's and the stack records' own.
inline constexpr io::rule gemm_efficiency_range{plausible::min_fraction, plausible::max_fraction};

inline json scaled(measured_value m, double scale) {
  m.value = scale == 1.0 ? m.value : m.value / scale;
  return io::to_json(m);
}

inline measured_value read_measured(const json& j, const std::string& path, io::rule range) {
  io::string_store unused;
  return io::decode<measured_value>(j, path, 1.0, range, unused);
}

inline double to_si(double value, double scale) { return scale == 1.0 ? value : value * scale; }

// Runs a setter of measured_device, naming @p path in what it throws.
template <class F>
void apply_at(const std::string& path, F&& set) {
  try {
    set();
  } catch (const io::json_error&) {
    throw;
  } catch (const dlperf::error& e) {
    fail(path, e.what());
  }
}

inline json measurements_to_json(const measured_device& d) {
  json out = json::object();
  for (const device_measurement& m : device_measurements)
    if (const auto& r = m.record(d)) out[std::string(m.key)] = scaled(*r, m.scale);
  json tiers = json::object();
  for (tier t : all_tiers) {
    json entry = json::object();
    for (const tier_measurement& m : tier_measurements)
      if (const auto& r = m.record(d, t)) entry[std::string(m.key)] = scaled(*r, m.scale);
    if (!entry.empty()) tiers[std::string(dlperf::name(t))] = entry;
  }
  if (!tiers.empty()) out["tiers"] = tiers;
  json achieved = json::array();
  json efficiency = json::object();
  for (dtype t : all_dtypes) {
    for (accumulator a : enum_values<accumulator>)
      if (const auto& r = d.achieved_record(t, a))
        achieved.push_back(
            io::to_json(achieved_entry{t, a, r->value / 1e12, r->method, r->spread}));
    if (const auto& e = d.efficiency_record(t))
      efficiency[std::string(dlperf::name(t))] = io::to_json(*e);
  }
  if (!achieved.empty()) out["achieved"] = achieved;
  if (!efficiency.empty()) out["gemm_efficiency"] = efficiency;
  return out;
}

inline void read_measurements(const json& m, measured_device& d) {
  const std::string root = "measurements";
  io::detail::object_at(m, root);
  for (const auto& [key, value] : m.items()) {
    const std::string path = join(root, key);
    bool known = key == "tiers" || key == "achieved" || key == "gemm_efficiency";
    for (const device_measurement& dm : device_measurements) {
      if (key != dm.key) continue;
      known = true;
      const measured_value v = read_measured(value, path, dm.range);
      apply_at(path, [&] { dm.set(d, to_si(v.value, dm.scale), v); });
    }
    if (!known) fail(path, "unknown field (check its name and unit)");
  }
  if (m.contains("tiers")) {
    const std::string tiers_path = join(root, "tiers");
    for (const auto& [key, value] : io::detail::object_at(m["tiers"], tiers_path).items()) {
      const std::string path = join(tiers_path, key);
      io::string_store unused;
      const tier t = io::decode<tier>(json(key), path, 1.0, io::rule::any, unused);
      io::detail::object_at(value, path);
      for (const auto& [name, figure] : value.items()) {
        const std::string figure_path = join(path, name);
        bool known = false;
        for (const tier_measurement& tm : tier_measurements) {
          if (name != tm.key) continue;
          known = true;
          const measured_value v = read_measured(figure, figure_path, tm.range);
          apply_at(figure_path, [&] { tm.set(d, t, to_si(v.value, tm.scale), v); });
        }
        if (!known) fail(figure_path, "unknown field (check its name and unit)");
      }
    }
  }
  if (m.contains("achieved")) {
    const json& list = m["achieved"];
    const std::string list_path = join(root, "achieved");
    if (!list.is_array()) fail(list_path, "must be an array");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = list_path + "[" + std::to_string(i) + "]";
      io::string_store unused;
      // The accumulator may be left out: the datatype's default.
      achieved_entry init;
      if (list[i].is_object() && list[i].contains("dtype") && !list[i].contains("accumulator"))
        init.acc = default_accumulator(
            io::decode<dtype>(list[i]["dtype"], join(path, "dtype"), 1.0, io::rule::any, unused));
      const achieved_entry a = io::from_json<achieved_entry>(list[i], path, unused, init);
      apply_at(path,
               [&] { d.set_achieved(a.input, a.acc, teraflops(a.tflops), a.method, a.spread); });
    }
  }
  if (m.contains("gemm_efficiency")) {
    const std::string eff_path = join(root, "gemm_efficiency");
    for (const auto& [key, value] : io::detail::object_at(m["gemm_efficiency"], eff_path).items()) {
      const std::string path = join(eff_path, key);
      io::string_store unused;
      const dtype t = io::decode<dtype>(json(key), path, 1.0, io::rule::any, unused);
      const measured_value v = read_measured(value, path, gemm_efficiency_range);
      apply_at(path, [&] { d.set_gemm_efficiency(t, v.value, v.method); });
    }
  }
}

// Version 1 facts named the links "pcie_gen" (an x16 link), "nvlink_gen" and "nvlink_gbps".
inline json upgrade_v1_facts(json facts) {
  if (!facts.is_object()) return facts;
  io::string_store unused;
  if (facts.contains("pcie_gen")) {
    const int gen =
        io::decode<int>(facts["pcie_gen"], "facts.pcie_gen", 1.0, io::rule::positive, unused);
    interconnect link{};
    apply_at("facts.pcie_gen", [&] { link = pcie_link(gen, 16); });
    facts["host_link"] = io::to_json(link);
    facts.erase("pcie_gen");
  }
  if (facts.contains("nvlink_gen")) {
    const int gen =
        io::decode<int>(facts["nvlink_gen"], "facts.nvlink_gen", 1.0, io::in(0, 10), unused);
    const double gbps = facts.contains("nvlink_gbps")
                            ? io::decode<double>(facts["nvlink_gbps"], "facts.nvlink_gbps", 1.0,
                                                 io::zero_or(0.1, 1e5), unused)
                            : 0.0;
    if (gen > 0)
      facts["peer_link"] =
          io::to_json(interconnect{interconnect_kind::nvlink, gen, gigabytes_per_second(gbps)});
    facts.erase("nvlink_gen");
  }
  facts.erase("nvlink_gbps");
  return facts;
}

// What each field's range cannot see: an SM must hold one whole block, and the device built must
// give every supported datatype a positive peak, every tier it has a positive bandwidth and a
// legal GEMM tiling (the loader's contract, docs/calibration.md). Names the part at fault.
inline void check_architecture(const architecture_spec& a) {
  if (a.sm.max_threads_per_sm() < a.sm.max_threads_per_block)
    fail("architecture.sm.max_warps_per_sm",
         "an SM must hold one whole block: max_warps_per_sm x simd_width = " +
             std::to_string(a.sm.max_threads_per_sm()) + " threads, below max_threads_per_block " +
             std::to_string(a.sm.max_threads_per_block));
}

inline void check_derived(const measured_device& d) {
  apply_at("measurements", [&] { d.check_measurements(); });
  const auto positive = [](double v) { return v > 0.0 && ::dlperf::detail::is_finite(v); };
  for (dtype t : all_dtypes)
    for (accumulator a : enum_values<accumulator>)
      for (sparsity s : enum_values<sparsity>)
        if (d.supports(t, a, s) && !positive(d.peak(t, a, s).value()))
          fail("architecture",
               std::string(dlperf::name(t)) + " with " + std::string(dlperf::name(a)) +
                   " accumulation has no positive peak (check its fma_per_clock and "
                   "consumer_fma_per_clock)");
  for (tier m : all_tiers) {
    const tier_spec s = d.memory(m);
    if ((m == tier::global || s.capacity.value() > 0) && !positive(s.throughput.value()))
      fail("architecture", "the " + std::string(dlperf::name(m)) +
                               " tier has no positive bandwidth (check the FP32 vector rate and "
                               "the bytes per clock)");
  }
  for (dtype t : all_dtypes) {
    gemm_problem p{128, 128, 128, 1, t};
    p.acc = default_accumulator(t);
    if (!d.supports(t, p.acc, sparsity::dense)) continue;
    try {
      (void)best_gemm(d, p);
    } catch (const unsupported& e) {
      fail("architecture.sm",
           std::string("no GEMM tiling fits these SM resources and MMA shape (") + e.what() + ")");
    }
  }
}

// The software stacks measured on a GPU ("stacks"): each stack by its --stack name, each figure
// by its member name, each in its domain (shares and efficiencies in [0.01, 1], host times >= 0),
// and the stack they make valid.
inline std::vector<stack_calibration> read_stacks(const json& j) {
  const std::string root = "stacks";
  std::vector<stack_calibration> out;
  for (const auto& [key, value] : io::detail::object_at(j, root).items()) {
    const std::string path = join(root, key);
    stack_calibration c;
    try {
      c.stack = parse<stack_id>(key);
    } catch (const not_found& e) {
      fail(path, e.what());
    }
    if (c.stack == stack_id::ceiling)
      fail(path, "ceiling is the hardware model itself; measure a named stack");
    for (const auto& [figure, measured] : io::detail::object_at(value, path).items()) {
      const std::string figure_path = join(path, figure);
      stack_figure_id f{};
      try {
        f = parse<stack_figure_id>(figure);
      } catch (const not_found& e) {
        fail(figure_path, e.what());
      }
      // Host times: up to a second per kernel; anything longer is not a kernel's issue time.
      // Rates per SM clock: a measured figure above 0, up to stack.hpp's plausible largest.
      const io::rule range = is_host_time(f)       ? io::rule{0.0, 1.0}
                             : is_sm_cycle_rate(f) ? io::rule{0.0, max_bytes_per_sm_cycle, true}
                                                   : gemm_efficiency_range;
      c.figures.emplace_back(f, read_measured(measured, figure_path, range));
    }
    apply_at(path, [&] { (void)c.apply_to(stacks::of(c.stack)); });
    out.push_back(std::move(c));
  }
  return out;
}

inline json stacks_to_json(const std::vector<stack_calibration>& stacks) {
  json out = json::object();
  for (const stack_calibration& c : stacks) {
    json figures = json::object();
    for (const auto& [figure, measured] : c.figures)
      figures[std::string(dlperf::name(figure))] = io::to_json(measured);
    out[std::string(dlperf::name(c.stack))] = figures;
  }
  return out;
}

// The GPU of device-file JSON @p j; its measured stacks ("stacks", checked either way) into
// @p stacks when given.
inline measured_device read_gpu(const json& j, int version,
                                std::vector<stack_calibration>* stacks = nullptr) {
  for (const auto& [key, value] : j.items())
    if (key != "schema" && key != "version" && key != "kind" && key != "base" && key != "arch" &&
        key != "architecture" && key != "facts" && key != "measurements" && key != "stacks")
      fail(key, "unknown field (check its name and unit)");
  if (j.contains("stacks")) {
    std::vector<stack_calibration> measured = read_stacks(j["stacks"]);
    if (stacks != nullptr) *stacks = std::move(measured);
  }
  const bool has_base = j.contains("base");
  const bool has_arch = j.contains("arch") || j.contains("architecture");
  if (has_base == (has_arch || j.contains("facts")))
    fail("base", "give either a catalog id in 'base' or an architecture and 'facts'");
  if (!has_base && !has_arch)  // facts alone: which architecture they describe is unknown
    fail("architecture", "missing: give it by name in 'arch' or in full in 'architecture'");
  std::optional<measured_device> d;
  if (has_base) {
    const std::string id = io::detail::text(j["base"], "base");
    try {
      d.emplace(catalog::find(id));
    } catch (const not_found& e) {
      fail("base", e.what());
    }
  } else {
    if (j.contains("arch") && j.contains("architecture"))
      fail("arch", "give the architecture either by name in 'arch' or in full in 'architecture'");
    io::string_store strings;
    architecture_spec arch{};
    if (j.contains("arch")) {
      try {
        arch = find_architecture(io::detail::text(j["arch"], "arch"));
      } catch (const not_found& e) {
        fail("arch", e.what());
      }
    } else {
      arch = io::from_json<architecture_spec>(j["architecture"], "architecture", strings);
      check_architecture(arch);
    }
    if (!j.contains("facts")) fail("facts", "missing");
    gpu_facts init{};
    init.source = "device file";
    const gpu_facts facts = io::from_json<gpu_facts>(
        version == 1 ? upgrade_v1_facts(j["facts"]) : j["facts"], "facts", strings, init);
    apply_at("facts", [&] { d.emplace(arch, facts); });
  }
  if (j.contains("measurements")) read_measurements(j["measurements"], *d);
  check_derived(*d);
  return *d;
}

}  // namespace dlperf::calibrate::detail
