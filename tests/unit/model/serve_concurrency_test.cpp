// Serving under a fixed number of requests in flight (model/serve.hpp, serve_at_concurrency;
// docs/models.md "Serving"): the properties a closed loop of clients must keep whatever the GPU,
// model and stack, and the rejections.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>
#include <vector>

#include "serving_run.hpp"

using namespace dlperf;

namespace {

// One GPU, model and stack served under the engine's own settings.
struct served {
  const gpu_spec* gpu;
  const model_spec* model;
  const software_stack* stack;
  run_config run;
  serve_config config;
  serve_estimate saturation;

  served(std::string_view gpu_id, const model_spec& m, const software_stack& s, run_config r)
      : gpu(&catalog::find(gpu_id)), model(&m), stack(&s), run(r) {
    config = serve_config{}.under(*stack, *gpu);
    saturation = estimate_serving(*gpu, *model, run, *stack, config);
  }
  [[nodiscard]] serve_load at(long long users) const {
    return serve_at_concurrency(*gpu, *model, run, *stack, config, saturation, users);
  }
};

std::vector<served> closed_loop_cases() {
  run_config fp8 = dlperf_test::serving_run(5000, 500, dtype::fp8_e4m3);
  fp8.weights = weight_format::fp8;
  fp8.gpus = fp8.tp = 2;
  return {
      served("h100_sxm", presets::llama3_1_8b, stacks::vllm, dlperf_test::serving_run(1000, 1000)),
      served("h100_sxm", presets::llama3_3_70b, stacks::tensorrt_llm, fp8),
      served("a100_sxm4_80gb", presets::qwen2_5_7b, stacks::vllm,
             dlperf_test::serving_run(128, 2048)),
      served("l40s", presets::mistral_7b, stacks::ceiling, dlperf_test::serving_run(2000, 200)),
      served("mi300x", presets::llama3_1_8b, stacks::vllm_rocm,
             dlperf_test::serving_run(1024, 1024))};
}

}  // namespace

TEST_CASE("Throughput grows with the requests in flight up to saturation and never passes it",
          "[serve][concurrency]") {
  for (const served& c : closed_loop_cases()) {
    INFO(c.model->name << " on " << c.gpu->name() << " under " << c.stack->name());
    double last = 0;
    for (long long users : {1LL, 2LL, 4LL, 16LL, 64LL, 256LL, 1024LL, 4096LL}) {
      const serve_load l = c.at(users);
      INFO(users << " requests in flight");
      CHECK(std::isfinite(l.rate));
      CHECK(l.rate > 0.0);
      CHECK(l.rate >= last * (1.0 - 1e-12));
      CHECK(l.rate <= c.saturation.requests_per_second * (1.0 + 1e-12));
      CHECK(l.utilisation <= 1.0 + 1e-12);
      // The engine holds at most the users, its cap and what its KV memory holds; the rest wait.
      CHECK(l.concurrency <= static_cast<double>(users));
      CHECK(l.concurrency <= static_cast<double>(c.saturation.concurrency));
      CHECK(l.concurrency + l.waiting == Approx(static_cast<double>(users)));
      last = l.rate;
    }
    // More users than the saturated engine holds: they only queue, at its throughput.
    const serve_load beyond = c.at(4 * c.saturation.concurrency);
    CHECK(beyond.rate == Approx(c.saturation.requests_per_second).epsilon(1e-12));
    CHECK(beyond.waiting == Approx(3.0 * static_cast<double>(c.saturation.concurrency)));
  }
}

TEST_CASE("A closed loop's latency is its requests in flight over its throughput",
          "[serve][concurrency]") {
  // Little's law over the whole loop: each of U clients always has one request in flight, so
  // U = X x latency. TTFT covers a prompt's own prefill; TPOT is never shorter than the decode
  // step of the batch the engine holds.
  for (const served& c : closed_loop_cases()) {
    INFO(c.model->name << " on " << c.gpu->name() << " under " << c.stack->name());
    double ttft = 0;
    for (long long users : {1LL, 8LL, 64LL, 512LL, 8192LL}) {
      INFO(users << " requests in flight");
      const serve_load l = c.at(users);
      CHECK(l.latency.value() == Approx(static_cast<double>(users) / l.rate).epsilon(1e-9));
      CHECK(l.latency.value() ==
            Approx(l.ttft.value() + static_cast<double>(c.saturation.generate - 1) * l.tpot.value())
                .epsilon(1e-9));
      CHECK(l.ttft.value() >= ttft * (1.0 - 1e-12));  // a longer queue never shortens the wait
      // The engine as it runs at this load (the board's clock follows the load's own mix).
      serve_config held = c.config;
      held.max_sequences = static_cast<long long>(l.concurrency);
      const serve_estimate e = estimate_serving(*c.gpu, *c.model, c.run, *c.stack, held);
      CHECK(l.ttft >= e.prefill_alone * (1.0 - 1e-12));
      CHECK(l.tpot.value() >= e.decode_step.value() * (1.0 - 1e-12));
      ttft = l.ttft.value();
    }
  }
}

TEST_CASE("One request in flight decodes alone: TPOT is one sequence's decode step, nearly",
          "[serve][concurrency]") {
  // With one client the engine holds one sequence and nothing else runs between its steps; the
  // saturation formula charges G decode steps a request where the prefill gives the first token,
  // so TPOT is the batch-1 step times G / (G - 1), and TTFT the prompt's prefill alone.
  const served c("h100_sxm", presets::llama3_1_8b, stacks::vllm,
                 dlperf_test::serving_run(1000, 1000));
  const serve_load l = c.at(1);
  serve_config one = c.config;
  one.max_sequences = 1;
  const serve_estimate e = estimate_serving(*c.gpu, *c.model, c.run, *c.stack, one);
  CHECK(l.concurrency == 1.0);
  CHECK(l.waiting == 0.0);
  CHECK(l.ttft == e.prefill_alone);
  CHECK(l.tpot.value() == Approx(e.decode_step.value() * 1000.0 / 999.0).epsilon(1e-12));
}

TEST_CASE("A closed loop refuses fewer than one request in flight, by name",
          "[serve][concurrency][errors]") {
  const served c("h100_sxm", presets::llama3_1_8b, stacks::vllm,
                 dlperf_test::serving_run(512, 256));
  for (long long users : {0LL, -1LL, -4096LL})
    CHECK_THROWS_WITH(c.at(users), Catch::Contains("concurrency must be >= 1"));
}
