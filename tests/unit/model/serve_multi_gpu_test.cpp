// Published maximum-throughput serving runs on more than one GPU
// (tests/data/evidence/serving_multi_gpu.csv, docs/evidence.md "Serving on several GPUs"):
// TensorRT-LLM's tables on 2-8 H100, H200, B200 and GB200 and AMD's vLLM tables on 8 MI300X,
// each run through the serving model (model/serve.hpp) with its tensor split and the engine's
// scheduler, or the cap the row states. No figure of the model is fitted on these rows, so every
// error below is held out; the hidden report prints them by publisher, GPU, tensor split and
// request shape.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;

namespace {

const std::vector<evidence::row>& serving_rows() {
  static const std::vector<evidence::row> rows = evidence::read_rows(DLPERF_SERVING_MULTI_GPU_CSV);
  return rows;
}

// One row as the serving model runs it.
struct serving_case {
  const evidence::row* row = nullptr;
  const gpu_spec* gpu = nullptr;
  const model_spec* model = nullptr;
  run_config run;
  serve_config config;
  const software_stack* stack = nullptr;
  double measured = 0;
};

serving_case case_of(const evidence::row& r) {
  serving_case c;
  c.row = &r;
  c.gpu = &catalog::find(evidence::field(r, "gpu"));
  c.model = &presets::find(evidence::field(r, "model"));
  c.stack = &stacks::of(parse<stack_id>(evidence::field(r, "stack")));
  c.run = evidence::serving_run_of(r);
  if (const auto cap = evidence::count(evidence::field(r, "max_seqs")))
    c.config.max_sequences = *cap;
  c.config.lengths = evidence::lengths_of(r);  // a benchmark's random lengths, if any
  c.measured = *evidence::number(evidence::field(r, "value"));
  return c;
}

// The serving estimate of the row under stack @p s, the row's schedule kept (the ceiling runs
// under the row's engine's scheduler: the comparison is of kernels).
serve_estimate estimate_of(const serving_case& c, const software_stack& s) {
  const serve_config k = c.config.under(*c.stack, *c.gpu);
  return estimate_serving(*c.gpu, *c.model, c.run, s, k);
}

// The output tokens/s of the whole job under stack @p s.
double predicted(const serving_case& c, const software_stack& s) {
  return estimate_of(c, s).job_output_tokens_per_second();
}

}  // namespace

TEST_CASE("Every multi-GPU serving row runs: finite, each step no faster than its ceiling",
          "[serve]") {
  int rows = 0;
  for (const evidence::row& r : serving_rows()) {
    const serving_case c = case_of(r);
    INFO(evidence::field(r, "id"));
    REQUIRE(evidence::field(r, "metric") == "output_tokens_per_s");
    REQUIRE(c.run.gpus > 1);
    const double stack = predicted(c, *c.stack);
    CHECK(std::isfinite(stack));
    CHECK(stack > 0.0);
    // At the batch the engine runs, the stack's decode step and prefill are no shorter than the
    // ceiling's of the same kernels (the ceiling alone may hold another batch: its activations
    // differ, so the rates are compared step by step).
    const serve_estimate e = estimate_of(c, *c.stack);
    run_config batch = detail::at_mean_lengths(c.run, e);
    batch.batch = e.concurrency;
    const stacked_estimate s = estimate_model(*c.gpu, *c.model, batch, *c.stack);
    CHECK(s.stack.decode_per_token >= s.ceiling.decode_per_token);
    CHECK(s.stack.prefill_time >= s.ceiling.prefill_time);
    ++rows;
  }
  // 171 TensorRT-LLM rows (its pages at ab4143e1 and 00f37686), 48 of AMD's vLLM page, 5 of
  // DataCrunch's SGLang runs.
  CHECK(rows == 224);
}

TEST_CASE("Serving never outruns the weight and KV reads of its decode steps", "[serve]") {
  // Each decode step reads every GPU's share of the weights and of the batch's KV cache at no
  // more than the GPU's DRAM bandwidth, so N / t_d(N) output tokens/s per model copy is a
  // ceiling on what a copy generates, whatever the split.
  for (const evidence::row& r : serving_rows()) {
    const serving_case c = case_of(r);
    INFO(evidence::field(r, "id"));
    const serve_estimate e = estimate_of(c, *c.stack);
    const memory_breakdown need = memory_need(*c.model, c.run);
    const double tp = static_cast<double>(c.run.tp);
    const double context = e.prompt_mean + 0.5 * e.generate_mean;
    const double bytes_read = need.weights.value() / tp + static_cast<double>(e.concurrency) *
                                                              context * e.kv_per_token.value() / tp;
    const double floor = bytes_read / c.gpu->memory(tier::global).throughput.value();
    CHECK(e.decode_step.value() >= floor * (1.0 - 1e-9));
    CHECK(e.output_tokens_per_second <= static_cast<double>(e.concurrency) / floor * (1.0 + 1e-9));
  }
}

TEST_CASE("A tensor-split decode step is never shorter than 1/tp of one GPU step", "[serve]") {
  // The property (docs/parallel.md): tp GPUs split each layer's work, never more, and
  // pay all-reduces besides, so a step of the rows' batch on tp GPUs takes at least the time one
  // GPU takes for it over tp (one GPU's step estimated whether or not its memory holds it).
  for (const evidence::row& r : serving_rows()) {
    const serving_case c = case_of(r);
    INFO(evidence::field(r, "id"));
    const serve_estimate e = estimate_of(c, *c.stack);
    run_config batch = detail::at_mean_lengths(c.run, e);
    batch.batch = e.concurrency;
    run_config alone = batch;
    alone.gpus = alone.tp = 1;
    const op_sequence split_ops = estimate_model(*c.gpu, *c.model, batch, *c.stack).stack.decode;
    const double split = split_ops.time().value();
    const double one =
        estimate_model(*c.gpu, *c.model, alone, *c.stack).stack.decode_per_token.value();
    CHECK(split >= one / static_cast<double>(c.run.tp) * (1.0 - 1e-9));
    // The serving step is that step at the clock the saturated board holds.
    CHECK(detail::at_sm_clock(split_ops, e.clock_fraction).time().value() ==
          Approx(e.decode_step.value()).epsilon(1e-12));
  }
}

namespace {

struct tally {
  std::vector<double> errors;
  void add(double e) { errors.push_back(e); }
};

std::string summary(const std::vector<double>& e) {
  const evidence::band_figures b = evidence::band_figures_of(e);
  std::vector<double> magnitude;
  for (const double x : e) magnitude.push_back(std::abs(x));
  const double worst = *std::max_element(magnitude.begin(), magnitude.end());
  std::array<char, 160> line{};
  std::snprintf(line.data(), line.size(), "| %d | %.1f %% | %+.1f %% | %.1f %% | %.2f-%.2f |",
                b.rows, 100 * b.median, 100 * b.bias, 100 * worst, b.low, b.high);
  return line.data();
}

}  // namespace

// Prints every row and the errors by group. Hidden: `dlperf_tests "[serve_multi_gpu_evidence]"`.
TEST_CASE("Multi-GPU serving evidence report", "[.][serve_multi_gpu_evidence]") {
  std::map<std::string, tally> groups;
  std::vector<double> all, by_ceiling;
  for (const evidence::row& r : serving_rows()) {
    const serving_case c = case_of(r);
    const double stack = predicted(c, *c.stack), ceiling = predicted(c, stacks::ceiling);
    const double e = stack / c.measured - 1.0;
    all.push_back(e);
    by_ceiling.push_back(ceiling / c.measured - 1.0);
    const std::string engine = evidence::field(r, "stack");
    const std::string gpu = evidence::field(r, "gpu");
    const std::string tp = "tp " + evidence::field(r, "tp");
    const long long p = c.run.prompt, g = c.run.generate;
    const std::string shape = p >= 4 * g   ? "prompt-heavy (P >= 4G)"
                              : g >= 4 * p ? "output-heavy (G >= 4P)"
                                           : "balanced";
    groups["source " + evidence::field(r, "source")].add(e);
    groups["engine " + engine + " on " + gpu].add(e);
    groups["engine " + engine + ", " + tp].add(e);
    groups["engine " + engine + ", " + shape].add(e);
    groups["model " + evidence::field(r, "model") + " " + evidence::field(r, "dlperf_dtype")].add(
        e);
    std::printf(
        "%s %s %s %s tp%lld %lld/%lld: measured %.0f, model %.0f (%+.1f %%), ceiling %.0f\n",
        evidence::field(r, "id").c_str(), engine.c_str(), evidence::field(r, "model").c_str(),
        gpu.c_str(), c.run.tp, p, g, c.measured, stack, 100 * e, ceiling);
  }
  std::printf(
      "\n| group | rows | median | bias | worst | measured / model, 10th-90th |\n"
      "|---|---:|---:|---:|---:|---|\n");
  for (const auto& [name, t] : groups)
    std::printf("| %s %s\n", name.c_str(), summary(t.errors).c_str());
  std::printf("| all rows %s\n| all rows at the ceiling %s\n", summary(all).c_str(),
              summary(by_ceiling).c_str());
  CHECK(!all.empty());
}

namespace {

// Every multi-GPU row's group (model/error_bands.hpp, serving_band with several_gpus: stack,
// vendor, class of board) and its figures, recomputed from the evidence.
std::vector<serving_band> multi_gpu_bands_of_evidence() {
  std::map<evidence::serving_key, std::vector<double>> errors;
  for (const evidence::row& r : serving_rows()) {
    const serving_case c = case_of(r);
    errors[{c.stack->id, c.gpu->arch().vendor, board_class_of(*c.gpu)}].push_back(
        predicted(c, *c.stack) / c.measured - 1.0);
  }
  return evidence::serving_bands_of(errors, true);
}

}  // namespace

TEST_CASE("every multi-GPU serving band is its error on the evidence", "[serve]") {
  evidence::check_serving_bands(multi_gpu_bands_of_evidence(), true);
}

// Prints the multi-GPU groups as model/error_bands.hpp lists them. Hidden:
// `dlperf_tests "[serve_multi_gpu_bands]"`.
TEST_CASE("multi-GPU serving bands as listed", "[.][serve_multi_gpu_bands]") {
  const std::vector<serving_band> groups = multi_gpu_bands_of_evidence();
  evidence::print_serving_bands(groups);
  CHECK(!groups.empty());
}
