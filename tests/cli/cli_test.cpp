// The dlperf tool, run as a user runs it: output shapes, figures and exit codes.
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <dlperf/core/datatype.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/model/presets.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"

using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;
using dlperf_test::run_result;

TEST_CASE("dlperf gpus --json lists the catalog with the documented keys", "[cli]") {
  const run_result r = run_dlperf("gpus --json");
  REQUIRE(r.exit_code == 0);
  const auto gpus = nlohmann::json::parse(r.out);
  REQUIRE(gpus.size() == dlperf::catalog::all.size());
  for (const auto& g : gpus)
    for (const char* key : {"id", "name", "arch", "sms", "boost_clock_mhz", "memory_gb",
                            "bandwidth_gbps", "l2_mb", "tdp_w", "price_usd", "peak_tflops"})
      CHECK(g.contains(key));
  const auto a100 = *std::find_if(gpus.begin(), gpus.end(),
                                  [](const auto& g) { return g["id"] == "a100_sxm4_40gb"; });
  CHECK(a100["arch"] == "ampere_ga100");
  CHECK(a100["sms"] == 108);
  CHECK(a100["memory_gb"].get<double>() == Approx(40));
  CHECK(a100["l2_mb"].get<double>() == Approx(40));
  CHECK(a100["bandwidth_gbps"].get<double>() == Approx(1555).epsilon(0.001));
  // A100 whitepaper: FP16 312, BF16 312, TF32 156, INT8 624, FP32 19.5; no FP8.
  CHECK(a100["peak_tflops"]["fp16"].get<double>() == Approx(312).epsilon(0.01));
  CHECK(a100["peak_tflops"]["bf16"].get<double>() == Approx(312).epsilon(0.01));
  CHECK(a100["peak_tflops"]["tf32"].get<double>() == Approx(156).epsilon(0.01));
  CHECK(a100["peak_tflops"]["int8"].get<double>() == Approx(624).epsilon(0.01));
  CHECK(a100["peak_tflops"]["fp32"].get<double>() == Approx(19.5).epsilon(0.01));
  CHECK(a100["peak_tflops"]["fp8_e4m3"].is_null());
  const auto rtx4090 =
      *std::find_if(gpus.begin(), gpus.end(), [](const auto& g) { return g["id"] == "rtx_4090"; });
  // Default accumulator FP32: GeForce half rate (Ada whitepaper: 165.2, FP8 330.3).
  CHECK(rtx4090["peak_tflops"]["fp16"].get<double>() == Approx(165.2).epsilon(0.01));
  CHECK(rtx4090["peak_tflops"]["fp8_e4m3"].get<double>() == Approx(330.3).epsilon(0.01));
  CHECK(rtx4090["price_usd"].get<double>() == 1599);
  // The facts come through the device files' field table: links as {kind, generation,
  // bandwidth_gbps}, price with its date, and the vendor.
  CHECK(a100["vendor"] == "nvidia");
  CHECK(a100["llc_mb"] == 0);
  CHECK(a100["host_link"]["kind"] == "pcie");
  CHECK(a100["host_link"]["generation"] == 4);
  CHECK(a100["host_link"]["bandwidth_gbps"].get<double>() == Approx(63.0).epsilon(0.001));
  CHECK(a100["peer_link"]["kind"] == "nvlink");
  CHECK(a100["peer_link"]["bandwidth_gbps"] == 600);  // A100 whitepaper: NVLink 3, 600 GB/s
  CHECK(rtx4090["price"]["year"] == 2022);
  CHECK(rtx4090["price_date"] == "2022-10");
  CHECK_FALSE(a100.contains("pcie_gen"));
}

TEST_CASE("dlperf gpus prints a table with every GPU", "[cli]") {
  const run_result r = run_dlperf("gpus");
  REQUIRE(r.exit_code == 0);
  for (const char* id : {"gtx_1070", "a100_sxm4_80gb", "h200_sxm", "rtx_5090"})
    CHECK(r.out.find(id) != std::string::npos);
  // MI300X's FP8 is FNUZ only (datasheet: 2614.9 TFLOPS dense): shown in the FP8 column, marked.
  const std::size_t mi300x = r.out.find("\nmi300x ");
  REQUIRE(mi300x != std::string::npos);
  const std::string row = r.out.substr(mi300x + 1, r.out.find('\n', mi300x + 1) - mi300x - 1);
  CHECK(row.find("2614.9*") != std::string::npos);
  CHECK(r.out.find("'*' = FP8 in the FNUZ encoding") != std::string::npos);
}

TEST_CASE("dlperf roofline --json answers with the documented keys", "[cli]") {
  const run_result r =
      run_dlperf("roofline --gpu a100_sxm4_40gb --flops 1e12 --bytes 1e10 --dtype fp16 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["gpu"] == "a100_sxm4_40gb");
  CHECK(j["dtype"] == "fp16");
  CHECK(j["bound"] == "global");
  // 1e10 B at 1555.2 GB/s; intensity 100 FLOP/B < ridge 311.9/1.5552 = 200.6.
  CHECK(j["time_s"].get<double>() == Approx(1e10 / 1555.2e9));
  CHECK(j["attainable_tflops"].get<double>() == Approx(155.52));
  CHECK(j["ridge_flops_per_byte"].get<double>() == Approx(200.55).epsilon(0.001));
}

TEST_CASE("dlperf roofline accepts suffixes and reports compute-bound work", "[cli]") {
  const run_result r =
      run_dlperf("roofline --gpu h100_sxm --flops 2P --bytes 1Gi --dtype fp8_e4m3 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["bound"] == "compute");
  CHECK(j["attainable_tflops"].get<double>() == Approx(1978.9).epsilon(0.001));
  const run_result text = run_dlperf("roofline --gpu h100_sxm --flops 2P --bytes 1Gi");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("compute-bound") != std::string::npos);
}

TEST_CASE("dlperf rejects bad input with exit code 2 and one line", "[cli][errors]") {
  require_usage_error("roofline --gpu rtx_9090 --flops 1 --bytes 1", "unknown GPU id 'rtx_9090'");
  require_usage_error("roofline --gpu rtx_4090 --flops 1 --bytes 1 --dtype fp7",
                      "unknown dtype 'fp7'");
  require_usage_error("roofline --gpu rtx_4090 --flops -5 --bytes 1", "--flops '-5'");
  require_usage_error("roofline --gpu rtx_4090 --flops abc --bytes 1", "is not a number");
  require_usage_error("roofline --gpu rtx_4090 --flops 1 --bytes 12parsecs", "unknown suffix");
  require_usage_error("roofline --gpu rtx_4090 --flops nan --bytes 1", "must be finite");
  // No upper bound once meant 1e308 FLOP took 6e296 s; 1e-308 printed "-nan % of peak".
  require_usage_error("roofline --gpu rtx_4090 --flops 1e308 --bytes 1e9",
                      "--flops '1e308' must be 0 or in [1, 1e+30] FLOP");
  require_usage_error("roofline --gpu rtx_4090 --flops 1e-308 --bytes 1", "--flops '1e-308'");
  require_usage_error("roofline --gpu rtx_4090 --flops 1 --bytes 1e22", "--bytes '1e22'");
  require_usage_error("plot roofline --gpu rtx_4090 --flops 1e308 --bytes 1 --out /tmp/x.svg",
                      "--flops '1e308'");
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --overhead 1e308",
                      "--overhead '1e308' must be in [0, ");
  // 0 still means none: a copy kernel does no arithmetic.
  CHECK(run_dlperf("roofline --gpu rtx_4090 --flops 0 --bytes 1e9").exit_code == 0);
  require_usage_error("roofline --gpu rtx_4090 --flops inf --bytes 1", "must be finite");
  require_usage_error("roofline --gpu rtx_4090 --flops 0 --bytes 0", "nothing to estimate");
  require_usage_error("roofline --gpu a100_sxm4_40gb --flops 1 --bytes 1 --dtype fp8_e4m3",
                      "ampere_ga100 cannot run fp8_e4m3");
  require_usage_error("roofline --gpu gtx_1080 --flops 1 --bytes 1 --dtype bf16",
                      "no tensor cores");
  require_usage_error("roofline --gpu v100_sxm2 --flops 1 --bytes 1 --sparse",
                      "no 2:4 sparse tensor-core path");
  require_usage_error("roofline --gpu rtx_4090 --flops 1 --bytes 1 --accumulator fp64",
                      "unknown accumulator 'fp64'");
  require_usage_error("roofline --flops 1 --bytes 1",
                      "give exactly one of --gpu ID and --device FILE");
  require_usage_error("frobnicate", "frobnicate");
  require_usage_error("", "subcommand");
}

TEST_CASE("dlperf gemm --json answers with the documented keys", "[cli]") {
  const run_result r =
      run_dlperf("gemm --gpu h100_sxm --m 8192 --n 8192 --k 8192 --dtype fp8_e4m3 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"gpu", "dtype", "m", "n", "k", "time_s", "tflops", "bound", "tile",
                          "waves", "wave_efficiency", "bytes"})
    CHECK(j.contains(key));
  for (const char* key : {"m", "n", "k", "stages"}) CHECK(j["tile"].contains(key));
  for (const char* key : {"dram", "l2", "shared"}) CHECK(j["bytes"].contains(key));
  CHECK(j["bound"] == "compute");
  CHECK(j["m"] == 8192);
  // Published: 1304.5 TFLOPS (pytorch/pytorch issue 143465); the model is within 5 %.
  CHECK(j["tflops"].get<double>() == Approx(1304.5).epsilon(0.05));
  CHECK(j["time_s"].get<double>() ==
        Approx(2.0 * 8192 * 8192 * 8192 / 1e12 / j["tflops"].get<double>()));
}

TEST_CASE("dlperf gemm takes batch, sparsity and suffixes", "[cli]") {
  const run_result r = run_dlperf(
      "gemm --gpu a100_sxm4_40gb --m 4Ki --n 4Ki --k 4Ki --batch 2 "
      "--sparse --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["m"] == 4096);
  CHECK(j["batch"] == 2);
  CHECK(j["sparse"] == true);
  CHECK(run_dlperf("gemm --gpu t4 --m 512 --n 512 --k 512").out.find("best tile") !=
        std::string::npos);
}

TEST_CASE("dlperf cycles reproduces the guide's 392 and 221", "[cli][model]") {
  const run_result r = run_dlperf("cycles --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["without_tensor_cores"] == 392);
  CHECK(j["with_tensor_cores"] == 221);
  const auto j2023 = nlohmann::json::parse(run_dlperf("cycles --latencies 2023 --json").out);
  CHECK(j2023["without_tensor_cores"] == 684);
  CHECK(j2023["with_tensor_cores"] == 415);
  const auto arch = nlohmann::json::parse(run_dlperf("cycles --latencies hopper_gh100 --json").out);
  CHECK(arch["latencies"]["global"] == 479);
  CHECK(run_dlperf("cycles").out.find("392 cycles") != std::string::npos);
}

TEST_CASE("dlperf gemm and cycles reject bad input with exit code 2", "[cli][errors]") {
  require_usage_error("gemm --gpu a100_sxm4_40gb --m 0 --n 1 --k 1",
                      "--m '0' must be in [1, 1099511627776]");
  require_usage_error("gemm --gpu a100_sxm4_40gb --m 8 --n 1.5 --k 1", "--n '1.5' must be");
  require_usage_error("gemm --gpu a100_sxm4_40gb --m 8 --n 8 --k -8", "--k '-8'");
  require_usage_error("gemm --gpu a100_sxm4_40gb --m 8 --n 8 --k x", "is not a number");
  require_usage_error("gemm --gpu nope --m 8 --n 8 --k 8", "unknown GPU id 'nope'");
  require_usage_error("gemm --gpu a100_sxm4_40gb --m 8 --n 8 --k 8 --dtype fp8_e4m3",
                      "ampere_ga100 cannot run fp8_e4m3");
  require_usage_error("gemm --gpu v100_sxm2 --m 8 --n 8 --k 8 --sparse", "no 2:4 sparse");
  require_usage_error("gemm --gpu a100_sxm4_40gb --m 8 --n 8", "--k is required");
  require_usage_error("gemm --m 8 --n 8 --k 8", "give exactly one of --gpu ID and --device FILE");
  require_usage_error("cycles --latencies 1999", "--latencies: unknown latency set '1999'");
  require_usage_error("cycles --latencies pascal_gp10x",
                      "latency set 'pascal_gp10x' has no tensor");
  require_usage_error("cycles --latencies turing_tu11x --json", "'turing_tu11x' has no tensor");
}

TEST_CASE("dlperf calibrate --backend host writes a device file the other commands use",
          "[cli][calibrate][probe]") {
  const std::string file = "dlperf_cli_host_device.json";
  // Three repetitions: their median outvotes one sample taken while another process held a
  // core (with two, a loaded machine once measured its cache slower than its DRAM).
  const run_result cal = run_dlperf("calibrate --backend host --repetitions 3 --out " + file);
  INFO(cal.err);
  REQUIRE(cal.exit_code == 0);
  // Progress: one line per probe on stderr, as each one finishes.
  for (const char* line : {"dlperf: [1/5] DRAM bandwidth ", "dlperf: [2/5] cache bandwidth ",
                           "dlperf: [3/5] FP32 throughput ", "dlperf: [4/5] DRAM latency ",
                           "dlperf: [5/5] cache latency "})
    CHECK(cal.err.find(line) != std::string::npos);
  std::ifstream in(file);
  const auto device = nlohmann::json::parse(in);
  CHECK(device["kind"] == "host");
  CHECK(device["dram"]["bandwidth_gbps"]["value"].get<double>() > 0);
  CHECK(device["dram"]["bandwidth_gbps"]["value"].get<double>() <
        device["cache"]["bandwidth_gbps"]["value"].get<double>());
  const run_result r =
      run_dlperf("roofline --device " + file + " --flops 0 --bytes 1e9 --dtype fp32 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["bound"] == "global");
  CHECK(j["time_s"].get<double>() ==
        Approx(1.0 / device["dram"]["bandwidth_gbps"]["value"].get<double>()));
  require_usage_error("gemm --device " + file + " --m 8 --n 8 --k 8", "describes a host CPU");
  require_usage_error("cycles --device " + file, "cycles needs a GPU");
  require_usage_error("roofline --device " + file + " --flops 1 --bytes 1 --dtype fp16",
                      "only dense fp32 throughput was measured");
  std::remove(file.c_str());
}

TEST_CASE("the sample device file in examples/ loads and estimates", "[cli]") {
  const std::string file = DLPERF_SOURCE_DIR "/examples/devices/h100_pcie_measured.json";
  // Its measured DRAM bandwidth (1650 GB/s, examples/devices/README.md) sets the memory time,
  // not the catalog's 2039 GB/s.
  const run_result roof =
      run_dlperf("roofline --device " + file + " --flops 1e9 --bytes 1e10 --json");
  INFO(roof.err);
  REQUIRE(roof.exit_code == 0);
  const auto r = nlohmann::json::parse(roof.out);
  CHECK(r["gpu"] == "h100_pcie");
  CHECK(r["bound"] == "global");
  CHECK(r["time_s"].get<double>() == Approx(1e10 / 1650e9));
  CHECK(r["time_s"].get<double>() > 1e10 / dlperf::catalog::h100_pcie.memory_bandwidth().value());
  // Its achieved FP16 throughput (495 TFLOPS) caps the large GEMM.
  const auto gemm = nlohmann::json::parse(
      run_dlperf("gemm --device " + file + " --m 8192 --n 8192 --k 8192 --json").out);
  CHECK(gemm["tflops"].get<double>() <= 495.0);
  CHECK(gemm["tflops"].get<double>() == Approx(495).epsilon(0.1));
  // The people's output of the same estimate.
  const run_result text = run_dlperf("roofline --device " + file + " --flops 1e9 --bytes 1e10");
  CHECK(text.out.find("6.06 ms (DRAM-bound)") != std::string::npos);
}

TEST_CASE("a measured GPU device file changes roofline, gemm and cycles answers", "[cli]") {
  const std::string file = "dlperf_cli_gpu_device.json";
  {
    std::ofstream out(file);
    out << R"({"schema": "dlperf-device", "version": 1, "kind": "gpu", "base": "a100_sxm4_40gb",
               "measurements": {
                 "tiers": {"global": {"bandwidth_gbps": {"value": 1300, "method": "triad"},
                                      "latency_cycles": {"value": 466, "method": "chase"}}},
                 "achieved": [{"dtype": "fp16", "tflops": 250, "method": "cuBLAS"}]}})";
  }
  const auto roof = nlohmann::json::parse(
      run_dlperf("roofline --device " + file + " --flops 1e9 --bytes 1e10 --json").out);
  CHECK(roof["gpu"] == "a100_sxm4_40gb");
  CHECK(roof["time_s"].get<double>() == Approx(1e10 / 1300e9));
  const auto gemm = nlohmann::json::parse(
      run_dlperf("gemm --device " + file + " --m 8192 --n 8192 --k 8192 --json").out);
  CHECK(gemm["tflops"].get<double>() == Approx(250).epsilon(0.05));
  const auto cycles = nlohmann::json::parse(run_dlperf("cycles --device " + file + " --json").out);
  CHECK(cycles["with_tensor_cores"] == 466 + 23 + 1);
  require_usage_error("roofline --device missing.json --flops 1 --bytes 1",
                      "device file: cannot open 'missing.json'");
  {
    std::ofstream out(file);
    out << R"({"schema": "dlperf-device", "version": 1, "kind": "gpu", "base": "t4",
               "measurements": {"tiers": {"global": {"bandwidth_gbps": {"value": -3,
               "method": "x"}}}}})";
  }
  require_usage_error("roofline --device " + file + " --flops 1 --bytes 1",
                      "measurements.tiers.global.bandwidth_gbps.value: must be positive");
  require_usage_error("roofline --gpu t4 --device " + file + " --flops 1 --bytes 1",
                      "--gpu excludes --device");
  std::remove(file.c_str());
}

TEST_CASE("dlperf names the field of a number a device file cannot hold, exit code 2",
          "[cli][errors]") {
  // 1e400 made the JSON parser's own out_of_range escape: exit 1 with the parser's message.
  const std::string file = "dlperf_cli_overflow_device.json";
  {
    std::ofstream out(file);
    out << R"({"schema": "dlperf-device", "version": 2, "kind": "gpu", "base": "t4",
               "measurements": {"sm_clock_mhz": {"value": 1e400, "method": "x"}}})";
  }
  require_usage_error("roofline --device " + file + " --flops 1 --bytes 1",
                      "device file: measurements.sm_clock_mhz.value: number out of range");
  {
    std::ofstream out(file);
    out << R"({"schema": "dlperf-device", "version": 2, "kind": "gpu", "base": "t4",
               "measurements": {"sm_clock_mhz": {"value": 1e300, "method": "x"}}})";
  }
  require_usage_error("gemm --device " + file + " --m 8 --n 8 --k 8",
                      "measurements.sm_clock_mhz.value: must be in [100, 10000], got 1e+300");
  std::remove(file.c_str());
}

TEST_CASE("dlperf calibrate rejects what it cannot do", "[cli][calibrate][errors]") {
  // Without a GPU (or without CUDA in this build) the cuda backend exits 2 and says which.
  const run_result cuda = run_dlperf("calibrate --backend cuda");
  CHECK(cuda.exit_code == 2);
  const bool explained = cuda.err.find("no CUDA GPU found") != std::string::npos ||
                         cuda.err.find("built without CUDA") != std::string::npos;
  CHECK(explained);
  // The same for the hip backend: no AMD GPU, or no HIP in this build.
  const run_result hip = run_dlperf("calibrate --backend hip");
  CHECK(hip.exit_code == 2);
  const bool hip_explained = hip.err.find("no HIP GPU found") != std::string::npos ||
                             hip.err.find("built without HIP") != std::string::npos;
  CHECK(hip_explained);
  require_usage_error("calibrate --backend hip --gpu rtx_9090", "unknown GPU id 'rtx_9090'");
  require_usage_error("calibrate --backend tpu", "--backend");
  require_usage_error("calibrate --backend host --gpu t4", "--gpu applies to --backend cuda");
  require_usage_error("calibrate --backend cuda --gpu rtx_9090", "unknown GPU id 'rtx_9090'");
  require_usage_error("calibrate --backend host --repetitions 0", "--repetitions must be");
  require_usage_error("calibrate", "--backend is required");
  require_usage_error("calibrate --backend host --out /nonexistent/dir/host.json",
                      "cannot write --out '/nonexistent/dir/host.json'");
  // /dev/full opens but takes no byte: refused before any probe runs (one line, no progress).
  require_usage_error("calibrate --backend host --out /dev/full", "cannot write --out '/dev/full'");
  // A calibration that fails writes nothing: no file, no partial file, and a file that was there
  // keeps its bytes (this build has no GPU backend to run, or no GPU to run it on).
  {
    const std::string out = "dlperf_cli_failed_calibration.json";
    std::remove(out.c_str());
    const run_result failed = run_dlperf("calibrate --backend cuda --out " + out);
    if (failed.exit_code != 0) {
      CHECK(!std::ifstream(out).good());
      CHECK(!std::ifstream(out + ".partial").good());
      std::ofstream(out) << "kept";
      CHECK(run_dlperf("calibrate --backend cuda --out " + out).exit_code != 0);
      std::string kept;
      std::ifstream(out) >> kept;
      CHECK(kept == "kept");
      CHECK(!std::ifstream(out + ".partial").good());
    }
    std::remove(out.c_str());
  }
  // A directory is not a device file, and the error says so rather than "malformed JSON".
  require_usage_error("roofline --device . --flops 1 --bytes 1",
                      "device file: '.' is a directory, not a device file");
}

TEST_CASE("dlperf takes AMD GPUs through every command", "[cli][amd]") {
  const auto gpus = nlohmann::json::parse(run_dlperf("gpus --json").out);
  const auto mi300x =
      *std::find_if(gpus.begin(), gpus.end(), [](const auto& g) { return g["id"] == "mi300x"; });
  CHECK(mi300x["arch"] == "cdna3");
  CHECK(mi300x["sms"] == 304);
  // MI300X datasheet: BF16 1307.4, FP8 (FNUZ) 2614.9, TF32 653.7 TFLOPS; no OCP FP8.
  CHECK(mi300x["peak_tflops"]["bf16"].get<double>() == Approx(1307.4).epsilon(0.001));
  CHECK(mi300x["peak_tflops"]["fp8_e4m3_fnuz"].get<double>() == Approx(2614.9).epsilon(0.001));
  CHECK(mi300x["peak_tflops"]["tf32"].get<double>() == Approx(653.7).epsilon(0.001));
  CHECK(mi300x["peak_tflops"]["fp8_e4m3"].is_null());
  CHECK(mi300x["bandwidth_gbps"].get<double>() == Approx(5324.8));
  CHECK(run_dlperf("gpus").out.find("rx_7900_xtx") != std::string::npos);

  // 1 PFLOP of BF16 over 1 GB: compute-bound at the datasheet's 1307.4 TFLOPS.
  const run_result roof =
      run_dlperf("roofline --gpu mi300x --flops 1P --bytes 1G --dtype bf16 --json");
  REQUIRE(roof.exit_code == 0);
  const auto r = nlohmann::json::parse(roof.out);
  CHECK(r["bound"] == "compute");
  CHECK(r["attainable_tflops"].get<double>() == Approx(1307.4).epsilon(0.001));

  const run_result gemm =
      run_dlperf("gemm --gpu mi300x --m 4096 --n 3648 --k 32896 --dtype fp8_e4m3_fnuz --json");
  REQUIRE(gemm.exit_code == 0);
  const auto g = nlohmann::json::parse(gemm.out);
  CHECK(g["bound"] == "compute");
  // Measured: 1273 TFLOPS (AMD, "Measuring Max-Achievable FLOPs - Part 2", ROCm blogs, 2025; the
  // CDNA 3 FP8 calibration row).
  CHECK(g["tflops"].get<double>() == Approx(1273).epsilon(0.1));
  CHECK(run_dlperf("gemm --gpu rx_7900_xtx --m 4096 --n 4096 --k 4096 --dtype fp16").exit_code ==
        0);
  CHECK(run_dlperf("cycles --latencies cdna3 --json").exit_code == 0);
}

TEST_CASE("dlperf rejects what AMD architectures cannot run", "[cli][amd][errors]") {
  require_usage_error("roofline --gpu mi250x --flops 1 --bytes 1 --dtype tf32",
                      "cdna2 cannot run tf32");
  require_usage_error("gemm --gpu mi250x --m 8 --n 8 --k 8 --dtype fp8_e4m3_fnuz",
                      "cdna2 cannot run fp8_e4m3_fnuz");
  require_usage_error("roofline --gpu mi300x --flops 1 --bytes 1 --dtype fp8_e4m3",
                      "cdna3 cannot run fp8_e4m3");
  // RDNA 3's WMMA and CDNA 2's MFMA have no 2:4 sparse mode; the message names both vendors' paths.
  require_usage_error("roofline --gpu rx_7900_xtx --flops 1 --bytes 1 --dtype fp16 --sparse",
                      "rdna3 has no 2:4 sparse tensor-core path for fp16 (2:4 sparse matrix "
                      "units: NVIDIA Ampere or later, AMD CDNA 3)");
  require_usage_error("gemm --gpu mi250x --m 8 --n 8 --k 8 --dtype bf16 --sparse",
                      "cdna2 has no 2:4 sparse tensor-core path for bf16");
}

TEST_CASE("dlperf export writes a device file that --device reads back to the same answers",
          "[cli]") {
  const std::string file = "dlperf_cli_export_h100_pcie.json";
  const run_result exported = run_dlperf("export --gpu h100_pcie --out " + file);
  INFO(exported.err);
  REQUIRE(exported.exit_code == 0);
  std::ifstream in(file);
  const auto device = nlohmann::json::parse(in);
  CHECK(device["kind"] == "gpu");
  CHECK(device["architecture"]["name"] == "hopper_gh100");
  CHECK(device["facts"]["gemm_efficiency"] == 0.652);
  // Without --out the same file goes to stdout.
  CHECK(nlohmann::json::parse(run_dlperf("export --gpu h100_pcie").out) == device);
  const std::string gemm = " --m 8192 --n 8192 --k 8192 --dtype bf16";
  const run_result from_catalog = run_dlperf("gemm --gpu h100_pcie" + gemm);
  const run_result from_file = run_dlperf("gemm --device " + file + gemm);
  REQUIRE(from_catalog.exit_code == 0);
  CHECK(from_file.out == from_catalog.out);
  // torch.mm BF16 8192^3 on an H100 PCIe: 492.84 TFLOPS (torch-performance-test-data issue 95).
  const auto j = nlohmann::json::parse(run_dlperf("gemm --device " + file + gemm + " --json").out);
  CHECK(j["tflops"].get<double>() == Approx(490.377).epsilon(1e-5));
  CHECK(j["tflops"] ==
        nlohmann::json::parse(run_dlperf("gemm --gpu h100_pcie" + gemm + " --json").out)["tflops"]);
  const std::string roof = " --flops 1e12 --bytes 3e9 --dtype fp8_e4m3 --json";
  CHECK(nlohmann::json::parse(run_dlperf("roofline --device " + file + roof).out)["time_s"] ==
        nlohmann::json::parse(run_dlperf("roofline --gpu h100_pcie" + roof).out)["time_s"]);
  std::remove(file.c_str());
  require_usage_error("export --gpu rtx_9090", "--gpu: unknown GPU id 'rtx_9090'");
  require_usage_error("export", "--gpu is required");
  require_usage_error("export --gpu t4 --out /nonexistent/dir/t4.json",
                      "cannot write --out '/nonexistent/dir/t4.json'");
}

TEST_CASE("option choices in the help come from the enumerator lists", "[cli]") {
  // Appended rather than `"{" + std::string`: g++ 12 at -O3 reports a false -Wrestrict on the
  // latter (GCC bug 105329).
  const auto braced = [](std::string names) {
    names.insert(0, 1, '{');
    names.push_back('}');
    return names;
  };
  const std::string help = run_dlperf("gemm --help").out;
  CHECK(help.find(braced(dlperf::enum_names<dlperf::dtype>("|"))) != std::string::npos);
  CHECK(help.find(braced(dlperf::enum_names<dlperf::accumulator>("|"))) != std::string::npos);
  CHECK(run_dlperf("roofline --help").out.find(braced(dlperf::enum_names<dlperf::dtype>("|"))) !=
        std::string::npos);
  for (const char* command : {"gpus", "roofline", "gemm", "cycles", "calibrate", "export"})
    CHECK(run_dlperf("--help").out.find(command) != std::string::npos);
}

TEST_CASE("dlperf --help and --version exit 0", "[cli]") {
  CHECK(run_dlperf("--help").exit_code == 0);
  const run_result v = run_dlperf("--version");
  CHECK(v.exit_code == 0);
  CHECK(v.out.find("0.1.0") != std::string::npos);
}

TEST_CASE("roofline and gemm --help list every datatype and accumulator name", "[cli]") {
  for (const char* command : {"roofline", "gemm"}) {
    const run_result r = run_dlperf(std::string(command) + " --help");
    REQUIRE(r.exit_code == 0);
    for (dlperf::dtype t : dlperf::enum_values<dlperf::dtype>)
      CHECK(r.out.find(std::string(dlperf::name(t))) != std::string::npos);
    for (dlperf::accumulator a : dlperf::enum_values<dlperf::accumulator>)
      CHECK(r.out.find(std::string(dlperf::name(a))) != std::string::npos);
  }
}
#endif

TEST_CASE("dlperf gemm rejects extents whose tile count would not fit", "[cli][errors]") {
  require_usage_error("gemm --gpu h100_sxm --m 1e12 --n 1e12 --k 1e12",
                      "gemm: m x n x batch = 1000000000000 x 1000000000000 x 1 output elements, "
                      "more than 2^46");
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf models lists every preset with computed parameters", "[cli][model]") {
  const run_result r = run_dlperf("models --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == dlperf::presets::all.size());
  for (const auto& m : j) {
    for (const char* key : {"name", "kind", "parameters", "source"}) CHECK(m.contains(key));
    CHECK(m["parameters"].get<double>() > 0);
  }
  CHECK(j[5]["name"] == "llama2_7b");
  CHECK(j[5]["parameters"] == 6738415616.0);
  CHECK(run_dlperf("models").out.find("6.74 B") != std::string::npos);
}

TEST_CASE("dlperf model --json answers with the documented keys", "[cli][model]") {
  const run_result r =
      run_dlperf("model --preset bert_large --gpu h100_sxm --batch 32 --seq 512 --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* key : {"model", "gpu", "dtype", "mode", "batch", "seq", "document_tokens",
                          "packing", "parameters", "step_time_s", "samples_per_s", "tokens_per_s",
                          "tflops", "mfu", "memory", "fits", "ops", "max_batch"})
    CHECK(j.contains(key));
  for (const char* key : {"weights_bytes", "gradients_bytes", "optimizer_bytes",
                          "activations_bytes", "kv_cache_bytes", "total_bytes"})
    CHECK(j["memory"].contains(key));
  CHECK(j["mode"] == "train");
  CHECK(j["fits"] == true);
  CHECK(j["tokens_per_s"].get<double>() == Approx(32.0 * 512 / j["step_time_s"].get<double>()));
  double sum = 0;
  for (const auto& op : j["ops"]) {
    for (const char* key : {"name", "time_s", "bound", "phase"}) CHECK(op.contains(key));
    sum += op["time_s"].get<double>();
  }
  CHECK(sum == Approx(j["step_time_s"].get<double>()));
  // Decoder inference adds prefill and per-token decode times.
  const nlohmann::json g = nlohmann::json::parse(
      run_dlperf("model --preset llama3_8b --gpu a100_sxm4_80gb --infer --prompt 512 "
                 "--generate 64 --dtype fp16 --json")
          .out);
  CHECK(g["prefill_s"].get<double>() > 0);
  CHECK(g["step_time_s"].get<double>() ==
        Approx(g["prefill_s"].get<double>() + 64 * g["decode_s_per_token"].get<double>()));
  // With 8 GPUs the job's throughput is 8 replicas' less what the gradient all-reduce leaves
  // exposed: the cluster's speed-up over one GPU, below 8; with ZeRO stage 3 each GPU holds an
  // eighth of the weights.
  const std::string gpt2 = "model --preset gpt2 --gpu a100_sxm4_40gb --batch 8 --seq 1024 --json";
  const nlohmann::json one = nlohmann::json::parse(run_dlperf(gpt2).out);
  const nlohmann::json eight = nlohmann::json::parse(run_dlperf(gpt2 + " --gpus 8").out);
  const nlohmann::json zero3 = nlohmann::json::parse(run_dlperf(gpt2 + " --gpus 8 --zero 3").out);
  const double speedup = eight["cluster"]["speedup"].get<double>();
  CHECK(speedup < 8);
  CHECK(eight["samples_per_s"].get<double>() ==
        Approx(speedup * one["samples_per_s"].get<double>()).epsilon(1e-9));
  CHECK(zero3["memory"]["weights_bytes"].get<double>() ==
        Approx(one["memory"]["weights_bytes"].get<double>() / 8));
}

TEST_CASE("dlperf model prints a table, totals and the fits verdict", "[cli][model]") {
  const run_result r = run_dlperf("model --preset llama2_7b --gpu rtx_4090 --seq 512");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("FFN gate+up") != std::string::npos);
  CHECK(r.out.find("compute-bound") != std::string::npos);
  CHECK(r.out.find("does NOT fit") != std::string::npos);
  const run_result q = run_dlperf(
      "model --preset llama2_7b --gpu rtx_4090 --infer --weights int4 --prompt 100 --generate 10");
  REQUIRE(q.exit_code == 0);
  CHECK(q.out.find("fits (margin") != std::string::npos);
  CHECK(q.out.find("time to first token") != std::string::npos);
  // A CNN, and a model file.
  CHECK(run_dlperf("model --preset resnet50 --gpu v100_sxm2 --dtype fp16 --batch 64").exit_code ==
        0);
  const std::string file = std::string(DLPERF_SOURCE_DIR) + "/examples/models/tiny_llama.json";
  CHECK(run_dlperf("model --config " + file + " --gpu l4 --infer --generate 8").exit_code == 0);
  CHECK(run_dlperf("model --layers 4 --hidden 512 --heads 8 --vocab 1000 --max-seq 256 --gpu l4")
            .exit_code == 0);
}

TEST_CASE("dlperf model rejects bad input with exit code 2 and one line", "[cli][model][errors]") {
  require_usage_error("model --preset llama9 --gpu h100_sxm", "unknown model preset 'llama9'");
  require_usage_error("model --gpu h100_sxm", "give exactly one of --preset NAME");
  require_usage_error("model --preset gpt2 --config x.json --gpu h100_sxm", "exactly one of");
  require_usage_error("model --layers 2 --hidden 100 --heads 3 --vocab 10 --max-seq 8 --gpu l4",
                      "heads (3) must divide hidden (100)");
  require_usage_error(
      "model --layers 2 --hidden 64 --heads 8 --kv-heads 3 --vocab 10 --max-seq 8 --gpu l4",
      "kv_heads (3) must divide heads (8)");
  require_usage_error("model --layers 2 --hidden 64 --gpu l4", "--heads is required");
  // A shape flag beside a preset or a model file would be left unread: it is refused.
  require_usage_error("model --preset gpt2 --kv-heads 4 --gpu h100_sxm",
                      "--kv-heads describes a model by its shape");
  require_usage_error("model --config x.json --no-biases --gpu h100_sxm",
                      "--no-biases describes a model by its shape");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --batch 0", "--batch");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --seq 4096",
                      "seq (4096) exceeds the model's context (1024)");
  require_usage_error("model --preset gpt2 --gpu a100_sxm4_40gb --dtype fp8_e4m3", "fp8_e4m3");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --zero 5", "--zero");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --weights int4", "for --infer");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --train --infer", "one of --train");
  require_usage_error("model --config /nonexistent.json --gpu h100_sxm", "model file: cannot open");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --optimizer lamb", "unknown optimizer");
  // A malformed model file names the byte or the field.
  char path[] = "/tmp/dlperf_model_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  std::ofstream(path) << "{\"transformer\": {\"layers\": 2,";
  require_usage_error(std::string("model --config ") + path + " --gpu h100_sxm",
                      "model file: (text): malformed JSON");
  std::ofstream(path)
      << R"({"transformer": {"layers": -2, "hidden": 64, "heads": 2, "vocab": 9, "max_seq": 8}})";
  require_usage_error(std::string("model --config ") + path + " --gpu h100_sxm",
                      "model file: transformer.layers");
  std::remove(path);
}

TEST_CASE("dlperf model runs on device files and AMD GPUs", "[cli][model][amd]") {
  const std::string file =
      std::string(DLPERF_SOURCE_DIR) + "/examples/devices/h100_pcie_measured.json";
  const run_result d = run_dlperf("model --preset gpt2 --device " + file + " --batch 4 --json");
  REQUIRE(d.exit_code == 0);
  CHECK(nlohmann::json::parse(d.out)["samples_per_s"].get<double>() > 0);
  const run_result a = run_dlperf(
      "model --preset llama2_70b --gpu mi300x --infer --prompt 256 --generate 16 "
      "--dtype fp16 --json");
  REQUIRE(a.exit_code == 0);
  CHECK(nlohmann::json::parse(a.out)["fits"] == true);
  require_usage_error("model --preset gpt2 --gpu mi250x --dtype fp8_e4m3_fnuz", "fp8");
}

TEST_CASE("dlperf model on a Mac: llama.cpp's Metal build, the GPU's share of unified memory",
          "[cli][model][apple]") {
  const std::string base =
      "model --preset llama3_70b --gpu m2_ultra_76c_192gb --infer --dtype fp16 --weights q4_k_m "
      "--prompt 512 --generate 128 --stack llama.cpp-metal";
  const run_result t = run_dlperf(base);
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("Apple M2 Ultra (76-core GPU, 192 GB) (apple_m2)") != std::string::npos);
  CHECK(t.out.find("144 GiB is the GPU's working set of the Mac's 192 GiB of unified memory") !=
        std::string::npos);
  CHECK(t.out.find("published llama.cpp-metal inference runs on Apple silicon Macs") !=
        std::string::npos);
  const run_result j = run_dlperf(base + " --json");
  REQUIRE(j.exit_code == 0);
  const nlohmann::json v = nlohmann::json::parse(j.out);
  CHECK(v["memory"]["unified_memory_bytes"].get<double>() == 192.0 * (1LL << 30));
  CHECK(v["memory"]["capacity_bytes"].get<double>() == 144.0 * (1LL << 30));
  CHECK(v["fits"] == true);
  // XiongjieDai's M2 Ultra ran this at 12.48 tokens/s (tg512); the model is within its band.
  CHECK(v["decode_tokens_per_s"].get<double>() == Approx(12.48).epsilon(0.25));
  // A discrete GPU has no unified memory.
  const run_result d = run_dlperf(
      "model --preset llama2_7b --gpu rtx_4090 --infer --weights q4_0 --generate 16 --json");
  REQUIRE(d.exit_code == 0);
  CHECK(nlohmann::json::parse(d.out)["memory"]["unified_memory_bytes"] == 0);
  // MLX: chigkim's M3 Max ran Llama 3.3 70B in MLX 4-bit at 9.29 tokens/s after a 1171-token
  // prompt (mlx-examples issue 1029); the model is within its band, and says so.
  const std::string mlx =
      "model --preset llama3_3_70b --gpu m3_max_40c_64gb --infer --dtype fp16 --weights mlx_4bit "
      "--prompt 1171 --generate 744 --stack mlx";
  const run_result m = run_dlperf(mlx);
  REQUIRE(m.exit_code == 0);
  CHECK(m.out.find("published mlx inference runs on Apple silicon Macs") != std::string::npos);
  const run_result mj = run_dlperf(mlx + " --json");
  REQUIRE(mj.exit_code == 0);
  CHECK(nlohmann::json::parse(mj.out)["decode_tokens_per_s"].get<double>() ==
        Approx(9.287).epsilon(0.2));
  require_usage_error(
      "model --preset llama2_7b --gpu rtx_4090 --infer --weights mlx_4bit --stack mlx",
      "stack mlx does not run on NVIDIA GPUs");
  // One GPU to a Mac; CUDA's llama.cpp build does not run there.
  require_usage_error(base + " --gpus 2", "one to a machine");
  require_usage_error(
      "model --preset llama2_7b --gpu m1_max_32c_64gb --infer --dtype fp16 --stack llama.cpp",
      "stack llama.cpp does not run on Apple GPUs");
  // A Mac's power is its machine's at the wall (Apple's 295 W for the M2 Ultra Mac Studio).
  const run_result p = run_dlperf("power --gpu m2_ultra_76c_192gb --json");
  REQUIRE(p.exit_code == 0);
  const nlohmann::json w = nlohmann::json::parse(p.out);
  CHECK(w["system_watts"] == 295);
  CHECK(w["rest_watts"] == 0);
  CHECK(w["recommended_psu_watts"].is_null());
  require_usage_error("power --gpu m2_ultra_76c_192gb --count 2", "one to a machine");
  require_usage_error("power --gpu m2_ultra_76c_192gb --limit 200", "no power limit to set");
  require_usage_error(base + " --power-limit 200", "with no power limit to set");
  require_usage_error("tco --gpu m2_ultra_60c_64gb --count 2 --kwh-price 0.2 --utilization 0.5",
                      "--count: m2_ultra_60c_64gb is a system-on-chip's GPU, one to a machine");
  // advise counts a Mac's power as the machine's: no host watts added, no PSU to choose.
  const run_result a = run_dlperf("advise --use-case transformers --budget 5000 --json");
  REQUIRE(a.exit_code == 0);
  bool seen = false;
  for (const auto& e : nlohmann::json::parse(a.out))
    if (e["id"] == "m4_max_32c_36gb") {
      seen = true;
      CHECK(e["system_watts"] == 145);
      CHECK(e["recommended_psu_watts"].is_null());
    }
  CHECK(seen);
  // Unified memory: nothing to offload to the CPU.
  require_usage_error(base + " --gpu-layers 40", "no layers to offload");
}
#endif
