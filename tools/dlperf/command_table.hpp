// The tool's commands: each one's registration, their options reset per parse, and the entry
// points that run a command line (the tool, Python and the page).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlperf::cli {

/// The options of command @p cmd, bound to its flags and reset to `T{}` each time @p cmd is
/// parsed, before its flags are read: run_json parses many command lines with one parser per
/// command (building CLI11's parser costs more than a model estimate), and a flag one command
/// line gave must not leak into the next. Every command keeps its options in one of these.
template <class T>
std::shared_ptr<T> command_options(CLI::App* cmd) {
  auto options = std::make_shared<T>();
  cmd->preparse_callback([options](std::size_t) { *options = T{}; });
  return options;
}

/// Registers every subcommand of the tool on @p app (main and run_json share the list).
void add_commands(CLI::App& app);

/// Throws usage_error when the parsed @p app (add_commands) named no command or an unknown one.
void check_command_line(CLI::App& app);

/// @p message as the tool's one line on stderr: newlines become spaces.
std::string one_line(std::string message);

/// Runs the tool on the command line @p args (without the program name) as `dlperf` does: the
/// command's text or JSON on stdout, a bad input's one line on stderr. Returns the exit code: 0,
/// 2 for bad input, 1 for anything else. main() and `python -m dlperf` call it.
int run_tool(const std::vector<std::string>& args);

/// Runs the command line @p args (without the program name, e.g. {"model", "--preset", "gpt2",
/// ..., "--json"}) as the tool would, and returns the JSON it prints. Throws usage_error with the
/// tool's own message for what the tool rejects with exit code 2 (CLI11's parse errors included),
/// and dlperf::error as the tool's commands throw it.
nlohmann::json run_json(const std::vector<std::string>& args);

/// Registers the `gpus` subcommand.
void add_gpus_command(CLI::App& app);
/// Registers the `roofline` subcommand.
void add_roofline_command(CLI::App& app);
/// Registers the `gemm` subcommand.
void add_gemm_command(CLI::App& app);
/// Registers the `cycles` subcommand.
void add_cycles_command(CLI::App& app);
/// Registers the `calibrate` subcommand.
void add_calibrate_command(CLI::App& app);
/// Registers the `export` subcommand.
void add_export_command(CLI::App& app);
/// Registers the `models` subcommand.
void add_models_command(CLI::App& app);
/// Registers the `model` subcommand.
void add_model_command(CLI::App& app);
/// `dlperf advise ...`: GPUs to buy for a model or use case, with reasons.
void add_advise_command(CLI::App& app);
/// `dlperf plot roofline|rank --out FILE.svg`.
void add_plot_command(CLI::App& app);
/// Registers the `cluster` subcommand.
void add_cluster_command(CLI::App& app);
/// Registers the `debias` subcommand.
void add_debias_command(CLI::App& app);
/// Registers the `speedup` subcommand.
void add_speedup_command(CLI::App& app);
/// Registers the `power` subcommand.
void add_power_command(CLI::App& app);
/// Registers the `tco` subcommand.
void add_tco_command(CLI::App& app);
/// `dlperf rank`: GPUs by relative performance and performance per dollar.
void add_rank_command(CLI::App& app);

}  // namespace dlperf::cli
