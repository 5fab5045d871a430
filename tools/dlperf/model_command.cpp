// `dlperf models [--json]`: the model presets. `dlperf model ...`: a whole model's training step
// or inference on one GPU (or a data-parallel / tensor-parallel job), op by op, with the memory
// it needs and whether it fits (docs/models.md).
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <dlperf/app/model_report.hpp>
#include <dlperf/app/model_shape.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/io/model_json.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/stack/stacks.hpp>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>

#include "cli_support.hpp"
#include "run_options.hpp"
#include "serve_output.hpp"

namespace dlperf::cli {
namespace {

// One band for people. On one GPU its interval applied to the estimate's @p rate in @p unit:
// "measured 0.904-1.13x of this model's rate: 118-148 tokens/s (80 % of 23 published llama.cpp
// inference runs on GeForce and Radeon boards; median error 15.1 %, worst 28.3 %, the model
// optimistic)"; where the run spans several GPUs (@p rate 0: the band is of single-GPU runs, and
// the split's own band follows) its figures alone: "14.8 % median error on 47 published
// llama.cpp inference runs on GeForce and Radeon boards (worst 28.7 %)"; or that there is none.
std::string band_text(const std::optional<error_band>& band, std::string_view what,
                      board_class boards, const software_stack& stack, double rate,
                      std::string_view unit) {
  // A stack that runs on Macs only has its rows there, whatever the class's other boards.
  const std::string_view on = stack.vendors.bits == vendor_set::only(vendor::apple).bits
                                  ? std::string_view("Apple silicon Macs")
                                  : description(boards);
  if (!band)
    return fmt::format("fewer than {} published {} runs on {}, no band yet", error_band::least_rows,
                       what, on);
  if (rate > 0.0)
    return band_interval_text(band->low, band->high, rate, error_band::coverage, band->rows,
                              fmt::format("published {} runs on {}", what, on), band->median,
                              band->bias, unit, band->worst);
  return fmt::format("{} median error on {} published {} runs on {} (worst {})",
                     format_percent(band->median, 1.0), band->rows, what, on,
                     format_percent(band->worst, 1.0));
}

// A split run's band for people: "measured 0.915-1.02x of this model's rate: 16.3-18.2 tokens/s
// (80 % of 40 published llama.cpp runs split by layers on GeForce and Radeon boards; median
// error 3.98 %, the model optimistic)", or that there is none.
std::string split_band_text(const std::optional<inference_split_band>& band, stack_id stack,
                            split_mode split, board_class boards, double rate) {
  const std::string runs =
      fmt::format("published {} runs split by {}s on {}", name(stack),
                  split == split_mode::layer ? "layer" : "tensor", description(boards));
  if (!band) return fmt::format("fewer than {} {}, no band yet", error_band::least_rows, runs);
  return band_interval_text(band->low, band->high, rate, inference_split_band::coverage, band->rows,
                            runs, band->median, band->bias);
}

// A parameter count for people: "6.74 B", "124 M".
std::string format_parameters(double p) {
  if (p >= 1e9) return three_digits(p / 1e9) + " B";
  if (p >= 1e6) return three_digits(p / 1e6) + " M";
  return three_digits(p / 1e3) + " k";
}

void list_presets(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const model_spec& m : presets::all)
      out.push_back({{"name", m.name},
                     {"kind", name(m.kind)},
                     {"parameters", m.parameters()},
                     {"published_parameters", m.published_parameters},
                     {"source", m.source}});
    print_json(std::move(out));
    return;
  }
  fmt::print("{:<20} {:<12} {:>10}  {}\n", "name", "kind", "params", "source");
  for (const model_spec& m : presets::all)
    fmt::print("{:<20} {:<12} {:>10}  {}\n", m.name, name(m.kind),
               format_parameters(m.parameters()), m.source);
  fmt::print(
      "\nParameters are computed from each description; the source publishes the "
      "configuration and its count.\n");
}

struct model_options {
  std::string preset, config, gpu, device;
  app::shape_options shape;  // a transformer from flags
  run_options run;
  serve_options serve;
  bool batch_given = false;  // --batch on the command line (serving sets the batch itself)
  bool json = false;
  std::string link;         // --link: between the GPUs of one model copy (empty: the system's)
  std::string power_limit;  // --power-limit W (empty: the board power)
};

// One operator of a phase with its time per step, repeats included (decode: per token).
struct op_row {
  std::string phase, name;
  dlperf::bound bound;
  op_kind kind;
  long long repeats;
  double time;  // seconds
};

std::vector<op_row> op_rows(const model_estimate& e) {
  std::vector<op_row> rows;
  for (step_phase p : enum_values<step_phase>)
    for (const op_estimate& op : e.phase(p))
      rows.push_back({std::string(name(p)), std::string(op.name), op.bound, op.kind, op.repeats,
                      static_cast<double>(op.repeats) * op.time.value()});
  return rows;
}

// " [hypothetical]" after each figure of a run that does not fit, else nothing.
std::string hypothetical_mark(const app::model_report& report) {
  return report.fit.fits ? std::string() : std::string(" [hypothetical]");
}

// The first line (model, GPU, run) and the verdict before any number (docs/models.md, "Does it
// fit?"): a run that does not fit still gets its times, each marked as what the GPU would take
// if it held the run.
void print_run_and_verdict(const app::model_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const fit_verdict& f = report.fit;
  const std::string shape = describe_shape(m, r);
  fmt::print(
      "{} ({} parameters): {} on {} ({}), {}, {}{}\n", m.name, format_parameters(m.parameters()),
      r.training() ? "training step" : "inference", report.gpu_name, report.arch, name(r.type),
      shape,
      r.gpus > 1
          ? fmt::format(", {} GPUs (tp {}{}{}{}{}, ZeRO {})", r.gpus, r.tp,
                        r.async_tp ? " async" : "", r.pp > 1 ? fmt::format(", pp {}", r.pp) : "",
                        r.cp > 1 ? fmt::format(", cp {}", r.cp) : "",
                        r.ep > 1 ? fmt::format(", ep {} {}", r.ep, name(r.dispatch)) : "", r.zero)
          : "");
  if (!f.fits)
    fmt::print(
        "  does NOT fit: it needs {} per GPU of {} (short by {}); every time below is "
        "hypothetical, what the GPU would take if it held the run\n",
        format_bytes(f.need.total().value()), format_bytes(f.capacity.value()),
        format_bytes(-f.margin.value()));
}

// A partial offload (docs/models.md, "Partial offload"): where the layers are, what the host
// side runs at, and how many layers the GPU could hold.
void print_offload(const app::offload_report& o) {
  const std::string most = o.most_that_fit < 0
                               ? std::string("even --gpu-layers 0 does not fit")
                               : fmt::format("the most that fit: --gpu-layers {}", o.most_that_fit);
  if (o.placement.all_on_gpu())
    fmt::print(
        "  offload: all {} layers and the output layer on the GPU, the token embeddings "
        "in host memory; {}\n",
        o.placement.layers, most);
  else
    fmt::print(
        "  offload: {} of {} layers on the GPU, the output layer {}; the rest in {} ({}), read "
        "by the CPU at {} when decoding, copied to the GPU at {} for each prompt micro-batch; "
        "{}\n",
        o.placement.gpu_layers, o.placement.layers,
        o.placement.output_on_gpu ? "on the GPU" : "in host memory", o.memory->id, o.memory->name,
        format_si(o.host.dram.value(), "B/s"), format_si(o.host.upload.value(), "B/s"), most);
  fmt::print("  (the accuracy below is for runs with every layer on the GPU)\n");
}

// The stack and what changes the GPU under it: a power limit, the sustained clock, an offload
// and a device file's measured figures.
void print_setup(const app::model_report& report) {
  // No stack: the figures are the ceiling itself, said once.
  fmt::print("  {}{}\n", describe_stack(report.stack.id), ceiling_bracket_note(report.stack.id));
  if (report.power_limit) fmt::print("  {}\n", power_limit_text(*report.power_limit));
  if (report.sustained_clock) fmt::print("  {}\n", sustained_clock_text(*report.sustained_clock));
  if (report.offload) print_offload(*report.offload);
  if (report.measured != nullptr)
    fmt::print("  {}\n", describe_measured(*report.measured, "this device"));
}

// How one model copy spreads over its GPUs (docs/parallel.md), or a training job's
// communication as `dlperf cluster` prices it (docs/buying.md, Multi-GPU).
void print_layout(const app::model_report& report) {
  const run_config& r = report.run;
  const software_stack& stack = report.stack;
  const std::optional<cluster_estimate>& job = report.job;
  if (report.split) {
    // How one model copy spreads over its GPUs, and over what (docs/parallel.md).
    // A layer split's hand-off is a copy, peer to peer where CUDA allows it; a tensor split's
    // all-reduce is the collective library's, NCCL's through host memory over any PCIe
    // (stack/nccl.hpp, nccl_through_host).
    const bool through_host = report.staged || (r.pp == 1 && report.collectives_staged);
    const std::string over = fmt::format(
        "over {}{}", report.link->id,
        !through_host   ? ""
        : report.staged ? " staged through host memory (no peer-to-peer between GeForce cards)"
                        : " staged through host memory (NCCL takes no peer-to-peer across a CPU's "
                          "host bridge)");
    if (r.pp > 1)
      fmt::print(
          "  split: {} GPUs by layers, each running its layers in turn{}; {} hand-off{} "
          "of the activations a pass {}{}\n",
          r.pp, r.tp > 1 ? fmt::format(" (each a tp {} group)", r.tp) : "", r.pp - 1,
          r.pp > 2 ? "s" : "", over,
          stack.multi_gpu.pipeline.pipelines()
              ? fmt::format("; a prompt pipelined in micro-batches of {} tokens",
                            stack.multi_gpu.pipeline.ubatch)
              : "");
    else
      fmt::print("  split: {} GPUs by tensors, two all-reduces a layer {}\n", r.tp, over);
  }
  if (job && (r.zero >= 2 || job->pp > 1 || job->cp > 1 || job->ep > 1)) {
    // A sharded job's gathers and reduce-scatters, a pipeline's bubble and hand-offs, as
    // `dlperf cluster` prices them.
    // Above 100 %, say why: one GPU holding every expert reads all their weights for few
    // tokens each, where each of the ep GPUs reads 1/ep of them for ep times the tokens.
    fmt::print("  {} over {}: {}x one GPU's rate ({} efficiency{})\n",
               describe(parallel_split{job->gpus, job->tp, job->pp, job->cp}) +
                   (job->ep > 1 ? fmt::format(" (experts over ep {})", job->ep) : ""),
               job->link.id, three_digits(job->speedup), format_percent(job->efficiency, 1.0),
               above_linear_text(*job));
    print_job_collectives(*job);
  } else if (job) {
    // The job's communication as `dlperf cluster` prices it (docs/buying.md, Multi-GPU).
    fmt::print(
        "  {} over {}: gradient all-reduce {} a step, {} of it exposed{}{}; {}x one GPU's rate "
        "({} efficiency{})\n",
        describe(parallel_split{job->gpus, job->tp, 1}), job->link.id,
        format_duration(job->allreduce.value()), format_duration(job->exposed_allreduce.value()),
        job->collectives.empty() ? std::string() : slowed_text(job->collectives.front()),
        job->tp > 1
            ? fmt::format(", tp all-reduces {}", format_duration(job->tensor_parallel.value()))
            : std::string(),
        three_digits(job->speedup), format_percent(job->efficiency, 1.0), above_linear_text(*job));
    print_uncharged_sms(*job);
  }
}

// The weights' format (inference), or what training updates: LoRA or the full model, and the
// optimizer and its kernels (docs/stacks.md, "The optimizer").
void print_weights_and_update(const app::model_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const double trainable = report.trainable;
  if (!r.training()) {
    const double file = weight_file_bytes(m, r.weights, r.type);
    fmt::print("  weights {} ({}): {} on disk, {} bits per parameter{}\n", name(r.weights),
               description(r.weights), format_bytes(file),
               three_digits(8.0 * file / m.parameters()),
               report.generation
                   ? fmt::format("; KV cache {} ({})", name(r.kv_cache), description(r.kv_cache))
                   : "");
  }
  // Which optimizer and which of its kernel families (docs/stacks.md, "The optimizer").
  const std::string update = r.training()
                                 ? fmt::format("; {} update, {} kernels", name(r.optimizer),
                                               name(optimizer_kernels_of(report.stack, r)))
                                 : std::string();
  if (r.lora.enabled())
    fmt::print("  {} rank {} on {}{}: {} trainable parameters ({} of the model){}\n",
               r.lora.qlora ? "QLoRA" : "LoRA", r.lora.rank, describe(r.lora.targets),
               r.lora.qlora ? ", NF4 base" : "", format_parameters(trainable),
               format_percent(trainable, m.parameters()), update);
  else if (r.training())
    fmt::print("  full training: {} trainable parameters{}\n", format_parameters(trainable),
               update);
}

// Each operator with its runs, time, share of its phase (decoder inference: prefill, one decode
// step) or of the step, and what bounds it.
void print_operators(const model_estimate& e) {
  fmt::print("  {:<10} {:<28} {:>5} {:>10} {:>7}  {}\n", "phase", "operator", "runs", "time",
             "share", "bound");
  for (const op_row& row : op_rows(e)) {
    // Shares of their phase for decoder inference (prefill, one decode step), else of the step.
    const double whole = row.phase == "decode"    ? e.decode_per_token.value()
                         : row.phase == "prefill" ? e.prefill_time.value()
                                                  : e.time.value();
    fmt::print("  {:<10} {:<28} {:>5} {:>10} {:>7}  {}\n", row.phase, row.name, row.repeats,
               format_duration(row.time), format_percent(row.time, whole), describe(row.bound));
  }
}

// The rates: a request's first token, tokens and three rates (llama-bench's and serving
// benchmarks'), or a step's or batch's samples and tokens, each beside the ceiling's.
void print_rates(const app::model_report& report) {
  const run_config& r = report.run;
  const model_estimate& e = report.estimate.stack;
  const model_estimate& ceiling = report.estimate.ceiling;
  const std::string hypothetical = hypothetical_mark(report);
  const bool stacked = report.stack.id != stack_id::ceiling;
  if (report.generation && r.generate == 0) {
    fmt::print("  time to first token {}; no tokens generated (--generate 0): prefill only{}\n",
               format_duration(e.prefill_time.value()), hypothetical);
    fmt::print("  prompt processing {} tokens/s{}\n", three_digits(e.prompt_tokens_per_second()),
               hypothetical);
  } else if (report.generation) {
    fmt::print("  time to first token {}, {} per output token, {} for the request{}\n",
               format_duration(e.prefill_time.value()), format_duration(e.decode_per_token.value()),
               format_duration(e.time.value()), hypothetical);
    // Three rates, as llama-bench and serving benchmarks report them apart.
    fmt::print(
        "  prompt processing {} tokens/s, generation {} tokens/s (each without the other's "
        "time){}\n",
        three_digits(e.prompt_tokens_per_second()), three_digits(e.decode_tokens_per_second()),
        hypothetical);
    fmt::print("  {} output tokens/s over the request, first token included{}{}{}\n",
               three_digits(e.tokens_per_second()), r.gpus > 1 ? " (whole job)" : "", hypothetical,
               stacked ? fmt::format(" (ceiling {}: first token {}, {} per output token)",
                                     three_digits(ceiling.tokens_per_second()),
                                     format_duration(ceiling.prefill_time.value()),
                                     format_duration(ceiling.decode_per_token.value()))
                       : "");
  } else {
    fmt::print(
        "  {} {}: {} samples/s{}{}{}{}\n", r.training() ? "step" : "batch",
        format_duration(e.time.value()), three_digits(e.samples_per_second()),
        report.transformer ? fmt::format(", {} tokens/s", three_digits(e.tokens_per_second())) : "",
        r.gpus > 1 ? " (whole job)" : "", hypothetical,
        stacked ? fmt::format(" (ceiling {}: {} samples/s)", format_duration(ceiling.time.value()),
                              three_digits(ceiling.samples_per_second()))
                : "");
  }
}

// What the figures are worth: the stack's held-out error on published runs, each run predicted
// without its own source (docs/evidence.md, "Error bands"); a split's and a job's bands.
void print_accuracy(const app::model_report& report) {
  const run_config& r = report.run;
  const model_estimate& e = report.estimate.stack;
  const software_stack& stack = report.stack;
  const bool generation = report.generation;
  if (stack.id != stack_id::ceiling) {
    // What the figures are worth: the stack's held-out error on published runs, each run
    // predicted without its own source (docs/evidence.md, "Error bands").
    const std::string what =
        fmt::format("{} {}", stack.name(), r.training() ? "training" : "inference");
    const auto band = [&](estimate_figure figure) {
      // One GPU's rate, the band's own scale; a run over several GPUs shows the single-GPU
      // band's figures only (its split's or job's band follows).
      const double rate = r.gpus > 1                          ? 0.0
                          : figure == estimate_figure::decode ? e.decode_tokens_per_second()
                          : figure == estimate_figure::prompt ? e.prompt_tokens_per_second()
                                                              : e.samples_per_second();
      return band_text(error_band_of(stack.id, r.mode, figure, report.boards), what, report.boards,
                       stack, rate, figure == estimate_figure::step ? "samples/s" : "tokens/s");
    };
    const std::string bands =
        generation ? fmt::format("generation {}; prompt processing {}",
                                 band(estimate_figure::decode), band(estimate_figure::prompt))
                   : band(estimate_figure::step);
    fmt::print("  accuracy, each run held out of the fit by its source: {}{}\n", bands,
               r.gpus > 1 ? " (these from runs on one GPU)" : "");
    if (report.split && generation) {
      // A split run's own band: the published runs of that split, which no figure is fitted on
      // (docs/evidence.md, "Several GPUs").
      const split_mode how = inference_split_of(r);
      const auto split_band = [&](estimate_figure figure, double rate) {
        return split_band_text(inference_split_band_of(stack.id, how, figure, report.boards),
                               stack.id, how, report.boards, rate);
      };
      fmt::print("  on {} GPUs: generation {}; prompt processing {}\n", r.gpus,
                 split_band(estimate_figure::decode, e.decode_tokens_per_second()),
                 split_band(estimate_figure::prompt, e.prompt_tokens_per_second()));
    }
  }
  if (report.job)
    fmt::print("  on many GPUs: {}\n",
               training_band_text(report.run, report.seq, report.boards,
                                  report.transformer ? e.tokens_per_second() : 0.0));
}

// The FLOP rate per GPU against its peak, and memory per GPU: the need by kind, the fit and
// margin, and what would make a run that does not fit fit.
void print_rate_and_memory(const app::model_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const model_estimate& e = report.estimate.stack;
  const fit_verdict& f = report.fit;
  const software_stack& stack = report.stack;
  fmt::print("  {} per GPU ({} of peak {}), model FLOPs utilisation {}{}\n",
             format_si(report.per_gpu(e).value(), "FLOP/s"),
             format_percent(report.per_gpu(e).value(), e.peak.value()),
             format_si(e.peak.value(), "FLOP/s"), format_percent(report.mfu(e), 1.0),
             hypothetical_mark(report));
  const memory_breakdown& n = f.need;
  fmt::print(
      "memory per GPU: weights {}, gradients {}, optimizer {}, activations {}, KV cache {}, "
      "overhead {}\n",
      format_bytes(n.weights.value()), format_bytes(n.gradients.value()),
      format_bytes(n.optimizer.value()), format_bytes(n.activations.value()),
      format_bytes(n.kv_cache.value()), format_bytes(n.overhead.value()));
  fmt::print("  total {} of {}: {} ({} {}){}\n", format_bytes(n.total().value()),
             format_bytes(f.capacity.value()), f.fits ? "fits" : "does NOT fit",
             f.fits ? "margin" : "short by", format_bytes(std::abs(f.margin.value())),
             report.offload ? fmt::format("; in host memory: weights {}",
                                          format_bytes(report.offload->host_weights.value()))
                            : fmt::format("; largest batch that fits: {}", f.max_batch));
  if (report.unified_memory > byte_count{})
    fmt::print("  ({} is the GPU's working set of the Mac's {} of unified memory)\n",
               format_bytes(f.capacity.value()), format_bytes(report.unified_memory.value()));
  if (report.fitting_tp)
    fmt::print("  with --tp {} (tensor parallelism over the {} GPUs) it fits\n", *report.fitting_tp,
               r.gpus);
  else if (!f.fits && r.gpus == 1 && m.kind == model_kind::transformer)
    fmt::print("  more GPUs share the weights: --gpus N{}\n",
               !r.training() && stack.multi_gpu.split == split_mode::layer
                   ? fmt::format(" ({} splits by layers)", stack.name())
                   : " --tp N (tensor parallelism)");
}

// The report for people: the verdict, the stack, the split or job, each operator, the rates,
// the error bands and the memory (docs/models.md).
void print_report(const app::model_report& report) {
  print_run_and_verdict(report);
  print_setup(report);
  print_layout(report);
  print_weights_and_update(report);
  print_operators(report.estimate.stack);
  print_rates(report);
  print_accuracy(report);
  print_rate_and_memory(report);
}

void run(const model_options& o) {
  io::string_store strings;
  app::model_request q;
  q.model = app::select_model(o.preset, o.config, o.shape, strings);
  run_options flags = o.run;
  if (o.serve.serve && !flags.train) flags.infer = true;  // --serve is inference
  q.run = make_run(flags);
  if (!o.link.empty()) q.run.link = &find_link(o.link);
  q.device = with_power_limit(select_device(o.gpu, o.device), o.power_limit, &q.power_limit);
  q.device_file = o.device;
  if (o.serve.serve) {
    const app::serve_report report =
        app::estimate(app::make_serve_request(std::move(q), o.serve.settings, o.batch_given));
    if (o.json)
      print_json(app::to_json(report));
    else
      print_serving(report);
    return;
  }
  const app::model_report report = app::estimate(q);
  if (o.json)
    print_json(app::to_json(report));
  else
    print_report(report);
}

}  // namespace

void add_models_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("models", "List the model presets with their parameters");
  auto json = command_options<bool>(cmd);
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  cmd->callback([json] { list_presets(*json); });
}

void add_model_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "model", "A whole model's training step or inference on a GPU, and whether it fits");
  auto o = command_options<model_options>(cmd);
  add_preset_option(cmd, o->preset);
  cmd->add_option("--config", o->config,
                  "A model file: dlperf's JSON or a HuggingFace config.json (docs/models.md)");
  app::shape_options& shape = o->shape;
  cmd->add_option("--layers", shape.layers, "Shape flags: layers");
  cmd->add_option("--hidden", shape.hidden, "Shape flags: model width");
  cmd->add_option("--heads", shape.heads, "Shape flags: attention heads");
  add_enum_option<ffn_kind>(cmd, "--ffn-kind", shape.ffn_type, "Shape flags: FFN kind");
  add_enum_option<transformer_kind>(cmd, "--arch", shape.kind,
                                    "Shape flags: encoder, decoder or encoder_decoder");
  cmd->add_option("--vocab", shape.vocab, "Shape flags: vocabulary");
  cmd->add_option("--max-seq", shape.max_seq,
                  "Shape flags: longest sequence (context); with --preset or --config, the "
                  "model's context extended for the run");
  add_enum_option<norm_kind>(cmd, "--norm", shape.norm, "Shape flags: layernorm or rmsnorm");
  for (std::size_t i = 0; i < app::shape_sizes.size(); ++i)
    cmd->add_option(std::string(app::shape_sizes[i].flag), shape.sizes[i],
                    "Shape flags: " + std::string(app::shape_sizes[i].help));
  for (std::size_t i = 0; i < app::shape_switches.size(); ++i)
    cmd->add_flag(std::string(app::shape_switches[i].flag), shape.switches[i],
                  "Shape flags: " + std::string(app::shape_switches[i].help));
  add_device_options(cmd, o->gpu, o->device);
  add_run_options(cmd, o->run);
  cmd->add_option("--link", o->link,
                  "Several GPUs: the link between them (default: the system's, NVLink on "
                  "data-centre boards, else PCIe x16; docs/parallel.md, docs/buying.md): {" +
                      link_ids() + "}")
      ->check(link_validator());
  add_power_limit_option(cmd, o->power_limit);
  add_serve_options(cmd, o->serve);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, cmd] {
    check_serve_flags(o->serve, cmd);
    o->batch_given = cmd->count("--batch") > 0;
    // The first shape flag given that a preset or model file refuses.
    for (const std::string_view k : app::shape_keywords()) {
      std::string flag = "--" + std::string(k);
      std::replace(flag.begin(), flag.end(), '_', '-');
      if (app::refused_beside_model(flag) && cmd->count(flag) > 0) {
        o->shape.first_given = flag;
        break;
      }
    }
    run(*o);
  });
}

}  // namespace dlperf::cli
