// `dlperf rank --task train16|infer16|infer8|PRESET [--gpus N] [--min-memory GB] [--prices FILE]`:
// catalog GPUs by relative performance and performance per dollar, best per dollar first
// (docs/buying.md, "Ranking and performance per dollar").
#include <fmt/format.h>
#include <dlperf/buying/rank.hpp>
#include <dlperf/io/price_json.hpp>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli_support.hpp"
#include "human_format.hpp"
#include "run_options.hpp"

namespace dlperf::cli {

// The workload --task names: a task of the guide, else a preset with the run flags.
rank_workload select_rank_workload(const std::string& task, const run_options& run) {
  for (rank_task t : enum_values<rank_task>)
    if (name(t) == task) return make_workload(t);
  for (const model_spec& m : presets::all)
    if (m.name == task) return make_workload(m, make_run(run));
  throw usage_error("--task: unknown task '" + task + "' (valid: " + enum_names<rank_task>(", ") +
                    " or a model preset, see dlperf models)");
}

namespace {

struct rank_cli_options {
  std::string task, gpus = "1", min_memory = "0", prices;
  run_options run;
  bool json = false;
};

void run_rank(const rank_cli_options& o) {
  const rank_options opts = parse_rank_options(o.gpus, o.min_memory);
  const price_table prices = read_price_file(o.prices);
  const rank_workload w = select_rank_workload(o.task, o.run);
  const std::vector<rank_entry> ranked = rank_gpus(w, prices, opts);
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const rank_entry& e : ranked)
      out.push_back({{"id", e.gpu->id()},
                     {"dtype", name(e.type)},
                     {"relative_performance", e.relative_performance},
                     {"system_cost_usd", e.system_cost.value()},
                     {"perf_per_dollar", e.perf_per_dollar},
                     {"memory_gb", in_gibibytes(e.gpu->facts().memory)}});
    print_json(out);
    return;
  }
  fmt::print("Task {}: relative performance (H100 SXM = 1) and per $1000 of a {}-GPU system\n",
             w.name, opts.gpus);
  fmt::print("{:<16} {:<14} {:>8} {:>12} {:>12} {:>7}\n", "GPU", "dtype", "rel.", "cost/GPU",
             "rel./$1000", "mem GB");
  for (const rank_entry& e : ranked)
    fmt::print("{:<16} {:<14} {:>8} {:>12} {:>12} {:>7}\n", e.gpu->id(), name(e.type),
               three_digits(e.relative_performance), format_usd(e.system_cost.value()),
               three_digits(e.perf_per_dollar * 1000),
               three_digits(in_gibibytes(e.gpu->facts().memory)));
  fmt::print(
      "\ncost/GPU = GPU price (launch price unless --prices) + host({}) / {}; GPUs without a "
      "price, "
      "without the task's datatype or memory are left out.\n",
      opts.gpus, opts.gpus);
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto o = std::make_shared<rank_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "rank", "Rank GPUs by relative performance and performance per dollar (docs/buying.md)");
  cmd->add_option("--task", o->task,
                  "train16, infer16, infer8, or a model preset (run with the run flags)")
      ->required();
  cmd->add_option("--gpus", o->gpus, "GPUs per host: 1, 2, 4 or 8 (default 1)");
  cmd->add_option("--min-memory", o->min_memory, "leave out GPUs with less DRAM, GB (default 0)");
  cmd->add_option("--prices", o->prices, "price file (JSON: gpus, cloud_hourly, host)");
  add_run_options(cmd, o->run, false);
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->callback([o] { run_rank(*o); });
}

}  // namespace dlperf::cli
