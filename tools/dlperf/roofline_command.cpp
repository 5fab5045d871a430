// `dlperf roofline --gpu ID --flops F --bytes B [--dtype T] [--json]`: the roofline answer.
#include <fmt/format.h>
#include <cmath>
#include <memory>
#include <optional>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct roofline_options {
  std::string gpu;
  std::string device;
  std::string flops;
  std::string bytes;
  dtype type = dtype::fp16;
  std::optional<accumulator> acc;
  bool sparse = false;
  bool json = false;
};

void run(const roofline_options& o) {
  const cli_device dev = select_device(o.gpu, o.device);
  const dtype t = o.type;
  const accumulator acc = o.acc.value_or(default_accumulator(t));
  const sparsity s = o.sparse ? sparsity::sparse_2_4 : sparsity::dense;
  const double work = parse_plausible("--flops", o.flops);
  const double traffic = parse_plausible("--bytes", o.bytes);
  if (work == 0.0 && traffic == 0.0)
    throw usage_error("--flops and --bytes are both 0: there is nothing to estimate");

  // roofline() throws dlperf::unsupported, naming architecture and datatype, when the GPU has no
  // path for (t, acc, s); main() turns that into exit code 2.
  const workload w = workload{}.compute(t, flops(work), acc, s).move(tier::global, bytes(traffic));
  const roofline_result r = visit_device(dev, [&](const auto& d) { return roofline(d, w); });
  const std::string device_name =
      visit_device(dev, [](const auto& d) { return std::string(d.name()); });
  const double ai = r.arithmetic_intensity.value();
  if (o.json) {
    const nlohmann::json out = {
        {"gpu", device_label(dev)},
        {"device_file", o.device.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.device)},
        {"dtype", name(t)},
        {"accumulator", name(acc)},
        {"sparse", o.sparse},
        {"attainable_tflops", in_teraflops(r.attainable)},
        {"peak_tflops", in_teraflops(r.peak)},
        {"bound", name(r.bound)},
        {"arithmetic_intensity", std::isinf(ai) ? nlohmann::json(nullptr) : nlohmann::json(ai)},
        {"ridge_flops_per_byte", r.ridge_point.value()},
        {"time_s", r.time.value()},
        {"compute_time_s", r.compute_time.value()},
        {"memory_time_s", r.tier_time[tier::global].value()},
    };
    print_json(std::move(out));
    return;
  }
  fmt::print("{}{}, {} with {} accumulation{}\n", device_name,
             o.device.empty() ? std::string() : " (device file " + o.device + ")", name(t),
             name(acc), o.sparse ? ", 2:4 sparse" : "");
  fmt::print("  work                 {} over {} of DRAM traffic\n", format_si(work, "FLOP"),
             format_si(traffic, "B"));
  if (std::isinf(ai))
    fmt::print("  arithmetic intensity unbounded (no DRAM traffic)\n");
  else
    fmt::print("  arithmetic intensity {} FLOP/byte\n", three_digits(ai));
  fmt::print("  ridge point          {} FLOP/byte\n", three_digits(r.ridge_point.value()));
  fmt::print("  peak                 {}\n", format_si(r.peak.value(), "FLOP/s"));
  fmt::print("  attainable           {} ({} of peak)\n", format_si(r.attainable.value(), "FLOP/s"),
             format_percent(r.attainable.value(), r.peak.value()));
  fmt::print("  time                 {} ({})\n", format_duration(r.time.value()),
             describe(r.bound));
}

}  // namespace

void add_roofline_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("roofline", "Time and bound of a workload on one GPU (roofline model)");
  auto o = command_options<roofline_options>(cmd);
  add_device_options(cmd, o->gpu, o->device);
  cmd->add_option("--flops", o->flops, "Arithmetic work in FLOP, e.g. 1e12 or 2T")->required();
  cmd->add_option("--bytes", o->bytes, "DRAM traffic in bytes, e.g. 4e9, 4G or 4Gi")->required();
  add_datatype_options(cmd, o->type, o->acc, o->sparse);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
