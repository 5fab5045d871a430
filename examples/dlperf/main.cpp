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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dlperf: analytical performance models for deep learning on GPUs", "dlperf"};
  app.set_version_flag("--version", dlperf::version);
  app.require_subcommand(1);
  dlperf::cli::add_gpus_command(app);
  dlperf::cli::add_roofline_command(app);
  dlperf::cli::add_gemm_command(app);
  dlperf::cli::add_cycles_command(app);
  dlperf::cli::add_calibrate_command(app);
  try {
    // CLI11 would only say "A subcommand is required"; name the word that is not a command.
    if (argc > 1 && argv[1][0] != '-') {
      try {
        app.get_subcommand(argv[1]);
      } catch (const CLI::OptionNotFound&) {
        return fail(
            2, fmt::format("unknown command '{}' (valid: gpus, roofline, gemm, cycles, calibrate)",
                           argv[1]));
      }
    }
    app.parse(argc, argv);
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
