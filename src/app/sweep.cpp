// A grid of `model` requests on every core (dlperf/app/sweep.hpp).
#include <dlperf/app/sweep.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <dlperf/app/device.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/model_report.hpp>
#include <dlperf/app/model_shape.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/estimate/gemm_memo.hpp>
#include <dlperf/io/model_json.hpp>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <thread>
#include <variant>

namespace dlperf::app {
namespace {

// A value resolved once for every point that takes it: the thing, or why it cannot be had.
template <class T>
using resolved = std::variant<T, std::string>;

// A run as a point's run axes give it, parsed and checked.
struct run_choice {
  run_config run;
  run_extras extras;
};

// The axes, checked, with their models and devices resolved once. A grid's model is an axis of
// presets or model files, or the shape its shape axes give at each point (no model axis).
struct grid {
  std::vector<sweep_axis> axes;
  std::optional<std::size_t> model_axis;
  std::size_t device_axis = 0;
  std::vector<resolved<model_spec>> models;
  std::optional<std::size_t> context_axis;  // max_seq beside the model axis
  std::vector<resolved<device_choice>> devices;
  // The axes that set the run (neither model, device nor shape), and the run each combination
  // of their values gives, resolved once where there are not too many of them.
  std::vector<std::size_t> run_axes;
  std::vector<resolved<run_choice>> runs;
  std::vector<std::size_t> sizes;
  std::size_t points = 1;
  io::string_store strings;  // the names of models read from files
};

std::size_t find_axis(const std::vector<sweep_axis>& axes,
                      std::span<const std::string_view> keywords, std::string_view what) {
  std::size_t found = axes.size();
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (is_one_of(axes[i].keyword, keywords)) {
      if (found != axes.size())
        throw request_error(
            fmt::format("sweep: give one of {} and {}, not both", keywords[0], keywords[1]));
      found = i;
    }
  if (found == axes.size())
    throw request_error(fmt::format("sweep: give {} ({} or {})", what, keywords[0], keywords[1]));
  return found;
}

void check_axes(const std::vector<sweep_axis>& axes, std::size_t& points) {
  points = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string& k = axes[i].keyword;
    if (!is_request_keyword(k) && !is_one_of(k, shape_keywords()))
      (void)run_field_of(k);  // throws, listing the run fields
    for (std::size_t j = 0; j < i; ++j)
      if (axes[j].keyword == k) throw request_error("sweep: keyword '" + k + "' given twice");
    if (axes[i].values.empty()) throw request_error("sweep: '" + k + "' has no values");
    if (axes[i].values.size() > sweep_most_points / points)
      throw request_error(fmt::format("sweep: more than {} points", sweep_most_points));
    points *= axes[i].values.size();
  }
}

template <class F>
auto resolve(F&& f) -> resolved<decltype(f())> {
  try {
    return f();
  } catch (const request_error& e) {
    return std::string(e.what());
  } catch (const dlperf::error& e) {
    return std::string(e.what());
  }
}

// What `dlperf model --json` gives for a report, as a row (the same expressions as to_json).
sweep_point point_of(const model_report& report) {
  const model_estimate& e = report.estimate.stack;
  const run_config& r = report.run;
  sweep_point p;
  p.fits = report.fit.fits;
  p.step_time_s = e.time.value();
  p.samples_per_s = e.samples_per_second();
  if (report.transformer) p.tokens_per_s = e.tokens_per_second();
  p.tflops = in_teraflops(report.per_gpu(e));
  p.mfu = report.mfu(e);
  if (report.generation) {
    p.prefill_s = e.prefill_time.value();
    p.prompt_tokens_per_s = e.prompt_tokens_per_second();
    if (r.generate > 0) {
      p.decode_s_per_token = e.decode_per_token.value();
      p.decode_tokens_per_s = e.decode_tokens_per_second();
    }
  }
  p.memory_bytes = report.fit.need.total().value();
  p.capacity_bytes = report.fit.capacity.value();
  p.communication_s = e.time_of(op_kind::communication).value();
  p.max_batch = report.fit.max_batch;
  return p;
}

// Whether @p axes describe their model by its shape (layers, hidden, ...): the first shape axis,
// or none. A shape beside a preset or model file axis is refused, as a model request refuses it.
// A max_seq axis beside a preset or model file axis is that model's context (context_axis).
std::optional<std::size_t> shape_axis(const std::vector<sweep_axis>& axes) {
  std::optional<std::size_t> shape, model;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (is_one_of(axes[i].keyword, shape_keywords()) && !shape && axes[i].keyword != "max_seq")
      shape = i;
    if (is_one_of(axes[i].keyword, model_keywords())) model = i;
  }
  if (!shape && !model)
    for (std::size_t i = 0; i < axes.size() && !shape; ++i)
      if (axes[i].keyword == "max_seq") shape = i;
  if (shape && model)
    throw request_error("sweep: give a model by " + axes[*model].keyword + " or by its shape (" +
                        axes[*shape].keyword + ", ...), not both");
  if (shape && std::none_of(axes.begin(), axes.end(),
                            [](const sweep_axis& a) { return a.keyword == "layers"; }))
    throw request_error(
        "sweep: a model by its shape needs layers (with hidden, heads, vocab "
        "and max_seq); '" +
        axes[*shape].keyword + "' was given without it");
  return shape;
}

// The transformer the shape axes give at the point @p choice.
model_spec shape_at(const grid& g, const std::vector<std::size_t>& choice) {
  shape_options o;
  for (std::size_t i = 0; i < g.axes.size(); ++i)
    (void)set_shape_keyword(o, g.axes[i].keyword, g.axes[i].values[choice[i]]);
  return model_of_shape(o);
}

// The run the run axes give at the point @p choice (the other axes' entries are not read).
resolved<run_choice> run_at(const grid& g, const std::vector<std::size_t>& choice) {
  return resolve([&] {
    run_options o;
    run_choice r;
    for (const std::size_t i : g.run_axes)
      apply_run_keyword(o, r.extras, g.axes[i].keyword, g.axes[i].values[choice[i]]);
    r.run = make_run(o, r.extras);
    return r;
  });
}

// The number of the combination of run-axis values at @p choice, the last axis fastest.
std::size_t run_index(const grid& g, const std::vector<std::size_t>& choice) {
  std::size_t index = 0;
  for (const std::size_t i : g.run_axes) index = index * g.sizes[i] + choice[i];
  return index;
}

// Every combination of run-axis values' run, in run_index order, where there are at most
// @p most of them; none otherwise.
std::vector<resolved<run_choice>> resolve_runs(const grid& g, std::size_t most) {
  if (most == 0) return {};
  std::size_t combinations = 1;
  for (const std::size_t i : g.run_axes) {
    if (g.sizes[i] > most / combinations) return {};
    combinations *= g.sizes[i];
  }
  std::vector<resolved<run_choice>> runs;
  runs.reserve(combinations);
  std::vector<std::size_t> choice(g.axes.size(), 0);
  for (std::size_t n = 0; n < combinations; ++n) {
    std::size_t rest = n;
    for (auto i = g.run_axes.rbegin(); i != g.run_axes.rend(); ++i) {
      choice[*i] = rest % g.sizes[*i];
      rest /= g.sizes[*i];
    }
    runs.push_back(run_at(g, choice));
  }
  return runs;
}

// The point at grid index @p index.
sweep_point run_point(const grid& g, std::size_t index) {
  // The choice on each axis, the last axis fastest.
  std::vector<std::size_t> choice(g.axes.size());
  for (std::size_t i = g.axes.size(); i-- > 0;) {
    choice[i] = index % g.sizes[i];
    index /= g.sizes[i];
  }
  sweep_point failed;
  resolved<model_spec> model =
      g.model_axis ? g.models[choice[*g.model_axis]] : resolve([&] { return shape_at(g, choice); });
  if (g.context_axis && std::holds_alternative<model_spec>(model))
    model = resolve([&] {
      return with_context(std::get<model_spec>(model),
                          g.axes[*g.context_axis].values[choice[*g.context_axis]]);
    });
  if (const auto* why = std::get_if<std::string>(&model)) {
    failed.error = *why;
    return failed;
  }
  const auto& dev = g.devices[choice[g.device_axis]];
  if (const auto* why = std::get_if<std::string>(&dev)) {
    failed.error = *why;
    return failed;
  }
  // The run parsed before the points, or here where the grid has too many to keep.
  std::optional<resolved<run_choice>> parsed;
  if (g.runs.empty()) parsed = run_at(g, choice);
  const resolved<run_choice>& run = parsed ? *parsed : g.runs[run_index(g, choice)];
  if (const auto* why = std::get_if<std::string>(&run)) {
    failed.error = *why;
    return failed;
  }
  try {
    const run_choice& r = std::get<run_choice>(run);
    model_request q;
    q.model = std::get<model_spec>(model);
    q.run = r.run;
    q.device = with_power_limit(std::get<device_choice>(dev), r.extras.power_limit, &q.power_limit);
    if (g.axes[g.device_axis].keyword == "device")
      q.device_file = g.axes[g.device_axis].values[choice[g.device_axis]];
    return point_of(estimate(q));
  } catch (const request_error& e) {
    failed.error = e.what();
  } catch (const dlperf::error& e) {
    failed.error = e.what();
  }
  return failed;
}

}  // namespace

std::size_t sweep_size(const std::vector<sweep_axis>& axes) {
  std::size_t points = 1;
  check_axes(axes, points);
  if (!shape_axis(axes)) (void)find_axis(axes, model_keywords(), "a model");
  (void)find_axis(axes, device_keywords(), "a device");
  return points;
}

std::vector<sweep_point> sweep(const std::vector<sweep_axis>& axes, unsigned threads) {
  return detail::sweep(axes, threads, sweep_most_resolved_runs);
}

std::vector<sweep_point> detail::sweep(const std::vector<sweep_axis>& axes, unsigned threads,
                                       std::size_t most_resolved_runs) {
  grid g;
  g.points = sweep_size(axes);
  g.axes = axes;
  if (!shape_axis(axes)) g.model_axis = find_axis(axes, model_keywords(), "a model");
  // Beside a preset or model file, a max_seq axis is its context (as --max-seq beside --preset).
  for (std::size_t i = 0; i < axes.size() && g.model_axis; ++i)
    if (axes[i].keyword == "max_seq") g.context_axis = i;
  g.device_axis = find_axis(axes, device_keywords(), "a device");
  for (const sweep_axis& a : axes) g.sizes.push_back(a.values.size());
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!is_one_of(axes[i].keyword, model_keywords()) &&
        !is_one_of(axes[i].keyword, device_keywords()) &&
        !is_one_of(axes[i].keyword, shape_keywords()))
      g.run_axes.push_back(i);
  g.runs = resolve_runs(g, most_resolved_runs);
  if (g.model_axis) {
    const sweep_axis& models = axes[*g.model_axis];
    for (const std::string& v : models.values)
      g.models.push_back(resolve([&] {
        return models.keyword == "preset" ? presets::find(v) : io::read_model_file(v, g.strings);
      }));
  }
  const sweep_axis& devices = axes[g.device_axis];
  for (const std::string& v : devices.values)
    g.devices.push_back(resolve(
        [&] { return devices.keyword == "gpu" ? select_device(v, "") : select_device("", v); }));

  std::vector<sweep_point> rows(g.points);
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(threads == 0 ? cores : threads, g.points);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  // Each worker takes the next block of points until none is left; blocks of 64 keep the shared
  // counter off the estimate's path.
  const auto work = [&] {
    try {
      // Points share their GEMMs (every stack and mode of a shape asks the same ones): each
      // worker memoises its searches (estimate/gemm_memo.hpp; docs/python.md, "What a sweep
      // costs").
      const best_gemm_memo memo;
      constexpr std::size_t block = 64;
      for (std::size_t first = next.fetch_add(block); first < g.points;
           first = next.fetch_add(block))
        for (std::size_t i = first; i < std::min(first + block, g.points); ++i)
          rows[i] = run_point(g, i);
    } catch (...) {  // a bug, not a point's error: handed to the caller
      const std::lock_guard<std::mutex> lock(failure_lock);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t i = 1; i < workers; ++i) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return rows;
}

}  // namespace dlperf::app
