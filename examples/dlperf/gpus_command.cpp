// `dlperf gpus [--json]`: the catalog with derived peaks.
#include <fmt/format.h>
#include <memory>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

nlohmann::json to_json(const gpu_spec& g) {
  const gpu_facts& f = g.facts();
  nlohmann::json peaks = nlohmann::json::object();
  for (dtype t : all_dtypes) peaks[std::string(name(t))] = peak_tflops_or_null(g, t);
  nlohmann::json price = nullptr;
  if (f.price.kind != price_kind::none) price = f.price.amount.value();
  return {
      {"id", g.id()},
      {"name", g.name()},
      {"arch", g.arch().name},
      {"family", name(g.arch().family)},
      {"segment", name(f.segment)},
      {"year", f.year},
      {"sms", f.sms},
      {"boost_clock_mhz", in_megahertz(f.boost_clock)},
      {"tensor_clock_mhz", in_megahertz(g.tensor_clock())},
      // Memory and L2 sizes in the vendor's convention: binary units written "GB" and "MB".
      {"memory_gb", in_gibibytes(f.memory)},
      {"memory_type", name(f.memory_type)},
      {"bus_width_bits", f.bus_width_bits},
      {"bandwidth_gbps", in_gigabytes_per_second(g.memory_bandwidth())},
      {"l2_mb", in_mebibytes(f.l2)},
      {"tdp_w", f.tdp.value()},
      {"pcie_gen", f.host_link.generation},
      {"nvlink_gen", f.peer_link.generation},
      {"nvlink_gbps", in_gigabytes_per_second(f.peer_link.throughput)},
      {"price_usd", price},
      {"price_kind", name(f.price.kind)},
      {"price_date", f.price.kind == price_kind::none
                         ? nlohmann::json(nullptr)
                         : nlohmann::json(fmt::format("{:04}-{:02}", f.price.year, f.price.month))},
      {"peak_tflops", peaks},
      {"source", f.source},
  };
}

std::string cell(const nlohmann::json& v) {
  return v.is_null() ? std::string("-") : fmt::format("{:.1f}", v.get<double>());
}

void print_table() {
  fmt::print(
      "{:<15} {:<16} {:>4} {:>5} {:>6} {:>7} {:>5} {:>5} {:>7} {:>6} {:>6} {:>7} {:>7} "
      "{:>7} {:>7}\n",
      "id", "arch", "SMs", "MHz", "mem GB", "GB/s", "L2 MB", "TDP W", "price $", "FP32", "TF32",
      "FP16", "BF16", "FP8", "INT8");
  for (const gpu_spec* g : catalog::all) {
    const gpu_facts& f = g->facts();
    const std::string price = f.price.kind == price_kind::none
                                  ? std::string("-")
                                  : fmt::format("{:.0f}", f.price.amount.value());
    fmt::print("{:<15} {:<16} {:>4} {:>5.0f} {:>6.0f} {:>7.0f} {:>5.1f} {:>5.0f} {:>7}", g->id(),
               g->arch().name, f.sms, in_megahertz(f.boost_clock), in_gibibytes(f.memory),
               in_gigabytes_per_second(g->memory_bandwidth()), in_mebibytes(f.l2), f.tdp.value(),
               price);
    for (dtype t : reported_dtypes) fmt::print(" {:>7}", cell(peak_tflops_or_null(*g, t)));
    fmt::print("\n");
  }
  fmt::print(
      "\nPeaks are dense TFLOP/s (TOP/s for INT8) with the default accumulator (FP32 for "
      "floating types), derived as SMs x FMA/clock/SM x 2 x clock; '-' = no hardware "
      "path.\n");
}

}  // namespace

void add_gpus_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("gpus", "List the built-in GPU catalog with derived peaks");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  cmd->callback([json] {
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const gpu_spec* g : catalog::all) out.push_back(to_json(*g));
      fmt::print("{}\n", out.dump(2));
    } else {
      print_table();
    }
  });
}

}  // namespace dlperf::cli
