// `dlperf speedup --from ID --to ID [--preset NAME ...]`: the speed-up of one GPU over another,
// by the guide's rule (bandwidth ratio x the architecture factors of the generations crossed) and,
// with a preset, by the ratio of the modelled step times (docs/buying.md, "Speed-up between two
// GPUs").
#include <fmt/format.h>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct speedup_options {
  std::string from, to, from_device, to_device, preset;
  run_options run;
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

template <class From, class To>
void run_pair(const speedup_options& o, const From& from, const To& to);

// The GPU of --X ID or --X-device FILE (exactly one).
cli_device side(const std::string& id, const std::string& file, const std::string& flag) {
  if (id.empty() == file.empty())
    throw usage_error("give exactly one of " + flag + " ID and " + flag + "-device FILE");
  return select_device(id, file);
}

void run(const speedup_options& o) {
  const cli_device from = side(o.from, o.from_device, "--from");
  const cli_device to = side(o.to, o.to_device, "--to");
  visit_device(from, [&](const auto& f) {
    visit_device(to, [&](const auto& t) {
      if constexpr (gemm_device<std::decay_t<decltype(f)>> &&
                    gemm_device<std::decay_t<decltype(t)>>)
        run_pair(o, f, t);
      else
        throw usage_error("--from-device/--to-device: speedup compares GPUs, not a host CPU");
    });
  });
}

template <class From, class To>
void run_pair(const speedup_options& o, const From& from, const To& to) {
  // The guide's rule where it applies; with --preset the model answers where it does not (a GPU
  // without tensor cores: Pascal, a Mac), and the rule says why it is left out.
  rule_speedup rule;
  std::string no_rule;
  try {
    rule = speedup_by_rule(from, to);
  } catch (const unsupported& e) {
    if (o.preset.empty()) throw usage_error(std::string("--from/--to: ") + e.what());
    no_rule = e.what();
  }
  const factor_range s = rule.speedup();

  std::optional<model_speedup> modelled;
  std::optional<model_speedup> ceiling;  // with --stack: the same run at the hardware model's speed
  std::optional<run_config> r;
  // Whether each side holds the run: a ratio for a run that one side cannot hold is marked
  // (docs/buying.md, "Speed-up between two GPUs").
  std::optional<fit_verdict> from_fit, to_fit;
  const model_spec* m = nullptr;
  // The stack figures each side's device file measured, if any.
  device_stacks measured;
  const stack_calibration* from_measured = nullptr;
  const stack_calibration* to_measured = nullptr;
  if (!o.preset.empty()) {
    m = &presets::find(o.preset);
    r = make_run(o.run);
    from_measured = measured.add(o.from_device, from.id(), r->stack);
    to_measured = measured.add(o.to_device, to.id(), r->stack);
    if ((from_measured != nullptr || to_measured != nullptr) && from.id() == to.id())
      throw usage_error(fmt::format(
          "--from-device/--to-device: both sides are GPU '{}', so the {} figures measured in {} "
          "cannot apply to one side only (give one file's GPU another id in its \"facts\")",
          from.id(), name(r->stack), from_measured != nullptr ? o.from_device : o.to_device));
    r->measured_stacks = measured.entries();
    for (const auto& [id, runs] :
         {std::pair{std::string(from.id()), from.supports(r->type, default_accumulator(r->type))},
          std::pair{std::string(to.id()), to.supports(r->type, default_accumulator(r->type))}})
      if (!runs)
        throw usage_error("--dtype: " + id + " cannot run " + std::string(name(r->type)) +
                          " (give a --dtype both GPUs run, e.g. fp16)");
    modelled = speedup_by_model(from, to, *m, *r);
    from_fit = check_fit(from, *m, *r);
    to_fit = check_fit(to, *m, *r);
    if (r->stack != stack_id::ceiling) {  // the hardware model's ratio, shown beside the stack's
      run_config bare = *r;
      bare.stack = stack_id::ceiling;
      ceiling = speedup_by_model(from, to, *m, bare);
    }
  }

  if (o.json) {
    nlohmann::json out = {
        {"from", from.id()},
        {"to", to.id()},
        {"from_bandwidth_bytes_per_s", from.memory(tier::global).throughput.value()},
        {"to_bandwidth_bytes_per_s", to.memory(tier::global).throughput.value()},
        {"bandwidth_ratio",
         to.memory(tier::global).throughput.value() / from.memory(tier::global).throughput.value()},
        {"rule", no_rule.empty() ? nlohmann::json{{"low", s.low},
                                                  {"high", s.high},
                                                  {"shared_memory",
                                                   {{"low", rule.shared_memory.low},
                                                    {"high", rule.shared_memory.high}}},
                                                  {"tensor_cores",
                                                   {{"low", rule.tensor_cores.low},
                                                    {"high", rule.tensor_cores.high}}},
                                                  {"generations_gained", rule.gained},
                                                  {"generations_lost", rule.lost}}
                                 : nlohmann::json(nullptr)},
        {"rule_not_applied", no_rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(no_rule)},
    };
    if (modelled) {
      out["modelled"] = modelled->ratio();
      out["from_step_s"] = modelled->from.time.value();
      out["to_step_s"] = modelled->to.time.value();
      out["from_fits"] = from_fit->fits;
      out["to_fits"] = to_fit->fits;
      out["preset"] = m->name;
      out["mode"] = name(r->mode);
      out["dtype"] = name(r->type);
      out["batch"] = r->batch;
      out["stack"] = name(r->stack);
      out["from_stack_measured"] = measured_figures_json(from_measured);
      out["to_stack_measured"] = measured_figures_json(to_measured);
      if (ceiling) {
        out["ceiling_modelled"] = ceiling->ratio();
        out["ceiling_from_step_s"] = ceiling->from.time.value();
        out["ceiling_to_step_s"] = ceiling->to.time.value();
      }
    }
    print_json(std::move(out));
    return;
  }

  fmt::print("Speed-up of {} ({}) over {} ({})\n", to.id(), to.name(), from.id(), from.name());
  if (!no_rule.empty()) {
    fmt::print("  guide's rule: not applied ({})\n", no_rule);
  } else {
    fmt::print(
        "  guide's rule: bandwidth {:.0f}/{:.0f} GB/s = {:.2f} x shared memory {} x tensor cores "
        "{} = {}\n",
        in_gigabytes_per_second(rule.to_bandwidth), in_gigabytes_per_second(rule.from_bandwidth),
        rule.bandwidth_ratio(), format_range(rule.shared_memory.low, rule.shared_memory.high),
        format_range(rule.tensor_cores.low, rule.tensor_cores.high), format_range(s.low, s.high));
    fmt::print("    generations crossed: {}\n", crossed(rule));
  }
  if (modelled) {
    const std::string shape = describe_shape(*m, *r);
    // The verdict before the number: which side cannot hold the run.
    bool hypothetical = false;
    for (const auto& [id, fit] : {std::pair{from.id(), &*from_fit}, std::pair{to.id(), &*to_fit}})
      if (!fit->fits) {
        hypothetical = true;
        fmt::print("  does NOT fit {}: {} needs {} per GPU of its {}\n", id, m->name,
                   format_bytes(fit->need.total().value()), format_bytes(fit->capacity.value()));
      }
    fmt::print("  modelled{}: {} {}, {}, {}{}: {} on {} / {} on {} = {:.2f}\n",
               hypothetical ? " (hypothetical: as if both held the run)" : "", m->name,
               r->training() ? "training step" : "inference", name(r->type), shape,
               r->eager ? ", eager" : "", format_duration(modelled->from.time.value()), from.id(),
               format_duration(modelled->to.time.value()), to.id(), modelled->ratio());
    fmt::print("    {}\n", describe_stack(r->stack));
    for (const auto& [id, v] :
         {std::pair{to.id(), to.arch().vendor}, std::pair{from.id(), from.arch().vendor}})
      if (const stack_id own = stacks::build_for(r->stack, v); own != r->stack)
        fmt::print("    on {}: {}, {}'s build for {} GPUs\n", id, name(own), name(r->stack),
                   description(v));
    for (const std::string& line : measured.describe()) fmt::print("    {}\n", line);
    if (ceiling)
      fmt::print("    the hardware model's ceiling: {} / {} = {:.2f}\n",
                 format_duration(ceiling->from.time.value()),
                 format_duration(ceiling->to.time.value()), ceiling->ratio());
  }
}

}  // namespace

void add_speedup_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "speedup", "Speed-up of one GPU over another: the guide's bandwidth rule and the model");
  auto o = command_options<speedup_options>(cmd);
  cmd->add_option("--from", o->from, "The GPU compared against (an id from `dlperf gpus`)")
      ->check(gpu_id_validator());
  cmd->add_option("--to", o->to, "The GPU whose speed-up is asked (an id from `dlperf gpus`)")
      ->check(gpu_id_validator());
  cmd->add_option("--from-device", o->from_device, "Device file instead of --from");
  cmd->add_option("--to-device", o->to_device, "Device file instead of --to");
  add_preset_option(cmd, o->preset);
  add_run_options(cmd, o->run, false);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
