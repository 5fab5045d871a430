// `dlperf cycles [--latencies 2020|2023|ARCH] [--json]`: the cycle model of
// docs/gemm.md#gemm_cycles for the guide's 32 x 32 worked example.
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
    throw usage_error(
        fmt::format("--latencies: unknown latency set '{}' (valid: {})", text, valid));
  }
}

// Latencies from a GPU device file: its measured (else nominal) tier latencies in cycles.
latency_set latencies_of_file(const std::string& path) {
  const cli_device dev = select_device("", path);
  const auto* m = std::get_if<measured_device>(&dev);
  if (m == nullptr)
    throw usage_error("cycles needs a GPU: device file '" + path + "' describes a host CPU");
  return {"device file",
          m->memory(tier::global).latency_cycles,
          m->memory(tier::l2).latency_cycles,
          m->memory(tier::shared).latency_cycles,
          m->arch().latency.ffma,
          latencies_of(m->arch()).tensor};
}

void run(const std::string& latencies, const std::string& device_file, bool json) {
  const latency_set l =
      device_file.empty() ? parse_latencies(latencies) : latencies_of_file(device_file);
  const cycle_scenario& s = dettmers_example;
  const cycle_breakdown plain = cycles_without_tensor_cores(s, l);
  // Throws unsupported (exit 2) for hardware without tensor cores: there is no tensor-core figure.
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
    print_json(std::move(out));
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

// The flags of `dlperf cycles`.
struct cycles_options {
  std::string latencies = "2020", device_file;
  bool json = false;
};

}  // namespace

void add_cycles_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "cycles", "Cycle model of a 32x32 matrix multiply with and without tensor cores");
  auto o = command_options<cycles_options>(cmd);
  auto* set = cmd->add_option(
                     "--latencies", o->latencies,
                     "2020 or 2023 (the guide's figures) or an architecture id (its measured ones)")
                  ->capture_default_str();
  cmd->add_option("--device", o->device_file, "GPU device file: use its (measured) latencies")
      ->excludes(set);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(o->latencies, o->device_file, o->json); });
}

}  // namespace dlperf::cli
