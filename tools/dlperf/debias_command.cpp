// `dlperf debias --ratio R ...`: a reported throughput ratio with the batch and GPU-count
// advantage taken out (docs/buying.md, De-biasing a vendor comparison). The command maps its
// flags to the application layer's request (dlperf/app/debias_report.hpp) and prints the report.
#include <fmt/format.h>
#include <dlperf/app/debias_report.hpp>
#include <memory>
#include <string>
#include <string_view>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct debias_flags {
  app::debias_options request;
  bool json = false;
};

// Where a side's efficiency came from, for people.
std::string how(const app::side_efficiency& e, long long gpus, std::string_view model) {
  switch (e.basis) {
    case app::efficiency_basis::one_gpu:
      return "one GPU";
    case app::efficiency_basis::linear:
      return "linear (no efficiency given)";
    case app::efficiency_basis::given:
      return "given";
    case app::efficiency_basis::model:
      break;
  }
  if (e.device_file.empty())
    return fmt::format("multi-GPU model: {} on {} x {} over {}", model, gpus, e.gpu, e.link);
  return fmt::format("multi-GPU model: {} on {} x {} (from {}) over {}", model, gpus, e.gpu,
                     e.device_file, e.link);
}

void print_report(const app::debias_report& r) {
  const debias_result& d = r.result;
  const debias_input& in = d.input;
  fmt::print("reported ratio {}x ({})\n", three_digits(d.ratio), name(in.kind));
  fmt::print("  batch {} -> {}: {} doublings at +{} each: factor {}\n", in.batch_from, in.batch_to,
             three_digits(d.batch_doublings), format_percent(d.batch_gain, 1.0),
             three_digits(d.batch_factor));
  fmt::print("  GPUs {} (efficiency {}, {}) -> {} (efficiency {}, {}): factor {}\n", in.gpus_from,
             format_percent(in.efficiency_from, 1.0), how(r.from, in.gpus_from, r.model),
             in.gpus_to, format_percent(in.efficiency_to, 1.0), how(r.to, in.gpus_to, r.model),
             three_digits(d.gpu_factor));
  fmt::print("de-biased ratio {}x (one GPU against one, same batch)\n",
             three_digits(d.debiased_ratio));
}

}  // namespace

void add_debias_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "debias", "Take the batch and GPU-count advantage out of a reported throughput ratio");
  auto o = command_options<debias_flags>(cmd);
  app::debias_options& q = o->request;
  cmd->add_option("--ratio", q.ratio, "Reported throughput ratio, the 'to' side over 'from'")
      ->required();
  cmd->add_option(
      "--batch-from", q.batch_from,
      "Batch per GPU of the 'from' side (default: --batch-to, else the typical job's 64)");
  cmd->add_option(
      "--batch-to", q.batch_to,
      "Batch per GPU of the 'to' side (default: --batch-from, else the typical job's 64)");
  cmd->add_option("--gpus-from", q.gpus_from, "GPUs of the 'from' side")->capture_default_str();
  cmd->add_option("--gpus-to", q.gpus_to, "GPUs of the 'to' side")->capture_default_str();
  add_enum_option<workload_kind>(cmd, "--kind", q.kind,
                                 "Network kind (default transformer): sets the batch gain");
  cmd->add_option("--efficiency-from", q.efficiency_from,
                  "Scaling efficiency of the 'from' side's GPU count, in (0, 1]");
  cmd->add_option("--efficiency-to", q.efficiency_to,
                  "Scaling efficiency of the 'to' side's GPU count, in (0, 1]");
  cmd->add_option("--gpu-from", q.gpu_from, "Efficiency from the multi-GPU model: GPU id")
      ->check(gpu_id_validator());
  cmd->add_option("--gpu-to", q.gpu_to, "Efficiency from the multi-GPU model: GPU id")
      ->check(gpu_id_validator());
  cmd->add_option("--device-from", q.device_from,
                  "Efficiency from the multi-GPU model: device file (instead of --gpu-from)");
  cmd->add_option("--device-to", q.device_to,
                  "Efficiency from the multi-GPU model: device file (instead of --gpu-to)");
  cmd->add_option("--link-from", q.link_from, "Efficiency from the multi-GPU model: link")
      ->check(link_validator());
  cmd->add_option("--link-to", q.link_to, "Efficiency from the multi-GPU model: link")
      ->check(link_validator());
  add_preset_option(cmd, q.preset)->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] {
    const app::debias_report r = app::estimate(app::make_debias_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
