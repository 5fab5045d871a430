// The evidence rows that ran one model over several GPUs (docs/evidence.md, "Several GPUs"):
// every one runs through the model with its split, and the hidden report prints the errors by
// phase, split, GPU count and source. No figure of the multi-GPU model is fitted on these rows.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <iostream>
#include <map>
#include <string>
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
