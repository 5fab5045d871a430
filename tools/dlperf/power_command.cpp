// `dlperf power (--gpu ID | --device FILE) --count N [--limit W]`: the power of N GPUs and the
// system around them, the PSU it needs, and what a power limit saves and costs (docs/buying.md,
// "Power").
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct power_options {
  std::string gpu, device, count = "1", limit, rest, compute_share, preset;
  run_options run;
  bool json = false;
};

std::string format_watts(power p) { return three_digits(p.value()) + " W"; }

template <class G>
void run_on(const power_options& o, const G& g, const std::string& id) {
  const long long count = parse_plausible_count("--count", o.count);
  power_parameters params;
  if (!o.rest.empty()) params.rest_of_system = watts(parse_plausible("--rest-watts", o.rest));
  const power tdp = g.facts().tdp;
  // A Mac's figure is the whole machine's at the wall, on its own power supply: one to a
  // machine, nothing added for the rest, no PSU to choose and no limit to set.
  const bool machine = g.facts().form == form_factor::integrated;
  if (machine && (count != 1 || !o.rest.empty() || !o.limit.empty()))
    throw usage_error(one_to_a_machine_text(g.name()) +
                      ", its power its machine's at the wall, with no power limit to set "
                      "(--count, --rest-watts and --limit do not apply)");
  params = power_parameters_for(g.facts().form, params);
  std::optional<power> limit;
  if (!o.limit.empty()) limit = parse_power_limit("--limit", o.limit, tdp, id);
  if (!o.compute_share.empty() && !o.preset.empty())
    throw usage_error("give at most one of --compute-share and --preset");
  // The clock-bound share of the workload: given, from a model estimate, or 1 (the worst case).
  double share = 1.0;
  if (!o.compute_share.empty()) share = parse_plausible("--compute-share", o.compute_share);
  // The device file's GPU runs on the stack figures the file measured, if any.
  device_stacks measured;
  const stack_calibration* applied = nullptr;
  if (!o.preset.empty()) {
    run_config r = make_run(o.run);
    applied = measured.add(o.device, g.id(), r.stack);
    r.measured_stacks = measured.entries();
    share = clock_bound_share(estimate_run(g, presets::find(o.preset), r));
  }
  const power_budget b = power_budget_of(limit.value_or(tdp), count, params);
  const double clock = limit ? clock_fraction(*limit, tdp) : 1.0;
  const double perf = performance_fraction(share, clock);
  const power saving = limit ? power_limit_saving(tdp, *limit, count) : power{};

  if (o.json) {
    nlohmann::json warnings = nlohmann::json::array();
    for (power_warning w : enum_values<power_warning>)
      if (b.warns(w)) warnings.push_back(name(w));
    const nlohmann::json out = {
        {"gpu", id},
        {"count", count},
        {"tdp_watts", tdp.value()},
        {"board_watts", b.board.value()},
        {"gpu_watts", b.gpus.value()},
        {"rest_watts", params.rest_of_system.value()},
        {"system_watts", b.system.value()},
        {"psu_margin", params.psu_margin},
        {"recommended_psu_watts",
         machine ? nlohmann::json(nullptr) : nlohmann::json(b.recommended_psu.value())},
        {"desktop_psu_limit_watts", params.desktop_psu_limit.value()},
        {"desktop_psu_left_watts",
         machine ? nlohmann::json(nullptr)
                 : nlohmann::json(b.left_by(params.desktop_psu_limit).value())},
        {"limit_watts", limit ? nlohmann::json(limit->value()) : nlohmann::json(nullptr)},
        {"saving_watts", saving.value()},
        {"clock_fraction", clock},
        {"compute_share", share},
        {"performance_fraction", perf},
        {"warnings", warnings},
        {"stack", o.preset.empty() ? nlohmann::json(nullptr) : nlohmann::json(name(o.run.stack))},
        {"stack_measured", measured_figures_json(applied)}};
    print_json(std::move(out));
    return;
  }
  if (machine) {
    fmt::print(
        "{} at {}: the machine's maximum draw at the wall (its maker's figure), on its own "
        "power supply\n",
        g.name(), format_watts(b.system));
    return;
  }
  fmt::print("{} x {} at {}{}: {} of GPUs\n", count, g.name(), format_watts(b.board),
             limit ? fmt::format(" (limited from {})", format_watts(tdp)) : std::string(),
             format_watts(b.gpus));
  fmt::print("system: {} (GPUs + {} for the CPU and the rest)\n", format_watts(b.system),
             format_watts(params.rest_of_system));
  fmt::print("recommended PSU: {} (system + {} margin)\n", format_watts(b.recommended_psu),
             format_percent(params.psu_margin, 1.0));
  fmt::print("a {} desktop PSU leaves {} for everything but the GPUs\n",
             format_watts(params.desktop_psu_limit),
             format_watts(b.left_by(params.desktop_psu_limit)));
  if (limit)
    fmt::print(
        "power limit: saves {}; SM clock {} (P ~ f^3); speed {} of full power "
        "({} of the time clock-bound)\n",
        format_watts(saving), format_percent(clock, 1.0), format_percent(perf, 1.0),
        format_percent(share, 1.0));
  if (limit && !o.preset.empty()) fmt::print("{}\n", describe_stack(o.run.stack));
  if (limit)
    for (const std::string& line : measured.describe()) fmt::print("{}\n", line);
  for (power_warning w : enum_values<power_warning>)
    if (b.warns(w)) fmt::print("warning: {}\n", description(w));
}

void run(const power_options& o) {
  const cli_device dev = select_device(o.gpu, o.device);
  visit_device(dev, [&](const auto& g) {
    if constexpr (gemm_device<std::decay_t<decltype(g)>>)
      run_on(o, g, device_label(dev));
    else
      throw usage_error("--device: power needs a GPU; '" + o.device + "' describes a host CPU");
  });
}

}  // namespace

void add_power_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "power", "Power of N GPUs and their system, the PSU it needs, and a power limit's cost");
  auto o = command_options<power_options>(cmd);
  add_device_options(cmd, o->gpu, o->device);
  cmd->add_option("--count", o->count, "GPUs of one machine, 1 to 16")->capture_default_str();
  cmd->add_option("--limit", o->limit, "Power limit per GPU in W (nvidia-smi -pl)");
  cmd->add_option("--rest-watts", o->rest,
                  "Everything but the GPUs in W (default 250: 150 W CPU + 100 W other parts)");
  cmd->add_option("--compute-share", o->compute_share,
                  "Share of the time that runs at the SM clock: 0, or 0.01 to 1 (default 1)");
  add_preset_option(cmd, o->preset)
      ->description("Take the compute share from this model preset's estimate on --gpu");
  add_run_options(cmd, o->run, false);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, cmd] {
    // The run flags describe --preset's run: without one they would be read by nothing.
    if (const std::string flag = first_given_run_flag(*cmd); o->preset.empty() && !flag.empty())
      throw usage_error(flag + ": the run flags describe --preset's run; give --preset");
    run(*o);
  });
}

}  // namespace dlperf::cli
