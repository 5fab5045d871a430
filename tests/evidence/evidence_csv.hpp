// The cited evidence set tests/data/evidence/rows.csv (docs/evidence.md) as the tests read it:
// RFC 4180 records, one row per published measurement, and the run each row describes. Shared by
// evidence_rows_test.cpp (the data's properties and the report) and evidence_stack_test.cpp (the
// rows under their software stacks, and the cross-validation of the stacks' fitted figures).
#pragma once

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <istream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace dlperf::evidence {

inline constexpr std::string_view not_in_catalog = "gpu not in catalog";

// The columns every row has (docs/evidence.md, "Columns").
inline constexpr std::array<std::string_view, 30> columns{"id",
                                                          "source",
                                                          "publisher",
                                                          "url",
                                                          "date",
                                                          "model",
                                                          "shape",
                                                          "gpu",
                                                          "gpu_published",
                                                          "stack",
                                                          "mode",
                                                          "precision",
                                                          "dlperf_dtype",
                                                          "batch",
                                                          "seq",
                                                          "generate",
                                                          "weight_format",
                                                          "metric",
                                                          "value",
                                                          "eager",
                                                          "fused_attention",
                                                          "calibration",
                                                          "settings",
                                                          "lora",
                                                          "checkpointing",
                                                          "layout",
                                                          "optimizer",
                                                          "optimizer_kernels",
                                                          "gpus",
                                                          "split"};

// One CSV record: RFC 4180 fields (quoted fields may hold commas and doubled quotes). Throws on
// an unterminated quote or text after a closing quote, naming the line.
inline std::vector<std::string> split_record(std::string_view line, std::size_t line_number) {
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

inline std::vector<row> parse_rows(std::istream& in) {
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

// The rows of the evidence file at @p path. Throws naming the file where it cannot be opened.
inline std::vector<row> read_rows(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return parse_rows(in);
}

inline const std::vector<row>& rows() {
  static const std::vector<row> rows = [] {
    std::ifstream in(DLPERF_EVIDENCE_CSV);
    if (!in) throw std::runtime_error("cannot open " DLPERF_EVIDENCE_CSV);
    return parse_rows(in);
  }();
  return rows;
}

inline const std::string& field(const row& r, std::string_view column) {
  const auto it = r.find(column);
  if (it == r.end()) throw std::runtime_error("evidence row has no column " + std::string(column));
  return it->second;
}

// A whole decimal number, or nothing when the text is not one (or not finite).
inline std::optional<double> number(const std::string& text) {
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
inline std::optional<long long> count(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::optional<double> v = number(text);
  if (!v || *v < 1 || *v != std::floor(*v) || *v > 1e12)
    throw std::runtime_error("not a positive integer: '" + text + "'");
  return static_cast<long long>(*v);
}

// YYYY, YYYY-MM or YYYY-MM-DD, a year from 2015 (the first tensor-core era benchmarks) on.
inline bool is_date(const std::string& d) {
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
inline gemm_shape parse_shape(const std::string& s) {
  gemm_shape g;
  if (std::sscanf(s.c_str(), "M=%lld N=%lld K=%lld", &g.m, &g.n, &g.k) != 3 || g.m < 1 || g.n < 1 ||
      g.k < 1)
    throw std::runtime_error("not a GEMM shape 'M=.. N=.. K=..': '" + s + "'");
  return g;
}

// The p-quantile of @p v, interpolated between its neighbours (numpy's default).
inline double quantile(std::vector<double> v, double p) {
  if (v.empty()) throw std::runtime_error("quantile of no values");
  std::sort(v.begin(), v.end());
  const double at = p * static_cast<double>(v.size() - 1);
  const auto i = static_cast<std::size_t>(at);
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (at - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

inline double median(std::vector<double> v) {
  if (v.empty()) throw std::runtime_error("median of no values");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// A band's figures (model/error_bands.hpp: error_band, training_scaling_band,
// inference_split_band, serving_band) over @p errors (predicted / measured - 1): the median
// |error|, the median error (> 0: the model optimistic), the 10th and 90th percentiles of
// measured / predicted, and the largest |error|.
struct band_figures {
  int rows = 0;
  double median = 0, bias = 0, low = 0, high = 0, worst = 0;
};
inline band_figures band_figures_of(const std::vector<double>& errors) {
  std::vector<double> magnitude, ratio;
  for (const double x : errors) {
    magnitude.push_back(std::abs(x));
    ratio.push_back(1.0 / (1.0 + x));
  }
  return {static_cast<int>(errors.size()),
          quantile(magnitude, 0.5),
          quantile(errors, 0.5),
          quantile(ratio, 0.1),
          quantile(ratio, 0.9),
          *std::max_element(magnitude.begin(), magnitude.end())};
}

// A stable name as the C++ enumerator it names, for the printers of model/error_bands.hpp's
// tables: "llama.cpp-metal" is llama_cpp_metal.
inline std::string identifier_of(std::string_view stable_name) {
  std::string out(stable_name);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '.' || c == '-'; }, '_');
  return out;
}

// Three cells of an evidence table for @p errors (predicted / measured - 1): "rows | median
// |error| | bias | worst error", or "0 | | |" for none.
inline std::string error_cells(const std::vector<double>& errors) {
  if (errors.empty()) return "0 | | |";
  const auto worst = std::max_element(errors.begin(), errors.end(),
                                      [](double a, double b) { return std::abs(a) < std::abs(b); });
  const band_figures b = band_figures_of(errors);
  std::array<char, 120> line{};
  std::snprintf(line.data(), line.size(), "%d | %.1f %% | %+.1f %% | %+.1f %%", b.rows,
                100 * b.median, 100 * b.bias, 100 * *worst);
  return line.data();
}

// Holds band @p table, as model/error_bands.hpp lists it, to @p b, recomputed from the evidence.
template <class Band>
void check_band(const Band& table, const band_figures& b) {
  CHECK(table.rows == b.rows);
  CHECK(table.median == Approx(b.median).margin(0.0005));
  CHECK(table.bias == Approx(b.bias).margin(0.0005));
  CHECK(table.low == Approx(b.low).margin(0.0005));
  CHECK(table.high == Approx(b.high).margin(0.0005));
  CHECK(table.low <= table.high);
}

// A serving group (model/error_bands.hpp, serving_band): its engine, the vendor of its GPUs and
// their class of board.
using serving_key = std::tuple<stack_id, vendor, board_class>;

// The serving bands of the groups of errors @p errors (predicted / measured - 1), their rows
// run on one GPU or (@p several_gpus) one model copy over several.
inline std::vector<serving_band> serving_bands_of(
    const std::map<serving_key, std::vector<double>>& errors, bool several_gpus) {
  std::vector<serving_band> out;
  for (const auto& [key, e] : errors) {
    const auto [stack, v, boards] = key;
    const band_figures b = band_figures_of(e);
    out.push_back({stack, v, boards, several_gpus, b.rows, b.median, b.bias, b.low, b.high});
  }
  return out;
}

// Holds each of @p groups, recomputed from the evidence, to model/error_bands.hpp's entry in
// @p listed (serving_bands or closed_loop_bands), and the table to list no other group of its
// kind (one GPU or several).
template <std::size_t N>
void check_serving_bands(const std::vector<serving_band>& groups, bool several_gpus,
                         const std::array<serving_band, N>& listed) {
  for (const serving_band& b : groups) {
    INFO(name(b.stack) << " " << name(b.vendor) << " " << name(b.boards) << ": " << b.rows
                       << " rows, median " << b.median << ", bias " << b.bias
                       << ", measured / predicted " << b.low << " to " << b.high);
    const std::optional<serving_band> table =
        dlperf::detail::serving_group(listed, b.stack, b.vendor, b.boards, several_gpus);
    REQUIRE(table.has_value());
    check_band(*table, {b.rows, b.median, b.bias, b.low, b.high});
    CHECK(table->banded() == (b.rows >= error_band::least_rows));
  }
  // Every listed group has rows: none is kept after its rows are gone.
  CHECK(groups.size() == static_cast<std::size_t>(std::count_if(
                             listed.begin(), listed.end(), [&](const serving_band& b) {
                               return b.several_gpus == several_gpus;
                             })));
}

// The same against serving_bands, the saturated runs' table.
inline void check_serving_bands(const std::vector<serving_band>& groups, bool several_gpus) {
  check_serving_bands(groups, several_gpus, serving_bands);
}

// Prints @p groups as model/error_bands.hpp lists them (the `[serve_bands]` printers).
inline void print_serving_bands(const std::vector<serving_band>& groups) {
  for (const serving_band& b : groups)
    std::printf(
        "    serving_band{stack_id::%s, vendor::%s, board_class::%s, %s, %d, %.4f, %.4f, %.4f, "
        "%.4f},\n",
        identifier_of(name(b.stack)).c_str(), std::string(name(b.vendor)).c_str(),
        std::string(name(b.boards)).c_str(), b.several_gpus ? "true" : "false", b.rows, b.median,
        b.bias, b.low, b.high);
}

// The weight storage of a row's inference run: the library's format of that name (GGUF q4_0,
// q4_k_m, int4, int8, nvfp4, ...), the run's own datatype for an empty field, fp16 or bf16.
// Prints a Markdown table of @p groups (name -> errors, predicted / measured - 1): rows, the
// median absolute error, the median error (the bias) and the worst.
inline void print_error_groups(const std::map<std::string, std::vector<double>>& groups) {
  std::printf(
      "| group | rows | median abs error | bias (median) | worst |\n"
      "|---|---:|---:|---:|---:|\n");
  for (const auto& [group, errors] : groups) {
    std::vector<double> magnitude;
    double worst = 0;
    for (double e : errors) {
      magnitude.push_back(std::abs(e));
      if (std::abs(e) > std::abs(worst)) worst = e;
    }
    std::printf("| %s | %zu | %.1f %% | %+.1f %% | %+.1f %% |\n", group.c_str(), errors.size(),
                100 * median(magnitude), 100 * median(errors), 100 * worst);
  }
}

inline weight_format weights_of(const std::string& w) {
  if (w.empty() || w == "fp16" || w == "bf16") return weight_format::native;
  return parse<weight_format>(w);
}

// The inference run of a serving row (the serving files' columns dlperf_dtype, weight_format,
// prompt, generate, gpus and tp).
// The spread of a serving row's request lengths: its prompt_min and generate_min (none: every
// request has the row's prompt and output).
inline request_lengths lengths_of(const row& r) {
  request_lengths out;
  if (const auto least = count(field(r, "prompt_min"))) out.prompt_least = *least;
  if (const auto least = count(field(r, "generate_min"))) out.generate_least = *least;
  return out;
}

inline run_config serving_run_of(const row& r) {
  run_config run;
  run.mode = run_mode::infer;
  run.type = parse<dtype>(field(r, "dlperf_dtype"));
  run.weights = weights_of(field(r, "weight_format"));
  run.prompt = *count(field(r, "prompt"));
  run.generate = *count(field(r, "generate"));
  run.gpus = *count(field(r, "gpus"));
  run.tp = *count(field(r, "tp"));
  return run;
}

// The adapters of a `lora` field, `RANK` or `RANK:TARGETS` (`--lora`, `--lora-targets`; without
// targets, q and v as PEFT's default). Throws naming the field when the rank is missing.
inline lora_config lora_of(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::optional<long long> rank = count(text.substr(0, colon));
  if (!rank)
    throw std::runtime_error("evidence row: lora '" + text + "' has no rank (RANK:TARGETS)");
  lora_config lora;
  lora.rank = *rank;
  if (colon != std::string::npos) lora.targets = parse_lora_targets(text.substr(colon + 1));
  return lora;
}

// What a row asks of the model: a GEMM on a catalog GPU, or a whole-model run, under the row's
// software stack, and the measurement to compare with.
struct row_run {
  const row* source_row = nullptr;
  const gpu_spec* gpu = nullptr;
  stack_id stack = stack_id::ceiling;
  std::string metric;
  double measured = 0;
  bool gemm = false;
  gemm_problem problem{};             // GEMM rows
  const model_spec* model = nullptr;  // whole-model rows
  run_config run{};
  long long seq = 0;
};

// The GPUs of row @p r's run (the `gpus` column; empty: one).
inline long long gpus_of(const row& r) {
  const std::optional<long long> n = count(field(r, "gpus"));
  return n ? *n : 1;
}

// Whether row @p r ran one model over several GPUs (docs/evidence.md, "Several GPUs"): its run
// needs the communication of its split, which the single-GPU tables leave out.
inline bool is_multi_gpu(const row& r) { return gpus_of(r) > 1; }

// The run of row @p r on however many GPUs it ran (see runnable).
inline std::optional<row_run> runnable_on_any_gpus(const row& r) {
  const std::string& gpu = field(r, "gpu");
  if (gpu == not_in_catalog || field(r, "batch").empty()) return std::nullopt;
  row_run x;
  x.source_row = &r;
  x.gpu = &catalog::find(gpu);
  x.stack = parse<stack_id>(field(r, "stack"));
  x.metric = field(r, "metric");
  x.measured = *number(field(r, "value"));
  const dtype type = parse<dtype>(field(r, "dlperf_dtype"));
  if (field(r, "model") == "gemm") {
    const gemm_shape s = parse_shape(field(r, "shape"));
    x.gemm = true;
    x.problem = gemm_problem{s.m, s.n, s.k, 1, type, default_accumulator(type)};
    return x;
  }
  if (field(r, "seq").empty()) return std::nullopt;
  run_config& run = x.run;
  run.mode = parse<run_mode>(field(r, "mode"));
  run.batch = *count(field(r, "batch"));
  run.type = type;
  run.eager = field(r, "eager") == "yes";
  run.flash_attention = field(r, "fused_attention") != "no";
  run.nchw = field(r, "layout") == "nchw";  // CNN rows: the activations' layout (`--nchw`)
  if (run.mode == run_mode::infer) run.weights = weights_of(field(r, "weight_format"));
  if (run.mode == run_mode::train) {
    // Training rows: adapters as `RANK:TARGETS` (`--lora`, `--lora-targets`), NF4 weights as
    // QLoRA's frozen base (`--qlora`), recomputed activations (`--checkpointing`).
    if (!field(r, "lora").empty()) {
      run.lora = lora_of(field(r, "lora"));
      run.lora.qlora = weights_of(field(r, "weight_format")) == weight_format::nf4;
    }
    run.checkpointing = field(r, "checkpointing") == "yes";
    // The optimizer the code ran (`--optimizer`) and its kernels (`--optimizer-kernels`; empty:
    // the stack's default).
    if (!field(r, "optimizer").empty())
      run.optimizer = parse<optimizer_kind>(field(r, "optimizer"));
    if (!field(r, "optimizer_kernels").empty())
      run.optimizer_kernels = parse<optimizer_kernel>(field(r, "optimizer_kernels"));
  }
  x.model = &presets::find(field(r, "model"));
  x.seq = *count(field(r, "seq"));
  const std::optional<long long> generate = count(field(r, "generate"));
  if (x.model->kind == model_kind::cnn) {
    run.image = x.seq;
  } else if (generate) {
    run.prompt = x.seq;
    run.generate = *generate;
  } else {
    run.seq = x.seq;
  }
  // Several GPUs: the split the row's engine ran (`--split`), over all of them.
  run.gpus = gpus_of(r);
  if (run.gpus > 1) {
    const split_mode split = parse<split_mode>(field(r, "split"));
    if (split == split_mode::layer) run.pp = run.gpus;
    if (split == split_mode::tensor) run.tp = run.gpus;
  }
  return x;
}

// The run of row @p r on one GPU; nothing when the row lacks what the model needs (a catalog
// GPU, a batch, a sequence) or ran on several GPUs (is_multi_gpu).
inline std::optional<row_run> runnable(const row& r) {
  if (is_multi_gpu(r)) return std::nullopt;
  return runnable_on_any_gpus(r);
}

// A whole-model estimate in the row's unit.
inline double metric_of(const row_run& x, const model_estimate& e) {
  if (x.metric == "samples_per_s") return e.samples_per_second();
  if (x.metric == "tokens_per_s") return e.tokens_per_second();
  // Generated tokens per second after the prompt, its time left out (mlx_lm's "generation" and
  // llama-bench's tg after a prompt).
  if (x.metric == "decode_tokens_per_s") return e.decode_tokens_per_second();
  if (x.metric == "prefill_tokens_per_s")
    return static_cast<double>(x.run.batch * x.seq) / e.prefill_time.value();
  if (x.metric == "ttft_ms") return 1e3 * e.prefill_time.value();
  throw std::runtime_error("evidence row: no model figure for metric " + x.metric);
}

// The hardware ceiling's figure for @p x in the row's unit (the model without a stack).
inline double ceiling_of(const row_run& x) {
  if (x.gemm) return in_teraflops(best_gemm(*x.gpu, x.problem).throughput);
  return metric_of(x, estimate_model(*x.gpu, *x.model, x.run));
}

// Whether row @p r is an LLM's output tokens/s under maximum load with continuous batching: a
// catalog GPU, prompt and output lengths, and no batch (the engine's; docs/evidence.md).
inline bool is_serving(const row& r) {
  return field(r, "batch").empty() && field(r, "mode") == "infer" &&
         field(r, "metric") == "tokens_per_s" && !field(r, "seq").empty() &&
         !field(r, "generate").empty() && field(r, "gpu") != not_in_catalog;
}

// The run of serving row @p r: its prompt and output lengths, datatype and weight format.
inline row_run serving_run(const row& r) {
  row_run x;
  x.source_row = &r;
  x.gpu = &catalog::find(field(r, "gpu"));
  x.stack = parse<stack_id>(field(r, "stack"));
  x.metric = field(r, "metric");
  x.measured = *number(field(r, "value"));
  x.model = &presets::find(field(r, "model"));
  x.seq = *count(field(r, "seq"));
  x.run.mode = run_mode::infer;
  x.run.type = parse<dtype>(field(r, "dlperf_dtype"));
  x.run.weights = weights_of(field(r, "weight_format"));
  x.run.prompt = x.seq;
  x.run.generate = *count(field(r, "generate"));
  return x;
}

// The serving model's output tokens/s for serving row @p x under stack @p s (its engine's
// scheduler).
inline double serving_prediction(const row_run& x, const software_stack& s) {
  // The row's engine schedules it, whichever stack's kernels run the steps (the ceiling's too).
  const serve_config k = serve_config{}.under(stacks::of(x.stack), *x.gpu);
  return estimate_serving(*x.gpu, *x.model, x.run, s, k).job_output_tokens_per_second();
}

// Predicted over measured rate, minus one (+: the model is faster); for TTFT, a time, the other
// way round.
inline double error_of(const row_run& x, double predicted) {
  return x.metric == "ttft_ms" ? x.measured / predicted - 1.0 : predicted / x.measured - 1.0;
}

}  // namespace dlperf::evidence
