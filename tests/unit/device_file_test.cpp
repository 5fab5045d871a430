// Device files: round trips, and every malformed file rejected with the field named.
#include <catch2/catch.hpp>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/device_file.hpp>
#include <string>

using namespace dlperf;
using namespace dlperf::literals;
using nlohmann::json;

namespace {

measured_device sample_gpu() {
  measured_device d(catalog::rtx_4090);
  d.set_sm_clock(2.7_GHz, "nvidia-smi", 0.01)
      .set_bandwidth(tier::global, 910_GBps, "STREAM triad, 1 GiB", 0.02)
      .set_latency_cycles(tier::l2, 280, "pointer chase")
      .set_achieved(dtype::fp16, accumulator::fp32, 160_TFLOPS, "cuBLAS 8192^3")
      .set_gemm_efficiency(dtype::fp8_e4m3, 0.9, "fitted")
      .set_launch_overhead(3_us, "empty kernels");
  return d;
}

json host_file() {
  const json m = {{"value", 1.0}, {"method", "test"}};
  return {{"schema", "dlperf-device"},
          {"version", 1},
          {"kind", "host"},
          {"name", "test CPU"},
          {"clock_mhz", {{"value", 3000}, {"method", "test"}}},
          {"fp32_tflops", {{"value", 0.5}, {"method", "test"}}},
          {"dram",
           {{"capacity_bytes", 1e10},
            {"bandwidth_gbps", {{"value", 50}, {"method", "t"}}},
            {"latency_ns", {{"value", 90}, {"method", "t"}}}}},
          {"cache",
           {{"capacity_bytes", 1e6},
            {"bandwidth_gbps", {{"value", 400}, {"method", "t"}}},
            {"latency_ns", m}}}};
}

// Parses `j` expecting a rejection whose message contains `what`.
void require_rejected(const json& j, const std::string& what) {
  INFO(j.dump());
  CHECK_THROWS_WITH(calibrate::parse_device(j.dump()), Catch::Contains(what));
}

}  // namespace

TEST_CASE("a measured GPU survives a round trip through its device file", "[device_file]") {
  const measured_device d = sample_gpu();
  const json j = calibrate::to_json(d);
  CHECK(j["schema"] == "dlperf-device");
  CHECK(j["version"] == 1);
  CHECK(j["arch"] == "ada_ad10x");
  CHECK(j["measurements"]["tiers"]["global"]["bandwidth_gbps"]["value"] == 910);
  const auto back = std::get<measured_device>(calibrate::parse_device(j.dump()));
  CHECK(back.id() == "rtx_4090");
  CHECK(back.sm_clock() == d.sm_clock());
  CHECK(back.memory(tier::global).throughput.value() == Approx(910e9));
  CHECK(back.memory(tier::l2).latency_cycles == 280);
  CHECK(back.peak(dtype::fp16) == 160_TFLOPS);
  CHECK(back.gemm_efficiency(dtype::fp8_e4m3) == 0.9);
  CHECK(back.launch_overhead().value() == Approx(3e-6));
  CHECK(back.bandwidth_record(tier::global)->method == "STREAM triad, 1 GiB");
  CHECK(back.bandwidth_record(tier::global)->spread == 0.02);
  CHECK(back.bandwidth_provenance(tier::shared) == provenance::nominal);
  CHECK(back.nominal().facts().sms == 128);
  CHECK(back.nominal().memory_bandwidth() == catalog::rtx_4090.memory_bandwidth());
}

TEST_CASE("a catalog id is enough for a nominal device", "[device_file]") {
  const json j = {{"schema", "dlperf-device"}, {"version", 1}, {"kind", "gpu"}, {"base", "t4"}};
  const auto d = std::get<measured_device>(calibrate::parse_device(j.dump()));
  CHECK(d.peak(dtype::int8) == catalog::t4.peak(dtype::int8));
}

TEST_CASE("a host device survives a round trip", "[device_file]") {
  const auto host = std::get<host_device>(calibrate::parse_device(host_file().dump()));
  CHECK(host.name() == "test CPU");
  CHECK(host.peak(dtype::fp32, accumulator::fp32) == 0.5_TFLOPS);
  CHECK(in_gigabytes_per_second(host.memory(tier::global).throughput) == Approx(50));
  CHECK(host.memory(tier::global).latency_cycles == Approx(270));  // 90 ns at 3 GHz
  const auto again =
      std::get<host_device>(calibrate::parse_device(calibrate::to_json(host).dump()));
  CHECK(again.memory(tier::l2).capacity == host.memory(tier::l2).capacity);
}

TEST_CASE("files are written and read back", "[device_file]") {
  const std::string path = "dlperf_device_file_test.json";
  calibrate::write_device_file(sample_gpu(), path);
  const auto d = std::get<measured_device>(calibrate::read_device_file(path));
  CHECK(d.peak(dtype::fp16) == 160_TFLOPS);
  std::remove(path.c_str());
  CHECK_THROWS_WITH(calibrate::read_device_file("/nonexistent/dir/x.json"),
                    Catch::Contains("cannot open '/nonexistent/dir/x.json'"));
  CHECK_THROWS_AS(calibrate::write_device_file(sample_gpu(), "/nonexistent/dir/x.json"),
                  invalid_argument);
}

TEST_CASE("malformed device files are rejected, naming the field", "[device_file][errors]") {
  CHECK_THROWS_WITH(calibrate::parse_device("{\"schema\": "), Catch::Contains("malformed JSON"));
  CHECK_THROWS_WITH(calibrate::parse_device("[1, 2]"), Catch::Contains("must be a JSON object"));
  const json gpu = calibrate::to_json(sample_gpu());

  json j = gpu;
  j.erase("schema");
  require_rejected(j, "device file: schema: missing");
  j = gpu;
  j["version"] = 2;
  require_rejected(j, "version: unsupported version 2");
  j = gpu;
  j["kind"] = "tpu";
  require_rejected(j, "kind: must be \"gpu\" or \"host\"");
  j = gpu;
  j["arch"] = "kepler";
  require_rejected(j, "arch: unknown architecture 'kepler'");
  j = gpu;
  j.erase("facts");
  require_rejected(j, "device file: facts: missing");
  j["base"] = "t4";
  require_rejected(j, "base: give either a catalog id");
  j = gpu;
  j["facts"].erase("sms");
  require_rejected(j, "facts.sms: missing");
  j = gpu;
  j["facts"]["sms"] = "128";
  require_rejected(j, "facts.sms: must be a number");
  j = gpu;
  j["facts"]["boost_clock_mhz"] = -5;
  require_rejected(j, "facts.boost_clock_mhz: must be positive");
  j = gpu;
  j["facts"]["memory_type"] = "HBM9";
  require_rejected(j, "facts.memory_type: unknown value 'HBM9'");
  // A figure in another unit has another name: rejected, not silently misread.
  j = gpu;
  j["measurements"]["tiers"]["global"]["bandwidth_tbps"] = {{"value", 0.9}, {"method", "x"}};
  require_rejected(j, "measurements.tiers.global.bandwidth_tbps: unknown field");
  j = gpu;
  j["measurements"]["tiers"]["global"]["bandwidth_gbps"]["value"] = 0;
  require_rejected(j, "measurements.tiers.global.bandwidth_gbps.value: must be positive");
  j = gpu;
  j["measurements"]["tiers"]["global"]["bandwidth_gbps"]["value"] = -900;
  require_rejected(j, "bandwidth_gbps.value: must be positive");
  j = gpu;
  j["measurements"]["tiers"]["global"]["bandwidth_gbps"]["value"] = "910 GB/s";
  require_rejected(j, "bandwidth_gbps.value: must be a number");
  j = gpu;
  j["measurements"]["tiers"]["dram"] = j["measurements"]["tiers"]["global"];
  require_rejected(j, "measurements.tiers.dram: unknown memory tier 'dram'");
  j = gpu;
  j["measurements"]["achieved"][0]["dtype"] = "fp7";
  require_rejected(j, "measurements.achieved[0].dtype: unknown dtype 'fp7'");
  j = gpu;
  j["measurements"]["achieved"][0].erase("method");
  require_rejected(j, "measurements.achieved[0].method: missing");
  j = gpu;
  j["measurements"]["gemm_efficiency"]["fp8_e4m3"]["value"] = 3;
  require_rejected(j, "gemm_efficiency.fp8_e4m3.value: must be in (0, 1.5]");
  j = gpu;
  j["measurements"]["sm_clock_mhz"]["spread"] = -1;
  require_rejected(j, "sm_clock_mhz.spread: must be >= 0");
  j = {{"schema", "dlperf-device"}, {"version", 1}, {"kind", "gpu"}, {"base", "rtx_9090"}};
  require_rejected(j, "base: unknown GPU id 'rtx_9090'");
  j = {{"schema", "dlperf-device"},
       {"version", 1},
       {"kind", "gpu"},
       {"base", "a100_sxm4_40gb"},
       {"measurements",
        {{"achieved", {{{"dtype", "fp8_e4m3"}, {"tflops", 100}, {"method", "x"}}}}}}};
  require_rejected(j, "measurements.achieved[0]: ampere_ga100 cannot run fp8_e4m3");

  json h = host_file();
  h["dram"].erase("capacity_bytes");
  require_rejected(h, "dram.capacity_bytes: missing");
  h = host_file();
  h["fp32_tflops"]["value"] = 0;
  require_rejected(h, "fp32_tflops.value: must be positive");
  h = host_file();
  h["gpu_extra"] = 1;
  require_rejected(h, "gpu_extra: unknown field");
}
