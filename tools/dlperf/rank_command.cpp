// `dlperf rank --task train16|infer16|infer8|PRESET [--gpus N] [--min-memory GB] [--prices FILE]
// [--host-cost USD] [--device FILE]`: catalog GPUs by relative performance and performance per
// dollar, best per dollar first, each run at its fastest split that fits (docs/buying.md, "Ranking
// and performance per dollar").
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
    if (name(t) == task) return task_workload(t, run.stack);
  for (const model_spec& m : presets::all)
    if (m.name == task) return make_workload(m, make_run(run));
  throw usage_error("--task: unknown task '" + task + "' (valid: " + enum_names<rank_task>(", ") +
                    " or a model preset, see dlperf models)");
}

namespace {

struct rank_cli_options {
  std::string task, gpus, min_memory = "0", prices, host_cost, device;
  run_options run;
  price_basis prices_at = price_basis::launch;
  bool json = false;
};

void run_rank(const rank_cli_options& o) {
  rank_options opts = parse_rank_options(o.gpus, o.min_memory);
  const candidate_gpus candidates(o.device, "rank");
  opts.candidates = candidates.list;
  price_table prices = read_price_file(o.prices, o.host_cost);
  prices.basis = o.prices_at;
  rank_workload w = select_rank_workload(o.task, o.run);
  // The device file's GPU runs on the stack figures the file measured, if any.
  device_stacks measured;
  if (candidates.device) measured.add(o.device, candidates.device->id(), o.run.stack);
  for (rank_item& i : w.items) i.run.measured_stacks = measured.entries();
  const std::vector<rank_entry> ranked = rank_gpus(w, prices, opts);
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const rank_entry& e : ranked) {
      nlohmann::json splits = nlohmann::json::array();
      for (const parallel_split& s : e.splits)
        splits.push_back(
            {{"gpus", s.gpus}, {"tp", s.tp}, {"pp", s.pp}, {"data_parallel", s.data_parallel()}});
      out.push_back({{"id", e.gpu->id()},
                     {"dtype", name(e.type)},
                     {"relative_performance", e.relative_performance},
                     {"system_cost_usd", e.system_cost.value()},
                     {"perf_per_dollar", e.perf_per_dollar},
                     {"memory_gb", in_gibibytes(e.gpu->facts().memory)},  // GiB: kept stable
                     {"memory_bytes", e.gpu->facts().memory.value()},
                     {"gpus", e.gpus},
                     {"splits", splits},
                     {"reference", e.reference->id()},
                     {"gpu_price_usd", e.gpu_price.value()},
                     {"price_basis", name(prices.basis)},
                     {"host_share_usd", e.host_share.value()},
                     {"stack", name(stacks::build_for(o.run.stack, e.gpu->arch().vendor))},
                     {"stack_measured", measured_figures_json(measured.on(e.gpu->id()))}});
    }
    print_json(std::move(out));
    return;
  }
  const std::string reference = ranked.empty() ? std::string(opts.reference->id())
                                               : std::string(ranked.front().reference->id());
  fmt::print("Task {}: relative performance per GPU ({} = 1) and per $1000, {}\n", w.name,
             reference,
             opts.search_gpus ? std::string("each GPU in the fewest of 1, 2, 4, 8 that fit")
                              : fmt::format("{}-GPU systems", opts.gpus));
  fmt::print("{}\n", describe_stack(o.run.stack));
  for (const std::string& line : measured.describe()) fmt::print("{}\n", line);
  fmt::print("{:<16} {:<14} {:>8} {:>10} {:>8} {:>12} {:>7}  {}\n", "GPU", "dtype", "rel.", "GPU $",
             "host $", "rel./$1000", "mem GiB", "split");
  for (const rank_entry& e : ranked) {
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
      prices.basis == price_basis::launch
          ? "launch price"
          : "the latest dated market price where one is sourced, else launch");
}

}  // namespace

void add_rank_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "rank", "Rank GPUs by relative performance and performance per dollar (docs/buying.md)");
  auto o = command_options<rank_cli_options>(cmd);
  cmd->add_option("--task", o->task,
                  "train16, infer16, infer8, or a model preset (run with the run flags)")
      ->required();
  cmd->add_option("--gpus", o->gpus,
                  "GPUs per host: 1, 2, 4 or 8 (default: per GPU, the fewest that fit)");
  cmd->add_option("--min-memory", o->min_memory, "leave out GPUs with less DRAM, GiB (default 0)");
  cmd->add_option("--prices", o->prices, "price file (JSON: gpus, cloud_hourly, host)");
  cmd->add_option("--device", o->device,
                  "device file (from `dlperf calibrate` or `dlperf export`) whose GPU joins the "
                  "ranking, in place of the catalog entry of its id");
  cmd->add_option("--host-cost", o->host_cost,
                  "the host in USD whatever the GPU count; 0 leaves it out");
  add_enum_option<price_basis>(cmd, "--prices-at", o->prices_at,
                               "catalog prices to use: launch (default, as the guide) or market");
  add_run_options(cmd, o->run, false);
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->callback([o, cmd] {
    reject_run_flags_beside_guide_task(*cmd, o->task);
    run_rank(*o);
  });
}

}  // namespace dlperf::cli
