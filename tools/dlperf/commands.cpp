// The tool's command list, the tool itself (run_tool: main() and `python -m dlperf`) and the one
// entry point that runs a command line for its JSON: main(), the Python module (python/) and the
// WebAssembly page (web/) all run the commands through here, so each front end gets the tool's
// JSON from the tool's own code path.
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string_view>

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

namespace {

// Every subcommand: its name (as its add function registers it) and that function, in the order
// of the help. run_json registers only the one it runs: building all of them costs more than a
// model estimate.
struct command_entry {
  std::string_view name;
  void (*add)(CLI::App&);
};
constexpr std::array commands{
    command_entry{"gpus", add_gpus_command},
    command_entry{"roofline", add_roofline_command},
    command_entry{"gemm", add_gemm_command},
    command_entry{"cycles", add_cycles_command},
    command_entry{"calibrate", add_calibrate_command},
    command_entry{"export", add_export_command},
    command_entry{"models", add_models_command},
    command_entry{"model", add_model_command},
    command_entry{"plot", add_plot_command},
    command_entry{"advise", add_advise_command},
    command_entry{"cluster", add_cluster_command},
    command_entry{"debias", add_debias_command},
    command_entry{"speedup", add_speedup_command},
    command_entry{"power", add_power_command},
    command_entry{"tco", add_tco_command},
    command_entry{"rank", add_rank_command},
};

// Adds the entry @p e to @p app, checking that its name is the one it registers.
void add_entry(CLI::App& app, const command_entry& e) {
  e.add(app);
  if (app.get_subcommands([](CLI::App*) { return true; }).back()->get_name() != e.name)
    throw std::logic_error("command table: '" + std::string(e.name) + "' registers another name");
}

}  // namespace

void add_commands(CLI::App& app) {
  for (const command_entry& e : commands) add_entry(app, e);
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

namespace {

// The parser of the command @p args names (with only that command), built on this thread's first
// call for it and reused: building CLI11's parser for `model` took 200-250 us, more than the
// model estimate it serves (docs/python.md, "Where a call's time goes"). A command resets its
// options before each parse (command_options). One set per thread: the Python module runs
// commands on several threads at once, the GIL released. A line naming no command gets a parser
// with all of them, for the error that lists them.
CLI::App& parser_for(const std::vector<std::string>& args) {
  thread_local std::array<std::unique_ptr<CLI::App>, commands.size()> parsers;
  thread_local std::unique_ptr<CLI::App> all;
  const auto* entry =
      args.empty() ? commands.end()
                   : std::find_if(commands.begin(), commands.end(),
                                  [&](const command_entry& e) { return e.name == args.front(); });
  std::unique_ptr<CLI::App>& slot =
      entry == commands.end() ? all : parsers[static_cast<std::size_t>(entry - commands.begin())];
  if (!slot) {
    auto app = std::make_unique<CLI::App>("dlperf", "dlperf");
    if (entry == commands.end()) {
      add_commands(*app);
    } else {
      add_entry(*app, *entry);
      app->allow_extras();
    }
    slot = std::move(app);
  }
  slot->clear();  // what the last command line set, the options' results and the subcommand
  return *slot;
}

}  // namespace

namespace {

// One line on stderr, whatever the message holds.
int fail(int code, const std::string& message) {
  fmt::print(stderr, "dlperf: error: {}\n", one_line(message));
  return code;
}

}  // namespace

// NOLINTNEXTLINE(bugprone-exception-escape): the handlers below catch every expected error
int run_tool(const std::vector<std::string>& args) {
  CLI::App app{"dlperf: analytical performance models for deep learning on GPUs", "dlperf"};
  app.set_version_flag("--version", dlperf::version);
  add_commands(app);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
    app.parse(reversed);
    check_command_line(app);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(2, e.what());
  } catch (const usage_error& e) {
    return fail(2, e.what());
  } catch (const dlperf::error& e) {  // unknown id, unsupported datatype, invalid value
    return fail(2, e.what());
  } catch (const std::exception& e) {
    return fail(1, e.what());
  }
  return 0;
}

nlohmann::json run_json(const std::vector<std::string>& args) {
  CLI::App& app = parser_for(args);
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
