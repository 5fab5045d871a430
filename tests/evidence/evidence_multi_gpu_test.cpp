// The evidence rows that ran one model over several GPUs (docs/evidence.md, "Several GPUs"):
// every one runs through the model with its split, and the hidden report prints the errors by
// phase, split, GPU count and source. No figure of the multi-GPU model is fitted on these rows.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;
using namespace dlperf::evidence;

namespace {

struct multi_gpu_row {
  const row* r = nullptr;
  row_run x;
  double predicted = 0, error = 0;
};

std::vector<multi_gpu_row> multi_gpu_rows() {
  std::vector<multi_gpu_row> out;
  for (const row& r : rows()) {
    if (!is_multi_gpu(r)) continue;
    const std::optional<row_run> x = runnable_on_any_gpus(r);
    if (!x) continue;
    run_config run = x->run;
    run.stack = x->stack;
    const double predicted = metric_of(*x, estimate_run(*x->gpu, *x->model, run));
    out.push_back({&r, *x, predicted, error_of(*x, predicted)});
  }
  return out;
}

}  // namespace

TEST_CASE("multi-GPU evidence rows run with their split: finite and positive", "[evidence_rows]") {
  const std::vector<multi_gpu_row> all = multi_gpu_rows();
  REQUIRE(all.size() >= 248);
  for (const multi_gpu_row& m : all) {
    INFO(field(*m.r, "id"));
    CHECK(std::isfinite(m.predicted));
    CHECK(m.predicted > 0);
    CHECK(m.x.run.model_parallel() == gpus_of(*m.r));
  }
}

namespace {

// The group of a row's band (model/error_bands.hpp, inference_split_band): its stack, split,
// figure and class of board; none for a row that measured neither rate.
std::optional<inference_split_band> split_band_key(const multi_gpu_row& m) {
  const std::string metric = field(*m.r, "metric");
  if (metric != "tokens_per_s" && metric != "prefill_tokens_per_s") return std::nullopt;
  inference_split_band b;
  b.stack = m.x.stack;
  b.split = inference_split_of(m.x.run);
  b.figure = metric == "tokens_per_s" ? estimate_figure::decode : estimate_figure::prompt;
  b.boards = board_class_of(*m.x.gpu);
  return b;
}

// Each group's band over the rows.
std::vector<inference_split_band> split_bands_of_evidence() {
  std::map<std::tuple<stack_id, split_mode, estimate_figure, board_class>, std::vector<double>>
      errors;
  for (const multi_gpu_row& m : multi_gpu_rows())
    if (const std::optional<inference_split_band> k = split_band_key(m))
      errors[{k->stack, k->split, k->figure, k->boards}].push_back(m.error);
  std::vector<inference_split_band> out;
  for (const auto& [key, e] : errors) {
    const auto [stack, split, figure, boards] = key;
    const band_figures b = band_figures_of(e);
    out.push_back({stack, split, figure, boards, b.rows, b.median, b.bias, b.low, b.high});
  }
  return out;
}

}  // namespace

TEST_CASE("every stack's multi-GPU inference band is its error on the evidence",
          "[evidence_rows]") {
  int listed = 0;
  for (const inference_split_band& b : split_bands_of_evidence()) {
    INFO(name(b.stack) << " " << name(b.split) << " " << name(b.figure) << " " << name(b.boards)
                       << ": " << b.rows << " rows, median " << b.median << ", bias " << b.bias
                       << ", measured / predicted " << b.low << " to " << b.high);
    const std::optional<inference_split_band> table =
        inference_split_band_of(b.stack, b.split, b.figure, b.boards);
    CHECK(table.has_value() == (b.rows >= error_band::least_rows));
    if (!table) continue;
    ++listed;
    check_band(*table, {b.rows, b.median, b.bias, b.low, b.high});
  }
  CHECK(listed == static_cast<int>(inference_split_bands.size()));
}

// Prints the bands as model/error_bands.hpp lists them and docs/evidence.md's table of them.
// Hidden: `dlperf_tests "[evidence_split_bands]"`.
TEST_CASE("multi-GPU inference bands as listed", "[.][evidence_split_bands]") {
  const std::vector<inference_split_band> bands = split_bands_of_evidence();
  for (const inference_split_band& b : bands)
    if (b.rows >= error_band::least_rows)
      std::printf(
          "    inference_split_band{stack_id::%s, split_mode::%s, estimate_figure::%s,\n"
          "                         board_class::%s, %d, %.4f, %.4f, %.4f, %.4f},\n",
          identifier_of(name(b.stack)).c_str(), std::string(name(b.split)).c_str(),
          std::string(name(b.figure)).c_str(), std::string(name(b.boards)).c_str(), b.rows,
          b.median, b.bias, b.low, b.high);
  std::printf(
      "\n| stack | split | figure | boards | rows | median | bias | measured / predicted, "
      "10th-90th percentile |\n|---|---|---|---|---:|---:|---:|---|\n");
  for (const inference_split_band& b : bands)
    std::printf("| %s | %s | %s | %s | %d | %.1f %% | %+.1f %% | %.2f-%.2f%s |\n",
                std::string(name(b.stack)).c_str(), std::string(name(b.split)).c_str(),
                std::string(name(b.figure)).c_str(), std::string(name(b.boards)).c_str(), b.rows,
                100 * b.median, 100 * b.bias, b.low, b.high,
                b.rows >= error_band::least_rows ? "" : " (too few rows: no band)");
  CHECK(!bands.empty());
}

// Prints docs/evidence.md's "Several GPUs" table. Hidden: `dlperf_tests "[evidence_multi_gpu]"`.
TEST_CASE("multi-GPU evidence report: errors by phase and split and GPU count",
          "[.][evidence_multi_gpu]") {
  std::map<std::string, std::vector<double>> groups;
  std::cout << "| id | model | GPUs | weights | metric | measured | predicted | error |\n"
               "|---|---|---|---|---|---:|---:|---:|\n";
  for (const multi_gpu_row& m : multi_gpu_rows()) {
    const row& r = *m.r;
    std::printf("| %s | %s | %s | %s | %s (%s) | %.5g | %.4g | %+.1f %% |\n",
                field(r, "id").c_str(), field(r, "model").c_str(),
                field(r, "gpu_published").c_str(), field(r, "weight_format").c_str(),
                field(r, "metric").c_str(),
                (field(r, "metric") == "tokens_per_s" ? "tg" + field(r, "generate")
                                                      : "pp" + field(r, "seq"))
                    .c_str(),
                m.x.measured, m.predicted, 100 * m.error);
    const std::string phase = (field(r, "metric") == "tokens_per_s" ? "decode, " : "prompt, ") +
                              field(r, "split") + " split";
    groups[phase + ", " + field(r, "gpus") + " GPUs"].push_back(m.error);
    groups[phase + ", all"].push_back(m.error);
    // By memory technology: a decode rate is bound by the GEMVs' share of DRAM, which differs
    // between GDDR and HBM (docs/evidence.md, "Workstation and data-centre boards").
    const bool hbm = name(m.x.gpu->facts().memory_type).starts_with("HBM");
    groups[phase + ", " + (hbm ? "HBM" : "GDDR") + " boards"].push_back(m.error);
    groups["source " + field(r, "source") + " (" + field(r, "stack") + ")"].push_back(m.error);
    groups["all"].push_back(m.error);
  }
  std::cout << "\n";
  print_error_groups(groups);
  CHECK(groups.count("all") == 1);
}
