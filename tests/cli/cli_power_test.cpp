// The `dlperf power` and `dlperf tco` commands (docs/buying.md, "Power" and "Cloud or desktop"):
// the figures of Dettmers, Which GPU(s) to Get for Deep Learning, 2020 edition
// (https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/), and bad input.
#ifdef DLPERF_CLI_PATH

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using dlperf_test::json_of;
using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;

namespace {

// The guide's cloud-or-desktop example: one RTX 3090 desktop for $2200, GPU 350 W + CPU 100 W,
// 15 % utilisation, $0.12 per kWh, a cloud V100 spot instance at $2.14 per hour.
const std::string guide_tco =
    "tco --gpu-watts 350 --other-watts 100 --utilization 0.15 --kwh-price 0.12 "
    "--system-price 2200 --cloud-hourly 2.14";

}  // namespace

TEST_CASE("dlperf power: 4x RTX 3090 = 1400 W of GPUs, PSU beyond a desktop's 1600 W",
          "[cli][power]") {
  const nlohmann::json j = json_of("power --gpu rtx_3090 --count 4 --json");
  CHECK(j.at("board_watts").get<double>() == 350.0);
  CHECK(j.at("gpu_watts").get<double>() == 1400.0);
  CHECK(j.at("desktop_psu_left_watts").get<double>() == 200.0);
  CHECK(j.at("system_watts").get<double>() == 1650.0);
  CHECK(j.at("recommended_psu_watts").get<double>() >= 1700.0);
  CHECK(j.at("performance_fraction").get<double>() == 1.0);
  CHECK(j.at("warnings").size() == 2);
  CHECK(j.at("warnings")[0] == "psu_beyond_desktop");
}

TEST_CASE("dlperf power: RTX 3080 draws 320 W", "[cli][power]") {
  const nlohmann::json j = json_of("power --gpu rtx_3080 --count 1 --json");
  CHECK(j.at("gpu_watts").get<double>() == 320.0);
  CHECK(j.at("warnings").empty());
  const dlperf_test::run_result human = run_dlperf("power --gpu rtx_3080");
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("320 W of GPUs") != std::string::npos);
}

TEST_CASE("dlperf power --limit 300: 4x RTX 3090 save 200 W and fit a 1600 W PSU", "[cli][power]") {
  const nlohmann::json j = json_of("power --gpu rtx_3090 --count 4 --limit 300 --json");
  CHECK(j.at("saving_watts").get<double>() == 200.0);
  CHECK(j.at("gpu_watts").get<double>() == 1200.0);
  CHECK(j.at("recommended_psu_watts").get<double>() <= 1600.0);
  CHECK(j.at("warnings").empty());
  // All compute-bound by default: the speed is the clock, (300/350)^(1/3).
  CHECK(j.at("performance_fraction").get<double>() == Approx(0.9499).epsilon(1e-3));
}

TEST_CASE("dlperf power: RTX 2080 Ti 250 -> 200 W costs BERT-Large inference about 7 %",
          "[cli][power]") {
  const nlohmann::json j = json_of(
      "power --gpu rtx_2080_ti --count 1 --limit 200 --preset bert_large --infer --batch 32 "
      "--seq 128 --dtype fp16 --json");
  CHECK(1.0 - j.at("performance_fraction").get<double>() == Approx(0.07).margin(0.01));
  const nlohmann::json given =
      json_of("power --gpu rtx_2080_ti --limit 200 --compute-share 0 --json");
  CHECK(given.at("performance_fraction").get<double>() == 1.0);
}

TEST_CASE(
    "dlperf tco: 591 kWh, $71 a year, cloud $2311 vs desktop $2270 at 300 days, "
    "break-even 293 days (Dettmers 2020)",
    "[cli][power]") {
  const nlohmann::json j = json_of(guide_tco + " --days 300 --json");
  CHECK(j.at("kwh_per_year").get<double>() == Approx(591.3).margin(0.05));
  CHECK(j.at("electricity_usd_per_year").get<double>() == Approx(71.0).margin(0.5));
  CHECK(j.at("cloud_usd").get<double>() == Approx(2311.0).margin(0.5));
  CHECK(j.at("desktop_usd").get<double>() == Approx(2271.0).margin(0.5));
  CHECK(j.at("break_even_days").get<double>() == Approx(293.0).margin(0.5));
  CHECK(j.at("co2_kg_per_year").get<double>() == Approx(591.3 * 0.3662).epsilon(1e-3));
  const nlohmann::json preset = json_of(
      "tco --gpu-watts 350 --other-watts 100 --preset-utilization personal --kwh-price 0.12 "
      "--system-price 2200 --cloud-hourly 2.14 --days 300 --grid-kg-per-kwh 0.5 --json");
  CHECK(preset.at("cloud_usd").get<double>() == Approx(2311.0).margin(0.5));
  CHECK(preset.at("co2_kg_per_year").get<double>() == Approx(591.3 * 0.5).epsilon(1e-3));
  const dlperf_test::run_result human = run_dlperf(guide_tco + " --days 300");
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("break-even: 293 days") != std::string::npos);
}

TEST_CASE("dlperf power and tco reject bad input naming the flag", "[cli][power]") {
  require_usage_error("power --gpu rtx_3090 --count 0", "--count");
  require_usage_error("power --gpu rtx_9999 --count 1", "--gpu");
  require_usage_error("power --gpu rtx_3090 --limit 400", "--limit");
  require_usage_error("power --gpu rtx_3090 --compute-share 1.5", "--compute-share");
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 100 --utilization 1.5 --kwh-price 0.12 "
      "--system-price 2200 --cloud-hourly 2.14",
      "--utilization");
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 100 --utilization 0.15 --kwh-price -0.12 "
      "--system-price 2200 --cloud-hourly 2.14",
      "--kwh-price");
  require_usage_error(
      "tco --gpu-watts -350 --other-watts 100 --utilization 0.15 --kwh-price 0.12 "
      "--system-price 2200 --cloud-hourly 2.14",
      "--gpu-watts");
  require_usage_error(guide_tco + " --days 0", "--days");
  require_usage_error(guide_tco + " --preset-utilization personal", "--preset-utilization");
  require_usage_error(guide_tco + " --preset-utilization lab", "--preset-utilization");
}

TEST_CASE("dlperf model and cluster --power-limit: the GPU's SM clock slows, its DRAM does not",
          "[cli][power]") {
  // torchtitan's Llama 3.1 8B on Grand Teton H100s at their default 500 W (docs/evidence.md).
  const std::string run =
      "--preset llama3_1_8b --gpu h100_sxm --batch 1 --seq 4096 --gpus 8 --zero 3 "
      "--stack pytorch-eager";
  const nlohmann::json full = json_of("model " + run + " --json");
  const nlohmann::json capped = json_of("model " + run + " --power-limit 500 --json");
  CHECK(full.at("power_limit").is_null());
  const nlohmann::json& p = capped.at("power_limit");
  CHECK(p.at("watts").get<double>() == 500.0);
  CHECK(p.at("board_watts").get<double>() == 700.0);
  const double f = p.at("clock_fraction").get<double>();
  CHECK(f == Approx(std::cbrt(500.0 / 700.0)));
  CHECK(p.at("sm_clock_hz").get<double>() == Approx(1.98e9 * f));
  // The step slows, by less than the clock (norms and the optimizer stream from DRAM).
  const double ratio =
      capped.at("step_time_s").get<double>() / full.at("step_time_s").get<double>();
  CHECK(ratio > 1.0);
  CHECK(ratio < 1.0 / f);
  const dlperf_test::run_result text = run_dlperf("model " + run + " --power-limit 500");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("power limit 500 W of 700 W: SM clock 1.77 GHz, 89.4 %") !=
        std::string::npos);
  // The cluster command prices the same job the same way.
  const std::string job =
      "cluster --gpu h100_sxm --gpus 8 --link nvlink4 --preset llama3_1_8b "
      "--batch 1 --seq 4096 --zero 3 --stack pytorch-eager";
  const nlohmann::json c = json_of(job + " --power-limit 500 --json");
  CHECK(c.at("power_limit").at("watts").get<double>() == 500.0);
  CHECK(c.at("step_time_s").get<double>() >
        json_of(job + " --json").at("step_time_s").get<double>());
  CHECK(json_of(job + " --json").at("power_limit").is_null());
}

TEST_CASE("dlperf model and cluster say the clock a long training job holds, and only then",
          "[cli][power][sustained_clock]") {
  // A 700 W GH100 under minutes of tensor load holds about 1470 MHz of its quoted 1830
  // (docs/calibration.md, "Clocks under sustained load").
  const std::string run = "--preset llama3_1_8b --gpu h100_sxm --batch 1 --seq 4096";
  const nlohmann::json train = json_of("model " + run + " --json");
  const nlohmann::json& s = train.at("sustained_clock");
  const double f = s.at("clock_fraction").get<double>();
  CHECK(f > 1470.0 / 1830.0 - 1e-9);
  CHECK(f < 1.0);
  CHECK(s.at("tensor_clock_hz").get<double>() == 1.83e9);
  CHECK(s.at("sm_clock_hz").get<double>() == Approx(1.83e9 * f));
  const dlperf_test::run_result text = run_dlperf("model " + run);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("clock: a long job's tensor work holds") != std::string::npos);
  // Inference, and a board with no measured clock, keep theirs and say nothing.
  CHECK(json_of("model " + run + " --infer --json").at("sustained_clock").is_null());
  const nlohmann::json a100 =
      json_of("model --preset llama3_1_8b --gpu a100_sxm4_80gb --batch 1 --seq 4096 --json");
  CHECK(a100.at("sustained_clock").is_null());
  CHECK(run_dlperf("model " + run + " --infer").out.find("clock:") == std::string::npos);
  // The cluster command carries the same clock.
  const nlohmann::json c = json_of(
      "cluster --gpu h100_sxm --gpus 8 --link nvlink4 --preset llama3_1_8b --batch 1 --seq 4096 "
      "--zero 3 --json");
  CHECK(c.at("clock_fraction").get<double>() < 1.0);
  CHECK(json_of("cluster --gpu a100_sxm4_80gb --gpus 8 --link nvlink3 --preset llama3_1_8b "
                "--batch 1 --seq 4096 --zero 3 --json")
            .at("clock_fraction")
            .get<double>() == 1.0);
}

TEST_CASE(
    "a power limit below a fifth of the board power, above it, on a host CPU or over mixed GPUs is "
    "refused",
    "[cli][power]") {
  require_usage_error("model --preset gpt2 --gpu h100_sxm --power-limit 800",
                      "--power-limit '800' must be in [140, 700] W");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --power-limit 100",
                      "--power-limit '100' must be in [140, 700] W");
  require_usage_error("model --preset gpt2 --gpu h100_sxm --power-limit nan", "--power-limit");
  require_usage_error("cluster --gpu rtx_4090 --gpus 2 --link pcie4_x16 --power-limit 1e9",
                      "--power-limit '1e9' must be in [90, 450] W");
  require_usage_error(
      "cluster --gpu h100_sxm,a100_sxm4_80gb --gpus 2 --link nvlink3 --power-limit 300",
      "this job mixes h100_sxm and a100_sxm4_80gb");
  const std::string host = "dlperf_power_limit_host_test.json";
  dlperf_test::write_host_device_file(host);
  require_usage_error("model --preset gpt2 --device " + host + " --power-limit 100",
                      "--power-limit: the device file describes a host CPU");
  std::remove(host.c_str());
}

#endif
