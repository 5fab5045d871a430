// `dlperf speedup --from ID --to ID [--preset NAME ...]`: the speed-up of one GPU over another,
// by the guide's rule (bandwidth ratio x the architecture factors of the generations crossed) and,
// with a preset, by the ratio of the modelled step times (docs/buying.md, "Speed-up between two
// GPUs"). The command maps its flags to the application layer's request
// (dlperf/app/speedup_report.hpp) and prints the report.
#include <fmt/format.h>
#include <dlperf/app/speedup_report.hpp>
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct speedup_flags {
  app::speedup_options request;
  bool json = false;
};

// "1.02-1.05", or "1.00" where the range is one number.
std::string format_range(double low, double high) {
  const std::string lo = fmt::format("{:.2f}", low), hi = fmt::format("{:.2f}", high);
  return lo == hi ? lo : lo + "-" + hi;
}

// The generations a rule crossed: "ampere_ga100" or "-turing_tu10x, +ampere_ga10x".
std::string crossed(const rule_speedup& r) {
  std::string out;
  for (std::string_view a : r.lost) out += (out.empty() ? "-" : ", -") + std::string(a);
  for (std::string_view a : r.gained) out += (out.empty() ? "+" : ", +") + std::string(a);
  return out.empty() ? "none (one generation)" : out;
}

void print_report(const app::speedup_report& r) {
  const app::speedup_side& from = r.from;
  const app::speedup_side& to = r.to;
  fmt::print("Speed-up of {} ({}) over {} ({})\n", to.id, to.name, from.id, from.name);
  if (!r.rule) {
    fmt::print("  guide's rule: not applied ({})\n", r.no_rule);
  } else {
    const rule_speedup& rule = *r.rule;
    const factor_range s = rule.speedup();
    fmt::print(
        "  guide's rule: bandwidth {:.0f}/{:.0f} GB/s = {:.2f} x shared memory {} x tensor cores "
        "{} = {}\n",
        in_gigabytes_per_second(rule.to_bandwidth), in_gigabytes_per_second(rule.from_bandwidth),
        rule.bandwidth_ratio(), format_range(rule.shared_memory.low, rule.shared_memory.high),
        format_range(rule.tensor_cores.low, rule.tensor_cores.high), format_range(s.low, s.high));
    fmt::print("    generations crossed: {}\n", crossed(rule));
  }
  if (!r.modelled) return;
  const model_spec& m = *r.model;
  const run_config& run = r.run;
  const std::string shape = describe_shape(m, run);
  // The verdict before the number: which side cannot hold the run.
  bool hypothetical = false;
  for (const app::speedup_side* side : {&from, &to})
    if (!side->fit->fits) {
      hypothetical = true;
      fmt::print("  does NOT fit {}: {} needs {} per GPU of its {}\n", side->id, m.name,
                 format_bytes(side->fit->need.total().value()),
                 format_bytes(side->fit->capacity.value()));
    }
  fmt::print("  modelled{}: {} {}, {}, {}{}: {} on {} / {} on {} = {:.2f}\n",
             hypothetical ? " (hypothetical: as if both held the run)" : "", m.name,
             run.training() ? "training step" : "inference", name(run.type), shape,
             run.eager ? ", eager" : "", format_duration(r.modelled->from.time.value()), from.id,
             format_duration(r.modelled->to.time.value()), to.id, r.modelled->ratio());
  fmt::print("    {}\n", describe_stack(run.stack));
  for (const app::speedup_side* side : {&to, &from})
    if (const stack_id own = stacks::build_for(run.stack, side->maker); own != run.stack)
      fmt::print("    on {}: {}, {}'s build for {} GPUs\n", side->id, name(own), name(run.stack),
                 description(side->maker));
  for (const app::speedup_side* side : {&from, &to})
    if (side->measured != nullptr)
      fmt::print("    {}\n", describe_measured(*side->measured, fmt::format("{} ({})", side->id,
                                                                            side->device_file)));
  if (r.ceiling)
    fmt::print("    the hardware model's ceiling: {} / {} = {:.2f}\n",
               format_duration(r.ceiling->from.time.value()),
               format_duration(r.ceiling->to.time.value()), r.ceiling->ratio());
}

}  // namespace

void add_speedup_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "speedup", "Speed-up of one GPU over another: the guide's bandwidth rule and the model");
  auto o = command_options<speedup_flags>(cmd);
  app::speedup_options& q = o->request;
  cmd->add_option("--from", q.from, "The GPU compared against (an id from `dlperf gpus`)")
      ->check(gpu_id_validator());
  cmd->add_option("--to", q.to, "The GPU whose speed-up is asked (an id from `dlperf gpus`)")
      ->check(gpu_id_validator());
  cmd->add_option("--from-device", q.from_device, "Device file instead of --from");
  cmd->add_option("--to-device", q.to_device, "Device file instead of --to");
  add_preset_option(cmd, q.preset);
  add_run_options(cmd, q.run, false);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] {
    const app::speedup_report r = app::estimate(app::make_speedup_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
