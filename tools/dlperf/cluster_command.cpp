// `dlperf cluster (--gpu ID[,ID...] | --device FILE) --gpus N --link LINK ...`: a training job's
// step, speed-up and efficiency on several GPUs, with the gradient all-reduce overlapped bucket by
// bucket with the backward pass (docs/buying.md, Multi-GPU).
#include <fmt/format.h>
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

std::string link_ids() {
  std::string ids;
  for (const link_spec& l : links::all) ids += (ids.empty() ? "" : "|") + std::string(l.id);
  return ids;
}

namespace {

// The options of `dlperf cluster`: the typical job's preset and run are the defaults.
struct cluster_options {
  std::string gpus_list, device, link, preset{typical_cluster_model.name}, bucket = "25Mi";
  std::string power_limit;  // --power-limit W (empty: the board power)
  run_options run;
  bool json = false;
  cluster_options() {
    run.batch = std::to_string(typical_cluster_run.batch);
    run.type = typical_cluster_run.type;
    run.optimizer = typical_cluster_run.optimizer;
    run.gpus = "";
  }
};

// The GPUs of the job: the ids of --gpu (comma-separated) repeated in order to fill --gpus.
std::vector<const gpu_spec*> job_gpus(const cluster_options& o, run_options& run) {
  std::vector<const gpu_spec*> ids;
  std::size_t start = 0;
  while (start <= o.gpus_list.size()) {
    const std::size_t comma = std::min(o.gpus_list.find(',', start), o.gpus_list.size());
    try {
      ids.push_back(&catalog::find(o.gpus_list.substr(start, comma - start)));
    } catch (const not_found& e) {
      throw usage_error(fmt::format("--gpu: {}", e.what()));
    }
    start = comma + 1;
  }
  if (run.gpus.empty()) run.gpus = std::to_string(ids.size());
  const long long n = parse_plausible_count("--gpus", run.gpus);
  if (n % static_cast<long long>(ids.size()) != 0)
    throw usage_error(
        fmt::format("--gpus: {} is not a multiple of the {} GPU ids of --gpu", n, ids.size()));
  std::vector<const gpu_spec*> gpus;
  for (long long i = 0; i < n; ++i) gpus.push_back(ids[static_cast<std::size_t>(i) % ids.size()]);
  return gpus;
}

// The job on @p gpus (catalog GPUs, or copies of one device file's GPU) and its report.
template <class D>
void report(const cluster_options& o, const run_options& ro, const std::vector<const D*>& gpus,
            const std::optional<power_limit_info>& limit) {
  run_config r = make_run(ro);
  if (!r.training()) throw usage_error("--infer: cluster models training steps only");
  // The device file's GPU runs on the stack figures the file measured, if any.
  device_stacks measured;
  const stack_calibration* applied = measured.add(o.device, gpus.front()->id(), r.stack);
  r.measured_stacks = measured.entries();
  const model_spec& m = presets::find(o.preset);
  if (r.tp > 1 && m.kind != model_kind::transformer)
    throw usage_error("--tp: tensor parallelism is for transformer presets only");
  const link_spec& l = find_link(o.link);
  const double bucket = parse_plausible("--bucket", o.bucket);
  const cluster_estimate c =
      estimate_cluster_on<D>(std::span<const D* const>(gpus), m, r, l, bytes(bucket));
  // Memory: the job's share on each GPU type; the first that does not fit is reported.
  const D* short_gpu = nullptr;
  fit_verdict fit;
  for (const D* g : gpus) {
    const fit_verdict f = check_fit(*g, m, r);
    if (short_gpu == nullptr && (!f.fits || g == gpus.front())) fit = f;
    if (!f.fits && short_gpu == nullptr) short_gpu = g;
  }

  std::string names;
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    ids.emplace_back(gpus[i]->id());
    if (std::find(gpus.begin(), gpus.begin() + static_cast<std::ptrdiff_t>(i), gpus[i]) ==
        gpus.begin() + static_cast<std::ptrdiff_t>(i))
      names += (names.empty() ? "" : " + ") + std::string(gpus[i]->name());
  }
  // The job's rate: every replica's micro-batches a step.
  const double samples_per_s =
      static_cast<double>(c.data_parallel * r.batch * r.grad_accumulation) / c.step_time.value();
  const double tokens_per_s =
      m.kind == model_kind::transformer
          ? samples_per_s *
                static_cast<double>(detail::transformer_shapes::of(m.transformer, r).seq)
          : 0.0;
  if (o.json) {
    const nlohmann::json out = {
        {"model", m.name},
        {"gpu", ids},
        {"power_limit", power_limit_json(limit)},
        {"clock_fraction", c.clock_fraction},
        {"gpus", c.gpus},
        {"data_parallel", c.data_parallel},
        {"tp", c.tp},
        {"pp", c.pp},
        {"link", l.id},
        {"dtype", name(r.type)},
        {"batch", r.batch},
        {"peer_to_peer", c.peer_to_peer},
        {"effective_bandwidth_bytes_per_s", c.effective_bandwidth.value()},
        {"gradient_bytes", c.gradient_bytes.value()},
        {"bucket_bytes", c.bucket.value()},
        {"buckets", c.buckets},
        {"single_gpu_step_s", c.single_gpu_step.value()},
        {"compute_step_s", c.compute_step.value()},
        {"backward_s", c.backward.value()},
        {"allreduce_s", c.allreduce.value()},
        {"last_bucket_allreduce_s", c.last_bucket_allreduce.value()},
        {"overlappable_s", c.overlappable.value()},
        {"exposed_allreduce_s", c.exposed_allreduce.value()},
        {"tensor_parallel_s", c.tensor_parallel.value()},
        {"job", job_collectives_json(c)},
        {"step_time_s", c.step_time.value()},
        {"samples_per_s", samples_per_s},
        {"tokens_per_s", tokens_per_s > 0 ? nlohmann::json(tokens_per_s) : nlohmann::json(nullptr)},
        {"training_band", training_band_json(r.stack, samples_per_s, tokens_per_s)},
        {"speedup", c.speedup},
        {"efficiency", c.efficiency},
        {"fits", short_gpu == nullptr},
        {"memory_need_bytes", fit.need.total().value()},
        {"memory_capacity_bytes", fit.capacity.value()},
        {"stack", name(r.stack)},
        {"stack_measured", measured_figures_json(applied)},
    };
    print_json(std::move(out));
    return;
  }
  fmt::print("{} training, {}, batch {} per replica, on {} x {} over {}\n", m.name, name(r.type),
             r.batch, c.gpus, names, l.id);
  // The verdict before any number: a job that does not fit still gets its times, marked.
  if (short_gpu != nullptr) {
    const std::optional<long long> tp = smallest_fitting_tp(*short_gpu, m, r);
    fmt::print(
        "  does NOT fit {}: needs {} per GPU of its {}; every time below is hypothetical, what "
        "the job would take if it fit{}\n",
        short_gpu->id(), format_bytes(fit.need.total().value()), format_bytes(fit.capacity.value()),
        tp ? fmt::format(" (with --tp {} it fits)", *tp)
           : std::string(" (try --tp, --zero 3, --checkpointing or a smaller --batch)"));
  }
  fmt::print("  {}\n", describe_stack(r.stack));
  if (limit) fmt::print("  {}\n", power_limit_text(*limit));
  if (c.clock_fraction < 1.0)
    fmt::print(
        "  clock: a long job's tensor work holds {} of the clock its peak is quoted at (the "
        "board's power limit, measured under minutes of GEMMs; docs/calibration.md)\n",
        format_percent(c.clock_fraction, 1.0));
  for (const std::string& line : measured.describe()) fmt::print("  {}\n", line);
  // Through a switch whose all-reduce is measured (hardware/links.hpp), the rings run at that bus
  // bandwidth, not the link's rate; an all-reduce may take NVLS above it where the ring in a
  // server spans enough GPUs, every other collective stays at the ring's.
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
    fmt::print(
        "  link: {} each way{}, {} per ring step\n",
        format_si(c.effective_bandwidth.value(), "B/s"),
        c.peer_to_peer ? "" : " (through host memory: GeForce cards have no PCIe peer-to-peer)",
        format_duration(l.latency.value()));
  }
  fmt::print("  {:<34} {:>10}\n", "one GPU's step", format_duration(c.single_gpu_step.value()));
  fmt::print("  {:<34} {:>10}\n", "compute step on the job's GPUs",
             format_duration(c.compute_step.value()));
  if (r.zero >= 2 || c.pp > 1) {
    print_job_collectives(c);
  } else {
    fmt::print("  {:<34} {:>10}  ({} in {} buckets of {})\n", "gradient all-reduce",
               format_duration(c.allreduce.value()), format_si(c.gradient_bytes.value(), "B"),
               c.buckets, format_si(c.bucket.value(), "B"));
    fmt::print("  {:<34} {:>10}\n", "  backward that can hide it",
               format_duration(c.overlappable.value()));
    fmt::print("  {:<34} {:>10}\n", "  last bucket (cannot hide)",
               format_duration(c.last_bucket_allreduce.value()));
    fmt::print("  {:<34} {:>10}\n", "exposed all-reduce",
               format_duration(c.exposed_allreduce.value()));
  }
  if (c.tp > 1 && r.zero < 2 && c.pp == 1)
    fmt::print("  {:<34} {:>10}\n", "tensor-parallel all-reduces",
               format_duration(c.tensor_parallel.value()));
  fmt::print("  {:<34} {:>10}\n", "step", format_duration(c.step_time.value()));
  fmt::print("  speed-up {}x over one GPU, efficiency {}\n", three_digits(c.speedup),
             format_percent(c.efficiency, 1.0));
  fmt::print("  {}\n", training_band_text(r.stack, tokens_per_s));
  if (short_gpu == nullptr)
    fmt::print("  memory: {} per GPU of {}: fits\n", format_bytes(fit.need.total().value()),
               format_bytes(fit.capacity.value()));
}

// The GPU of the job, the same on every rank, under --power-limit (a limit in watts is one
// board's: a job of mixed GPUs is refused). The copy lives in @p held.
template <class D>
std::vector<const measured_device*> limited_gpus(const cluster_options& o,
                                                 const std::vector<const D*>& gpus,
                                                 std::optional<measured_device>& held,
                                                 std::optional<power_limit_info>& limit) {
  for (const D* g : gpus)
    if (g->id() != gpus.front()->id())
      throw usage_error(fmt::format(
          "--power-limit: a limit in watts is one board's; this job mixes {} and {} (give one "
          "--gpu id)",
          gpus.front()->id(), g->id()));
  cli_device one;
  if constexpr (std::is_same_v<D, gpu_spec>)
    one = gpus.front();
  else
    one = *gpus.front();
  held = std::get<measured_device>(with_power_limit(std::move(one), o.power_limit, &limit));
  return std::vector<const measured_device*>(gpus.size(), &*held);
}

void run_cluster(const cluster_options& o) {
  run_options ro = o.run;
  if (o.gpus_list.empty() == o.device.empty())
    throw usage_error("give exactly one of --gpu ID and --device FILE");
  std::optional<power_limit_info> limit;
  std::optional<measured_device> held;
  if (o.device.empty()) {
    const std::vector<const gpu_spec*> gpus = job_gpus(o, ro);
    if (o.power_limit.empty())
      report(o, ro, gpus, limit);
    else
      report(o, ro, limited_gpus(o, gpus, held, limit), limit);
    return;
  }
  const measured_device device = gpu_device_file("--device", "cluster", o.device);
  const measured_device* d = &device;
  if (!o.power_limit.empty()) d = limited_gpus(o, std::vector{d}, held, limit).front();
  if (ro.gpus.empty()) ro.gpus = "1";
  const long long n = parse_plausible_count("--gpus", ro.gpus);
  report(o, ro, std::vector<const measured_device*>(static_cast<std::size_t>(n), d), limit);
}

}  // namespace

std::string training_band_text(stack_id stack, double tokens_per_s) {
  if (!(tokens_per_s > 0))
    return "the published multi-GPU training runs are of language models: no band for this one";
  const std::optional<training_scaling_band> b = training_scaling_band_of(stack);
  if (!b)
    return stack == stack_id::ceiling
               ? "published multi-GPU runs measure stacks, not the ceiling: --stack gives their "
                 "band"
               : fmt::format("fewer than {} published multi-GPU {} training runs, no band yet",
                             error_band::least_rows, name(stack));
  return fmt::format(
      "published multi-GPU {} training runs {}", name(stack),
      band_interval_text(b->low, b->high, tokens_per_s, training_scaling_band::coverage, b->rows,
                         "runs", b->median, b->bias));
}

std::string band_interval_text(double low, double high, double rate, double coverage, int rows,
                               std::string_view runs, double median, double bias) {
  return fmt::format(
      "measured {}-{}x of this model's rate: {}-{} tokens/s ({:.0f} % of {} {}; median error {}, "
      "{})",
      three_digits(low), three_digits(high), three_digits(low * rate), three_digits(high * rate),
      100.0 * coverage, rows, runs, format_percent(median, 1.0),
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
    fmt::print("  {:<34} {:>10}  ({} calls of {}; exposed {})\n", x.name,
               format_duration(x.time.value()), x.calls, format_bytes(x.bytes.value()),
               format_duration(x.exposed.value()));
}

void add_cluster_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "cluster", "A training job on several GPUs: all-reduce, step, speed-up and efficiency");
  auto o = command_options<cluster_options>(cmd);
  auto* gpu = cmd->add_option(
      "--gpu", o->gpus_list,
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
