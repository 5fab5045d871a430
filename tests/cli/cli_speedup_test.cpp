// `dlperf speedup`: the guide's rule and the modelled ratio as a user runs them, output shapes
// and rejections (docs/buying.md, "Speed-up between two GPUs").
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;
using dlperf_test::run_result;

TEST_CASE("dlperf speedup prints the rule's formula: A100 over V100 = 1.78-1.87",
          "[cli][speedup]") {
  const run_result r = run_dlperf("speedup --from v100_sxm2 --to a100_sxm4_40gb");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("bandwidth 1555/899 GB/s = 1.73 x shared memory 1.02-1.05 x tensor cores "
                   "1.01-1.03 = 1.78-1.87") != std::string::npos);
  CHECK(r.out.find("+ampere_ga100") != std::string::npos);
  CHECK(r.out.find("modelled") == std::string::npos);
}

TEST_CASE("dlperf speedup --json: GTX 1080 over GTX 1070 = 1.25, no modelled ratio",
          "[cli][speedup]") {
  const run_result r = run_dlperf("speedup --from gtx_1070 --to gtx_1080 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("from") == "gtx_1070");
  CHECK(j.at("to") == "gtx_1080");
  CHECK(j.at("bandwidth_ratio").get<double>() == Approx(1.25));
  CHECK(j.at("rule").at("low").get<double>() == Approx(1.25));
  CHECK(j.at("rule").at("high").get<double>() == Approx(1.25));
  CHECK(!j.contains("modelled"));
}

TEST_CASE("dlperf speedup --preset adds the modelled ratio with both step times",
          "[cli][speedup]") {
  const run_result r = run_dlperf(
      "speedup --from rtx_2080_ti --to rtx_3090 --preset resnet50 --train --batch 64 "
      "--dtype fp16 --optimizer sgd --eager --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double from = j.at("from_step_s").get<double>(), to = j.at("to_step_s").get<double>();
  CHECK(j.at("modelled").get<double>() == Approx(from / to));
  CHECK(j.at("modelled").get<double>() == Approx(1.57).epsilon(0.02));  // the guide's CNN figure
  CHECK(j.at("preset") == "resnet50");

  const run_result human = run_dlperf(
      "speedup --from rtx_2080_ti --to rtx_3090 --preset resnet50 --batch 64 --dtype fp16");
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.find("modelled: resnet50 training step, fp16, batch 64 x 224x224 px") !=
        std::string::npos);
  CHECK(human.out.find(" on rtx_2080_ti / ") != std::string::npos);
}

TEST_CASE("dlperf speedup rejects bad input with exit code 2 and one line",
          "[cli][speedup][errors]") {
  require_usage_error("speedup --from v100_sxm3 --to a100_sxm4_40gb", "--from");
  require_usage_error("speedup --from v100_sxm2 --to a100", "--to");
  require_usage_error("speedup --to a100_sxm4_40gb",
                      "give exactly one of --from ID and --from-device FILE");
  require_usage_error("speedup --from v100_sxm2 --to a100_sxm4_40gb --preset resnet50",
                      "--dtype: v100_sxm2 cannot run bf16");
  require_usage_error("speedup --from gtx_1080 --to v100_sxm2", "--from/--to: ");
  require_usage_error("speedup --from gtx_1080 --to v100_sxm2", "GTX 1080 has no tensor cores");
  require_usage_error("speedup --from a100_sxm4_40gb --to mi300x", "share no line of generations");
  require_usage_error("speedup --from v100_sxm2 --to a100_sxm4_40gb --preset gpt5", "--preset");
  require_usage_error("speedup --from v100_sxm2 --to a100_sxm4_40gb --preset resnet50 --batch 0",
                      "--batch");
}

TEST_CASE("dlperf speedup between a card and a Mac: the model, each side on its own build",
          "[cli][speedup][apple]") {
  // The guide's rule compares GPUs that both have tensor cores; with --preset the model answers
  // anyway, llama.cpp running as its Metal build on the Mac, and the rule says why it is left out.
  const std::string args =
      "speedup --from rtx_3090 --to m2_ultra_76c_192gb --preset llama3_8b --infer --dtype fp16 "
      "--weights q4_k_m --prompt 512 --generate 128 --stack llama.cpp";
  const run_result t = run_dlperf(args);
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("guide's rule: not applied") != std::string::npos);
  CHECK(t.out.find("on m2_ultra_76c_192gb: llama.cpp-metal, llama.cpp's build for Apple GPUs") !=
        std::string::npos);
  const run_result j = run_dlperf(args + " --json");
  REQUIRE(j.exit_code == 0);
  const nlohmann::json v = nlohmann::json::parse(j.out);
  CHECK(v["rule"].is_null());
  CHECK(v["rule_not_applied"].get<std::string>().find("no tensor cores") != std::string::npos);
  CHECK(v["bandwidth_ratio"].get<double>() == Approx(819.2 / 936.0).epsilon(0.001));
  CHECK(v["modelled"].get<double>() > 0);
  // Without --preset there is nothing to answer with.
  require_usage_error("speedup --from rtx_3090 --to m2_ultra_76c_192gb", "no tensor cores");
}

#endif
