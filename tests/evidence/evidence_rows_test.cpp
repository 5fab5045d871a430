// The cited evidence set in tests/data/evidence/rows.csv (docs/evidence.md describes every
// source and column): published single-GPU measurements, each with its URL, date, software stack
// and the settings needed to rerun it.
//
// [evidence_rows] checks properties of the data itself: it is cited, dated, positive and finite,
// names a GPU of the catalog (or says it is not in it), and a model preset or a GEMM shape, and
// it is broad (rows, independent publishers). The hidden [evidence_report] runs every row whose
// GPU and model the library knows through the whole-model estimate (as
// model_evidence_test.cpp does) or the GEMM tile search and prints the errors that
// docs/evidence.md quotes. Nothing is fitted to these rows.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;

namespace {

using namespace dlperf::evidence;

constexpr std::array<std::string_view, 6> metrics{
    "samples_per_s",        "tokens_per_s", "decode_tokens_per_s",
    "prefill_tokens_per_s", "ttft_ms",      "tflops"};
template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool is_llm_metric(const std::string& metric) {
  return metric == "tokens_per_s" || metric == "decode_tokens_per_s" ||
         metric == "prefill_tokens_per_s" || metric == "ttft_ms";
}

}  // namespace

TEST_CASE("evidence CSV records: quoting and rejections", "[evidence_rows]") {
  CHECK(split_record(R"(a,"b, c","say ""x""",)", 1) ==
        std::vector<std::string>{"a", "b, c", "say \"x\"", ""});
  CHECK_THROWS_WITH(split_record(R"(a,"b)", 7),
                    Catch::Contains("line 7") && Catch::Contains("unterminated"));
  CHECK_THROWS_WITH(split_record(R"("a"b,c)", 3), Catch::Contains("after a closing quote"));
  std::istringstream short_row("id,value\nx\n");
  CHECK_THROWS_WITH(parse_rows(short_row),
                    Catch::Contains("line 2") && Catch::Contains("1 fields, the header has 2"));
  std::istringstream empty;
  CHECK_THROWS_WITH(parse_rows(empty), Catch::Contains("no header"));
  CHECK_THROWS_WITH(parse_shape("M=1 N=0 K=3"), Catch::Contains("not a GEMM shape"));
  CHECK_THROWS_WITH(count("2.5"), Catch::Contains("not a positive integer"));
  CHECK(lora_of("8:q,v,o,gate,up,down").rank == 8);
  CHECK(lora_of("8:q,k").targets == parse_lora_targets("q,k"));
  CHECK(lora_of("16").targets == lora_targets::query_value());
  CHECK_THROWS_WITH(lora_of(":q,v"), Catch::Contains("has no rank"));
  CHECK_THROWS_WITH(lora_of("0:q"), Catch::Contains("not a positive integer"));
  CHECK_THROWS(lora_of("8:qkv"));
  CHECK(is_date("2024-05"));
  CHECK_FALSE(is_date("2024-13"));
  CHECK_FALSE(is_date("May 2024"));
}

TEST_CASE("evidence rows: cited, dated, finite and broad", "[evidence_rows]") {
  const std::vector<row>& all_rows = rows();
  REQUIRE(!all_rows.empty());
  for (const std::string_view c : columns) {
    INFO("column " << c);
    CHECK(all_rows.front().count(c) == 1);
  }
  CHECK(all_rows.size() >= 150);

  std::set<std::string> ids, publishers, sources, catalog_gpus, stacks_seen;
  std::size_t runnable = 0;
  for (const row& r : all_rows) {
    const std::string& id = field(r, "id");
    INFO("row " << id << " (" << field(r, "source") << ")");
    CHECK(!id.empty());
    CHECK(ids.insert(id).second);  // ids are unique
    CHECK(field(r, "url").rfind("https://", 0) == 0);
    CHECK(is_date(field(r, "date")));
    CHECK(!field(r, "source").empty());
    CHECK(!field(r, "publisher").empty());
    CHECK(!field(r, "settings").empty());
    publishers.insert(field(r, "publisher"));
    sources.insert(field(r, "source"));

    // A GPU of the catalog, or said not to be, with the name the source gives.
    const std::string& gpu = field(r, "gpu");
    CHECK(!field(r, "gpu_published").empty());
    if (gpu != not_in_catalog) {
      CHECK_NOTHROW(catalog::find(gpu));
      catalog_gpus.insert(gpu);
    }

    // A positive, finite measurement in a known unit.
    const std::optional<double> value = number(field(r, "value"));
    REQUIRE(value.has_value());
    CHECK(*value > 0);
    CHECK(one_of(metrics, field(r, "metric")));

    // A model preset, or a GEMM with its shape.
    const std::string& model = field(r, "model");
    if (model == "gemm") {
      CHECK_NOTHROW(parse_shape(field(r, "shape")));
      CHECK(field(r, "metric") == "tflops");
    } else {
      CHECK_NOTHROW(presets::find(model));
      CHECK(field(r, "metric") != "tflops");
    }

    // The stack by its library name (`--stack`): one list of names, stack/stack.hpp.
    CHECK_NOTHROW(parse<stack_id>(field(r, "stack")));
    stacks_seen.insert(field(r, "stack"));
    CHECK((field(r, "mode") == "train" || field(r, "mode") == "infer"));
    CHECK_NOTHROW(parse<dtype>(field(r, "dlperf_dtype")));
    CHECK(!field(r, "precision").empty());
    CHECK_NOTHROW(count(field(r, "batch")));
    CHECK_NOTHROW(count(field(r, "seq")));
    CHECK_NOTHROW(count(field(r, "generate")));
    // LLM rows say how the weights are stored (F16, Q4_0, ...).
    CHECK_NOTHROW(weights_of(field(r, "weight_format")));
    // Several GPUs: a count and the split the engine ran, both or neither.
    CHECK_NOTHROW(count(field(r, "gpus")));
    CHECK(field(r, "split").empty() == !is_multi_gpu(r));
    if (is_multi_gpu(r)) CHECK_NOTHROW(parse<split_mode>(field(r, "split")));
    if (is_llm_metric(field(r, "metric"))) CHECK(!field(r, "weight_format").empty());
    // Adapters and recomputation are training settings; NF4 weights on a training row are
    // QLoRA's frozen base, so they need adapters.
    if (!field(r, "lora").empty()) {
      CHECK(field(r, "mode") == "train");
      CHECK_NOTHROW(lora_of(field(r, "lora")));
    }
    if (!field(r, "checkpointing").empty()) CHECK(field(r, "mode") == "train");
    if (field(r, "mode") == "train" && field(r, "weight_format") == "nf4")
      CHECK(!field(r, "lora").empty());
    // A layout is a convolutional network's.
    const std::string& layout = field(r, "layout");
    CHECK((layout.empty() || layout == "nchw" || layout == "nhwc"));
    if (!layout.empty()) CHECK(presets::find(field(r, "model")).kind == model_kind::cnn);
    // Training rows name the optimizer their code ran; its kernels are a training setting too
    // (empty: the stack's default, docs/stacks.md).
    if (field(r, "mode") == "train") {
      CHECK_NOTHROW(parse<optimizer_kind>(field(r, "optimizer")));
    } else {
      CHECK(field(r, "optimizer").empty());
      CHECK(field(r, "optimizer_kernels").empty());
    }
    if (!field(r, "optimizer_kernels").empty())
      CHECK_NOTHROW(parse<optimizer_kernel>(field(r, "optimizer_kernels")));
    for (const char* flag : {"eager", "fused_attention", "calibration", "checkpointing"}) {
      const std::string& f = field(r, flag);
      CHECK((f.empty() || f == "yes" || f == "no"));
    }
    if (gpu != not_in_catalog && !field(r, "batch").empty()) ++runnable;
  }
  // Breadth: independent publishers, sources, GPUs and software stacks.
  CHECK(publishers.size() >= 6);
  CHECK(sources.size() >= 6);
  CHECK(catalog_gpus.size() >= 15);
  CHECK(stacks_seen.size() >= 6);
  CHECK(runnable >= 100);
}

namespace {

struct report_row {
  const row* r = nullptr;
  double measured = 0, predicted = 0;
  double error = 0;  // predicted rate over measured rate, minus one (+: the model is faster)
};

// Printed as a Markdown table: rows, median and worst |error| of each group.
void summarise(const char* title, const std::map<std::string, std::vector<double>>& groups) {
  std::printf("\n| %s | rows | median abs error | worst error |\n|---|---:|---:|---:|\n", title);
  for (const auto& [key, errors] : groups) {
    std::vector<double> abs;
    for (const double e : errors) abs.push_back(std::abs(e));
    const double worst = *std::max_element(
        errors.begin(), errors.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    std::printf("| %s | %zu | %.1f %% | %+.1f %% |\n", key.c_str(), errors.size(),
                100 * median(abs), 100 * worst);
  }
}

}  // namespace

// Prints the tables of docs/evidence.md, "How far the model is off". Hidden: run with
// `dlperf_tests "[evidence_report]"`.
TEST_CASE("evidence report: every runnable row through the model", "[.][evidence_report]") {
  std::vector<report_row> done;
  std::size_t skipped = 0;
  std::cout << "| id | source | model | GPU | stack | mode | dtype | batch | seq | gen | weights "
               "| metric | measured | predicted | error |\n"
               "|---|---|---|---|---|---|---|---:|---:|---:|---|---|---:|---:|---:|\n";
  for (const row& r : rows()) {
    const std::optional<row_run> run = runnable(r);
    if (!run) {
      ++skipped;
      continue;
    }
    report_row x{&r, run->measured, ceiling_of(*run), 0};
    x.error = error_of(*run, x.predicted);
    done.push_back(x);
    std::printf(
        "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.6g | %.4g | "
        "%+.1f %%%s |\n",
        field(r, "id").c_str(), field(r, "source").c_str(),
        (field(r, "model") == "gemm" ? field(r, "shape") : field(r, "model")).c_str(),
        field(r, "gpu").c_str(), field(r, "stack").c_str(), field(r, "mode").c_str(),
        field(r, "dlperf_dtype").c_str(), field(r, "batch").c_str(), field(r, "seq").c_str(),
        field(r, "generate").c_str(), field(r, "weight_format").c_str(), field(r, "metric").c_str(),
        x.measured, x.predicted, 100 * x.error,
        field(r, "calibration") == "yes" ? " (calibration)" : "");
  }
  // Summaries leave out the rows a model parameter was set from.
  std::map<std::string, std::vector<double>> by_stack, by_model, by_family, by_source;
  std::vector<double> all;
  for (const report_row& x : done) {
    const row& r = *x.r;
    if (field(r, "calibration") == "yes") continue;
    all.push_back(std::abs(x.error));
    by_stack[field(r, "stack") + " " + field(r, "mode")].push_back(x.error);
    by_model[field(r, "model") + " " + field(r, "mode") + " " + field(r, "metric")].push_back(
        x.error);
    by_family[std::string(name(catalog::find(field(r, "gpu")).arch().family))].push_back(x.error);
    by_source[field(r, "source")].push_back(x.error);
  }
  std::printf(
      "\n- %zu rows run (%zu without a catalog GPU, a batch or a sequence skipped); "
      "%zu outside calibration: median |error| %.1f %%, worst %.1f %%\n",
      done.size(), skipped, all.size(), 100 * median(all),
      100 * *std::max_element(all.begin(), all.end()));
  summarise("stack mode", by_stack);
  summarise("model mode metric", by_model);
  summarise("GPU family", by_family);
  summarise("source", by_source);

  // Cross-GPU ratios: within one source and the same settings (model, mode, precision, batch,
  // sequence, generation, weights, metric), every GPU against the first one listed.
  std::map<std::string, std::vector<const report_row*>> groups;
  for (const report_row& x : done) {
    const row& r = *x.r;
    if (field(r, "calibration") == "yes") continue;
    const std::string key = field(r, "source") + "|" + field(r, "model") + "|" + field(r, "shape") +
                            "|" + field(r, "mode") + "|" + field(r, "precision") + "|" +
                            field(r, "batch") + "|" + field(r, "seq") + "|" + field(r, "generate") +
                            "|" + field(r, "weight_format") + "|" + field(r, "metric");
    groups[key].push_back(&x);
  }
  std::cout
      << "\n| source | model | mode | precision | batch | metric | GPU / reference GPU | "
         "measured ratio | predicted ratio | error |\n|---|---|---|---|---:|---|---|---:|---:|"
         "---:|\n";
  std::map<std::string, std::vector<double>> ratio_by_source;
  std::vector<double> ratio_all;
  for (const auto& [key, members] : groups) {
    const report_row& ref = *members.front();
    for (std::size_t i = 1; i < members.size(); ++i) {
      const report_row& x = *members[i];
      if (field(*x.r, "gpu") == field(*ref.r, "gpu")) continue;
      const double measured = x.measured / ref.measured;
      const double predicted = x.predicted / ref.predicted;
      const double error = predicted / measured - 1.0;
      ratio_all.push_back(std::abs(error));
      ratio_by_source[field(*x.r, "source")].push_back(error);
      std::printf(
          "| %s | %s | %s | %s | %s | %s / %s | %.3f | %.3f | %+.1f %% |\n",
          field(*x.r, "source").c_str(),
          (field(*x.r, "model") == "gemm" ? field(*x.r, "shape") : field(*x.r, "model")).c_str(),
          field(*x.r, "mode").c_str(), field(*x.r, "precision").c_str(),
          field(*x.r, "metric").c_str(), field(*x.r, "gpu").c_str(), field(*ref.r, "gpu").c_str(),
          measured, predicted, 100 * error);
    }
  }
  std::printf("\n- %zu cross-GPU ratios: median |error| %.1f %%, worst %.1f %%\n", ratio_all.size(),
              100 * median(ratio_all), 100 * *std::max_element(ratio_all.begin(), ratio_all.end()));
  summarise("ratios by source", ratio_by_source);
  std::fflush(stdout);
  CHECK(!done.empty());
}
