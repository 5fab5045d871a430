// `dlperf gpus [--json]`: the catalog with derived peaks (JSON: io::catalog_entry).
#include <fmt/format.h>
#include <algorithm>
#include <memory>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

std::string cell(const nlohmann::json& v) {
  return v.is_null() ? std::string("-") : fmt::format("{:.1f}", v.get<double>());
}

void print_table() {
  // The id and arch columns as wide as the longest name the catalog holds.
  std::size_t id_width = 2, arch_width = 4;
  for (const gpu_spec* g : catalog::all) {
    id_width = std::max(id_width, g->id().size());
    arch_width = std::max(arch_width, g->arch().name.size());
  }
  fmt::print(
      "{:<{}} {:<{}} {:>5} {:>5} {:>6} {:>7} {:>6} {:>5} {:>8} {:>6} {:>6} {:>7} {:>7} "
      "{:>7} {:>7}\n",
      "id", id_width, "arch", arch_width, "SM/CU", "MHz", "GiB", "GB/s", "L2 MiB", "TDP W",
      "launch $", "FP32", "TF32", "FP16", "BF16", "FP8", "INT8");
  for (const gpu_spec* g : catalog::all) {
    const gpu_facts& f = g->facts();
    const std::string price = f.price.kind == price_kind::none
                                  ? std::string("-")
                                  : fmt::format("{:.0f}", f.price.amount.value());
    fmt::print("{:<{}} {:<{}} {:>5} {:>5.0f} {:>6.1f} {:>7.0f} {:>6.1f} {:>5.0f} {:>8}", g->id(),
               id_width, g->arch().name, arch_width, f.sms, in_megahertz(f.boost_clock),
               in_gibibytes(f.memory), in_gigabytes_per_second(g->memory_bandwidth()),
               in_mebibytes(f.l2), f.tdp.value(), price);
    for (dtype t : reported_dtypes) {
      std::string text = cell(io::peak_tflops_or_null(*g, t));
      // CDNA 3 runs FP8 only in the FNUZ encoding: show it in the FP8 column, marked.
      if (t == dtype::fp8_e4m3 && text == "-" &&
          g->supports(dtype::fp8_e4m3_fnuz, accumulator::fp32))
        text = cell(io::peak_tflops_or_null(*g, dtype::fp8_e4m3_fnuz)) + "*";
      fmt::print(" {:>7}", text);
    }
    fmt::print("\n");
  }
  fmt::print(
      "\nPeaks are dense TFLOP/s (TOP/s for INT8) with the default accumulator (FP32 for "
      "floating types), derived as SMs (CUs) x FMA/clock/SM x 2 x clock; '-' = no hardware "
      "path; '*' = FP8 in the FNUZ encoding (fp8_e4m3_fnuz, AMD CDNA 3); memory in GiB "
      "(a card sold as 24 GB holds 24 GiB).\n");
}

}  // namespace

void add_gpus_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("gpus", "List the built-in GPU catalog with derived peaks");
  auto json = command_options<bool>(cmd);
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  cmd->callback([json] {
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const gpu_spec* g : catalog::all) out.push_back(io::catalog_entry(*g));
      print_json(std::move(out));
    } else {
      print_table();
    }
  });
}

}  // namespace dlperf::cli
