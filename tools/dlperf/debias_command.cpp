// `dlperf debias --ratio R ...`: a reported throughput ratio with the batch and GPU-count
// advantage taken out (docs/buying.md, De-biasing a vendor comparison).
#include <fmt/format.h>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/debias.hpp>
#include <dlperf/hardware/links.hpp>
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct debias_options {
  std::string ratio, batch_from, batch_to, gpus_from = "1", gpus_to = "1";
  std::string efficiency_from, efficiency_to, gpu_from, gpu_to, link_from, link_to;
  std::string device_from, device_to;  // --device-from, --device-to: device files
  std::string preset{typical_cluster_model.name};
  workload_kind kind = workload_kind::transformer;
  bool json = false;
};

// One side's efficiency: given, from the multi-GPU model (--gpu-X or --device-X with --link-X),
// or 1.
double side_efficiency(std::string_view side, const std::string& given, const std::string& gpu,
                       const std::string& device, const std::string& link, long long gpus,
                       long long batch, const std::string& preset, std::string& how) {
  const std::string eff_flag = fmt::format("--efficiency-{}", side);
  const bool modelled = !gpu.empty() || !device.empty();
  if (!gpu.empty() && !device.empty())
    throw usage_error(fmt::format("give one of --gpu-{} and --device-{}", side, side));
  if (!given.empty()) {
    if (modelled || !link.empty())
      throw usage_error(
          fmt::format("{}: give it or --gpu-{} (or --device-{}) with --link-{}, not both", eff_flag,
                      side, side, side));
    how = "given";
    return parse_plausible(eff_flag, given);  // a fraction, from 0.01
  }
  if (modelled != !link.empty())
    throw usage_error(
        fmt::format("--gpu-{} (or --device-{}) and --link-{} go together", side, side, side));
  if (!modelled) {
    how = gpus > 1 ? "linear (no efficiency given)" : "one GPU";
    return 1.0;
  }
  run_config r = typical_cluster_run;
  r.batch = batch;
  const model_spec& m = presets::find(preset);
  if (!gpu.empty()) {
    how = fmt::format("multi-GPU model: {} on {} x {} over {}", preset, gpus, gpu, link);
    return estimate_cluster(catalog::find(gpu), gpus, m, r, find_link(link)).efficiency;
  }
  // A device file's GPU, as `cluster --device` runs it: every GPU of the side a copy of it.
  const measured_device file_gpu =
      gpu_device_file(fmt::format("--device-{}", side), "debias", device);
  how = fmt::format("multi-GPU model: {} on {} x {} (from {}) over {}", preset, gpus, file_gpu.id(),
                    device, link);
  return estimate_cluster_on(file_gpu, gpus, m, r, find_link(link)).efficiency;
}

void run_debias(const debias_options& o) {
  debias_input in;
  in.ratio = parse_plausible("--ratio", o.ratio);
  // A side without --batch-X takes the other side's batch, and both the typical job's (the
  // multi-GPU model's default) when neither is given: no batch factor without two batches.
  const long long from =
      o.batch_from.empty() ? 0 : parse_plausible_count("--batch-from", o.batch_from);
  const long long to = o.batch_to.empty() ? 0 : parse_plausible_count("--batch-to", o.batch_to);
  in.batch_from = from > 0 ? from : (to > 0 ? to : typical_cluster_run.batch);
  in.batch_to = to > 0 ? to : in.batch_from;
  in.gpus_from = parse_plausible_count("--gpus-from", o.gpus_from);
  in.gpus_to = parse_plausible_count("--gpus-to", o.gpus_to);
  in.kind = o.kind;
  std::string how_from, how_to;
  in.efficiency_from =
      side_efficiency("from", o.efficiency_from, o.gpu_from, o.device_from, o.link_from,
                      in.gpus_from, in.batch_from, o.preset, how_from);
  in.efficiency_to = side_efficiency("to", o.efficiency_to, o.gpu_to, o.device_to, o.link_to,
                                     in.gpus_to, in.batch_to, o.preset, how_to);
  const debias_result d = debias(in);
  if (o.json) {
    const nlohmann::json out = {
        {"ratio", d.ratio},
        {"debiased_ratio", d.debiased_ratio},
        {"kind", name(in.kind)},
        {"factors",
         {{"batch", d.batch_factor},
          {"batch_doublings", d.batch_doublings},
          {"batch_gain_per_doubling", d.batch_gain},
          {"gpus", d.gpu_factor},
          {"efficiency_from", in.efficiency_from},
          {"efficiency_to", in.efficiency_to}}},
    };
    print_json(std::move(out));
    return;
  }
  fmt::print("reported ratio {}x ({})\n", three_digits(d.ratio), name(in.kind));
  fmt::print("  batch {} -> {}: {} doublings at +{} each: factor {}\n", in.batch_from, in.batch_to,
             three_digits(d.batch_doublings), format_percent(d.batch_gain, 1.0),
             three_digits(d.batch_factor));
  fmt::print("  GPUs {} (efficiency {}, {}) -> {} (efficiency {}, {}): factor {}\n", in.gpus_from,
             format_percent(in.efficiency_from, 1.0), how_from, in.gpus_to,
             format_percent(in.efficiency_to, 1.0), how_to, three_digits(d.gpu_factor));
  fmt::print("de-biased ratio {}x (one GPU against one, same batch)\n",
             three_digits(d.debiased_ratio));
}

}  // namespace

void add_debias_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "debias", "Take the batch and GPU-count advantage out of a reported throughput ratio");
  auto o = command_options<debias_options>(cmd);
  cmd->add_option("--ratio", o->ratio, "Reported throughput ratio, the 'to' side over 'from'")
      ->required();
  cmd->add_option(
      "--batch-from", o->batch_from,
      "Batch per GPU of the 'from' side (default: --batch-to, else the typical job's 64)");
  cmd->add_option(
      "--batch-to", o->batch_to,
      "Batch per GPU of the 'to' side (default: --batch-from, else the typical job's 64)");
  cmd->add_option("--gpus-from", o->gpus_from, "GPUs of the 'from' side")->capture_default_str();
  cmd->add_option("--gpus-to", o->gpus_to, "GPUs of the 'to' side")->capture_default_str();
  add_enum_option<workload_kind>(cmd, "--kind", o->kind,
                                 "Network kind (default transformer): sets the batch gain");
  cmd->add_option("--efficiency-from", o->efficiency_from,
                  "Scaling efficiency of the 'from' side's GPU count, in (0, 1]");
  cmd->add_option("--efficiency-to", o->efficiency_to,
                  "Scaling efficiency of the 'to' side's GPU count, in (0, 1]");
  cmd->add_option("--gpu-from", o->gpu_from, "Efficiency from the multi-GPU model: GPU id")
      ->check(gpu_id_validator());
  cmd->add_option("--gpu-to", o->gpu_to, "Efficiency from the multi-GPU model: GPU id")
      ->check(gpu_id_validator());
  cmd->add_option("--device-from", o->device_from,
                  "Efficiency from the multi-GPU model: device file (instead of --gpu-from)");
  cmd->add_option("--device-to", o->device_to,
                  "Efficiency from the multi-GPU model: device file (instead of --gpu-to)");
  cmd->add_option("--link-from", o->link_from, "Efficiency from the multi-GPU model: link")
      ->check(link_validator());
  cmd->add_option("--link-to", o->link_to, "Efficiency from the multi-GPU model: link")
      ->check(link_validator());
  add_preset_option(cmd, o->preset)->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run_debias(*o); });
}

}  // namespace dlperf::cli
