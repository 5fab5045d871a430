// Partial offload as llama.cpp runs it (--gpu-layers, llama.cpp's -ngl; model/offload.hpp and
// docs/models.md, "Partial offload"): the host memory catalog against its vendors' figures, the
// placement's properties, the published -ngl sweeps it was not fitted on, and every rejection.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include <dlperf/app/model_report.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/dlperf.hpp>

#ifdef DLPERF_CLI_PATH
#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace {

// `dlperf model --preset P --gpu G --infer --stack llama.cpp --weights W --prompt N --generate
// 128 [--gpu-layers L --host-memory H]` as the tool builds it.
app::model_report offload_run(std::string_view preset, const std::string& gpu,
                              const std::string& weights, const std::string& prompt,
                              const std::string& layers, const std::string& memory) {
  app::run_options o;
  o.infer = true;
  o.stack = stack_id::llama_cpp;
  app::run_field_of("weights").set(o, weights);
  o.prompt = prompt;
  o.generate = "128";
  o.gpu_layers = layers;
  o.host_memory = memory;
  app::model_request q;
  q.model = presets::find(preset);
  q.device = app::select_device(gpu, "");
  q.run = app::make_run(o);
  return app::estimate(q);
}

// Published -ngl sweep of decode, inventivehq.com, "The VRAM Cliff: 15x Slower the Moment Layers
// Spill to CPU" (2025): an RTX 5060 Ti 16 GB on PCIe 3.0 x8, an i7-8700 with DDR4-2400 in two
// channels, llama.cpp, Qwen2.5-Coder-14B Q4_K_M (Qwen2.5-14B's shape, 48 layers), batch 1. The
// row at -ngl 0 fitted the stack's host_dram_share; the others are held out.
struct decode_row {
  const char* ngl;
  double tokens_per_s;
};
constexpr std::array vram_cliff_rows{decode_row{"8", 3.58}, decode_row{"16", 4.24},
                                     decode_row{"24", 5.61}, decode_row{"32", 7.26},
                                     decode_row{"40", 12.5}};

}  // namespace

TEST_CASE("host memory peaks are the platform vendors' figures", "[offload]") {
  // AMD EPYC 9004 Series product brief: 12 channels of DDR5-4800, "up to 460.8 GB/s" a socket.
  CHECK(in_gigabytes_per_second(host_memories::ddr5_4800_12ch.peak()) == Approx(460.8));
  // Intel Core i7-8700 (ark.intel.com): 2 channels of DDR4-2666, "Max Memory Bandwidth 41.6
  // GB/s", Intel's GB being 10^9 x 1000/1024 of these bytes (42.66 GB/s).
  CHECK(in_gigabytes_per_second(host_memories::ddr4_2666_2ch.peak()) * 1000.0 / 1024.0 ==
        Approx(41.6).epsilon(0.002));
  for (const host_memory_spec* h : host_memories::all) {
    CHECK(&host_memories::find(h->id) == h);
    CHECK_FALSE(h->source.empty());
  }
  CHECK_THROWS_AS(host_memories::find("ddr3_1600_2ch"), not_found);
}

TEST_CASE("an offloaded decoder is slower with every layer it leaves in host memory", "[offload]") {
  const app::model_report all =
      offload_run("qwen2_5_14b", "rtx_5060_ti_16gb", "q4_k_m", "512", "", "");
  double previous_decode = 0;
  double previous_prompt = 0;
  double previous_weights = 0;
  for (int n = 0; n <= 49; ++n) {
    const app::model_report r = offload_run("qwen2_5_14b", "rtx_5060_ti_16gb", "q4_k_m", "512",
                                            std::to_string(n), "ddr4_2400_2ch");
    INFO("-ngl " << n);
    const model_estimate& e = r.estimate.stack;
    REQUIRE(std::isfinite(e.decode_tokens_per_second()));
    CHECK(e.decode_tokens_per_second() > previous_decode);
    CHECK(e.prompt_tokens_per_second() > previous_prompt);
    CHECK(e.decode_tokens_per_second() <= all.estimate.stack.decode_tokens_per_second() * 1.0001);
    // Each layer more on the GPU (the last trades the copy's room for itself, hence >=).
    CHECK(r.fit.need.weights.value() >= previous_weights * (1 - 1e-12));
    CHECK(r.estimate.stack.time.value() >= r.estimate.ceiling.time.value() * 0.9999);
    previous_decode = e.decode_tokens_per_second();
    previous_prompt = e.prompt_tokens_per_second();
    previous_weights = r.fit.need.weights.value();
  }
  // -ngl 49 holds the 48 layers and the output layer: llama.cpp's full offload.
  const app::model_report full =
      offload_run("qwen2_5_14b", "rtx_5060_ti_16gb", "q4_k_m", "512", "49", "ddr4_2400_2ch");
  CHECK(full.estimate.stack.time.value() == Approx(all.estimate.stack.time.value()));
}

TEST_CASE("the most layers that fit is the largest -ngl whose placement fits", "[offload]") {
  // Llama-2-70B in Q4_K_M on a 24 GB card: about half its 80 layers.
  const app::model_report r =
      offload_run("llama2_70b", "rtx_3090", "q4_k_m", "512", "0", "ddr5_6000_2ch");
  REQUIRE(r.offload.has_value());
  const long long most = r.offload->most_that_fit;
  CHECK(most > 30);
  CHECK(most < 60);
  CHECK(
      offload_run("llama2_70b", "rtx_3090", "q4_k_m", "512", std::to_string(most), "ddr5_6000_2ch")
          .fit.fits);
  CHECK_FALSE(offload_run("llama2_70b", "rtx_3090", "q4_k_m", "512", std::to_string(most + 1),
                          "ddr5_6000_2ch")
                  .fit.fits);
  // What stays in host memory and what the GPU holds (less its room for one copied layer, one
  // layer's weights) make the whole model.
  const app::model_report none = offload_run("llama2_70b", "rtx_3090", "q4_k_m", "512", "", "");
  const app::model_report at_40 =
      offload_run("llama2_70b", "rtx_3090", "q4_k_m", "512", "40", "ddr5_6000_2ch");
  const app::model_report at_41 =
      offload_run("llama2_70b", "rtx_3090", "q4_k_m", "512", "41", "ddr5_6000_2ch");
  const double layer = at_41.fit.need.weights.value() - at_40.fit.need.weights.value();
  CHECK(layer > 0);
  CHECK(at_40.offload->host_weights.value() + at_40.fit.need.weights.value() - layer ==
        Approx(none.fit.need.weights.value()));
}

TEST_CASE("offloaded decode meets the published -ngl sweep it was not fitted on", "[offload]") {
  std::vector<double> errors;
  for (const decode_row& row : vram_cliff_rows) {
    const app::model_report r =
        offload_run("qwen2_5_14b", "rtx_5060_ti_16gb", "q4_k_m", "128", row.ngl, "ddr4_2400_2ch");
    const double error = r.estimate.stack.decode_tokens_per_second() / row.tokens_per_s - 1.0;
    INFO("-ngl " << row.ngl << ": " << r.estimate.stack.decode_tokens_per_second()
                 << " tokens/s, measured " << row.tokens_per_s);
    CHECK(std::abs(error) < 0.2);
    errors.push_back(std::abs(error));
  }
  std::sort(errors.begin(), errors.end());
  CHECK(errors[errors.size() / 2] < 0.1);  // the median of the five
  // -ngl 99, every layer on the GPU, 43.18 tokens/s: the GPU model alone.
  const app::model_report all =
      offload_run("qwen2_5_14b", "rtx_5060_ti_16gb", "q4_k_m", "128", "99", "ddr4_2400_2ch");
  CHECK(all.estimate.stack.decode_tokens_per_second() == Approx(43.18).epsilon(0.1));
}

TEST_CASE("a prompt copies the host layers' weights to the GPU once a micro-batch", "[offload]") {
  // ik_llama.cpp issue 255 (2025-03), the rule of mainline's scheduler: an RTX 4080 prompting
  // Qwen2.5-32B Q4_K_M, 2,048 tokens in one micro-batch. -ngl 45 against 0 fitted the copy's
  // rate; the time each other -ngl adds over 45 is held out.
  struct prompt_row {
    long long ngl;
    double tokens_per_s;
  };
  const std::array rows{prompt_row{40, 985.30}, prompt_row{20, 817.11}, prompt_row{10, 750.98}};
  const double at_45 = 2048.0 / 1030.55;
  const app::model_report all = offload_run("qwen2_5_32b", "rtx_4080", "q4_k_m", "2048", "", "");
  const software_stack& s = stacks::llama_cpp;
  const offload_host host{
      host_memories::typical.peak() * s.offload.host_dram_share.value,
      catalog::rtx_4080.facts().host_link.per_direction() * s.offload.upload_link_share.value,
      s.offload.min_offload_batch, 2048};
  const offload_weights w =
      offload_weights::of(presets::qwen2_5_32b.transformer, all.fit.need.weights);
  const auto prompt_time = [&](long long ngl) {
    return offloaded(all.estimate.stack, layer_placement::of(ngl, 64), host, w).prefill_time;
  };
  for (const prompt_row& row : rows) {
    const double measured = 2048.0 / row.tokens_per_s - at_45;
    const double modelled = (prompt_time(row.ngl) - prompt_time(45)).value();
    INFO("-ngl " << row.ngl << ": " << modelled << " s more than -ngl 45, measured " << measured);
    CHECK(modelled == Approx(measured).epsilon(0.15));
  }
}

TEST_CASE("offload is refused where llama.cpp would not do it", "[offload]") {
  app::run_options o;
  o.infer = true;
  o.stack = stack_id::llama_cpp;
  o.gpu_layers = "10";
  o.gpus = "2";
  CHECK_THROWS_WITH(app::make_run(o),
                    Catch::Contains("--gpu-layers: a partial offload runs on one GPU"));
  o.gpus = "1";
  o.infer = false;
  o.stack = stack_id::ceiling;
  CHECK_THROWS_WITH(app::make_run(o), Catch::Contains("--gpu-layers is for --infer"));
  o.infer = true;
  o.stack = stack_id::llama_cpp;
  o.gpu_layers = "";
  o.host_memory = "ddr5_6000_2ch";
  CHECK_THROWS_WITH(app::make_run(o), Catch::Contains("--host-memory is the offloaded layers'"));
  o.gpu_layers = "10";
  o.host_memory = "ddr3";
  CHECK_THROWS_WITH(app::make_run(o), Catch::Contains("--host-memory: unknown host memory 'ddr3'"));
  app::run_options v;
  v.infer = true;
  v.gpu_layers = "10";
  app::model_request q;
  q.model = presets::llama2_7b;
  q.device = app::select_device("rtx_4090", "");
  q.run = app::make_run(v);  // the ceiling stack
  CHECK_THROWS_WITH(app::estimate(q), Catch::Contains("--gpu-layers: stack ceiling has no "
                                                      "partial-offload figures"));
  q.model = presets::bert_base;
  q.run.stack = stack_id::llama_cpp;
  CHECK_THROWS_WITH(app::estimate(q), Catch::Contains("--gpu-layers is for a decoder's inference"));
  CHECK_THROWS_AS(layer_placement::of(-1, 32), invalid_argument);
  CHECK_THROWS_AS(layer_placement::of(4, 1), invalid_argument);
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model --gpu-layers says where the layers are and how many fit",
          "[offload][cli]") {
  const dlperf_test::run_result r = dlperf_test::run_dlperf(
      "model --preset llama2_70b --gpu rtx_3090 --infer --stack llama.cpp --weights q4_k_m "
      "--prompt 512 --generate 128 --gpu-layers 40 --host-memory ddr5_6000_2ch");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("offload: 40 of 80 layers on the GPU") != std::string::npos);
  CHECK(r.out.find("host layers on the CPU") != std::string::npos);
  const nlohmann::json j = dlperf_test::json_of(
      "model --preset llama2_70b --gpu rtx_3090 --infer --stack llama.cpp --weights q4_k_m "
      "--prompt 512 --generate 128 --gpu-layers 40 --json");
  REQUIRE(j.contains("offload"));
  CHECK(j["offload"]["gpu_layers"] == 40);
  CHECK(j["offload"]["layers"] == 80);
  CHECK(j["offload"]["host_memory"] == "ddr5_6000_2ch");
  CHECK(j["offload"]["most_gpu_layers_that_fit"].get<long long>() >= 40);
  CHECK(dlperf_test::json_of("model --preset llama2_7b --gpu rtx_4090 --infer --json")["offload"]
            .is_null());
  dlperf_test::require_usage_error(
      "model --preset llama2_7b --gpu rtx_4090 --infer --gpu-layers 10 --stack vllm",
      "--gpu-layers: stack vllm has no partial-offload figures");
  dlperf_test::require_usage_error(
      "model --preset llama2_7b --gpu rtx_4090 --infer --stack llama.cpp --gpu-layers 10 --serve "
      "--generate 128",
      "--gpu-layers: --serve keeps every layer on the GPU");
  dlperf_test::require_usage_error(
      "model --preset deepseek_v3 --gpu h200_sxm --infer --stack llama.cpp --gpu-layers 10",
      "--gpu-layers: a mixture of experts with leading dense layers is not modelled");
  dlperf_test::require_usage_error(
      "model --preset llama2_7b --gpu rtx_4090 --infer --stack llama.cpp --gpu-layers 70000",
      "--gpu-layers '70000' must be 0 or in [1, 65537] layers");
}
#endif
