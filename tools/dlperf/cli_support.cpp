#include "cli_support.hpp"

#include <dlperf/io/price_json.hpp>
#include <dlperf/model/number_text.hpp>

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>
#include <variant>

namespace dlperf::cli {

CLI::Validator gpu_id_validator() {
  return {[](std::string& input) -> std::string {
            try {
              (void)catalog::find(input);
              return {};
            } catch (const not_found& e) {
              return e.what();
            }
          },
          "ID", "GPU id"};
}

void write_text(const std::string& text, const std::string& out) {
  if (out.empty()) {
    fmt::print("{}", text);
    return;
  }
  std::ofstream stream(out);
  if (!stream) throw usage_error("cannot write --out '" + out + "'");
  stream << text;
  if (!stream) throw usage_error("failed writing --out '" + out + "'");
  fmt::print(stderr, "dlperf: wrote {}\n", out);
}

namespace {
// Where print_json stores its JSON on this thread instead of printing it (json_capture).
thread_local nlohmann::json* captured_json = nullptr;
}  // namespace

void print_json(nlohmann::json j) {
  if (captured_json != nullptr)
    *captured_json = std::move(j);
  else
    fmt::print("{}\n", j.dump(2));
}

json_capture::json_capture(nlohmann::json& into) : previous_(captured_json) {
  captured_json = &into;
}

json_capture::~json_capture() { captured_json = previous_; }

void write_json(const nlohmann::json& j, const std::string& out) {
  if (out.empty())
    print_json(j);
  else
    write_text(j.dump(2) + "\n", out);
}

std::string power_limit_text(const power_limit_info& p) {
  return fmt::format(
      "power limit {} W of {} W: SM clock {} GHz, {} of its speed at full power ((limit / "
      "board power)^(1/3)); DRAM keeps its speed",
      three_digits(p.limit.value()), three_digits(p.tdp.value()),
      three_digits(p.clock.value() / 1e9), format_percent(p.clock_fraction, 1.0));
}

std::string sustained_clock_text(const app::sustained_clock_info& s) {
  return fmt::format(
      "clock: a long job's tensor work holds {} GHz, {} of the {} GHz its peak is quoted at "
      "(the board's power limit, measured under minutes of GEMMs; docs/calibration.md)",
      three_digits(s.clock.value() / 1e9), format_percent(s.clock_fraction, 1.0),
      three_digits(s.quoted.value() / 1e9));
}

void add_power_limit_option(CLI::App* cmd, std::string& limit) {
  cmd->add_option("--power-limit", limit,
                  "Watts each GPU is limited to (nvidia-smi -pl), a fifth of its board power to "
                  "all of it: the SM clock falls to (limit / board power)^(1/3), DRAM keeps its "
                  "speed (docs/buying.md, Power)");
}

std::string describe_measured(const stack_calibration& c, std::string_view where) {
  std::string text;
  for (const auto& [figure, m] : c.figures) {
    text += fmt::format("{}{} {} ({})", text.empty() ? "" : ", ", name(figure),
                        is_host_time(figure) ? format_duration(m.value) : three_digits(m.value),
                        m.method);
  }
  return fmt::format("measured on {}: {}", where, text);
}

void add_device_options(CLI::App* cmd, std::string& gpu_id, std::string& device_file) {
  auto* gpu = cmd->add_option("--gpu", gpu_id, "GPU id from `dlperf gpus`, e.g. rtx_4090")
                  ->check(gpu_id_validator());
  auto* file = cmd->add_option("--device", device_file,
                               "Device file (from `dlperf calibrate` or `dlperf export`) instead "
                               "of --gpu");
  gpu->excludes(file);
}

void add_datatype_options(CLI::App* cmd, dtype& type, std::optional<accumulator>& acc,
                          bool& sparse) {
  add_enum_option<dtype>(cmd, "--dtype", type, "Operand datatype")
      ->default_str(std::string(name(type)));
  add_enum_option<accumulator>(cmd, "--accumulator", acc,
                               "Accumulation datatype; default: fp32 for floating types, int32 "
                               "for integers");
  cmd->add_flag("--sparse", sparse, "Operands are 2:4 structured sparse (Ampere and later)");
}

}  // namespace dlperf::cli
