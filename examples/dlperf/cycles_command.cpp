// `dlperf cycles [--latencies 2020|2023|ARCH] [--json]`: the cycle model of MODEL.md section 2 for
// the guide's 32 x 32 worked example.
#include <fmt/format.h>
#include <memory>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

latency_set parse_latencies(const std::string& text) {
  if (text == "2020") return dettmers_2020;
  if (text == "2023") return dettmers_2023;
  try {
    return latencies_of(find_architecture(text));
  } catch (const not_found&) {
    std::string valid = "2020, 2023";
    for (const architecture_spec& a : all_architectures) valid += ", " + std::string(a.name);
    throw usage_error(fmt::format("unknown latency set '{}' (valid: {})", text, valid));
  }
}

void run(const std::string& latencies, bool json) {
  const latency_set l = parse_latencies(latencies);
  const cycle_scenario& s = dettmers_example;
  const cycle_breakdown plain = cycles_without_tensor_cores(s, l);
  const cycle_breakdown tensor = cycles_with_tensor_cores(s, l);
  if (json) {
    const nlohmann::json out = {
        {"without_tensor_cores", plain.total()},
        {"with_tensor_cores", tensor.total()},
        {"latencies",
         {{"name", l.name},
          {"global", l.global},
          {"l2", l.l2},
          {"shared", l.shared},
          {"ffma", l.ffma},
          {"tensor", l.tensor}}},
        {"scenario",
         {{"n", s.n},
          {"sms", s.sms},
          {"warps_per_sm", s.warps_per_sm},
          {"tensor_cores_per_sm", s.tensor_cores_per_sm},
          {"tensor_tile", s.tensor_tile},
          {"outputs_per_thread", s.outputs_per_thread}}},
    };
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print(
      "{} x {} matrix multiply on {} SMs x {} warps, latencies '{}' (cycles: global {}, "
      "shared {}, FFMA {}, tensor core {})\n",
      s.n, s.n, s.sms, s.warps_per_sm, l.name, l.global, l.shared, l.ffma, l.tensor);
  fmt::print("  without tensor cores: {} (global) + {} (shared) + {} (FFMA) = {} cycles\n",
             plain.global, plain.shared, plain.math, plain.total());
  fmt::print("  with tensor cores:    {} (global) + {} (shared) + {} (tensor) = {} cycles\n",
             tensor.global, tensor.shared, tensor.math, tensor.total());
}

}  // namespace

void add_cycles_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "cycles", "Cycle model of a 32x32 matrix multiply with and without tensor cores");
  auto latencies = std::make_shared<std::string>("2020");
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--latencies", *latencies,
                  "2020 or 2023 (the guide's figures) or an architecture id (its measured ones)")
      ->capture_default_str();
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([latencies, json] { run(*latencies, *json); });
}

}  // namespace dlperf::cli
