// `dlperf plot roofline|rank --out FILE.svg`: charts as SVG (docs/buying.md). The roofline chart
// draws each GPU's attainable throughput against arithmetic intensity, log-log, with its ridge
// point and, when given, a workload's point; the rank chart draws performance per dollar.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "cli_support.hpp"
#include "run_options.hpp"
#include "svg_chart.hpp"

namespace dlperf::cli {
namespace {

struct roofline_plot_options {
  std::vector<std::string> gpus;
  std::vector<std::string> devices;
  dtype type = dtype::bf16;
  std::optional<accumulator> acc;
  bool sparse = false;
  std::string flops, bytes;
  std::string out;
};

// Attainable throughput (TFLOP/s) of @p d at arithmetic intensities from 0.1 to 10,000 FLOP/byte,
// ten points a decade and the ridge point, each from the roofline estimator itself.
template <class D>
svg::line_series roofline_curve(const D& d, const std::string& label, dtype t, accumulator a,
                                sparsity s, double ridge) {
  std::vector<double> intensities;
  for (int i = -10; i <= 40; ++i) intensities.push_back(std::pow(10.0, i / 10.0));
  intensities.insert(std::upper_bound(intensities.begin(), intensities.end(), ridge), ridge);
  svg::line_series line{label, {}};
  for (double ai : intensities) {
    const workload w = workload{}.compute(t, flops(ai), a, s).move(tier::global, bytes(1.0));
    line.points.emplace_back(ai, in_teraflops(roofline(d, w).attainable));
  }
  return line;
}

void plot_roofline(const roofline_plot_options& o) {
  if (o.gpus.empty() && o.devices.empty())
    throw usage_error("plot roofline needs at least one --gpu ID or --device FILE");
  if (o.flops.empty() != o.bytes.empty())
    throw usage_error("give both --flops and --bytes for the workload's point, or neither");
  const accumulator acc = o.acc.value_or(default_accumulator(o.type));
  const sparsity s = o.sparse ? sparsity::sparse_2_4 : sparsity::dense;
  std::optional<workload> job;
  if (!o.flops.empty()) {
    const double work = parse_plausible("--flops", o.flops);
    const double traffic = parse_plausible("--bytes", o.bytes);
    if (!(work > 0) || !(traffic > 0))
      throw usage_error("--flops and --bytes must both be positive to place a workload");
    job = workload{}.compute(o.type, flops(work), acc, s).move(tier::global, bytes(traffic));
  }
  std::vector<cli_device> devices;
  for (const std::string& id : o.gpus) devices.push_back(select_device(id, ""));
  for (const std::string& file : o.devices) devices.push_back(select_device("", file));

  std::vector<svg::line_series> lines;
  std::vector<svg::point_marker> markers;
  std::vector<svg::marker_legend> legend{
      {svg::marker_shape::circle, "ridge: peak / DRAM bandwidth"}};
  for (const cli_device& dev : devices) {
    const int series = static_cast<int>(lines.size());
    visit_device(dev, [&](const auto& d) {
      const roofline_result ridge = roofline(d, workload{}.compute(o.type, flops(1), acc, s));
      lines.push_back(roofline_curve(
          d,
          fmt::format("{} (ridge {})", device_label(dev), three_digits(ridge.ridge_point.value())),
          o.type, acc, s, ridge.ridge_point.value()));
      markers.push_back({ridge.ridge_point.value(), in_teraflops(ridge.peak), series});
      if (job) {
        const roofline_result r = roofline(d, *job);
        markers.push_back({r.arithmetic_intensity.value(), in_teraflops(r.attainable), series,
                           svg::marker_shape::square});
      }
    });
  }
  if (job)
    legend.push_back(
        {svg::marker_shape::square,
         fmt::format("workload: {} FLOP/B", three_digits(parse_plausible("--flops", o.flops) /
                                                         parse_plausible("--bytes", o.bytes)))});
  const std::string title = fmt::format("Roofline, {} with {} accumulation{}", name(o.type),
                                        name(acc), o.sparse ? ", 2:4 sparse" : "");
  write_text(svg::log_log_chart(title, "arithmetic intensity (FLOP per DRAM byte)",
                                "attainable throughput (TFLOP/s)", lines, markers, legend),
             o.out);
}

struct rank_plot_options {
  std::string task, gpus, min_memory = "0", prices, top = "15", out, host_cost;
  run_options run;
};

// What a ranking ran, for a title: the task's description, or the preset's run and shape, and
// the software stack unless it is the ceiling.
std::string describe_run(const rank_workload& w) {
  const rank_item& i = w.items.front();
  const std::string stack =
      i.run.stack == stack_id::ceiling ? std::string() : fmt::format(", {}", name(i.run.stack));
  for (rank_task t : enum_values<rank_task>)
    if (name(t) == w.name) return std::string(description(t)) + stack;
  return fmt::format(
      "{} {}, {}{}{}{}", i.model->name, i.run.training() ? "training" : "inference",
      describe_shape(*i.model, i.run),
      w.precision == precision_choice::as_given ? fmt::format(", {}", name(i.run.type))
                                                : std::string(),
      i.run.weights != weight_format::native ? fmt::format(", {} weights", name(i.run.weights))
                                             : std::string(),
      stack);
}

// Performance per dollar of the best --top GPUs of a ranking, as bars (docs/buying.md).
void plot_rank(const rank_plot_options& o) {
  const rank_options opts = parse_rank_options(o.gpus, o.min_memory);
  const long long top = parse_plausible_count("--top", o.top);
  const price_table prices = read_price_file(o.prices, o.host_cost);
  const rank_workload w = select_rank_workload(o.task, o.run);
  const std::vector<rank_entry> ranked = rank_gpus(w, prices, opts);
  if (ranked.empty()) throw usage_error("--task: no GPU runs and fits '" + o.task + "'");
  std::vector<svg::bar> bars;
  for (const rank_entry& e : ranked) {
    if (static_cast<long long>(bars.size()) == top) break;
    std::string split;
    for (const parallel_split& s : e.splits)
      if (s.gpus > 1) split += ", " + describe(s);
    bars.push_back(
        {std::string(e.gpu->id()), 1000 * e.perf_per_dollar,
         fmt::format("{} per $1000 ({} of {}, {}, {} per GPU{})",
                     three_digits(1000 * e.perf_per_dollar), three_digits(e.relative_performance),
                     e.reference->id(), name(e.type), format_usd(e.system_cost.value()), split)});
  }
  write_text(
      svg::bar_chart(fmt::format("Performance per dollar: {} ({})", describe_run(w),
                                 opts.search_gpus ? std::string("fewest GPUs that fit")
                                                  : fmt::format("{}-GPU systems", opts.gpus)),
                     "relative performance per $1000 of GPU and host share", bars),
      o.out);
}

}  // namespace

void add_plot_command(CLI::App& app) {
  CLI::App* plot = app.add_subcommand("plot", "Charts as SVG files: rooflines, perf per dollar");
  plot->require_subcommand(1);

  CLI::App* roof = plot->add_subcommand("roofline",
                                        "Log-log rooflines of GPUs, their ridge points and a "
                                        "workload's point");
  auto r = command_options<roofline_plot_options>(roof);
  roof->add_option("--gpu", r->gpus, "A catalog GPU id (repeat for several)")
      ->check(gpu_id_validator());
  roof->add_option("--device", r->devices, "A device file (repeat for several)");
  add_datatype_options(roof, r->type, r->acc, r->sparse);
  roof->add_option("--flops", r->flops, "A workload's FLOP, to place its point (with --bytes)");
  roof->add_option("--bytes", r->bytes, "A workload's DRAM bytes (with --flops)");
  roof->add_option("--out", r->out, "The SVG file to write")->required();
  roof->callback([r] { plot_roofline(*r); });

  CLI::App* rank = plot->add_subcommand("rank", "Performance per dollar of the best-ranked GPUs");
  auto k = command_options<rank_plot_options>(rank);
  rank->add_option("--task", k->task, "train16, infer16, infer8, or a model preset")->required();
  rank->add_option("--gpus", k->gpus, "GPUs per host: 1, 2, 4 or 8 (default: the fewest that fit)");
  rank->add_option("--host-cost", k->host_cost, "The host in USD; 0 leaves it out");
  rank->add_option("--min-memory", k->min_memory, "Leave out GPUs with less DRAM, GiB");
  rank->add_option("--prices", k->prices, "Price file (JSON: gpus, cloud_hourly, host)");
  rank->add_option("--top", k->top, "Bars to draw, best first")->capture_default_str();
  add_run_options(rank, k->run, false);
  rank->add_option("--out", k->out, "The SVG file to write")->required();
  rank->callback([k, rank] {
    reject_run_flags_beside_guide_task(*rank, k->task);
    plot_rank(*k);
  });
}

}  // namespace dlperf::cli
