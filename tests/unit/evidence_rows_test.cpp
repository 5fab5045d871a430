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

using namespace dlperf;

namespace {

constexpr std::string_view not_in_catalog = "gpu not in catalog";

// The columns every row has (docs/evidence.md, "Columns").
constexpr std::array<std::string_view, 23> columns{
    "id",           "source",        "publisher",
    "url",          "date",          "model",
    "shape",        "gpu",           "gpu_published",
    "stack",        "mode",          "precision",
    "dlperf_dtype", "batch",         "seq",
    "generate",     "weight_format", "metric",
    "value",        "eager",         "fused_attention",
    "calibration",  "settings"};

// One CSV record: RFC 4180 fields (quoted fields may hold commas and doubled quotes). Throws on
// an unterminated quote or text after a closing quote, naming the line.
std::vector<std::string> split_record(std::string_view line, std::size_t line_number) {
  std::vector<std::string> fields(1);
  bool quoted = false, closed = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = false;
        closed = true;
      }
    } else if (c == ',') {
      fields.emplace_back();
      closed = false;
    } else if (c == '"' && fields.back().empty() && !closed) {
      quoted = true;
    } else if (closed) {
      throw std::runtime_error("evidence CSV line " + std::to_string(line_number) +
                               ": text after a closing quote");
    } else {
      fields.back() += c;
    }
  }
  if (quoted)
    throw std::runtime_error("evidence CSV line " + std::to_string(line_number) +
                             ": unterminated quoted field");
  return fields;
}

using row = std::map<std::string, std::string, std::less<>>;

std::vector<row> parse_rows(std::istream& in) {
  std::string line;
  std::size_t number = 1;
  if (!std::getline(in, line)) throw std::runtime_error("evidence CSV: no header line");
  const std::vector<std::string> header = split_record(line, number);
  std::vector<row> rows;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const std::vector<std::string> fields = split_record(line, number);
    if (fields.size() != header.size())
      throw std::runtime_error("evidence CSV line " + std::to_string(number) + ": " +
                               std::to_string(fields.size()) + " fields, the header has " +
                               std::to_string(header.size()));
    row r;
    for (std::size_t i = 0; i < header.size(); ++i) r[header[i]] = fields[i];
    rows.push_back(std::move(r));
  }
  return rows;
}

const std::vector<row>& evidence() {
  static const std::vector<row> rows = [] {
    std::ifstream in(DLPERF_EVIDENCE_CSV);
    if (!in) throw std::runtime_error("cannot open " DLPERF_EVIDENCE_CSV);
    return parse_rows(in);
  }();
  return rows;
}

const std::string& field(const row& r, std::string_view column) {
  const auto it = r.find(column);
  if (it == r.end()) throw std::runtime_error("evidence row has no column " + std::string(column));
  return it->second;
}

// A whole decimal number, or nothing when the text is not one (or not finite).
std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  try {
    const double v = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// A positive integer count (batch, sequence, tokens), or nothing for an empty field.
std::optional<long long> count(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::optional<double> v = number(text);
  if (!v || *v < 1 || *v != std::floor(*v) || *v > 1e12)
    throw std::runtime_error("not a positive integer: '" + text + "'");
  return static_cast<long long>(*v);
}

// YYYY, YYYY-MM or YYYY-MM-DD, a year from 2015 (the first tensor-core era benchmarks) on.
bool is_date(const std::string& d) {
  auto digits = [&](std::size_t from, std::size_t n) {
    return std::all_of(d.begin() + static_cast<std::ptrdiff_t>(from),
                       d.begin() + static_cast<std::ptrdiff_t>(from + n),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  if (d.size() != 4 && d.size() != 7 && d.size() != 10) return false;
  if (!digits(0, 4) || std::stoi(d.substr(0, 4)) < 2015 || std::stoi(d.substr(0, 4)) > 2030)
    return false;
  if (d.size() >= 7) {
    if (d[4] != '-' || !digits(5, 2)) return false;
    const int month = std::stoi(d.substr(5, 2));
    if (month < 1 || month > 12) return false;
  }
  if (d.size() == 10) {
    if (d[7] != '-' || !digits(8, 2)) return false;
    const int day = std::stoi(d.substr(8, 2));
    if (day < 1 || day > 31) return false;
  }
  return true;
}

struct gemm_shape {
  long long m = 0, n = 0, k = 0;
};

// "M=4096 N=4864 K=32896".
gemm_shape parse_shape(const std::string& s) {
  gemm_shape g;
  if (std::sscanf(s.c_str(), "M=%lld N=%lld K=%lld", &g.m, &g.n, &g.k) != 3 || g.m < 1 || g.n < 1 ||
      g.k < 1)
    throw std::runtime_error("not a GEMM shape 'M=.. N=.. K=..': '" + s + "'");
  return g;
}

constexpr std::array<std::string_view, 12> evidence_stacks{
    "pytorch-eager",      "torch-compile", "tensorflow", "tensorflow-xla", "megatron",
    "tensorrt-llm",       "vllm",          "llama.cpp",  "llama.cpp-rocm", "pytorch-rocm",
    "lmdeploy-turbomind", "hipblaslt"};
constexpr std::array<std::string_view, 5> metrics{"samples_per_s", "tokens_per_s",
                                                  "prefill_tokens_per_s", "ttft_ms", "tflops"};
// nvfp4: weights and compute in FP4 (the run's dtype is fp4_e2m1).
constexpr std::array<std::string_view, 8> row_weight_formats{"",       "fp16", "bf16", "q4_0",
                                                             "q4_k_m", "int4", "int8", "nvfp4"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool is_llm_metric(const std::string& metric) {
  return metric == "tokens_per_s" || metric == "prefill_tokens_per_s" || metric == "ttft_ms";
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
  CHECK(is_date("2024-05"));
  CHECK_FALSE(is_date("2024-13"));
  CHECK_FALSE(is_date("May 2024"));
}

TEST_CASE("evidence rows: cited, dated, finite and broad", "[evidence_rows]") {
  const std::vector<row>& rows = evidence();
  REQUIRE(!rows.empty());
  for (const std::string_view c : columns) {
    INFO("column " << c);
    CHECK(rows.front().count(c) == 1);
  }
  CHECK(rows.size() >= 150);

  std::set<std::string> ids, publishers, sources, catalog_gpus, stacks_seen;
  std::size_t runnable = 0;
  for (const row& r : rows) {
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

    CHECK(one_of(evidence_stacks, field(r, "stack")));
    stacks_seen.insert(field(r, "stack"));
    CHECK((field(r, "mode") == "train" || field(r, "mode") == "infer"));
    CHECK_NOTHROW(parse<dtype>(field(r, "dlperf_dtype")));
    CHECK(!field(r, "precision").empty());
    CHECK_NOTHROW(count(field(r, "batch")));
    CHECK_NOTHROW(count(field(r, "seq")));
    CHECK_NOTHROW(count(field(r, "generate")));
    // LLM rows say how the weights are stored (F16, Q4_0, ...).
    CHECK(one_of(row_weight_formats, field(r, "weight_format")));
    if (is_llm_metric(field(r, "metric"))) CHECK(!field(r, "weight_format").empty());
    for (const char* flag : {"eager", "fused_attention", "calibration"}) {
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

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

weight_format weights_of(const std::string& w) {
  if (w == "q4_0" || w == "q4_k_m" || w == "int4") return weight_format::int4_weights;
  if (w == "int8") return weight_format::int8_weights;
  return weight_format::native;
}

// The model's figure for a row in the row's unit; nothing when the row lacks what the model
// needs (a catalog GPU, a batch, a sequence).
std::optional<double> predict(const row& r) {
  const std::string& gpu = field(r, "gpu");
  if (gpu == not_in_catalog || field(r, "batch").empty()) return std::nullopt;
  const gpu_spec& g = catalog::find(gpu);
  const dtype type = parse<dtype>(field(r, "dlperf_dtype"));
  if (field(r, "model") == "gemm") {
    const gemm_shape s = parse_shape(field(r, "shape"));
    const gemm_problem p{s.m, s.n, s.k, 1, type, default_accumulator(type)};
    return in_teraflops(best_gemm(g, p).throughput);
  }
  if (field(r, "seq").empty()) return std::nullopt;
  run_config run;
  run.mode = parse<run_mode>(field(r, "mode"));
  run.batch = *count(field(r, "batch"));
  run.type = type;
  run.eager = field(r, "eager") == "yes";
  run.flash_attention = field(r, "fused_attention") != "no";
  if (run.mode == run_mode::infer) run.weights = weights_of(field(r, "weight_format"));
  const model_spec& m = presets::find(field(r, "model"));
  const long long seq = *count(field(r, "seq"));
  const std::optional<long long> generate = count(field(r, "generate"));
  if (m.kind == model_kind::cnn) {
    run.image = seq;
  } else if (generate) {
    run.prompt = seq;
    run.generate = *generate;
  } else {
    run.seq = seq;
  }
  const model_estimate e = estimate_model(g, m, run);
  const std::string& metric = field(r, "metric");
  if (metric == "samples_per_s") return e.samples_per_second();
  if (metric == "tokens_per_s") return e.tokens_per_second();
  if (metric == "prefill_tokens_per_s")
    return static_cast<double>(run.batch * seq) / e.prefill_time.value();
  if (metric == "ttft_ms") return 1e3 * e.prefill_time.value();
  return std::nullopt;
}

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
  for (const row& r : evidence()) {
    const std::optional<double> p = predict(r);
    if (!p) {
      ++skipped;
      continue;
    }
    report_row x{&r, *number(field(r, "value")), *p, 0};
    x.error = field(r, "metric") == "ttft_ms" ? x.measured / x.predicted - 1.0
                                              : x.predicted / x.measured - 1.0;
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
