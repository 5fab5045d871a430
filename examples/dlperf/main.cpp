// dlperf: analytical GPU performance models for deep learning, from the command line.
//
// Exit codes: 0 success, 2 bad input (one line on stderr naming the problem), 1 anything else.
#include <fmt/format.h>
#include <exception>
#include <string>

#include "cli_support.hpp"

namespace {

// One line on stderr, whatever the message holds.
int fail(int code, std::string message) {
  for (char& c : message)
    if (c == '\n') c = ' ';
  fmt::print(stderr, "dlperf: error: {}\n", message);
  return code;
}

// The subcommands' names, from the app itself ("gpus, roofline, ...").
std::string command_names(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

}  // namespace

// NOLINTNEXTLINE(bugprone-exception-escape): the handlers below catch every expected error
int main(int argc, char** argv) {
  CLI::App app{"dlperf: analytical performance models for deep learning on GPUs", "dlperf"};
  app.set_version_flag("--version", dlperf::version);
  dlperf::cli::add_gpus_command(app);
  dlperf::cli::add_roofline_command(app);
  dlperf::cli::add_gemm_command(app);
  dlperf::cli::add_cycles_command(app);
  dlperf::cli::add_calibrate_command(app);
  dlperf::cli::add_export_command(app);
  dlperf::cli::add_models_command(app);
  dlperf::cli::add_model_command(app);
  dlperf::cli::add_plot_command(app);
  dlperf::cli::add_advise_command(app);
  dlperf::cli::add_cluster_command(app);
  dlperf::cli::add_debias_command(app);
  dlperf::cli::add_speedup_command(app);
  dlperf::cli::add_power_command(app);
  dlperf::cli::add_tco_command(app);
  dlperf::cli::add_rank_command(app);
  // Words that are not a command stay in remaining() instead of failing with CLI11's "not
  // expected", so the error can name them and list the commands.
  app.allow_extras();
  try {
    app.parse(argc, argv);
    if (!app.remaining().empty())
      return fail(2, fmt::format("unknown command '{}' (valid: {})", app.remaining().front(),
                                 command_names(app)));
    if (app.get_subcommands().empty())
      return fail(2, fmt::format("a subcommand is required (valid: {})", command_names(app)));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(2, e.what());
  } catch (const dlperf::cli::usage_error& e) {
    return fail(2, e.what());
  } catch (const dlperf::error& e) {  // unknown id, unsupported datatype, invalid value
    return fail(2, e.what());
  } catch (const std::exception& e) {
    return fail(1, e.what());
  }
  return 0;
}
