// Shared pieces of the dlperf tool: the error that maps to exit code 2, amount parsing, and the
// catalog peaks reported by several commands.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <deque>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/calibrate/gpu_probes.hpp>
#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/io/device_file.hpp>
#include <dlperf/io/json.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "human_format.hpp"

namespace dlperf::cli {

/// Bad input on the command line: reported as one line on stderr with exit code 2. The
/// application layer's error (dlperf/app/request_error.hpp), so that a request the library's
/// front ends share is refused the same way from the tool, Python and the page.
using usage_error = app::request_error;

using app::parse_amount;
using app::parse_count;
using app::parse_fraction;
using app::parse_plausible;
using app::parse_plausible_count;
using app::parse_tokens;
using app::plausible_range;
using app::plausible_range_of;
using app::plausible_ranges;

/// Datatypes reported in `dlperf gpus`, in column order.
inline constexpr std::array<dtype, 6> reported_dtypes{dtype::fp32, dtype::tf32,     dtype::fp16,
                                                      dtype::bf16, dtype::fp8_e4m3, dtype::int8};

/// A CLI11 check that accepts the names of @p E's enumerators, built from its enumerator list so
/// help text and errors cannot drift from it: help shows "{fp32|tf32|...}", a bad value fails
/// with the list's own message ("--dtype: unknown dtype 'fp7' (valid: fp32, ...)").
template <listed_enum E>
CLI::Validator enum_validator() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        try {
          (void)parse<E>(input);
          return {};
        } catch (const not_found& e) {
          return e.what();
        }
      },
      "{" + enum_names<E>("|") + "}", std::string(enum_list<E>::kind));
}

/// Adds option @p flag that sets @p target (an E or a std::optional<E>) from an enumerator name of
/// @p E, checked by enum_validator.
template <listed_enum E, class Target>
CLI::Option* add_enum_option(CLI::App* cmd, const std::string& flag, Target& target,
                             const std::string& description) {
  return cmd
      ->add_option_function<std::string>(
          flag, [&target](const std::string& text) { target = parse<E>(text); }, description)
      ->check(enum_validator<E>());
}

/// A CLI11 check that accepts catalog GPU ids (`catalog::find`'s error names the valid ones).
CLI::Validator gpu_id_validator();

/// The prices of price file @p file (`--prices`; docs/buying.md), or the catalog's launch prices
/// when @p file is empty; a non-empty @p host_cost (`--host-cost USD`) replaces the host of
/// every size (0 leaves the host out). Throws usage_error naming --prices and the file for a
/// file that cannot be read or is not a valid price file, and naming --host-cost for a cost
/// outside its plausible range.
price_table read_price_file(const std::string& file, const std::string& host_cost = "");

/// Writes @p text to the file @p out, or to stdout when @p out is empty. Throws usage_error
/// when the file cannot be written.
void write_text(const std::string& text, const std::string& out);

/// Prints a command's JSON result @p j: on stdout, or into the json_capture active on this thread
/// (run_json: the Python and WebAssembly modules), so that every front end gets the JSON from the
/// same code path. Taken by value: a command hands over its result with std::move, and the capture
/// takes it without a copy (copying `model`'s JSON cost 15 us a call; docs/python.md).
void print_json(nlohmann::json j);

/// While alive, print_json on this thread stores its JSON into @p into instead of printing it.
class json_capture {
 public:
  explicit json_capture(nlohmann::json& into);
  ~json_capture();
  json_capture(const json_capture&) = delete;
  json_capture& operator=(const json_capture&) = delete;

 private:
  nlohmann::json* previous_;
};

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

/// Writes @p j to @p out, or to stdout (print_json) when @p out is empty. Throws usage_error when
/// the file cannot be written.
void write_json(const nlohmann::json& j, const std::string& out);

/// The device a command runs on: a catalog GPU (--gpu ID) or a device file (--device FILE).
using cli_device = app::device_choice;
using app::device_label;
using app::gpu_device_file;
using app::job_collectives_json;
using app::measured_figures_json;
using app::parse_power_limit;
using app::power_limit_info;
using app::power_limit_json;
using app::select_device;
using app::stack_on_device;
using app::training_band_json;
using app::visit_device;
using app::with_power_limit;

/// The line for people: "power limit 500 W of 700 W: SM clock 1.77 GHz, 89.4 % of its speed at
/// full power ...".
std::string power_limit_text(const power_limit_info& p);

/// Adds --power-limit W to @p cmd.
void add_power_limit_option(CLI::App* cmd, std::string& limit);

/// The stacks that device files measured, for the runs of the commands that compare devices
/// (run_config::measured_stacks): each file's figures for the run's stack, bound to the id of
/// the file's GPU. Runs point into it, so it is neither copied nor moved.
class device_stacks {
 public:
  device_stacks() = default;
  device_stacks(const device_stacks&) = delete;
  device_stacks& operator=(const device_stacks&) = delete;
  ~device_stacks() = default;
  device_stacks(device_stacks&&) = delete;
  device_stacks& operator=(device_stacks&&) = delete;

  /// Adds what device file @p file measured for stack @p id on its GPU, whose id is @p device;
  /// nothing for no file (empty), the ceiling, or a stack the file did not measure. Returns the
  /// calibration applied, if any (it lives as long as this object).
  const stack_calibration* add(const std::string& file, std::string_view device, stack_id id);
  /// What a run takes as run_config::measured_stacks.
  [[nodiscard]] std::span<const measured_stack> entries() const { return entries_; }
  /// The calibration applied on the GPU of id @p device; null when none was.
  [[nodiscard]] const stack_calibration* on(std::string_view device) const;
  /// One `describe_measured` line per calibration applied, in the order added, each naming its
  /// GPU and file ("measured on rtx_4090 (FILE): ...").
  [[nodiscard]] std::vector<std::string> describe() const;

 private:
  // A calibration applied: its GPU's id, the file it came from, and the calibration itself.
  struct applied_stack {
    std::string device, file;
    const stack_calibration* calibration = nullptr;
  };
  std::deque<std::vector<stack_calibration>> held_;  // each file's calibrations
  std::deque<software_stack> stacks_;                // the stacks applied
  std::deque<applied_stack> applied_;  // what was applied, where (entries_ name these ids)
  std::vector<measured_stack> entries_;
};

/// A training job's collectives (app::job_collectives_json) as text lines for people, one a
/// collective: its calls, time and exposed part.
void print_job_collectives(const cluster_estimate& c);

/// A stack's multi-GPU training band (app::training_band_json) for people, one line:
/// "published multi-GPU pytorch-eager training runs measured
/// 0.738-1.04x of this model's rate: 61200-86100 tokens/s (80 % of 226 runs; median error
/// 18.7 %, the model optimistic)", or why there is no band.
std::string training_band_text(stack_id stack, double tokens_per_s);

/// "measured on @p where: gemm_efficiency 0.700 (torch.matmul ...), host_overhead 21.0 µs
/// (...)": calibration @p c for the text output.
std::string describe_measured(const stack_calibration& c, std::string_view where);

/// Adds the mutually exclusive --gpu ID and --device FILE options to @p cmd.
void add_device_options(CLI::App* cmd, std::string& gpu_id, std::string& device_file);

/// The GPUs a buying command compares (rank, advise): the catalog, and with --device FILE the
/// file's GPU too, in place of the catalog entry of the same id. Not copyable: `list` points into
/// `device`.
struct candidate_gpus {
  std::optional<measured_device> device;  ///< the device file's GPU, if one was given
  std::vector<const gpu_spec*> list;      ///< what is compared
  /// The catalog plus the GPU of @p device_file (none when empty); @p command names the command
  /// in the error a host-CPU file gets.
  candidate_gpus(const std::string& device_file, std::string_view command);
  candidate_gpus(const candidate_gpus&) = delete;
  candidate_gpus& operator=(const candidate_gpus&) = delete;
};

/// Adds --dtype, --accumulator and --sparse (shared by roofline and gemm), their help listing the
/// valid names from the enumerator lists.
void add_datatype_options(CLI::App* cmd, dtype& type, std::optional<accumulator>& acc,
                          bool& sparse);

/// Runs the CUDA calibration of GPU @p index (catalog entry @p gpu_id, or guessed from its
/// name when empty) under @p p; returns the device file JSON and adds progress to @p log as the
/// probes run.
/// Throws usage_error when this dlperf was built without CUDA, dlperf::error (exit 2) when
/// there is no GPU.
nlohmann::json run_cuda_calibration(int index, const std::string& gpu_id,
                                    const calibrate::protocol& p, calibrate::calibration_log& log);

/// The same for HIP GPU @p index (an AMD GPU; the GEMM probes are skipped and logged). Throws
/// usage_error when this dlperf was built without HIP, dlperf::error (exit 2) when there is no
/// GPU.
nlohmann::json run_hip_calibration(int index, const std::string& gpu_id,
                                   const calibrate::protocol& p, calibrate::calibration_log& log);

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
/// A CLI11 check that accepts the ids of hardware/links.hpp (`find_link`'s error names them).
CLI::Validator link_validator();
/// The ids of hardware/links.hpp for a help text: "pcie3_x4|...|eth_100g".
std::string link_ids();
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
