// `dlperf cluster (--gpu ID[,ID...] | --device FILE) --gpus N --link LINK ...`: a training job's
// step, speed-up and efficiency on several GPUs, with the gradient all-reduce overlapped bucket by
// bucket with the backward pass (docs/buying.md, Multi-GPU).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <dlperf/app/cluster_report.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/hardware/links.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {

CLI::Validator link_validator() {
  return {[](std::string& input) -> std::string {
            try {
              (void)find_link(input);
              return {};
            } catch (const not_found& e) {
              return e.what();
            }
          },
          "LINK", "link"};
}

std::string link_ids() { return fmt::format("{}", fmt::join(app::link_ids(), "|")); }

namespace {

// The options of `dlperf cluster`: the application layer's (the typical job's preset and run
// are the defaults), and --json.
struct cluster_options : app::cluster_options {
  bool json = false;
};

// The link as the job's collectives see it. Through a switch whose all-reduce is measured
// (hardware/links.hpp), the rings run at that bus bandwidth, not the link's rate; an all-reduce
// may take NVLS above it where the ring in a server spans enough GPUs, every other collective
// stays at the ring's.
void print_link(const link_spec& l, const cluster_estimate& c) {
  if (l.measured.exists() && c.peer_to_peer) {
    const bandwidth inside = l.collective_rate(c.ring_in_server);
    const bool nvls = l.measured.nvls(c.ring_in_server);
    fmt::print(
        "  link: {} each way; {} at {} bus bandwidth, as nccl-tests measured them through its "
        "switch among {} GPUs ({}){}{}; {} per ring step\n",
        format_si(l.per_direction().value(), "B/s"), nvls ? "all-reduces" : "collectives",
        format_si(inside.value(), "B/s"), c.ring_in_server,
        nvls ? "NVLS, the switch reducing" : "ring",
        c.effective_bandwidth < inside
            ? fmt::format(", {} across servers (their network ports)",
                          format_si(c.effective_bandwidth.value(), "B/s"))
            : std::string(),
        nvls ? fmt::format("; other collectives at its ring's {}",
                           format_si(l.ring_rate(c.ring_in_server).value(), "B/s"))
             : std::string(),
        format_duration(l.latency.value()));
  } else {
    fmt::print("  link: {} each way{}, {} per ring step\n",
               format_si(c.effective_bandwidth.value(), "B/s"),
               c.peer_to_peer
                   ? ""
                   : " (through host memory: NCCL takes no PCIe peer-to-peer between GeForce "
                     "cards, nor across a CPU's host bridge)",
               format_duration(l.latency.value()));
  }
}

// The report for people.
void print_report(const app::cluster_report& report) {
  const cluster_estimate& c = report.job;
  const run_config& r = report.run;
  const link_spec& l = *report.link;
  fmt::print("{} training, {}, batch {} per replica, on {} x {} over {}\n", report.model,
             name(r.type), r.batch, c.gpus, report.gpu_names, l.id);
  // The verdict before any number: a job that does not fit still gets its times, marked.
  if (!report.fits()) {
    fmt::print(
        "  does NOT fit {}: needs {} per GPU of its {}; every time below is hypothetical, what "
        "the job would take if it fit{}\n",
        report.short_gpu, format_bytes(report.fit.need.total().value()),
        format_bytes(report.fit.capacity.value()),
        report.fitting_tp
            ? fmt::format(" (with --tp {} it fits)", *report.fitting_tp)
            : std::string(" (try --tp, --zero 3, --checkpointing or a smaller --batch)"));
  }
  fmt::print("  {}\n", describe_stack(r.stack));
  if (report.power_limit) fmt::print("  {}\n", power_limit_text(*report.power_limit));
  if (c.clock_fraction < 1.0)
    fmt::print(
        "  clock: a long job's tensor work holds {} of the clock its peak is quoted at (the "
        "board's power limit, measured under minutes of GEMMs; docs/calibration.md)\n",
        format_percent(c.clock_fraction, 1.0));
  if (report.measured != nullptr)
    fmt::print("  {}\n",
               describe_measured(*report.measured, fmt::format("{} ({})", report.gpu_ids.front(),
                                                               report.device_file)));
  print_link(l, c);
  fmt::print("  {:<34} {:>10}\n", "one GPU's step", format_duration(c.single_gpu_step.value()));
  fmt::print("  {:<34} {:>10}\n", "compute step on the job's GPUs",
             format_duration(c.compute_step.value()));
  if (r.zero >= 2 || c.pp > 1 || c.cp > 1 || c.ep > 1) {
    print_job_collectives(c);
  } else {
    fmt::print("  {:<34} {:>10}  ({} in {} buckets of {})\n", "gradient all-reduce",
               format_duration(c.allreduce.value()), format_si(c.gradient_bytes.value(), "B"),
               c.buckets, format_si(c.bucket.value(), "B"));
    fmt::print("  {:<34} {:>10}\n", "  backward that can hide it",
               format_duration(c.overlappable.value()));
    fmt::print("  {:<34} {:>10}\n", "  last bucket (cannot hide)",
               format_duration(c.last_bucket_allreduce.value()));
    fmt::print("  {:<34} {:>10}{}\n", "exposed all-reduce",
               format_duration(c.exposed_allreduce.value()),
               c.collectives.empty() ? std::string() : slowed_text(c.collectives.front()));
    print_uncharged_sms(c);
  }
  if (c.tp > 1 && r.zero < 2 && c.pp == 1) {
    // Under --async-tp, what the GEMMs leave of them (buying/tensor_parallel_collectives.hpp,
    // async_tp_exposed).
    double exposed = 0;
    for (const step_collective& x : c.collectives)
      if (x.name.starts_with("tp all-reduce")) exposed += x.exposed.value();
    fmt::print("  {:<34} {:>10}{}\n", "tensor-parallel all-reduces",
               format_duration(c.tensor_parallel.value()),
               c.async_tp ? fmt::format("  (async: {} exposed beside their GEMMs)",
                                        format_duration(exposed))
                          : "");
  }
  fmt::print("  {:<34} {:>10}\n", "step", format_duration(c.step_time.value()));
  fmt::print("  speed-up {}x over one GPU, efficiency {}{}\n", three_digits(c.speedup),
             format_percent(c.efficiency, 1.0), above_linear_text(c));
  fmt::print("  {}\n", training_band_text(r, report.seq, report.boards, report.tokens_per_s));
  if (report.fits())
    fmt::print("  memory: {} per GPU of {}: fits\n", format_bytes(report.fit.need.total().value()),
               format_bytes(report.fit.capacity.value()));
}

void run_cluster(const cluster_options& o) {
  const app::cluster_report report = app::estimate(app::make_cluster_request(o));
  if (o.json) {
    print_json(app::to_json(report));
    return;
  }
  print_report(report);
}

}  // namespace

std::string training_band_text(const run_config& run, long long seq,
                               std::optional<board_class> boards, double tokens_per_s) {
  const stack_id stack = run.stack;
  if (!(tokens_per_s > 0))
    return "the published multi-GPU training runs are of language models: no band for this one";
  if (stack == stack_id::ceiling)
    return "published multi-GPU runs measure stacks, not the ceiling: --stack gives their band";
  const std::optional<training_scaling_band> b = training_scaling_band_of(run, seq, boards);
  const std::string runs =
      fmt::format("published multi-GPU {} training runs{}{}", name(stack),
                  run.ep > 1 ? " of mixtures of experts over ep GPUs" : "",
                  sequence_class_of(seq) == sequence_class::long_sequences
                      ? fmt::format(" of sequences of {} tokens or more", long_sequence_tokens)
                      : fmt::format(" of sequences under {} tokens", long_sequence_tokens));
  if (b)
    return fmt::format(
        "{} on {} {}", runs, description(b->boards),
        band_interval_text(b->low, b->high, tokens_per_s, training_scaling_band::coverage, b->rows,
                           "runs", b->median, b->bias));
  // None on the job's class: say where the stack's runs ran, so that the data centre's band is
  // not read as this job's.
  const std::string on = boards ? fmt::format(" on {}", description(*boards))
                                : std::string(" on a job of several classes of board");
  if (const std::optional<training_scaling_band> other =
          training_scaling_band_elsewhere(run, seq, boards))
    return fmt::format("no {}{}, no band (the {} published ran on {})", runs, on, other->rows,
                       description(other->boards));
  return fmt::format("fewer than {} {}{}, no band yet", error_band::least_rows, runs, on);
}

std::string band_interval_text(double low, double high, double rate, double coverage, int rows,
                               std::string_view runs, double median, double bias,
                               std::string_view unit, double worst) {
  return fmt::format(
      "measured {}-{}x of this model's rate: {}-{} {} ({:.0f} % of {} {}; median error {}{}, {})",
      three_digits(low), three_digits(high), three_digits(low * rate), three_digits(high * rate),
      unit, 100.0 * coverage, rows, runs, format_percent(median, 1.0),
      worst >= 0.0 ? fmt::format(", worst {}", format_percent(worst, 1.0)) : std::string(),
      bias > 0   ? "the model optimistic"
      : bias < 0 ? "the model pessimistic"
                 : "the model unbiased");
}

void print_job_collectives(const cluster_estimate& c) {
  if (c.nodes > 1)
    fmt::print("  {} servers of {} GPUs; between servers {} a GPU ({} each way)\n", c.nodes,
               c.gpus_per_node, c.network.id, format_si(c.network.per_direction().value(), "B/s"));
  if (c.pp > 1)
    fmt::print("  {:<34} {:>10}  ({} stages{}, {} micro-batches a step)\n",
               "pipeline bubble (1F1B)", format_duration(c.pipeline_bubble.value()), c.pp,
               c.virtual_stages > 1 ? fmt::format(" of {} chunks each", c.virtual_stages) : "",
               c.grad_accumulation);
  for (const step_collective& x : c.collectives)
    fmt::print("  {:<34} {:>10}  ({} calls of {}; exposed {}{})\n", x.name,
               format_duration(x.time.value()), x.calls, format_bytes(x.bytes.value()),
               format_duration(x.exposed.value()), slowed_text(x));
  print_uncharged_sms(c);
}

void print_uncharged_sms(const cluster_estimate& c) {
  for (const step_collective& x : c.collectives) {
    if (x.sm_priced && x.sms == 0 && x.time > duration{}) {
      fmt::print(
          "  no published count of NCCL's channels over {}{}: the SMs its kernels hold are not "
          "taken from the computation they overlap\n",
          c.link.id, c.nodes > 1 ? fmt::format(" and {}", c.network.id) : std::string());
      return;
    }
  }
}

std::string above_linear_text(const cluster_estimate& c) {
  if (!(c.efficiency > 1.0)) return {};
  // A mixture of experts' GPUs each read 1/ep of the experts' weights for ep times the tokens;
  // ZeRO's GPUs each update 1/N of the parameters.
  if (c.ep > 1)
    return "; above 100 %: one GPU would read every expert's weights for fewer tokens each "
           "than a GPU of the expert split takes";
  if (c.shard_group > 1)
    return fmt::format(
        "; above 100 %: each GPU updates 1/{} of the parameters (ZeRO), one GPU alone all of "
        "them",
        c.shard_group);
  return {};
}

std::string slowed_text(const step_collective& x) {
  if (!(x.slowed > duration{})) return {};
  return fmt::format(", {} of it the computation beside it slowed by the {} SMs NCCL holds",
                     format_duration(x.slowed.value()), x.sms);
}

void add_cluster_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "cluster", "A training job on several GPUs: all-reduce, step, speed-up and efficiency");
  auto o = command_options<cluster_options>(cmd);
  auto* gpu = cmd->add_option(
      "--gpu", o->gpu,
      "GPU id, or ids separated by commas for mixed types (repeated to fill --gpus)");
  gpu->excludes(cmd->add_option("--device", o->device,
                                "Device file (from `dlperf calibrate` or `dlperf export`) "
                                "instead of --gpu: --gpus copies of its GPU"));
  cmd->add_option("--link", o->link, "The slowest link between the GPUs: {" + link_ids() + "}")
      ->required()
      ->check(link_validator());
  add_preset_option(cmd, o->preset)->capture_default_str();
  add_run_options(cmd, o->run);
  add_power_limit_option(cmd, o->power_limit);
  cmd->add_option("--bucket", o->bucket, "Gradient bucket (PyTorch DDP's default 25 MiB)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run_cluster(*o); });
}

}  // namespace dlperf::cli
