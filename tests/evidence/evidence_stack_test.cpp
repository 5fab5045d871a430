// The evidence set (tests/data/evidence/rows.csv) under the software stacks that produced it, and
// the leave-one-source-out cross-validation of every stack figure "fitted on the evidence"
// (docs/evidence.md, "Under the stacks" and "Cross-validation").
//
// A fitted figure is one number of a stack record (stack/stacks.hpp) set from published rows
// because no measurement of it is published. Cross-validation asks how well it would have been
// set without each source: for every source of the rows the figure moves, the figure is fitted
// again on the other sources' rows (the value in its range with the least median |log error|)
// and the held-out source's rows are predicted with it. A figure whose rows all come from one
// source cannot be cross-validated; the report says so instead of hiding it.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;
using namespace dlperf::evidence;

namespace {

// A row ready to run under any figures of its stack: the ceiling of the kernel sequence its stack
// runs is estimated once, and a stack's figures then only rescale its operators.
struct prepared_row {
  row_run x;
  std::string source;
  bool calibration = false;
  run_config run;           // the row's run with the kernel choices of its stack
  model_estimate ceiling;   // whole-model rows: that run at the hardware model's speed
  double gemm_ceiling = 0;  // GEMM rows: TFLOP/s at the ceiling
  bool gemm_dram_bound = false;
};

std::vector<prepared_row> prepare_rows() {
  std::vector<prepared_row> out;
  for (const row& r : rows()) {
    const std::optional<row_run> x = runnable(r);
    if (!x) continue;
    prepared_row p{*x, field(r, "source"), field(r, "calibration") == "yes", {}, {}, 0, false};
    if (x->gemm) {
      const gemm_estimate e = best_gemm(*x->gpu, x->problem);
      p.gemm_ceiling = in_teraflops(e.throughput);
      p.gemm_dram_bound = e.bound == bound::global;
    } else {
      p.run = run_under(stacks::of(x->stack), x->run);
      p.ceiling = estimate_model(*x->gpu, *x->model, p.run);
    }
    out.push_back(std::move(p));
  }
  return out;
}

const std::vector<prepared_row>& prepared() {
  static const std::vector<prepared_row> rows = prepare_rows();
  return rows;
}

// What apply_stack needs of row @p p's GPU (its DRAM bandwidth, warp-level MMA share and SM
// cycles a second), as estimate_model gives it.
stack_op_context device_of(const prepared_row& p) { return device_context(*p.x.gpu); }

// Row @p p's figure under stack record @p s (the row's stack, or a variant of it).
double stacked_of(const prepared_row& p, const software_stack& s) {
  if (p.x.gemm)  // one library GEMM: the stack's GEMM efficiency (GEMV share if DRAM-bound)
    return p.gemm_ceiling * (p.gemm_dram_bound ? s.gemv_dram_share.value : s.gemm_efficiency.value);
  return metric_of(p.x, apply_stack(s, p.ceiling, *p.x.model, p.run, device_of(p)));
}

// |log(predicted / measured)|: the fit's loss, the same for a rate and for a time.
double log_error(const prepared_row& p, const software_stack& s) {
  return std::abs(std::log1p(error_of(p.x, stacked_of(p, s))));
}

// A figure of a stack record, the range it may take and the step the fit searches it with.
struct figure_field {
  stack_figure_id id;  // its name is the id's
  double lo, hi, step;
  double neutral;  // the ceiling stack's value: what a figure is with no rows to set it from
};

constexpr double share_step = 0.01;
constexpr auto figure_fields = std::to_array<figure_field>({
    {stack_figure_id::gemm_efficiency, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::conv_efficiency, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::tf32_conv_efficiency, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::gemv_dram_share, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::quantized_gemv_dram_share, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::attention_efficiency, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::streaming_dram_share, 0.2, 1.0, share_step, 1.0},
    {stack_figure_id::host_overhead, 0.0, 20e-6, 0.25e-6, 0.0},
    // The most a GEMV kernel moves per SM per clock; 0 (not measured) leaves the cap out.
    {stack_figure_id::gemv_bytes_per_sm_cycle, 1.0, 16.0, 0.25, 0.0},
    {stack_figure_id::quantized_gemv_bytes_per_sm_cycle, 1.0, 16.0, 0.25, 0.0},
});

bool is_fitted(const software_stack& s, const figure_field& f) {
  return read_figure(s, f.id).source.rfind("fitted on the evidence", 0) == 0;
}

// One fitted figure: stack, field, and the rows (not calibration rows) whose figure it moves.
struct fitted_figure {
  const software_stack* stack = nullptr;
  const figure_field* field = nullptr;
  std::vector<const prepared_row*> rows;
  std::set<std::string> sources;
};

software_stack with_value(software_stack s, const figure_field& f, double v) {
  write_figure(s, f.id, v, read_figure(s, f.id).source);
  return s;
}

std::vector<fitted_figure> fitted_figures() {
  std::vector<fitted_figure> out;
  for (const software_stack* s : stacks::all)
    for (const figure_field& f : figure_fields) {
      if (!is_fitted(*s, f)) continue;
      fitted_figure fig{s, &f, {}, {}};
      const software_stack at_lo = with_value(*s, f, f.lo + f.step);
      const software_stack at_hi = with_value(*s, f, f.hi);
      for (const prepared_row& p : prepared()) {
        if (p.calibration || p.x.stack != s->id) continue;
        const double a = stacked_of(p, at_lo), b = stacked_of(p, at_hi);
        if (std::abs(a - b) <= 1e-9 * std::abs(b)) continue;  // the figure does not move it
        fig.rows.push_back(&p);
        fig.sources.insert(p.source);
      }
      out.push_back(std::move(fig));
    }
  return out;
}

double median_log_error(const std::vector<const prepared_row*>& rows, const software_stack& s) {
  std::vector<double> e;
  e.reserve(rows.size());
  for (const prepared_row* p : rows) e.push_back(log_error(*p, s));
  return median(e);
}

// The value of figure @p f of @p s with the least median |log error| over @p rows: a coarse grid
// of 5 steps, then every step around the best coarse value. The neutral value when @p rows is
// empty (nothing to set it from).
double fit(const software_stack& s, const figure_field& f,
           const std::vector<const prepared_row*>& rows) {
  if (rows.empty()) return f.neutral;
  auto loss = [&](double v) { return median_log_error(rows, with_value(s, f, v)); };
  const auto steps = static_cast<long long>(std::llround((f.hi - f.lo) / f.step));
  auto value = [&](long long i) { return f.lo + static_cast<double>(i) * f.step; };
  long long best = steps;
  double best_loss = loss(value(best));
  for (long long i = 0; i <= steps; i += 5)
    if (const double l = loss(value(i)); l < best_loss) best_loss = l, best = i;
  const long long from = std::max(best - 4, 0LL);
  const long long to = std::min(best + 4, steps);
  for (long long i = from; i <= to; ++i)
    if (const double l = loss(value(i)); l < best_loss) best_loss = l, best = i;
  return value(best);
}

std::vector<const prepared_row*> without_source(const std::vector<const prepared_row*>& rows,
                                                const std::string& source) {
  std::vector<const prepared_row*> out;
  for (const prepared_row* p : rows)
    if (p->source != source) out.push_back(p);
  return out;
}

std::vector<const prepared_row*> of_source(const std::vector<const prepared_row*>& rows,
                                           const std::string& source) {
  std::vector<const prepared_row*> out;
  for (const prepared_row* p : rows)
    if (p->source == source) out.push_back(p);
  return out;
}

double median_abs_error(const std::vector<const prepared_row*>& rows, const software_stack& s) {
  std::vector<double> e;
  for (const prepared_row* p : rows) e.push_back(std::abs(error_of(p->x, stacked_of(*p, s))));
  return median(e);
}

// Stack @p s with every figure fitted on the evidence fitted again without the rows @p held_out
// picks: two sweeps, one figure at a time, the others held at their current values.
template <class HeldOut>
software_stack refit_without(const software_stack& s, const std::vector<fitted_figure>& figures,
                             HeldOut held_out) {
  software_stack out = s;
  for (int sweep = 0; sweep < 2; ++sweep)
    for (const fitted_figure& fig : figures) {
      if (fig.stack->id != s.id) continue;
      std::vector<const prepared_row*> kept;
      for (const prepared_row* p : fig.rows)
        if (!held_out(*p)) kept.push_back(p);
      write_figure(out, fig.field->id, fit(out, *fig.field, kept),
                   read_figure(out, fig.field->id).source);
    }
  return out;
}

// The folds of the cross-validations the standards ask for besides leave-one-source-out: the
// row's GPU generation (architecture family), its board class (consumer or professional), and
// its scale (a model of 20 B parameters or more is a large job; the fold fits on the small ones
// and tests on the large, never the other way).
std::string generation_of(const prepared_row& p) {
  return std::string(name(p.x.gpu->arch().family));
}
std::string board_class_name(const prepared_row& p) {
  return std::string(name(board_class_of(*p.x.gpu)));
}
bool large_job(const prepared_row& p) { return !p.x.gemm && p.x.model->parameters() >= 20e9; }

// A row's stack with its fitted figures refitted for each fold of the cross-validations, each
// fold fitted once and kept.
class fold_refits {
 public:
  explicit fold_refits(const std::vector<fitted_figure>& figures) : figures_(figures) {}
  // Without the row's source.
  const software_stack& without_source(const software_stack& s, const prepared_row& p) {
    return fold(by_source_, s, p.source,
                [&](const prepared_row& r) { return r.source == p.source; });
  }
  // Without the row's GPU generation.
  const software_stack& without_generation(const software_stack& s, const prepared_row& p) {
    const std::string g = generation_of(p);
    return fold(by_generation_, s, g, [&](const prepared_row& r) { return generation_of(r) == g; });
  }
  // Without the row's board class.
  const software_stack& without_class(const software_stack& s, const prepared_row& p) {
    const std::string c = board_class_name(p);
    return fold(by_class_, s, c, [&](const prepared_row& r) { return board_class_name(r) == c; });
  }
  // On the small jobs alone.
  const software_stack& small_only(const software_stack& s) {
    return fold(on_small_, s, "small", large_job);
  }

 private:
  using cache = std::map<std::pair<stack_id, std::string>, software_stack>;
  template <class Leave>
  const software_stack& fold(cache& c, const software_stack& s, const std::string& key,
                             Leave leave) {
    const auto k = std::make_pair(s.id, key);
    if (c.count(k) == 0) c.emplace(k, refit_without(s, figures_, leave));
    return c.at(k);
  }
  const std::vector<fitted_figure>& figures_;
  cache by_source_, by_generation_, by_class_, on_small_;
};

}  // namespace

TEST_CASE("evidence rows under their stacks: finite, positive, never faster than the ceiling",
          "[evidence_rows]") {
  REQUIRE(prepared().size() >= 100);
  for (const prepared_row& p : prepared()) {
    INFO("row " << field(*p.x.source_row, "id") << " under " << name(p.x.stack));
    const double stacked = stacked_of(p, stacks::of(p.x.stack));
    const double ceiling = p.x.gemm ? p.gemm_ceiling : metric_of(p.x, p.ceiling);
    CHECK(std::isfinite(stacked));
    CHECK(stacked > 0);
    // A rate never above the ceiling's, a time (TTFT) never below it.
    if (p.x.metric == "ttft_ms")
      CHECK(stacked >= ceiling * (1 - 1e-12));
    else
      CHECK(stacked <= ceiling * (1 + 1e-12));
  }
}

TEST_CASE("every stack figure fitted on the evidence moves rows of its own stack",
          "[evidence_rows]") {
  // A figure that says "fitted on the evidence" must be checkable against the evidence: some
  // non-calibration row of its stack must change with it. (A figure copied from another stack
  // says "as <stack>" instead.)
  const std::vector<fitted_figure> figures = fitted_figures();
  REQUIRE(figures.size() >= 5);
  for (const fitted_figure& fig : figures) {
    INFO(fig.stack->name() << "." << dlperf::name(fig.field->id) << ": "
                           << read_figure(*fig.stack, fig.field->id).source);
    CHECK(!fig.rows.empty());
  }
}

// Prints the tables of docs/evidence.md, "Under the stacks" and "Cross-validation". Hidden: run
// with `dlperf_tests "[evidence_cv]"`.
TEST_CASE("evidence under the stacks, and its cross-validations", "[.][evidence_cv]") {
  const std::vector<fitted_figure> figures = fitted_figures();

  // Every runnable row, outside calibration: the ceiling against the row's stack, and the row
  // predicted with the stack's fitted figures refitted without its source, its GPU generation,
  // its board class, and (a large job) without every large job.
  std::map<std::string, std::vector<double>> ceiling_by_stack, stacked_by_stack, loso_by_stack,
      logo_by_stack, loco_by_stack, scale_by_stack, large_by_stack;
  std::vector<double> ceiling_all, stacked_all, loso_all, logo_all, loco_all, scale_all, large_all;
  fold_refits folds(figures);
  for (const prepared_row& p : prepared()) {
    if (p.calibration) continue;
    const software_stack& s = stacks::of(p.x.stack);
    const double ceiling = p.x.gemm ? p.gemm_ceiling : ceiling_of(p.x);
    const double e_ceiling = std::abs(error_of(p.x, ceiling));
    const double e_stacked = std::abs(error_of(p.x, stacked_of(p, s)));
    const double e_loso = std::abs(error_of(p.x, stacked_of(p, folds.without_source(s, p))));
    const double e_logo = std::abs(error_of(p.x, stacked_of(p, folds.without_generation(s, p))));
    const double e_loco = std::abs(error_of(p.x, stacked_of(p, folds.without_class(s, p))));
    const std::string group = std::string(s.name()) + " " + field(*p.x.source_row, "mode");
    if (large_job(p)) {
      const double e_scale = std::abs(error_of(p.x, stacked_of(p, folds.small_only(s))));
      scale_by_stack[group].push_back(e_scale);
      scale_all.push_back(e_scale);
      large_by_stack[group].push_back(e_stacked);
      large_all.push_back(e_stacked);
    }
    ceiling_by_stack[group].push_back(e_ceiling);
    stacked_by_stack[group].push_back(e_stacked);
    loso_by_stack[group].push_back(e_loso);
    logo_by_stack[group].push_back(e_logo);
    loco_by_stack[group].push_back(e_loco);
    ceiling_all.push_back(e_ceiling);
    stacked_all.push_back(e_stacked);
    loso_all.push_back(e_loso);
    logo_all.push_back(e_logo);
    loco_all.push_back(e_loco);
  }
  // The held-out large jobs' median in per cent, their count and their median under the shipped
  // figures, or "-" where the group has no large job.
  const auto cell = [](const std::vector<double>& held, const std::vector<double>& shipped) {
    if (held.empty()) return std::string("-");
    char text[64];
    std::snprintf(text, sizeof text, "%.1f %% (%zu; shipped %.1f %%)", 100 * median(held),
                  held.size(), 100 * median(shipped));
    return std::string(text);
  };
  std::printf(
      "\n| stack mode | rows | ceiling: median abs error | stack: median abs error | stack, worst "
      "| leave-one-source-out: median abs error | leave one generation out | leave one board "
      "class out | fit on small models, large held out (rows; shipped) |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [group, errors] : stacked_by_stack)
    std::printf("| %s | %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %s |\n",
                group.c_str(), errors.size(), 100 * median(ceiling_by_stack[group]),
                100 * median(errors), 100 * *std::max_element(errors.begin(), errors.end()),
                100 * median(loso_by_stack[group]), 100 * median(logo_by_stack[group]),
                100 * median(loco_by_stack[group]),
                cell(scale_by_stack[group], large_by_stack[group]).c_str());
  std::printf("| all | %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %s |\n",
              stacked_all.size(), 100 * median(ceiling_all), 100 * median(stacked_all),
              100 * *std::max_element(stacked_all.begin(), stacked_all.end()),
              100 * median(loso_all), 100 * median(logo_all), 100 * median(loco_all),
              cell(scale_all, large_all).c_str());

  // Every stack's fitted figures fitted jointly on all its rows (the sweeps refit_without runs,
  // nothing held out): what the shipped figures are set from.
  std::printf("\n| stack | figure | shipped | joint fit on all rows |\n|---|---|---:|---:|\n");
  for (const software_stack* s : stacks::all) {
    const software_stack joint =
        refit_without(*s, figures, [](const prepared_row&) { return false; });
    for (const fitted_figure& fig : figures)
      if (fig.stack->id == s->id)
        std::printf("| %s | %s | %.3g | %.3g |\n", std::string(s->name()).c_str(),
                    std::string(dlperf::name(fig.field->id)).c_str(),
                    read_figure(*s, fig.field->id).number,
                    read_figure(joint, fig.field->id).number);
  }

  // Every fitted figure: its value, the value the whole evidence set gives, and each fold.
  std::printf(
      "\n| figure | shipped | rows | sources | fit on all rows | held-out source | rows | fit "
      "without it | held out: shipped | held out: refit |\n|---|---:|---:|---:|---:|---|---:|---:|"
      "---:|---:|\n");
  for (const fitted_figure& fig : figures) {
    const software_stack& s = *fig.stack;
    const figure_field& f = *fig.field;
    const double shipped = read_figure(s, f.id).number;
    const std::string label = std::string(s.name()) + "." + std::string(dlperf::name(f.id));
    if (fig.rows.empty()) {
      std::printf("| %s | %.3g | 0 | 0 | no rows of its stack | | | | | |\n", label.c_str(),
                  shipped);
      continue;
    }
    const double all_fit = fit(s, f, fig.rows);
    if (fig.sources.size() < 2) {
      std::printf(
          "| %s | %.3g | %zu | 1 | %.3g | %s: one source, cannot be cross-validated | | | %.1f %% "
          "| |\n",
          label.c_str(), shipped, fig.rows.size(), all_fit, fig.sources.begin()->c_str(),
          100 * median_abs_error(fig.rows, s));
      continue;
    }
    for (const std::string& source : fig.sources) {
      const std::vector<const prepared_row*> held = of_source(fig.rows, source);
      const double v = fit(s, f, without_source(fig.rows, source));
      std::printf("| %s | %.3g | %zu | %zu | %.3g | %s | %zu | %.3g | %.1f %% | %.1f %% |\n",
                  label.c_str(), shipped, fig.rows.size(), fig.sources.size(), all_fit,
                  source.c_str(), held.size(), v, 100 * median_abs_error(held, s),
                  100 * median_abs_error(held, with_value(s, f, v)));
    }
  }
  std::fflush(stdout);
  CHECK(!stacked_all.empty());
}

// Prints the llama.cpp table of docs/evidence.md: the rows of the llama.cpp stacks by phase
// (decode tg, prefill pp), weight format and architecture, at the ceiling, under the stack, with
// the stack's fitted figures refitted without the row's source, and under the stack as it was
// before issue 18 (GEMV shares 0.78 / 0.60 and quantised 0.65 / 0.55, no dequantisation pass,
// the engine's own fused attention): what the mechanisms of docs/stacks.md ("llama.cpp") change.
// Hidden: `"[evidence_llama_cpp]"`.
TEST_CASE("llama.cpp rows by phase, format and architecture", "[.][evidence_llama_cpp]") {
  const std::vector<fitted_figure> figures = fitted_figures();
  struct errors {
    std::vector<double> ceiling, stack, loso, before, logo, loco, scale;
  };
  std::map<std::string, errors> groups;
  fold_refits folds(figures);
  std::vector<std::string> rows_out;
  // One row: its settings, the measurement, and the signed errors.
  auto fmt_row = [](const prepared_row& p, const software_stack& s, double before) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "| %s | %s | %s | %s | %lld | %.4g | %+.1f %% | %+.1f %% | %+.1f %% |\n",
                  field(*p.x.source_row, "id").c_str(), std::string(p.x.gpu->id()).c_str(),
                  field(*p.x.source_row, "weight_format").c_str(), p.x.metric.c_str(), p.x.seq,
                  p.x.measured, 100 * error_of(p.x, ceiling_of(p.x)), 100 * error_of(p.x, before),
                  100 * error_of(p.x, stacked_of(p, s)));
    return std::string(line);
  };
  for (const prepared_row& p : prepared()) {
    if (p.calibration || p.x.gemm) continue;
    if (p.x.stack != stack_id::llama_cpp && p.x.stack != stack_id::llama_cpp_rocm) continue;
    const software_stack& s = stacks::of(p.x.stack);
    // The stack before: no pass, the assumed shares (CUDA 0.65, ROCm 0.55), no GEMV rates.
    software_stack old = s;
    old.prompt_dequantize = {};
    old.attention = attention_kernel::vendor;
    old.gemv_dram_share.value = s.id == stack_id::llama_cpp ? 0.78 : 0.60;
    old.quantized_gemv_dram_share.value = s.id == stack_id::llama_cpp ? 0.65 : 0.55;
    old.gemv_bytes_per_sm_cycle.value = 0;  // no kernel rates per SM clock
    old.quantized_gemv_bytes_per_sm_cycle.value = 0;
    old.decode_kernels = {};  // the fused layer in decode, no GEMV occupancy
    old.gemv_kernel = {};
    run_config old_run = p.run;
    old_run.prompt_dequantize = {};
    old_run.decode_kernels = {};
    old_run.flash_attention = true;
    const model_estimate old_ceiling = estimate_model(*p.x.gpu, *p.x.model, old_run);
    const double before =
        metric_of(p.x, apply_stack(old, old_ceiling, *p.x.model, old_run, device_of(p)));
    rows_out.push_back(fmt_row(p, s, before));
    // Every cross-validation of "[evidence_cv]", by group: the stack's fitted figures refitted
    // without the row's source, its GPU generation, its board class, and, for a large job, on
    // the small jobs alone.
    const std::string phase = p.x.metric == "tokens_per_s" ? "decode" : "prefill";
    const std::string format = field(*p.x.source_row, "weight_format");
    const std::string arch(p.x.gpu->arch().name);
    for (const std::string& g : {phase + " all", phase + " " + format, phase + " " + arch,
                                 phase + " " + board_class_name(p), std::string("all")}) {
      errors& e = groups[g];
      e.ceiling.push_back(std::abs(error_of(p.x, ceiling_of(p.x))));
      e.stack.push_back(std::abs(error_of(p.x, stacked_of(p, s))));
      e.loso.push_back(std::abs(error_of(p.x, stacked_of(p, folds.without_source(s, p)))));
      e.before.push_back(std::abs(error_of(p.x, before)));
      e.logo.push_back(std::abs(error_of(p.x, stacked_of(p, folds.without_generation(s, p)))));
      e.loco.push_back(std::abs(error_of(p.x, stacked_of(p, folds.without_class(s, p)))));
      if (large_job(p))
        e.scale.push_back(std::abs(error_of(p.x, stacked_of(p, folds.small_only(s)))));
    }
  }
  std::printf(
      "\n| rows | n | ceiling: median abs error | before: median | stack: median abs error | "
      "stack, worst | leave-one-source-out: median | leave one generation out | leave one board "
      "class out | large jobs fitted on small (rows) |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [g, e] : groups) {
    char scale[48] = "-";
    if (!e.scale.empty())
      std::snprintf(scale, sizeof scale, "%.1f %% (%zu)", 100 * median(e.scale), e.scale.size());
    std::printf(
        "| %s | %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %s |\n",
        g.c_str(), e.stack.size(), 100 * median(e.ceiling), 100 * median(e.before),
        100 * median(e.stack), 100 * *std::max_element(e.stack.begin(), e.stack.end()),
        100 * median(e.loso), 100 * median(e.logo), 100 * median(e.loco), scale);
  }
  std::printf(
      "\n| row | gpu | weights | metric | tokens | measured | ceiling | before | stack |\n"
      "|---|---|---|---|---:|---:|---:|---:|---:|\n");
  for (const std::string& line : rows_out) std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
  CHECK(groups.count("all") == 1);
}

// The stacks of Apple silicon, llama.cpp's Metal build and MLX (docs/evidence.md, "Apple
// silicon" and "MLX"): each stack's rows by phase, weight format, GPU generation and source, each
// with its cross-validations, then every row.
TEST_CASE("Apple silicon rows by stack, phase, format and generation", "[.][evidence_apple]") {
  const std::vector<fitted_figure> figures = fitted_figures();
  struct errors {
    std::vector<double> ceiling, stack, loso, logo, scale;
  };
  std::map<std::string, errors> groups;
  fold_refits folds(figures);
  std::vector<std::string> rows_out;
  for (const prepared_row& p : prepared()) {
    const software_stack& s = stacks::of(p.x.stack);
    if (p.calibration || p.x.gemm || s.vendors.bits != vendor_set::only(vendor::apple).bits)
      continue;
    const bool decode = p.x.metric != "prefill_tokens_per_s";
    const std::string phase = std::string(s.name()) + (decode ? " decode" : " prefill");
    const std::string format = field(*p.x.source_row, "weight_format");
    const std::string arch(p.x.gpu->arch().name);
    const double stack_error = error_of(p.x, stacked_of(p, s));
    for (const std::string& g :
         {phase + " all", phase + " " + format, phase + " " + arch,
          phase + " " + field(*p.x.source_row, "source"), std::string(s.name()) + " all"}) {
      errors& e = groups[g];
      e.ceiling.push_back(std::abs(error_of(p.x, ceiling_of(p.x))));
      e.stack.push_back(std::abs(stack_error));
      e.loso.push_back(std::abs(error_of(p.x, stacked_of(p, folds.without_source(s, p)))));
      e.logo.push_back(std::abs(error_of(p.x, stacked_of(p, folds.without_generation(s, p)))));
      if (large_job(p))
        e.scale.push_back(std::abs(error_of(p.x, stacked_of(p, folds.small_only(s)))));
    }
    char line[256];
    // The tokens: a decode row's prompt and generated tokens, a prefill row's prompt.
    const std::string tokens =
        decode ? std::to_string(p.x.seq) + "+" + std::to_string(p.x.run.generate)
               : std::to_string(p.x.seq);
    std::snprintf(line, sizeof line, "| %s | %s | %s | %s | %.4g | %+.1f %% | %+.1f %% |\n",
                  field(*p.x.source_row, "id").c_str(), std::string(p.x.gpu->id()).c_str(),
                  format.c_str(), tokens.c_str(), p.x.measured,
                  100 * error_of(p.x, ceiling_of(p.x)), 100 * stack_error);
    rows_out.emplace_back(line);
  }
  std::printf(
      "\n| rows | n | ceiling: median abs error | stack: median abs error | stack, worst | "
      "leave-one-source-out: median | leave one generation out | large jobs fitted on small "
      "(rows) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [g, e] : groups) {
    char scale[48] = "-";
    if (!e.scale.empty())
      std::snprintf(scale, sizeof scale, "%.1f %% (%zu)", 100 * median(e.scale), e.scale.size());
    std::printf("| %s | %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %s |\n", g.c_str(),
                e.stack.size(), 100 * median(e.ceiling), 100 * median(e.stack),
                100 * *std::max_element(e.stack.begin(), e.stack.end()), 100 * median(e.loso),
                100 * median(e.logo), scale);
  }
  std::printf(
      "\n| row | gpu | weights | tokens | measured | ceiling | stack |\n"
      "|---|---|---|---:|---:|---:|---:|\n");
  for (const std::string& line : rows_out) std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
  CHECK(groups.count("llama.cpp-metal all") == 1);
  CHECK(groups.count("mlx all") == 1);
}

namespace held_out_bands {

// Every stack, mode, figure and class of board's held-out errors (predicted / measured - 1, leave
// one source out) over the evidence rows outside calibration.
using band_key = std::tuple<stack_id, run_mode, estimate_figure, board_class>;
std::map<band_key, std::vector<double>> held_out_errors() {
  const std::vector<fitted_figure> figures = fitted_figures();
  std::map<band_key, std::vector<double>> held_out;
  fold_refits folds(figures);
  for (const prepared_row& p : prepared()) {
    if (p.calibration) continue;
    const software_stack& s = stacks::of(p.x.stack);
    // What the row measured: a decode rate (tokens/s of a run that generates more than its first
    // token), a prompt rate, or a whole step or batch.
    const estimate_figure figure =
        p.x.metric == "prefill_tokens_per_s" ? estimate_figure::prompt
        : p.x.metric == "decode_tokens_per_s" ||
                (p.x.metric == "tokens_per_s" && p.run.mode == run_mode::infer)
            ? estimate_figure::decode
            : estimate_figure::step;
    held_out[{s.id, p.run.mode, figure, board_class_of(*p.x.gpu)}].push_back(
        error_of(p.x, stacked_of(p, folds.without_source(s, p))));
  }
  return held_out;
}

}  // namespace held_out_bands

// The error bands the tool prints beside an estimate (stack/error_bands.hpp) are this test's
// figures: each stack and mode's held-out errors (leave one source out) over the evidence rows,
// outside calibration, and the interval of measured / predicted they give. The table is data;
// this test recomputes it and holds it to the evidence ("error bands as listed" prints it).
TEST_CASE("every stack's error band is its held-out error on the evidence", "[evidence_rows]") {
  const auto held_out = held_out_bands::held_out_errors();
  for (const auto& [group, errors] : held_out) {
    const auto [stack, mode, figure, boards] = group;
    const band_figures b = band_figures_of(errors);
    INFO(name(stack) << " " << name(mode) << " " << name(figure) << " " << name(boards) << ": "
                     << errors.size() << " rows, median " << b.median << ", worst " << b.worst
                     << ", bias " << b.bias << ", measured / predicted " << b.low << " to "
                     << b.high);
    const std::optional<error_band> band = error_band_of(stack, mode, figure, boards);
    if (errors.size() < error_band::least_rows) {
      CHECK(!band.has_value());
      continue;
    }
    if (!band) {
      FAIL_CHECK("no band for a group of " << errors.size() << " rows");
      continue;
    }
    check_band(*band, b);
    CHECK(band->worst == Approx(b.worst).margin(5e-4));
  }
  // Every band in the table is a group of the evidence.
  for (const error_band& b : error_bands)
    CHECK(held_out.count({b.stack, b.mode, b.figure, b.boards}) == 1);
}

// Prints the bands as model/error_bands.hpp lists them and docs/evidence.md's table of them.
// Hidden: `dlperf_tests "[error_bands]"`.
TEST_CASE("error bands as listed", "[.][error_bands]") {
  const auto held_out = held_out_bands::held_out_errors();
  std::vector<std::string> table;
  for (const auto& [group, errors] : held_out) {
    const auto [stack, mode, figure, boards] = group;
    const band_figures b = band_figures_of(errors);
    const bool listed = b.rows >= error_band::least_rows;
    if (listed)
      std::printf(
          "    error_band{stack_id::%s, run_mode::%s, estimate_figure::%s, board_class::%s,\n"
          "               %d, %.4f, %.4f, %.4f, %.4f, %.4f},\n",
          identifier_of(name(stack)).c_str(), std::string(name(mode)).c_str(),
          std::string(name(figure)).c_str(), std::string(name(boards)).c_str(), b.rows, b.median,
          b.worst, b.bias, b.low, b.high);
    std::array<char, 240> line{};
    std::snprintf(line.data(), line.size(),
                  "| %s | %s | %s | %s | %d | %.1f %% | %+.1f %% | %.1f %% | %.2f-%.2f%s |\n",
                  std::string(name(stack)).c_str(), std::string(name(mode)).c_str(),
                  std::string(name(figure)).c_str(), std::string(name(boards)).c_str(), b.rows,
                  100 * b.median, 100 * b.bias, 100 * b.worst, b.low, b.high,
                  listed ? "" : " (too few rows: no band)");
    table.emplace_back(line.data());
  }
  std::printf(
      "\n| stack | mode | figure | boards | rows | median | bias | worst | measured / predicted, "
      "10th-90th percentile |\n|---|---|---|---|---:|---:|---:|---:|---|\n");
  for (const std::string& l : table) std::fputs(l.c_str(), stdout);
  CHECK(!held_out.empty());
}

TEST_CASE("board classes: HBM boards, then GeForce and Radeon boards, then every other segment's",
          "[evidence_rows]") {
  static_assert(board_class_of(segment::geforce, memory_kind::gddr6x) == board_class::consumer);
  CHECK(board_class_of(segment::radeon, memory_kind::gddr6) == board_class::consumer);
  CHECK(board_class_of(segment::geforce, memory_kind::lpddr5) == board_class::consumer);
  for (const segment s : {segment::titan, segment::workstation, segment::datacenter})
    CHECK(board_class_of(s, memory_kind::gddr6) == board_class::professional);
  // HBM whatever the market: a Radeon VII or a TITAN V is classed with the data-centre parts.
  for (const segment s : {segment::radeon, segment::titan, segment::datacenter})
    for (const memory_kind m :
         {memory_kind::hbm2, memory_kind::hbm2e, memory_kind::hbm3, memory_kind::hbm3e})
      CHECK(board_class_of(s, m) == board_class::hbm);
  // Every catalog GPU has a class, each class holds GPUs of the catalog, and a board's class is
  // its facts'.
  std::map<board_class, int> boards;
  for (const auto* g : catalog::all) {
    const board_class c = board_class_of(*g);
    CHECK(c == board_class_of(g->facts().segment, g->facts().memory_type));
    ++boards[c];
  }
  CHECK(boards[board_class::consumer] > 10);
  CHECK(boards[board_class::professional] > 5);
  CHECK(boards[board_class::hbm] > 10);
  CHECK(board_class_of(catalog::find("h100_sxm")) == board_class::hbm);
  CHECK(board_class_of(catalog::find("l40s")) == board_class::professional);
  CHECK(board_class_of(catalog::find("rtx_4090")) == board_class::consumer);
  CHECK(parse<board_class>("professional") == board_class::professional);
  CHECK(parse<board_class>("hbm") == board_class::hbm);
}
