// A software stack measured on one device (stack/stack_calibration.hpp; docs/stacks.md, "Your
// own measurements"): the measured figures replace the named stack's, travel in the device file
// ("stacks") and reach `dlperf model --device`; every malformed or implausible one is rejected
// naming its field.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/device_file.hpp>
#include <fstream>
#include <string>

#ifdef DLPERF_CLI_PATH
#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace stack_calibration_test {

// PyTorch eager measured on one GPU: cuBLAS at 70 % of the model's GEMM ceiling, 20 us of host
// time per operator call.
stack_calibration eager_measured() {
  return {stack_id::pytorch_eager,
          {{stack_figure_id::gemm_efficiency, {0.70, "torch.matmul 8192^3 bf16, median of 20"}},
           {stack_figure_id::host_overhead, {20e-6, "torch.profiler, 200 nn.Linear calls"}}}};
}

// The device file of @p g with @p stacks, as text.
std::string device_text(const gpu_spec& g, const std::vector<stack_calibration>& stacks) {
  return calibrate::to_json(measured_device(g), stacks).dump();
}

// @p text with "stacks" replaced by @p stacks (JSON text).
std::string with_stacks(const std::string& stacks) {
  nlohmann::json j = nlohmann::json::parse(device_text(catalog::rtx_4090, {}));
  j["stacks"] = nlohmann::json::parse(stacks);
  return j.dump();
}

}  // namespace stack_calibration_test

using namespace stack_calibration_test;

TEST_CASE("measured figures replace the named stack's, with their methods as sources",
          "[stack_calibration]") {
  const stack_calibration c = eager_measured();
  const software_stack s = c.apply_to(stacks::pytorch_eager);
  CHECK(s.gemm_efficiency.value == 0.70);
  CHECK(s.gemm_efficiency.source == "torch.matmul 8192^3 bf16, median of 20");
  CHECK(s.host_overhead.value == 20e-6);
  // Every other figure is the record's.
  CHECK(s.conv_efficiency.value == stacks::pytorch_eager.conv_efficiency.value);
  CHECK(s.streaming_dram_share.source == stacks::pytorch_eager.streaming_dram_share.source);
  CHECK(s.optimizer_kernels == stacks::pytorch_eager.optimizer_kernels);
  // Every figure name is a member of the stack, and each names a different one.
  for (stack_figure_id f : enum_values<stack_figure_id>)
    for (stack_figure_id g : enum_values<stack_figure_id>)
      CHECK((f == g) == (stack_figure_member(f) == stack_figure_member(g)));
}

TEST_CASE("a measured stack is never faster than its ceiling, and slower where it measured less",
          "[stack_calibration][properties]") {
  const stack_calibration c = eager_measured();
  const software_stack measured = c.apply_to(stacks::pytorch_eager);
  run_config r;
  r.batch = 8;
  r.seq = 2048;
  r.type = dtype::fp32;  // every GPU of the catalog runs it
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    const stacked_estimate own = estimate_model(*g, presets::llama3_8b, r, stacks::pytorch_eager);
    const stacked_estimate mine = estimate_model(*g, presets::llama3_8b, r, measured);
    CHECK(std::isfinite(mine.stack.time.value()));
    CHECK(mine.stack.time.value() >= mine.ceiling.time.value());
    // 0.70 of the GEMM ceiling against the record's 1.0, and a host slower per call.
    CHECK(mine.stack.time.value() > own.stack.time.value());
  }
}

TEST_CASE("measured stacks travel in the device file", "[stack_calibration][device_file]") {
  const std::string text = device_text(catalog::rtx_4090, {eager_measured()});
  const std::vector<stack_calibration> back = calibrate::parse_stack_calibrations(text);
  REQUIRE(back.size() == 1);
  CHECK(back[0].stack == stack_id::pytorch_eager);
  REQUIRE(back[0].figures.size() == 2);
  const stack_calibration original = eager_measured();
  const software_stack a = original.apply_to(stacks::pytorch_eager);
  const software_stack b = back[0].apply_to(stacks::pytorch_eager);
  CHECK(a.gemm_efficiency.value == b.gemm_efficiency.value);
  CHECK(a.host_overhead.value == b.host_overhead.value);
  CHECK(a.host_overhead.source == b.host_overhead.source);
  // The device itself reads as before, and a file without stacks has none.
  CHECK(std::get<measured_device>(calibrate::parse_device(text)).id() == "rtx_4090");
  CHECK(calibrate::parse_stack_calibrations(device_text(catalog::rtx_4090, {})).empty());
}

TEST_CASE("measured stacks out of their domain are rejected, naming the field",
          "[stack_calibration][errors]") {
  const auto rejects = [](const std::string& stacks, const std::string& message) {
    INFO(stacks);
    CHECK_THROWS_WITH(calibrate::parse_stack_calibrations(with_stacks(stacks)),
                      Catch::StartsWith("device file: ") && Catch::Contains(message));
    // Every reader of the file rejects it, not only the stacks' reader.
    CHECK_THROWS_WITH(calibrate::parse_device(with_stacks(stacks)), Catch::Contains(message));
  };
  const std::string method = R"("method": "m")";
  rejects(R"({"pytorch-eagre": {}})", "stacks.pytorch-eagre");
  rejects(R"({"pytorch-eagre": {}})", "pytorch-eager");  // the valid names listed
  rejects(R"({"ceiling": {}})", "ceiling is the hardware model itself");
  rejects(R"({"vllm": {"gemm_eficiency": {"value": 0.5, )" + method + "}}}",
          "stacks.vllm.gemm_eficiency");
  rejects(R"({"vllm": {"gemm_efficiency": {"value": 1.2, )" + method + "}}}",
          "stacks.vllm.gemm_efficiency");
  rejects(R"({"vllm": {"gemv_dram_share": {"value": 0, )" + method + "}}}",
          "stacks.vllm.gemv_dram_share");
  rejects(R"({"vllm": {"host_overhead": {"value": -1e-6, )" + method + "}}}",
          "stacks.vllm.host_overhead");
  rejects(R"({"vllm": {"host_overhead": {"value": 2, )" + method + "}}}",
          "stacks.vllm.host_overhead");
  rejects(R"({"vllm": {"host_overhead": {"value": 1e-6}}})", "method");
  rejects(R"({"vllm": [1]})", "stacks.vllm");
  rejects(R"([1])", "stacks");
  // In code: applied to another stack, or to the ceiling.
  const stack_calibration eager = eager_measured();
  CHECK_THROWS_WITH(eager.apply_to(stacks::vllm),
                    Catch::Contains("measured pytorch-eager, applied to vllm"));
  stack_calibration ceiling = eager_measured();
  ceiling.stack = stack_id::ceiling;
  CHECK_THROWS_WITH(ceiling.apply_to(stacks::ceiling), Catch::Contains("ceiling"));
  stack_calibration wide = eager_measured();
  wide.figures[0].second.value = 1.5;
  CHECK_THROWS_WITH(wide.apply_to(stacks::pytorch_eager),
                    Catch::Contains("gemm_efficiency must be in (0, 1]"));
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model --device: a stack measured in the file replaces the named stack's figures",
          "[stack_calibration][cli]") {
  const std::string path = "dlperf_stack_calibration_test.json";
  {
    std::ofstream out(path);
    out << device_text(catalog::rtx_4090, {eager_measured()});
  }
  const std::string run = "model --preset llama3_8b --batch 4 --seq 2048 --lora 16 ";
  const nlohmann::json mine =
      dlperf_test::json_of(run + "--device " + path + " --stack pytorch-eager --json");
  const nlohmann::json own =
      dlperf_test::json_of(run + "--gpu rtx_4090 --stack pytorch-eager --json");
  CHECK(mine.at("stack_measured").at("gemm_efficiency").at("value") == 0.70);
  CHECK(mine.at("stack_measured").at("host_overhead").at("method") ==
        "torch.profiler, 200 nn.Linear calls");
  CHECK(own.at("stack_measured").is_null());
  CHECK(mine.at("step_time_s").get<double>() > own.at("step_time_s").get<double>());
  // The ceiling is the hardware's, the same whichever stack figures apply.
  CHECK(mine.at("ceiling").at("step_time_s") == own.at("ceiling").at("step_time_s"));
  // A stack the file did not measure runs on its own figures.
  CHECK(dlperf_test::json_of(run + "--device " + path + " --stack torch-compile --json")
            .at("stack_measured")
            .is_null());
  const dlperf_test::run_result text =
      dlperf_test::run_dlperf(run + "--device " + path + " --stack pytorch-eager");
  CHECK(text.out.find("measured on this device: gemm_efficiency 0.700 (torch.matmul") !=
        std::string::npos);
  {
    std::ofstream out(path);
    out << with_stacks(
        R"({"pytorch-eager": {"attention_efficiency": {"value": 3, "method": "m"}}})");
  }
  const dlperf_test::run_result bad =
      dlperf_test::run_dlperf(run + "--device " + path + " --stack pytorch-eager");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("stacks.pytorch-eager.attention_efficiency") != std::string::npos);
  std::remove(path.c_str());
}
#endif
