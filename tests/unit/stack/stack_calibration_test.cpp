// A software stack measured on one device (stack/stack_calibration.hpp; docs/stacks.md, "Your
// own measurements"): the measured figures replace the named stack's, travel in the device file
// ("stacks") and reach `dlperf model --device` and the buying layer (run_config::measured_stacks,
// the buying commands' --device); every malformed or implausible one is rejected naming its
// field.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/device_file.hpp>
#include <fstream>
#include <span>
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
  CHECK(s.host_overhead.value == microseconds(20));
  // Every other figure is the record's.
  CHECK(s.conv_efficiency.value == stacks::pytorch_eager.conv_efficiency.value);
  CHECK(s.streaming_dram_share.source == stacks::pytorch_eager.streaming_dram_share.source);
  CHECK(s.optimizer_kernels == stacks::pytorch_eager.optimizer_kernels);
  // Every figure name is a member of the stack, and each names a different one: writing one
  // figure moves that figure alone.
  for (stack_figure_id f : enum_values<stack_figure_id>) {
    software_stack t = stacks::pytorch_eager;
    const double moved = read_figure(t, f).number == 0.5 ? 0.25 : 0.5;
    write_figure(t, f, moved, "moved");
    for (stack_figure_id g : enum_values<stack_figure_id>) {
      INFO(name(f) << " written, " << name(g) << " read");
      CHECK((read_figure(t, g).number == moved) ==
            (f == g || read_figure(stacks::pytorch_eager, g).number == moved));
      CHECK((read_figure(t, g).source == "moved") == (f == g));
    }
  }
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
    if (!stacks::pytorch_eager.vendors.has(g->arch().vendor)) continue;  // CUDA's PyTorch
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

TEST_CASE("a GEMV rate per SM clock measured on a device replaces the record's",
          "[stack_calibration][device_file]") {
  const std::string text = with_stacks(R"({"llama.cpp": {"quantized_gemv_bytes_per_sm_cycle": )"
                                       R"({"value": 6.5, "method": "ncu, mul_mat_vec_q slope"}}})");
  const std::vector<stack_calibration> back = calibrate::parse_stack_calibrations(text);
  REQUIRE(back.size() == 1);
  const software_stack s = back[0].apply_to(stacks::llama_cpp);
  CHECK(s.quantized_gemv_bytes_per_sm_cycle.value == 6.5);
  CHECK(s.quantized_gemv_bytes_per_sm_cycle.source == "ncu, mul_mat_vec_q slope");
  CHECK(s.gemv_bytes_per_sm_cycle.value == stacks::llama_cpp.gemv_bytes_per_sm_cycle.value);
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
  // A GEMV rate per SM clock: measured, so above 0, and at most 1 KiB per SM cycle.
  rejects(R"({"llama.cpp": {"quantized_gemv_bytes_per_sm_cycle": {"value": 0, )" + method + "}}}",
          "stacks.llama.cpp.quantized_gemv_bytes_per_sm_cycle");
  rejects(R"({"llama.cpp": {"gemv_bytes_per_sm_cycle": {"value": 2048, )" + method + "}}}",
          "stacks.llama.cpp.gemv_bytes_per_sm_cycle");
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
                    Catch::Contains("gemm_efficiency must be in [0.01, 1]"));
  // Just above zero is no share of the ceiling: refused, showing the value as given.
  stack_calibration tiny = eager_measured();
  tiny.figures[0].second.value = 1e-308;
  CHECK_THROWS_WITH(tiny.apply_to(stacks::pytorch_eager),
                    Catch::Contains("gemm_efficiency must be in [0.01, 1] (a share of the "
                                    "ceiling), got 1e-308"));
}

TEST_CASE("a run's measured stacks apply to the device measured, by id, and nowhere else",
          "[stack_calibration]") {
  const stack_calibration c = eager_measured();
  const software_stack mine = c.apply_to(stacks::pytorch_eager);
  const std::array<measured_stack, 1> on_4090{{{"rtx_4090", &mine}}};
  run_config r;
  r.batch = 4;
  r.seq = 2048;
  r.stack = stack_id::pytorch_eager;
  r.measured_stacks = on_4090;
  CHECK(&stack_of_run(catalog::rtx_4090, r) == &mine);
  CHECK(&stack_of_run(catalog::rtx_3090, r) == &stacks::pytorch_eager);
  // The run's stack must be the one measured.
  run_config compiled = r;
  compiled.stack = stack_id::torch_compile;
  CHECK(&stack_of_run(catalog::rtx_4090, compiled) == &stacks::torch_compile);
  const model_spec& m = presets::llama3_8b;
  r.lora.rank = 16;
  run_config plain = r;
  plain.measured_stacks = {};
  // A GEMM efficiency of 0.70 and 20 us per call make the 4090's step slower, and only its.
  CHECK(estimate_run(catalog::rtx_4090, m, r).time >
        estimate_run(catalog::rtx_4090, m, plain).time);
  CHECK(estimate_run(catalog::rtx_3090, m, r).time ==
        estimate_run(catalog::rtx_3090, m, plain).time);
  CHECK(estimate_run(catalog::rtx_4090, m, r).time ==
        estimate_model(catalog::rtx_4090, m, plain, mine).stack.time);
  // The buying layer takes them through the run: a speed-up from the measured 4090.
  CHECK(speedup_by_model(catalog::rtx_4090, catalog::h100_sxm, m, r).ratio() >
        speedup_by_model(catalog::rtx_4090, catalog::h100_sxm, m, plain).ratio());
  // Rejections: no stack, the ceiling, no device, two for one device and stack.
  const auto rejects = [&](std::span<const measured_stack> entries, const std::string& message) {
    run_config bad = r;
    bad.measured_stacks = entries;
    CHECK_THROWS_WITH(bad.validate(), Catch::Contains(message));
  };
  const std::array<measured_stack, 1> none{{{"rtx_4090", nullptr}}};
  rejects(none, "measured_stacks[0] needs a device id and a named stack");
  const std::array<measured_stack, 1> ceiling{{{"rtx_4090", &stacks::ceiling}}};
  rejects(ceiling, "ceiling is the hardware model itself");
  const std::array<measured_stack, 1> nameless{{{"", &mine}}};
  rejects(nameless, "measured_stacks[0] needs a device id");
  const std::array<measured_stack, 2> twice{{{"rtx_4090", &mine}, {"rtx_4090", &mine}}};
  rejects(twice, "two pytorch-eager stacks for device 'rtx_4090'");
  const std::array<measured_stack, 2> two_devices{{{"rtx_4090", &mine}, {"rtx_3090", &mine}}};
  run_config fine = r;
  fine.measured_stacks = two_devices;
  CHECK_NOTHROW(fine.validate());
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("the buying commands run the device file's GPU on the stack the file measured",
          "[stack_calibration][cli]") {
  const std::string path = "dlperf_stack_calibration_buying_test.json";
  const std::string plain_path = "dlperf_stack_calibration_buying_plain.json";
  {
    std::ofstream out(path);
    out << device_text(catalog::rtx_4090, {eager_measured()});
    std::ofstream plain(plain_path);
    plain << device_text(catalog::rtx_4090, {});
  }
  const std::string run =
      "--preset llama3_8b --batch 4 --seq 2048 --lora 16 --stack pytorch-eager ";
  const auto entry = [](const nlohmann::json& list, const std::string& id) {
    for (const nlohmann::json& e : list)
      if (e.at("id") == id) return e;
    FAIL("no entry " << id);
    return nlohmann::json();
  };
  // rank: the file's GPU ranks on its measured figures; the others on the named stack's.
  const std::string rank =
      "rank --task llama3_8b --batch 4 --seq 2048 --lora 16 --stack "
      "pytorch-eager --json --device ";
  const nlohmann::json ranked = dlperf_test::json_of(rank + path);
  const nlohmann::json ranked_plain = dlperf_test::json_of(rank + plain_path);
  CHECK(entry(ranked, "rtx_4090").at("stack_measured").at("gemm_efficiency").at("value") == 0.70);
  CHECK(entry(ranked, "rtx_3090").at("stack_measured").is_null());
  CHECK(entry(ranked_plain, "rtx_4090").at("stack_measured").is_null());
  CHECK(entry(ranked, "rtx_4090").at("relative_performance").get<double>() <
        entry(ranked_plain, "rtx_4090").at("relative_performance").get<double>());
  CHECK(entry(ranked, "rtx_3090").at("relative_performance") ==
        entry(ranked_plain, "rtx_3090").at("relative_performance"));
  const dlperf_test::run_result text = dlperf_test::run_dlperf(
      "rank --task llama3_8b --batch 4 --seq 2048 --lora 16 --stack pytorch-eager --device " +
      path);
  CHECK(text.out.find("measured on rtx_4090 (" + path + "): gemm_efficiency 0.700") !=
        std::string::npos);
  // advise: the same in its recommendations.
  const std::string advise = "advise " + run + "--gpus 4 --top 80 --json --device ";
  CHECK(entry(dlperf_test::json_of(advise + path), "rtx_4090")
            .at("stack_measured")
            .at("host_overhead")
            .at("value") == 20e-6);
  CHECK(
      entry(dlperf_test::json_of(advise + plain_path), "rtx_4090").at("stack_measured").is_null());
  // speedup: the side whose file measured the stack.
  const std::string speedup = "speedup --to h100_sxm --json " + run + "--from-device ";
  const nlohmann::json faster = dlperf_test::json_of(speedup + path);
  CHECK(faster.at("from_stack_measured").at("gemm_efficiency").at("value") == 0.70);
  CHECK(faster.at("to_stack_measured").is_null());
  CHECK(faster.at("modelled").get<double>() >
        dlperf_test::json_of(speedup + plain_path).at("modelled").get<double>());
  dlperf_test::require_usage_error("speedup --to rtx_4090 " + run + "--from-device " + path,
                                   "both sides are GPU 'rtx_4090'");
  // cluster and power.
  const std::string cluster =
      "cluster --gpus 2 --link pcie4_x16 --preset llama3_8b --batch 4 "
      "--seq 2048 --lora 16 --stack pytorch-eager --json --device ";
  const nlohmann::json job = dlperf_test::json_of(cluster + path);
  CHECK(job.at("stack_measured").at("gemm_efficiency").at("value") == 0.70);
  CHECK(job.at("single_gpu_step_s").get<double>() >
        dlperf_test::json_of(cluster + plain_path).at("single_gpu_step_s").get<double>());
  const std::string power = "power --count 1 --limit 300 " + run + "--json --device ";
  CHECK(dlperf_test::json_of(power + path).at("stack_measured").at("host_overhead").at("method") ==
        "torch.profiler, 200 nn.Linear calls");
  CHECK(dlperf_test::json_of(power + plain_path).at("stack_measured").is_null());
  std::remove(path.c_str());
  std::remove(plain_path.c_str());
}

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
