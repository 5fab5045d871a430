// `dlperf power (--gpu ID | --device FILE) --count N [--limit W]`: the power of N GPUs and the
// system around them, the PSU it needs, and what a power limit saves and costs (docs/buying.md,
// "Power"). The command maps its flags to the application layer's request
// (dlperf/app/power_report.hpp) and prints the report.
#include <fmt/format.h>
#include <dlperf/app/power_report.hpp>
#include <memory>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct power_flags {
  app::power_options request;
  bool json = false;
};

std::string format_watts(power p) { return three_digits(p.value()) + " W"; }

void print_report(const app::power_report& r) {
  const power_budget& b = r.budget;
  const power_parameters& params = r.params;
  if (r.machine) {
    fmt::print(
        "{} at {}: the machine's maximum draw at the wall (its maker's figure), on its own "
        "power supply\n",
        r.gpu_name, format_watts(b.system));
    return;
  }
  fmt::print("{} x {} at {}{}: {} of GPUs\n", b.count, r.gpu_name, format_watts(b.board),
             r.limit ? fmt::format(" (limited from {})", format_watts(r.tdp)) : std::string(),
             format_watts(b.gpus));
  fmt::print("system: {} (GPUs + {} for the CPU and the rest)\n", format_watts(b.system),
             format_watts(params.rest_of_system));
  fmt::print("recommended PSU: {} (system + {} margin)\n", format_watts(b.recommended_psu),
             format_percent(params.psu_margin, 1.0));
  fmt::print("a {} desktop PSU leaves {} for everything but the GPUs\n",
             format_watts(params.desktop_psu_limit),
             format_watts(b.left_by(params.desktop_psu_limit)));
  if (r.limit) {
    fmt::print(
        "power limit: saves {}; SM clock {} (P ~ f^3); speed {} of full power "
        "({} of the time clock-bound)\n",
        format_watts(r.saving), format_percent(r.clock_fraction, 1.0),
        format_percent(r.performance_fraction, 1.0), format_percent(r.compute_share, 1.0));
    if (r.stack) fmt::print("{}\n", describe_stack(*r.stack));
    if (r.measured != nullptr)
      fmt::print("{}\n",
                 describe_measured(*r.measured, fmt::format("{} ({})", r.gpu, r.device_file)));
  }
  for (power_warning w : enum_values<power_warning>)
    if (b.warns(w)) fmt::print("warning: {}\n", description(w));
}

}  // namespace

void add_power_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "power", "Power of N GPUs and their system, the PSU it needs, and a power limit's cost");
  auto o = command_options<power_flags>(cmd);
  app::power_options& q = o->request;
  add_device_options(cmd, q.gpu, q.device);
  cmd->add_option("--count", q.count, "GPUs of one machine, 1 to 16")->capture_default_str();
  cmd->add_option("--limit", q.limit, "Power limit per GPU in W (nvidia-smi -pl)");
  cmd->add_option("--rest-watts", q.rest,
                  "Everything but the GPUs in W (default 250: 150 W CPU + 100 W other parts)");
  cmd->add_option("--compute-share", q.compute_share,
                  "Share of the time that runs at the SM clock: 0, or 0.01 to 1 (default 1)");
  add_preset_option(cmd, q.preset)
      ->description("Take the compute share from this model preset's estimate on --gpu");
  add_run_options(cmd, q.run, false);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, cmd] {
    // The run flags describe --preset's run: without one they would be read by nothing.
    if (const std::string flag = first_given_run_flag(*cmd);
        o->request.preset.empty() && !flag.empty())
      throw usage_error(flag + ": the run flags describe --preset's run; give --preset");
    const app::power_report r = app::estimate(app::make_power_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
