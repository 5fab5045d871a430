// Published serving runs at a request rate (tests/data/evidence/serving_rate.csv, docs/evidence.md
// "Serving at a request rate"): DataCrunch's SGLang runs of Llama 3.3 70B over four H200s, Poisson
// arrivals at 1 to 8 requests a second, random lengths. Each runs through serve_at_rate
// (model/serve.hpp) under its engine's own scheduler and the row's spread of lengths. No figure is
// fitted on these rows: every error is held out, and the hidden report prints them.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;

namespace {

const std::vector<evidence::row>& rate_rows() {
  static const std::vector<evidence::row> rows = evidence::read_rows(DLPERF_SERVING_RATE_CSV);
  return rows;
}

// One row as the serving model runs it at its rate, with what it measured.
struct rate_case {
  const gpu_spec* gpu = nullptr;
  const model_spec* model = nullptr;
  const software_stack* stack = nullptr;
  run_config run;
  serve_config engine;  // the stack's schedule and the row's lengths
  double rate = 0;      // requests/s of the whole job
  double tokens_per_s = 0, ttft = 0, tpot = 0, latency = 0;  // measured; seconds
};

rate_case rate_case_of(const evidence::row& r) {
  rate_case c;
  c.gpu = &catalog::find(evidence::field(r, "gpu"));
  c.model = &presets::find(evidence::field(r, "model"));
  c.stack = &stacks::of(parse<stack_id>(evidence::field(r, "stack")));
  c.run = evidence::serving_run_of(r);
  c.engine = serve_config{}.under(*c.stack, *c.gpu);
  c.engine.lengths = evidence::lengths_of(r);
  c.rate = *evidence::number(evidence::field(r, "rate"));
  c.tokens_per_s = *evidence::number(evidence::field(r, "output_tokens_per_s"));
  c.ttft = *evidence::number(evidence::field(r, "ttft_ms")) / 1e3;
  c.tpot = *evidence::number(evidence::field(r, "tpot_ms")) / 1e3;
  c.latency = *evidence::number(evidence::field(r, "latency_ms")) / 1e3;
  return c;
}

struct rate_figures {
  serve_estimate saturation;
  serve_load load;
};

// The row's saturation and its load at the row's rate under stack @p s (the engine's schedule
// kept).
rate_figures rate_load_of(const rate_case& c, const software_stack& s) {
  rate_figures f;
  f.saturation = estimate_serving(*c.gpu, *c.model, c.run, s, c.engine);
  f.load = serve_at_rate(*c.gpu, *c.model, c.run, s, f.saturation,
                         c.rate / static_cast<double>(c.run.data_parallel()));
  return f;
}

}  // namespace

TEST_CASE("Every serving row at a rate runs: below saturation, its tokens the rate's",
          "[serve][rate]") {
  int rows = 0;
  for (const evidence::row& r : rate_rows()) {
    INFO(evidence::field(r, "id"));
    const rate_case c = rate_case_of(r);
    REQUIRE(!evidence::field(r, "url").empty());
    const rate_figures f = rate_load_of(c, *c.stack);
    const serve_load& l = f.load;
    CHECK(l.utilisation > 0.0);
    CHECK(l.utilisation < 1.0);
    for (const double v : {l.ttft.value(), l.tpot.value(), l.latency.value(), l.concurrency})
      CHECK(std::isfinite(v));
    // Below saturation the engine completes what arrives: the job's output tokens/s are the rate
    // times the mean output.
    CHECK(job_output_tokens_per_second(l, f.saturation) ==
          Approx(c.rate * f.saturation.generate_mean).epsilon(1e-12));
    // A request waits at least for its own prefill, and each token at least a decode step.
    CHECK(l.ttft >= f.saturation.prefill_alone * (1.0 - 1e-12));
    CHECK(
        l.latency.value() ==
        Approx(l.ttft.value() + (f.saturation.generate_mean - 1.0) * l.tpot.value()).epsilon(1e-9));
    ++rows;
  }
  // DataCrunch's four rates (1, 2, 4 and 8 requests a second; 16 is above saturation).
  CHECK(rows == 4);
}

// Prints every row and the errors (model / measured - 1) of the throughput, the TTFT, the TPOT
// and the latency. Hidden: `dlperf_tests "[serve_rate_evidence]"`.
TEST_CASE("Serving at a rate evidence report", "[.][serve_rate_evidence]") {
  std::map<std::string, std::array<std::vector<double>, 4>> groups;
  for (const evidence::row& r : rate_rows()) {
    const rate_case c = rate_case_of(r);
    const rate_figures f = rate_load_of(c, *c.stack);
    const serve_load& l = f.load;
    const double tokens = job_output_tokens_per_second(l, f.saturation);
    const std::array<double, 4> e{tokens / c.tokens_per_s - 1.0, l.ttft.value() / c.ttft - 1.0,
                                  l.tpot.value() / c.tpot - 1.0,
                                  l.latency.value() / c.latency - 1.0};
    for (const std::string& g : {"source " + evidence::field(r, "source"), std::string("all rows")})
      for (std::size_t i = 0; i < e.size(); ++i) groups[g][i].push_back(e[i]);
    std::printf(
        "%s %s %s %s tp%lld at %g/s: tokens/s measured %.0f, model %.0f (%+.1f %%); TTFT %.1f "
        "ms measured, %.1f model (%+.1f %%); TPOT %.2f ms measured, %.2f model (%+.1f %%); "
        "latency %.2f s measured, %.2f model (%+.1f %%); utilisation %.3f, %.1f decoding\n",
        evidence::field(r, "id").c_str(), evidence::field(r, "stack").c_str(),
        evidence::field(r, "model").c_str(), evidence::field(r, "gpu").c_str(), c.run.tp, c.rate,
        c.tokens_per_s, tokens, 100 * e[0], c.ttft * 1e3, l.ttft.value() * 1e3, 100 * e[1],
        c.tpot * 1e3, l.tpot.value() * 1e3, 100 * e[2], c.latency, l.latency.value(), 100 * e[3],
        l.utilisation, l.concurrency);
  }
  std::printf(
      "\n| group | throughput rows | median | bias | worst | TTFT rows | median | bias | worst | "
      "TPOT rows | median | bias | worst | latency rows | median | bias | worst |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [name, f] : groups)
    std::printf("| %s | %s | %s | %s | %s |\n", name.c_str(), evidence::error_cells(f[0]).c_str(),
                evidence::error_cells(f[1]).c_str(), evidence::error_cells(f[2]).c_str(),
                evidence::error_cells(f[3]).c_str());
  CHECK(!groups.empty());
}
