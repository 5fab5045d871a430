// dlperf: analytical GPU performance models for deep learning, from the command line.
//
// Exit codes: 0 success, 2 bad input (one line on stderr naming the problem), 1 anything else.
#include <fmt/format.h>
#include <exception>
#include <string>

#include "cli_support.hpp"

namespace {

// One line on stderr, whatever the message holds.
int fail(int code, const std::string& message) {
  fmt::print(stderr, "dlperf: error: {}\n", dlperf::cli::one_line(message));
  return code;
}

}  // namespace

// NOLINTNEXTLINE(bugprone-exception-escape): the handlers below catch every expected error
int main(int argc, char** argv) {
  CLI::App app{"dlperf: analytical performance models for deep learning on GPUs", "dlperf"};
  app.set_version_flag("--version", dlperf::version);
  dlperf::cli::add_commands(app);
  try {
    app.parse(argc, argv);
    dlperf::cli::check_command_line(app);
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
