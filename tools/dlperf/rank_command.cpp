// `dlperf rank --task train16|infer16|infer8|PRESET [--gpus N] [--min-memory GB] [--prices FILE]
// [--host-cost USD] [--device FILE]`: catalog GPUs by relative performance and performance per
// dollar, best per dollar first, each run at its fastest split that fits (docs/buying.md, "Ranking
// and performance per dollar"). The command maps its flags to the application layer's request
// (dlperf/app/rank_report.hpp) and prints the report.
#include <fmt/format.h>
#include <dlperf/app/rank_report.hpp>
#include <memory>

#include "cli_support.hpp"
#include "human_format.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct rank_flags {
  app::rank_options_text request;
  bool json = false;
};

void print_report(const app::rank_report& r) {
  const rank_options& opts = r.options;
  fmt::print("Task {}: relative performance per GPU ({} = 1) and per $1000, {}\n", r.task,
             r.reference->id(),
             opts.search_gpus ? std::string("each GPU in the fewest of 1, 2, 4, 8 that fit")
                              : fmt::format("{}-GPU systems", opts.gpus));
  fmt::print("{}\n", describe_stack_builds(r.stack));
  if (r.measured != nullptr)
    fmt::print("{}\n", describe_measured(*r.measured,
                                         fmt::format("{} ({})", r.device->id(), r.device_file)));
  fmt::print("{:<16} {:<14} {:>8} {:>10} {:>8} {:>12} {:>7}  {}\n", "GPU", "dtype", "rel.", "GPU $",
             "host $", "rel./$1000", "mem GiB", "split");
  for (const rank_entry& e : r.entries) {
    std::string split;
    for (std::size_t i = 0; i < e.splits.size(); ++i)  // one per run of the mix; once if equal
      if (i == 0 || !(e.splits[i] == e.splits[0]))
        split += (split.empty() ? "" : "; ") + describe(e.splits[i]);
    fmt::print("{:<16} {:<14} {:>8} {:>10} {:>8} {:>12} {:>7}  {}\n", e.gpu->id(), name(e.type),
               three_digits(e.relative_performance), format_usd(e.gpu_price.value()),
               format_usd(e.host_share.value()), three_digits(e.perf_per_dollar * 1000),
               three_digits(in_gibibytes(e.gpu->facts().memory)), split);
  }
  fmt::print(
      "\nper $1000 of GPU price ({} unless --prices) + host share (host(N) / N; "
      "--host-cost sets it, 0 leaves it out); each run at its fastest split that fits; GPUs "
      "without a price, the task's datatype or the memory are left out; memory in GiB (a card "
      "sold as 24 GB holds 24 GiB).\n",
      r.basis == price_basis::launch
          ? "launch price"
          : "the latest dated market price where one is sourced, else launch");
}

}  // namespace

void add_rank_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "rank", "Rank GPUs by relative performance and performance per dollar (docs/buying.md)");
  auto o = command_options<rank_flags>(cmd);
  app::rank_options_text& q = o->request;
  cmd->add_option("--task", q.task,
                  "train16, infer16, infer8, or a model preset (run with the run flags)")
      ->required();
  cmd->add_option("--gpus", q.gpus,
                  "GPUs per host: 1, 2, 4 or 8 (default: per GPU, the fewest that fit)");
  cmd->add_option("--min-memory", q.min_memory, "leave out GPUs with less DRAM, GiB (default 0)");
  cmd->add_option("--prices", q.prices, "price file (JSON: gpus, cloud_hourly, host)");
  cmd->add_option("--device", q.device,
                  "device file (from `dlperf calibrate` or `dlperf export`) whose GPU joins the "
                  "ranking, in place of the catalog entry of its id");
  cmd->add_option("--host-cost", q.host_cost,
                  "the host in USD whatever the GPU count; 0 leaves it out");
  add_enum_option<price_basis>(cmd, "--prices-at", q.prices_at,
                               "catalog prices to use: launch (default, as the guide) or market");
  add_run_options(cmd, q.run, false);
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->callback([o, cmd] {
    reject_run_flags_beside_guide_task(*cmd, o->request.task);
    const app::rank_report r = app::estimate(app::make_rank_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
