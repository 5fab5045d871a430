// The tool's command list and the one entry point that runs a command line for its JSON: main(),
// the Python module (python/) and the WebAssembly page (web/) all run the commands through here,
// so each front end gets the tool's JSON from the tool's own code path.
#include <fmt/format.h>
#include <algorithm>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

// The subcommands' names, from the app itself ("gpus, roofline, ...").
std::string command_names(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

}  // namespace

void add_commands(CLI::App& app) {
  add_gpus_command(app);
  add_roofline_command(app);
  add_gemm_command(app);
  add_cycles_command(app);
  add_calibrate_command(app);
  add_export_command(app);
  add_models_command(app);
  add_model_command(app);
  add_plot_command(app);
  add_advise_command(app);
  add_cluster_command(app);
  add_debias_command(app);
  add_speedup_command(app);
  add_power_command(app);
  add_tco_command(app);
  add_rank_command(app);
  // Words that are not a command stay in remaining() instead of failing with CLI11's "not
  // expected", so the error can name them and list the commands.
  app.allow_extras();
}

std::string one_line(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

void check_command_line(CLI::App& app) {
  if (!app.remaining().empty())
    throw usage_error(fmt::format("unknown command '{}' (valid: {})", app.remaining().front(),
                                  command_names(app)));
  if (app.get_subcommands().empty())
    throw usage_error(fmt::format("a subcommand is required (valid: {})", command_names(app)));
}

nlohmann::json run_json(const std::vector<std::string>& args) {
  CLI::App app{"dlperf", "dlperf"};
  add_commands(app);
  nlohmann::json result;
  const json_capture capture(result);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
    app.parse(reversed);
  } catch (const CLI::Success&) {  // --help, --version: text for a terminal
    throw usage_error("--help and --version print text: run the dlperf tool for them");
  } catch (const CLI::ParseError& e) {
    throw usage_error(e.what());
  }
  check_command_line(app);
  if (result.is_null())
    throw usage_error(fmt::format("'{}' printed no JSON (is --json missing?)", args.front()));
  return result;
}

}  // namespace dlperf::cli
