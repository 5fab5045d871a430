// Published training runs on many GPUs (tests/data/evidence/training_multi_gpu.csv,
// docs/evidence.md "Training on many GPUs"): every row's model has the parameter count its
// publisher printed, every row runs through the multi-GPU model (buying/cluster.hpp) with its
// own settings, and the hidden report prints the errors by GPU, scale, model size and sequence.
// No figure of the model is fitted on these rows.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;

namespace {

using record = std::map<std::string, std::string>;

const std::vector<record>& training_rows() {
  static const std::vector<record> rows = [] {
    std::ifstream in(DLPERF_TRAINING_EVIDENCE_CSV);
    if (!in) throw std::runtime_error("cannot open " + std::string(DLPERF_TRAINING_EVIDENCE_CSV));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = evidence::split_record(line, 1);
    std::vector<record> out;
    for (std::size_t n = 2; std::getline(in, line); ++n) {
      const std::vector<std::string> f = evidence::split_record(line, n);
      if (f.size() != header.size())
        throw std::runtime_error("training evidence line " + std::to_string(n) + ": " +
                                 std::to_string(f.size()) + " fields");
      record r;
      for (std::size_t i = 0; i < f.size(); ++i) r[header[i]] = f[i];
      out.push_back(std::move(r));
    }
    return out;
  }();
  return rows;
}

long long count_of(const record& r, const std::string& column) { return std::stoll(r.at(column)); }

// The row's model: its preset with learned positions over the row's sequence, as the
// publisher's parameter count shows (MPT's position table is max_seq_len x d_model).
model_spec model_of(const record& r) {
  model_spec m = presets::find(r.at("model"));
  m.transformer.max_seq = count_of(r, "seq");
  return m;
}

run_config run_of(const record& r) {
  run_config x;
  x.mode = run_mode::train;
  x.batch = count_of(r, "micro_batch");
  x.seq = count_of(r, "seq");
  x.type = parse<dtype>(r.at("dlperf_dtype"));
  x.gpus = count_of(r, "gpus");
  x.zero = static_cast<int>(count_of(r, "zero"));
  x.grad_accumulation = count_of(r, "grad_accumulation");
  x.gpus_per_node = count_of(r, "gpus_per_node");
  if (!r.at("network").empty()) x.network = &find_link(r.at("network"));
  // FSDP's DEFAULT mixed precision (Composer) reduces gradients in FP32; PURE in the run's type.
  x.fp32_gradient_reduce = r.at("fsdp_mixed_precision") == "DEFAULT";
  x.checkpointing = r.at("checkpointing") == "yes";
  x.stack = parse<stack_id>(r.at("stack"));
  // Composer's DecoupledAdamW updates tensor by tensor.
  x.optimizer_kernels = optimizer_kernel::per_tensor;
  return x;
}

struct training_result {
  const record* r = nullptr;
  cluster_estimate job;
  double measured = 0, predicted = 0, error = 0;
};

training_result run_row(const record& r) {
  const gpu_spec& g = catalog::find(r.at("gpu"));
  const model_spec m = model_of(r);
  const run_config x = run_of(r);
  training_result out{&r, estimate_cluster(g, x.gpus, m, x, system_link(g)), 0, 0, 0};
  const double tokens = static_cast<double>(x.grad_accumulation * x.batch * x.seq);
  out.measured = std::stod(r.at("value"));
  out.predicted = tokens / out.job.step_time.value();
  out.error = out.predicted / out.measured - 1.0;
  return out;
}

std::string scale_of(long long gpus) {
  if (gpus <= 8) return "8 GPUs (one server)";
  if (gpus <= 64) return "16-64 GPUs";
  return "128-512 GPUs";
}

}  // namespace

TEST_CASE("training evidence: each row's model has the parameter count its publisher printed",
          "[evidence_rows]") {
  REQUIRE(training_rows().size() >= 200);
  for (const record& r : training_rows()) {
    INFO(r.at("id") << " " << r.at("model") << " at " << r.at("seq") << " tokens");
    CHECK(model_of(r).parameters() == std::stod(r.at("parameters_published")));
  }
}

TEST_CASE("training evidence: every row runs on its GPUs, finite and below the dense peak",
          "[evidence_rows]") {
  std::map<std::string, int> publishers;
  for (const record& r : training_rows()) {
    INFO(r.at("id"));
    const training_result t = run_row(r);
    CHECK(std::isfinite(t.predicted));
    CHECK(t.predicted > 0);
    // 6 FLOP per parameter and token is below what the step does; at the dense peak it bounds
    // the rate from above.
    const gpu_spec& g = catalog::find(r.at("gpu"));
    const double peak = detail::dense_peak(g, parse<dtype>(r.at("dlperf_dtype"))).value();
    CHECK(t.predicted < peak / (6.0 * model_of(r).parameters()));
    CHECK(t.job.gpus == count_of(r, "gpus"));
    ++publishers[r.at("publisher")];
  }
  CHECK(publishers.size() >= 1);
}

// Prints docs/evidence.md's "Training on many GPUs" tables. Hidden:
// `dlperf_tests "[evidence_training]"`.
TEST_CASE("training evidence report: errors by GPU and scale and model size",
          "[.][evidence_training]") {
  std::map<std::string, std::vector<double>> groups;
  for (const record& r : training_rows()) {
    const training_result t = run_row(r);
    const std::string gpu = r.at("gpu") + " " + r.at("precision");
    groups["GPU " + gpu].push_back(t.error);
    groups["scale " + scale_of(count_of(r, "gpus"))].push_back(t.error);
    groups["GPU " + gpu + ", " + scale_of(count_of(r, "gpus"))].push_back(t.error);
    groups["model " + r.at("model")].push_back(t.error);
    groups[count_of(r, "seq") <= 4096 ? "sequence <= 4096" : "sequence >= 8192"].push_back(t.error);
    groups["all"].push_back(t.error);
  }
  evidence::print_error_groups(groups);
  CHECK(groups.count("all") == 1);
}
