// Serving a job whose request lengths spread (model/serve.hpp, request_lengths; docs/models.md
// "Serving"): prompts and outputs drawn evenly from a least length up to the run's, as a
// benchmark's random lengths are. The properties the averaging must keep, and the rejections.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>

#include "serving_run.hpp"

using namespace dlperf;

namespace {

// Llama 3.1 8B on an H100 under vLLM's own schedule, with the job's lengths @p lengths.
serve_estimate spread_estimate(long long prompt, long long generate, request_lengths lengths) {
  const gpu_spec& h100 = catalog::find("h100_sxm");
  serve_config c;
  c.lengths = lengths;
  return estimate_serving(h100, presets::llama3_1_8b, dlperf_test::serving_run(prompt, generate),
                          stacks::vllm, c);
}

}  // namespace

TEST_CASE("Lengths that do not spread are the fixed job's, bit for bit", "[serve][lengths]") {
  // A least length equal to the run's is no spread: the same estimate as giving none.
  const serve_estimate fixed = spread_estimate(1000, 500, {});
  const serve_estimate same = spread_estimate(1000, 500, {1000, 500});
  CHECK(same.requests_per_second == fixed.requests_per_second);
  CHECK(same.output_tokens_per_second == fixed.output_tokens_per_second);
  CHECK(same.concurrency == fixed.concurrency);
  CHECK(same.prefill_alone == fixed.prefill_alone);
  CHECK(fixed.prompt_least == 1000);
  CHECK(fixed.generate_least == 500);
  CHECK(fixed.prompt_mean == 1000.0);
  CHECK(fixed.generate_mean == 500.0);
}

TEST_CASE("A spread job is served at its mean lengths, its prefill averaged over its prompts",
          "[serve][lengths]") {
  // sglang.bench_serving's default --random-range-ratio 0: prompts and outputs of 1 to L tokens.
  const serve_estimate fixed = spread_estimate(2048, 1024, {});
  const serve_estimate spread = spread_estimate(2048, 1024, {1, 1});
  CHECK(spread.prompt == 2048);
  CHECK(spread.generate == 1024);
  CHECK(spread.prompt_mean == 1024.5);
  CHECK(spread.generate_mean == 512.5);
  // Output tokens/s are requests/s times the mean output.
  CHECK(spread.output_tokens_per_second ==
        Approx(spread.requests_per_second * spread.generate_mean).epsilon(1e-12));
  // Shorter requests on average: the KV memory holds more of them, each takes less time, and
  // a prompt alone prefills faster than the longest one would.
  CHECK(spread.kv_limited > fixed.kv_limited);
  CHECK(spread.requests_per_second > fixed.requests_per_second);
  CHECK(spread.prefill_alone < fixed.prefill_alone);
  // Output lengths alone spread: the same prompts, fewer output tokens per request on average.
  const serve_estimate outputs = spread_estimate(2048, 1024, {0, 1});
  CHECK(outputs.prompt_mean == 2048.0);
  CHECK(outputs.requests_per_second > fixed.requests_per_second);
}

TEST_CASE("The averaged prefill is the mean of the prompts' prefills", "[serve][lengths]") {
  // Against the mean over every 32nd prompt length of the spread, each prefilled alone. On an
  // A100, which has no measured sustained clock, every run keeps the quoted clock, so the fixed
  // runs' prefills compare with the spread's. A prompt's prefill is not linear in its length
  // (short prompts are bound by the weight reads), so the mean prompt's prefill is not the mean.
  const gpu_spec& a100 = catalog::find("a100_sxm4_80gb");
  const auto alone = [&](long long prompt, request_lengths lengths) {
    serve_config c;
    c.lengths = lengths;
    return estimate_serving(a100, presets::llama3_1_8b, dlperf_test::serving_run(prompt, 256),
                            stacks::vllm, c);
  };
  const serve_estimate spread = alone(2048, {1, 0});
  REQUIRE(spread.clock_fraction == 1.0);
  double sum = 0;
  int count = 0;
  for (long long p = 1; p <= 2048; p += 32, ++count) sum += alone(p, {}).prefill_alone.value();
  const double mean = sum / count;
  INFO("quadrature " << spread.prefill_alone.value() << " s, mean of " << count << " prompts "
                     << mean << " s, mean prompt's " << alone(1024, {}).prefill_alone.value()
                     << " s");
  CHECK(spread.prefill_alone.value() == Approx(mean).epsilon(0.05));  // 2.4 % on 2026-12-01
  CHECK(spread.prefill_alone > alone(1, {}).prefill_alone);
  CHECK(spread.prefill_alone < alone(2048, {}).prefill_alone);
}

TEST_CASE("A spread closed loop keeps Little's law, at its mean output", "[serve][lengths]") {
  const gpu_spec& h100 = catalog::find("h100_sxm");
  serve_config c = serve_config{}.under(stacks::vllm, h100);
  c.lengths = {1, 1};
  const run_config r = dlperf_test::serving_run(1000, 1000);
  const serve_estimate sat = estimate_serving(h100, presets::llama3_1_8b, r, stacks::vllm, c);
  for (long long users : {1LL, 16LL, 100LL, 4096LL}) {
    INFO(users << " requests in flight");
    const serve_load l =
        serve_at_concurrency(h100, presets::llama3_1_8b, r, stacks::vllm, c, sat, users);
    CHECK(l.latency.value() == Approx(static_cast<double>(users) / l.rate).epsilon(1e-9));
    CHECK(l.latency.value() ==
          Approx(l.ttft.value() + (sat.generate_mean - 1.0) * l.tpot.value()).epsilon(1e-9));
    CHECK(l.rate <= sat.requests_per_second * (1.0 + 1e-9));
  }
  // At a rate below saturation the load is served at the mean output too.
  const serve_load open = serve_at_rate(h100, presets::llama3_1_8b, r, stacks::vllm, sat,
                                        0.5 * sat.requests_per_second);
  CHECK(open.latency.value() ==
        Approx(open.ttft.value() + (sat.generate_mean - 1.0) * open.tpot.value()).epsilon(1e-9));
}

TEST_CASE("Serving refuses a least length above the run's, or below zero, by name",
          "[serve][lengths][errors]") {
  CHECK_THROWS_WITH(spread_estimate(512, 256, {513, 0}),
                    Catch::Contains("shortest prompt and output (513 and 0 tokens) must not "
                                    "exceed the run's (512 and 256)"));
  CHECK_THROWS_WITH(spread_estimate(512, 256, {0, 257}), Catch::Contains("must not exceed"));
  CHECK_THROWS_WITH(spread_estimate(512, 256, {-1, 0}),
                    Catch::Contains("least prompt and output lengths must be >= 0"));
  CHECK_THROWS_AS(spread_estimate(512, 256, {0, -4}), invalid_argument);
}
