// `dlperf roofline --gpu ID --flops F --bytes B [--dtype T] [--json]`: the roofline answer. The
// command maps its flags to the application layer's request (dlperf/app/roofline_report.hpp)
// and prints the report.
#include <fmt/format.h>
#include <cmath>
#include <dlperf/app/roofline_report.hpp>
#include <memory>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct roofline_flags {
  app::roofline_options request;
  bool json = false;
};

void print_report(const app::roofline_report& r) {
  const roofline_result& x = r.result;
  const double ai = x.arithmetic_intensity.value();
  fmt::print("{}{}, {} with {} accumulation{}\n", r.gpu_name,
             r.device_file.empty() ? std::string() : " (device file " + r.device_file + ")",
             name(r.type), name(r.acc), r.sparse ? ", 2:4 sparse" : "");
  fmt::print("  work                 {} over {} of DRAM traffic\n",
             format_si(r.work.value(), "FLOP"), format_si(r.traffic.value(), "B"));
  if (std::isinf(ai))
    fmt::print("  arithmetic intensity unbounded (no DRAM traffic)\n");
  else
    fmt::print("  arithmetic intensity {} FLOP/byte\n", three_digits(ai));
  fmt::print("  ridge point          {} FLOP/byte\n", three_digits(x.ridge_point.value()));
  fmt::print("  peak                 {}\n", format_si(x.peak.value(), "FLOP/s"));
  fmt::print("  attainable           {} ({} of peak)\n", format_si(x.attainable.value(), "FLOP/s"),
             format_percent(x.attainable.value(), x.peak.value()));
  fmt::print("  time                 {} ({})\n", format_duration(x.time.value()),
             describe(x.bound));
}

}  // namespace

void add_roofline_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("roofline", "Time and bound of a workload on one GPU (roofline model)");
  auto o = command_options<roofline_flags>(cmd);
  app::roofline_options& q = o->request;
  add_device_options(cmd, q.gpu, q.device);
  cmd->add_option("--flops", q.flops, "Arithmetic work in FLOP, e.g. 1e12 or 2T")->required();
  cmd->add_option("--bytes", q.bytes, "DRAM traffic in bytes, e.g. 4e9, 4G or 4Gi")->required();
  add_datatype_options(cmd, q.operands.type, q.operands.acc, q.operands.sparse);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] {
    const app::roofline_report r = app::estimate(app::make_roofline_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
