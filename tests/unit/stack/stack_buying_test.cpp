// The buying layer under a software stack (run_config::stack, estimate_run): speed-ups, rankings,
// clusters and the tool's --stack on every command that runs a model (docs/stacks.md, "In the
// buying layer").
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include <dlperf/dlperf.hpp>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace {

// Runs that every stack can take: a decoder's inference, and training of a transformer and a CNN.
std::vector<std::pair<const model_spec*, run_config>> sample_runs() {
  run_config infer{.mode = run_mode::infer, .batch = 1, .prompt = 512, .generate = 128};
  run_config train_llm{.batch = 4, .seq = 512};
  run_config train_cnn{.batch = 64};
  return {{&presets::llama2_7b, infer},
          {&presets::bert_large, train_llm},
          {&presets::resnet50, train_cnn}};
}

}  // namespace

TEST_CASE("estimate_run is the ceiling under no stack and the stack's figure under one",
          "[stack][buying]") {
  for (const auto& [m, base] : sample_runs()) {
    for (const gpu_spec* g :
         std::array<const gpu_spec*, 3>{&catalog::h100_sxm, &catalog::rtx_4090, &catalog::mi300x}) {
      const model_estimate ceiling = estimate_model(*g, *m, base);
      CHECK(estimate_run(*g, *m, base).time == ceiling.time);  // r.stack defaults to ceiling
      for (const software_stack* s : stacks::all) {
        if (base.training() && !s->trains) continue;      // an inference engine (stack_test.cpp)
        if (!s->vendors.has(g->arch().vendor)) continue;  // another vendor's stack
        run_config r = base;
        r.stack = s->id;
        INFO(m->name << " on " << g->id() << " under " << s->name());
        const duration t = estimate_run(*g, *m, r).time;
        CHECK(std::isfinite(t.value()));
        CHECK(t == estimate_model(*g, *m, r, *s).stack.time);
        // A stack runs the ceiling's kernel sequence (or its own kernel choices) no faster.
        CHECK(t >= estimate_model(*g, *m, run_under(*s, r)).time);
      }
    }
  }
}

TEST_CASE("speedup_by_model compares the two GPUs under the run's stack", "[stack][buying]") {
  run_config r{.mode = run_mode::infer, .batch = 1, .prompt = 512, .generate = 128};
  r.stack = stack_id::llama_cpp;
  const model_speedup s =
      speedup_by_model(catalog::rtx_3090, catalog::rtx_4090, presets::llama2_7b, r);
  CHECK(s.from.time == estimate_run(catalog::rtx_3090, presets::llama2_7b, r).time);
  CHECK(s.to.time == estimate_run(catalog::rtx_4090, presets::llama2_7b, r).time);
  r.stack = stack_id::ceiling;
  const model_speedup bare =
      speedup_by_model(catalog::rtx_3090, catalog::rtx_4090, presets::llama2_7b, r);
  CHECK(s.from.time > bare.from.time);
  CHECK(s.to.time > bare.to.time);
}

TEST_CASE("a ranking under a stack ranks the stack's times, not the ceiling's", "[stack][buying]") {
  for (const software_stack* s : stacks::all) {
    INFO(s->name());
    const std::vector<rank_entry> stacked =
        rank_gpus(make_workload(rank_task::infer16, s->id), price_table{});
    REQUIRE(!stacked.empty());
    for (const rank_entry& e : stacked) {
      CHECK(std::isfinite(e.relative_performance));
      CHECK(e.relative_performance > 0);
    }
  }
  // Eager PyTorch's element-wise kernels go through DRAM, which costs each GPU a different share
  // of its step (less where bandwidth per FLOP is high), so at least one GPU's standing against
  // the reference moves: the stack reaches the ranking.
  const std::vector<rank_entry> ceiling = rank_gpus(make_workload(rank_task::infer16), {});
  const std::vector<rank_entry> eager =
      rank_gpus(make_workload(rank_task::infer16, stack_id::pytorch_eager), {});
  // Eager PyTorch ranks every NVIDIA and AMD GPU, the AMD ones under its ROCm build
  // (stacks::build_for), and no Mac (no Metal build is modelled); an engine with no ROCm build
  // (torch.compile's record is CUDA's) ranks the NVIDIA GPUs only.
  std::size_t nvidia = 0, apple = 0;
  for (const rank_entry& c : ceiling) {
    if (c.gpu->arch().vendor == vendor::nvidia) ++nvidia;
    if (c.gpu->arch().vendor == vendor::apple) ++apple;
  }
  CHECK(apple > 0);
  REQUIRE(eager.size() == ceiling.size() - apple);
  const std::vector<rank_entry> compiled =
      rank_gpus(make_workload(rank_task::infer16, stack_id::torch_compile), {});
  REQUIRE(compiled.size() == nvidia);
  for (const rank_entry& e : compiled) CHECK(e.gpu->arch().vendor == vendor::nvidia);
  bool moved = false;
  for (const rank_entry& c : ceiling)
    for (const rank_entry& e : eager)
      if (c.gpu == e.gpu &&
          std::abs(c.relative_performance - e.relative_performance) > 1e-3 * c.relative_performance)
        moved = true;
  CHECK(moved);
}

TEST_CASE("a cluster under a stack steps no faster than at the ceiling", "[stack][buying]") {
  run_config r{.batch = 4, .seq = 1024, .gpus = 8};
  const cluster_estimate bare =
      estimate_cluster(catalog::h100_sxm, 8, presets::llama2_7b, r, links::nvlink4);
  r.stack = stack_id::megatron;
  const cluster_estimate stacked =
      estimate_cluster(catalog::h100_sxm, 8, presets::llama2_7b, r, links::nvlink4);
  CHECK(stacked.single_gpu_step > bare.single_gpu_step);
  CHECK(stacked.step_time > bare.step_time);
  CHECK(stacked.gradient_bytes == bare.gradient_bytes);  // the stack changes time, not bytes
}

TEST_CASE("a stack runs on its own vendor's GPUs only, and says which stacks do",
          "[stack][errors]") {
  const run_config r{.mode = run_mode::infer, .batch = 1, .prompt = 64, .generate = 8};
  // ROCm's stacks on an NVIDIA GPU, CUDA's on an AMD one: rejected, naming the stacks that run.
  CHECK_THROWS_AS(estimate_model(catalog::h100_sxm, presets::llama2_7b, r, stacks::pytorch_rocm),
                  unsupported);
  CHECK_THROWS_WITH(
      estimate_model(catalog::mi300x, presets::llama2_7b, r, stacks::tensorrt_llm),
      Catch::Matchers::Contains("stack tensorrt-llm does not run on AMD GPUs") &&
          Catch::Matchers::Contains(
              "stacks that do: ceiling, llama.cpp-rocm, pytorch-rocm, megatron-rocm, vllm-rocm"));
  CHECK_NOTHROW(estimate_model(catalog::mi300x, presets::llama2_7b, r, stacks::llama_cpp_rocm));
  // An engine built for both vendors names its build for the GPU's.
  CHECK_THROWS_WITH(estimate_model(catalog::mi300x, presets::llama2_7b, r, stacks::vllm),
                    Catch::Matchers::Contains("stack vllm does not run on AMD GPUs") &&
                        Catch::Matchers::Contains("its build for them is vllm-rocm"));
  CHECK_NOTHROW(estimate_model(catalog::mi300x, presets::llama2_7b, r, stacks::vllm_rocm));
  // Every stack runs on some vendor's GPUs, and the ceiling on all of them.
  for (const software_stack* s : stacks::all) {
    bool some = false;
    for (vendor v : enum_values<vendor>) some = some || s->vendors.has(v);
    CHECK(some);
  }
  for (vendor v : enum_values<vendor>) CHECK(stacks::ceiling.vendors.has(v));
}

#ifdef DLPERF_CLI_PATH

TEST_CASE("dlperf rejects a stack on another vendor's GPU in one line", "[cli][stack][errors]") {
  dlperf_test::require_usage_error(
      "model --preset llama2_7b --gpu h100_sxm --infer --stack pytorch-rocm",
      "stack pytorch-rocm does not run on NVIDIA GPUs");
  dlperf_test::require_usage_error(
      "power --gpu mi300x --preset llama2_7b --infer --stack llama.cpp",
      "stack llama.cpp does not run on AMD GPUs");
}

using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;
using dlperf_test::run_result;

TEST_CASE("dlperf speedup --stack: the stack's ratio with the ceiling's beside it",
          "[cli][stack][speedup]") {
  const std::string args =
      "speedup --from rtx_3090 --to rtx_4090 --preset llama2_7b --infer --prompt 512 "
      "--generate 128";
  const run_result r = run_dlperf(args + " --stack llama.cpp --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("stack") == "llama.cpp");
  CHECK(j.at("modelled").get<double>() ==
        Approx(j.at("from_step_s").get<double>() / j.at("to_step_s").get<double>()));
  CHECK(j.at("ceiling_modelled").get<double>() == Approx(j.at("ceiling_from_step_s").get<double>() /
                                                         j.at("ceiling_to_step_s").get<double>()));
  CHECK(j.at("from_step_s").get<double>() > j.at("ceiling_from_step_s").get<double>());
  CHECK(j.at("to_step_s").get<double>() > j.at("ceiling_to_step_s").get<double>());

  const run_result bare = run_dlperf(args + " --json");
  REQUIRE(bare.exit_code == 0);
  const auto b = nlohmann::json::parse(bare.out);
  CHECK(b.at("stack") == "ceiling");
  CHECK(!b.contains("ceiling_modelled"));
  CHECK(b.at("modelled").get<double>() == Approx(j.at("ceiling_modelled").get<double>()));

  const run_result human = run_dlperf(args + " --stack llama.cpp");
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.find("software stack: llama.cpp (llama.cpp, CUDA backend)") != std::string::npos);
  CHECK(human.out.find("the hardware model's ceiling: ") != std::string::npos);
}

TEST_CASE("dlperf rank, advise, cluster and power take --stack and name it", "[cli][stack]") {
  // cluster models training steps, which an inference engine does not run (stack_test.cpp):
  // it runs under a training stack.
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"rank --task infer16 --gpus 1", "vllm"},
      {"rank --task llama2_7b --infer --prompt 512 --generate 128 --gpus 1", "vllm"},
      {"advise --preset llama2_7b --infer --prompt 512 --generate 128 --gpus 1", "vllm"},
      {"cluster --preset llama2_7b --gpu h100_sxm --gpus 8 --link nvlink4 --batch 4 --seq 1024",
       "torch-compile"},
      {"power --gpu rtx_4090 --preset llama2_7b --infer --limit 300", "vllm"}};
  for (const auto& [c, stack] : commands) {
    const run_result r = run_dlperf(c + " --stack " + stack + " --json");
    INFO(c << "\n" << r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    if (j.is_array()) {
      REQUIRE(!j.empty());
      // Each GPU's row runs the engine's build for its vendor (vllm-rocm on AMD's).
      for (const auto& row : j)
        CHECK(
            row.at("stack") ==
            name(stacks::build_for(parse<stack_id>(stack),
                                   catalog::find(row.at("id").get<std::string>()).arch().vendor)));
    } else {
      CHECK(j.at("stack") == stack);
    }
    const run_result human = run_dlperf(c + " --stack " + stack);
    REQUIRE(human.exit_code == 0);
    CHECK(human.out.find("software stack: " + stack + " (" +
                         std::string(description(parse<stack_id>(stack))) + ")") !=
          std::string::npos);
  }
  // A table whose GPUs run an engine's build for their vendor names the builds.
  const run_result vllm = run_dlperf("rank --task llama3_8b --infer --gpus 1 --stack vllm");
  REQUIRE(vllm.exit_code == 0);
  CHECK_THAT(vllm.out, Catch::Contains("software stack: vllm (vLLM inference); AMD GPUs run "
                                       "vllm-rocm, its build for them\n"));
  const run_result llama = run_dlperf("rank --task llama3_8b --infer --gpus 1 --stack llama.cpp");
  REQUIRE(llama.exit_code == 0);
  CHECK_THAT(llama.out, Catch::Contains("; AMD GPUs run llama.cpp-rocm and Apple GPUs run "
                                        "llama.cpp-metal, its builds for them\n"));
  const run_result trt = run_dlperf("rank --task llama3_8b --infer --gpus 1 --stack tensorrt-llm");
  REQUIRE(trt.exit_code == 0);
  CHECK_THAT(trt.out, !Catch::Contains("its build"));
  // Under a stack the ranking's figures are the stack's: eager PyTorch moves a GPU against
  // the reference.
  const auto ceiling = nlohmann::json::parse(run_dlperf("rank --task infer16 --json").out);
  const auto eager =
      nlohmann::json::parse(run_dlperf("rank --task infer16 --stack pytorch-eager --json").out);
  bool moved = false;
  for (const auto& c : ceiling)
    for (const auto& e : eager)
      if (c.at("id") == e.at("id") && std::abs(c.at("relative_performance").get<double>() -
                                               e.at("relative_performance").get<double>()) > 1e-3)
        moved = true;
  CHECK(moved);
}

TEST_CASE("Every command that takes --stack rejects a stack the library does not have",
          "[cli][stack]") {
  for (const std::string c :
       {"speedup --from rtx_3090 --to rtx_4090 --preset llama2_7b", "rank --task infer16",
        "advise --preset llama2_7b",
        "cluster --preset llama2_7b --gpu h100_sxm --gpus 8 --link nvlink4",
        "power --gpu rtx_4090 --preset llama2_7b", "model --preset llama2_7b --gpu rtx_4090"})
    require_usage_error(c + " --stack pytorch", "--stack");
}

#endif
