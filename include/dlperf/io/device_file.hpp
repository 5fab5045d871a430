/// @file
/// Device files: a device, nominal or measured, GPU or host, as JSON (schema "dlperf-device",
/// version 2; version 1 files are read too). Optional header: it needs nlohmann_json, which the
/// core library does not.
///
/// Every object below is written and read through one field table (`dlperf/io/json.hpp`), so
/// what is written is what is read back: a GPU saved and loaded gives the same estimates to the
/// last bit. Units are part of the keys; every measured figure M is {"value": number, "method":
/// string, "spread": number (optional)}.
///
///     {"schema": "dlperf-device", "version": 2, "kind": "gpu",
///      "base": "rtx_4090"                      either a catalog id ...
///      "arch": "ada_ad10x"                     ... or an architecture, by name or in full
///      "architecture": {...},                      (field_table<architecture_spec>: SM resources,
///                                                  tensor and vector rates, latencies, MMA shape,
///                                                  large-GEMM efficiency per datatype),
///      "facts": {...},                         and the board (field_table<gpu_facts>: clocks,
///                                              memory, L2, llc, host_link/peer_link as {kind,
///                                              generation, bandwidth_gbps}, price and
///                                              street_price {usd, year, month, kind},
///                                              gemm_efficiency, source)
///      "measurements": {                       optional, every part optional
///          "sm_clock_mhz": M, "launch_overhead_us": M,
///          "tiers": {TIER: {"bandwidth_gbps": M, "latency_cycles": M}},
///          "achieved": [{"dtype", "accumulator", "tflops", "method", "spread"}],
///          "gemm_efficiency": {DTYPE: M}},
///      "stacks": {                             optional: software stacks measured on this GPU
///          STACK: {FIGURE: M}}}                 (stack/stack_calibration.hpp: a stack's
///                                              efficiencies, shares and host times in place of
///                                              its record's; STACK as --stack spells it)
///
///     {"schema": "dlperf-device", "version": 2, "kind": "host", "name": string,
///      "clock_mhz": M, "fp32_tflops": M,
///      "dram": {"capacity_bytes": number, "bandwidth_gbps": M, "latency_ns": M},
///      "cache": {"capacity_bytes": number, "bandwidth_gbps": M, "latency_ns": M}}
///
/// Version 1 facts carried the links as "pcie_gen" (an x16 link), "nvlink_gen" and
/// "nvlink_gbps"; they are converted to host_link and peer_link on reading.
///
/// Reading is strict: malformed JSON, a number no double holds, a missing or unknown field (a
/// figure in the wrong unit has the wrong name), a wrong type, a figure outside its plausibility
/// range (kept in the field tables), an unknown architecture, catalog id or enumerator all throw
/// invalid_argument starting "device file: " and naming the field. The loader's contract (docs/
/// calibration.md): any text gives either a device whose every derived figure (peaks, tier
/// bandwidths, rooflines, best GEMM) is finite and positive, or that error; nothing else escapes.
#pragma once

#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <dlperf/core/error.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/host_device.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/io/gpu_device_json.hpp>
#include <dlperf/io/json.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf::calibrate {

/// Schema name every device file carries.
inline constexpr std::string_view device_file_schema = "dlperf-device";
/// Schema version this library writes.
inline constexpr int device_file_version = 2;
/// Oldest schema version this library reads.
inline constexpr int device_file_oldest_version = 1;

/// What a device file holds.
using any_device = std::variant<measured_device, host_device>;

namespace detail {

using io::fail;
using io::join;
using json = nlohmann::json;

/// One host memory tier.
struct host_tier {
  byte_count capacity{};      ///< bytes
  measured_value gbps;        ///< bandwidth, GB/s
  measured_value latency_ns;  ///< load-to-use latency, ns
};

/// A host device file's body (the host_device figures, its tiers grouped).
struct host_record {
  std::string name;            ///< description
  measured_value clock_mhz;    ///< core clock
  measured_value fp32_tflops;  ///< achieved FP32 throughput
  host_tier dram;              ///< main memory
  host_tier cache;             ///< the cache measured
};

}  // namespace detail

}  // namespace dlperf::calibrate

namespace dlperf::io {

/// Field table of a host memory tier.
template <>
struct field_table<calibrate::detail::host_tier> {
  using tier = calibrate::detail::host_tier;  ///< the type
  /// The fields.
  static constexpr std::tuple fields{field{"capacity_bytes", &tier::capacity, 1.0, in(1024, 1e15)},
                                     field{"bandwidth_gbps", &tier::gbps, 1.0, in(0.1, 1e5)},
                                     field{"latency_ns", &tier::latency_ns, 1.0, in(0.1, 1e5)}};
};

/// Field table of a host device file's body.
template <>
struct field_table<calibrate::detail::host_record> {
  using record = calibrate::detail::host_record;  ///< the type
  /// The fields.
  static constexpr std::tuple fields{field{"name", &record::name},
                                     field{"clock_mhz", &record::clock_mhz, 1.0, in(100, 1e4)},
                                     field{"fp32_tflops", &record::fp32_tflops, 1.0, in(1e-4, 1e4)},
                                     field{"dram", &record::dram}, field{"cache", &record::cache}};
};

}  // namespace dlperf::io

namespace dlperf::calibrate {

namespace detail {
// parse_device, with a GPU file's measured stacks into @p stacks when given.
inline any_device parse_device_text(std::string_view text, std::vector<stack_calibration>* stacks) {
  try {
    const nlohmann::json j = io::parse_json(text);
    io::detail::object_at(j, "");
    if (!j.contains("schema")) io::fail("schema", "missing");
    if (io::detail::text(j["schema"], "schema") != device_file_schema)
      io::fail("schema", "must be \"dlperf-device\"");
    if (!j.contains("version")) io::fail("version", "missing");
    io::string_store unused;
    const int version = io::decode<int>(j["version"], "version", 1.0, io::rule::any, unused);
    if (version < device_file_oldest_version || version > device_file_version)
      io::fail("version", "unsupported version " + std::to_string(version) +
                              " (this dlperf reads " + std::to_string(device_file_oldest_version) +
                              " to " + std::to_string(device_file_version) + ")");
    if (!j.contains("kind")) io::fail("kind", "missing");
    const std::string kind = io::detail::text(j["kind"], "kind");
    if (kind == "gpu") return detail::read_gpu(j, version, stacks);
    if (kind != "host") io::fail("kind", R"(must be "gpu" or "host", got ")" + kind + "\"");
    nlohmann::json body = j;
    for (const char* key : {"schema", "version", "kind"}) body.erase(key);
    const auto r = io::from_json<detail::host_record>(body, "", unused);
    host_device::figures f{r.name,           r.clock_mhz,  r.fp32_tflops,
                           r.dram.capacity,  r.dram.gbps,  r.dram.latency_ns,
                           r.cache.capacity, r.cache.gbps, r.cache.latency_ns};
    return host_device(std::move(f));
  } catch (const io::json_error& e) {
    ::dlperf::detail::throw_invalid_argument("device file: " + std::string(e.what()));
  } catch (const nlohmann::json::exception&) {  // a check above missed a shape: still one line
    ::dlperf::detail::throw_invalid_argument("device file: a value has the wrong JSON type");
  }
}
}  // namespace detail

/// Parses a device file's text. Throws invalid_argument, starting "device file: " and naming the
/// field, for anything wrong.
inline any_device parse_device(std::string_view text) {
  return detail::parse_device_text(text, nullptr);
}

/// The software stacks measured on the GPU that a device file's text describes ("stacks"; none:
/// empty), each valid against its named stack. Throws as parse_device does.
inline std::vector<stack_calibration> parse_stack_calibrations(std::string_view text) {
  std::vector<stack_calibration> stacks;
  (void)detail::parse_device_text(text, &stacks);  // the whole file, as every reader checks it
  return stacks;
}

/// The text of the @p what ("device file", "model file") at @p path. Throws invalid_argument
/// naming it when it is a directory or cannot be opened.
inline std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    ::dlperf::detail::throw_invalid_argument(what + ": '" + path + "' is a directory, not a " +
                                             what);
  std::ifstream in(path);
  if (!in) ::dlperf::detail::throw_invalid_argument(what + ": cannot open '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Reads the device file at @p path. Throws invalid_argument when it cannot be read or parsed.
inline any_device read_device_file(const std::string& path) {
  return parse_device(read_text_file(path, "device file"));
}

/// A GPU device as device-file JSON: its complete description (architecture and board, so the
/// file stands alone) and every measurement with its method.
inline nlohmann::json to_json(const measured_device& d) {
  nlohmann::json out = {{"schema", device_file_schema},
                        {"version", device_file_version},
                        {"kind", "gpu"},
                        {"architecture", io::to_json(d.arch())},
                        {"facts", io::to_json(d.nominal().facts())}};
  const nlohmann::json measurements = detail::measurements_to_json(d);
  if (!measurements.empty()) out["measurements"] = measurements;
  return out;
}

/// GPU @p d as device-file JSON with the software stacks measured on it (@p stacks, "stacks").
inline nlohmann::json to_json(const measured_device& d,
                              const std::vector<stack_calibration>& stacks) {
  nlohmann::json out = to_json(d);
  if (!stacks.empty()) out["stacks"] = detail::stacks_to_json(stacks);
  return out;
}

/// The software stacks measured on the GPU of the device file at @p path (none: empty). Throws
/// invalid_argument when it cannot be read or parsed.
inline std::vector<stack_calibration> read_stack_calibrations(const std::string& path) {
  return parse_stack_calibrations(read_text_file(path, "device file"));
}

/// A catalog (or any nominal) GPU as device-file JSON: its complete description.
inline nlohmann::json to_json(const gpu_spec& g) { return to_json(measured_device(g)); }

/// A host device as device-file JSON.
inline nlohmann::json to_json(const host_device& d) {
  const host_device::figures& f = d.measured();
  const detail::host_record r{f.name,
                              f.clock_mhz,
                              f.fp32_tflops,
                              {f.dram_capacity, f.dram_gbps, f.dram_latency_ns},
                              {f.cache_capacity, f.cache_gbps, f.cache_latency_ns}};
  nlohmann::json out = {
      {"schema", device_file_schema}, {"version", device_file_version}, {"kind", "host"}};
  out.update(io::to_json(r));
  return out;
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
