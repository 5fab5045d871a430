// `dlperf models [--json]`: the model presets. `dlperf model ...`: a whole model's training step
// or inference on one GPU (or a data-parallel / tensor-parallel job), op by op, with the memory
// it needs and whether it fits (docs/models.md).
#include <fmt/format.h>
#include <algorithm>
#include <dlperf/io/model_json.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/stack/stacks.hpp>
#include <memory>
#include <optional>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

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
    fmt::print("{}\n", out.dump(2));
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
  // A transformer from flags.
  std::string layers, hidden, heads, kv_heads = "0", ffn = "0", vocab, max_seq;
  ffn_kind ffn_type = ffn_kind::gelu;
  transformer_kind kind = transformer_kind::decoder;
  std::string experts = "0", experts_per_token = "0";
  run_options run;
  bool json = false;
};

// The model the options name: exactly one of --preset, --config and --layers (with the other
// shape flags).
model_spec select_model(const model_options& o, io::string_store& strings) {
  const int sources =
      (o.preset.empty() ? 0 : 1) + (o.config.empty() ? 0 : 1) + (o.layers.empty() ? 0 : 1);
  if (sources != 1)
    throw usage_error(
        "give exactly one of --preset NAME, --config FILE and the shape flags "
        "(--layers, --hidden, --heads, --vocab, --max-seq)");
  if (!o.preset.empty()) return presets::find(o.preset);
  if (!o.config.empty()) return io::read_model_file(o.config, strings);
  for (const auto& [flag, value] :
       {std::pair{"--hidden", &o.hidden}, std::pair{"--heads", &o.heads},
        std::pair{"--vocab", &o.vocab}, std::pair{"--max-seq", &o.max_seq}})
    if (value->empty()) throw usage_error(std::string(flag) + " is required with --layers");
  transformer_config t;
  t.kind = o.kind;
  t.layers = parse_count("--layers", o.layers);
  t.hidden = parse_count("--hidden", o.hidden);
  t.heads = parse_count("--heads", o.heads);
  t.kv_heads = static_cast<long long>(parse_amount("--kv-heads", o.kv_heads));
  t.ffn = static_cast<long long>(parse_amount("--ffn", o.ffn));
  t.ffn_type = o.ffn_type;
  t.vocab = parse_count("--vocab", o.vocab);
  t.max_seq = parse_count("--max-seq", o.max_seq);
  t.experts = static_cast<long long>(parse_amount("--experts", o.experts));
  t.experts_per_token =
      static_cast<long long>(parse_amount("--experts-per-token", o.experts_per_token));
  if (t.kind == transformer_kind::encoder_decoder) t.decoder_layers = t.layers;
  t.validate();
  return as_model(t);
}

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

void run(const model_options& o) {
  io::string_store strings;
  const model_spec m = select_model(o, strings);
  const run_config r = make_run(o.run);
  const cli_device dev = select_device(o.gpu, o.device);
  const software_stack& stack = stacks::of(o.run.stack);
  struct result {
    stacked_estimate estimate;
    fit_verdict fit;
    std::string gpu_name, arch;
  };
  const result res = visit_device(dev, [&](const auto& d) -> result {
    if constexpr (gemm_device<std::decay_t<decltype(d)>>)
      return {estimate_model(d, m, r, stack), check_fit(d, m, r), std::string(d.name()),
              std::string(d.arch().name)};
    else
      throw usage_error("model needs a GPU: device file '" + o.device + "' describes a host CPU");
  });
  // Every figure below is the stack's; the ceiling (the same kernel sequence at the hardware
  // model's speed) is shown beside it (docs/stacks.md).
  const model_estimate& e = res.estimate.stack;
  const model_estimate& ceiling = res.estimate.ceiling;
  const fit_verdict& f = res.fit;
  const bool transformer = m.kind == model_kind::transformer;
  const bool generation = transformer && !r.training() && m.transformer.generates();
  long long seq = 0;
  if (transformer) {
    const detail::transformer_shapes s = detail::transformer_shapes::of(m.transformer, r);
    seq = s.seq;
  }
  const std::vector<op_row> rows = op_rows(e);
  if (o.json) {
    nlohmann::json ops = nlohmann::json::array();
    for (const op_row& row : rows)
      ops.push_back({{"phase", row.phase},
                     {"name", row.name},
                     {"kind", name(row.kind)},
                     {"repeats", row.repeats},
                     {"time_s", row.time},
                     {"bound", name(row.bound)}});
    nlohmann::json out = {
        {"model", m.name},
        {"kind", name(m.kind)},
        {"gpu", device_label(dev)},
        {"dtype", name(r.type)},
        {"mode", name(r.mode)},
        {"batch", r.batch},
        {"seq", transformer ? nlohmann::json(seq) : nlohmann::json(nullptr)},
        {"image", transformer ? nlohmann::json(nullptr) : nlohmann::json(r.image)},
        {"parameters", m.parameters()},
        {"gpus", r.gpus},
        {"tp", r.tp},
        {"zero", r.zero},
        {"eager", run_under(stack, r).eager},
        {"stack", stack.name()},
        {"step_time_s", e.time.value()},
        {"samples_per_s", e.samples_per_second()},
        {"tokens_per_s",
         transformer ? nlohmann::json(e.tokens_per_second()) : nlohmann::json(nullptr)},
        {"tflops", in_teraflops(e.achieved())},
        {"mfu", e.mfu()},
        {"memory",
         {{"weights_bytes", f.need.weights.value()},
          {"gradients_bytes", f.need.gradients.value()},
          {"optimizer_bytes", f.need.optimizer.value()},
          {"activations_bytes", f.need.activations.value()},
          {"kv_cache_bytes", f.need.kv_cache.value()},
          {"overhead_bytes", f.need.overhead.value()},
          {"total_bytes", f.need.total().value()},
          {"capacity_bytes", f.capacity.value()},
          {"margin_bytes", f.margin.value()}}},
        {"fits", f.fits},
        {"max_batch", f.max_batch},
        {"ops", ops},
    };
    nlohmann::json ceil = {
        {"step_time_s", ceiling.time.value()},
        {"samples_per_s", ceiling.samples_per_second()},
        {"tokens_per_s",
         transformer ? nlohmann::json(ceiling.tokens_per_second()) : nlohmann::json(nullptr)},
        {"tflops", in_teraflops(ceiling.achieved())},
        {"mfu", ceiling.mfu()}};
    if (generation) {
      out["prompt"] = seq;
      out["generate"] = r.generate;
      out["prefill_s"] = e.prefill_time.value();
      out["decode_s_per_token"] = e.decode_per_token.value();
      ceil["prefill_s"] = ceiling.prefill_time.value();
      ceil["decode_s_per_token"] = ceiling.decode_per_token.value();
    }
    out["ceiling"] = ceil;
    fmt::print("{}\n", out.dump(2));
    return;
  }

  const std::string shape = describe_shape(m, r);
  fmt::print("{} ({} parameters): {} on {} ({}), {}, {}{}\n", m.name,
             format_parameters(m.parameters()), r.training() ? "training step" : "inference",
             res.gpu_name, res.arch, name(r.type), shape,
             r.gpus > 1 ? fmt::format(", {} GPUs (tp {}, ZeRO {})", r.gpus, r.tp, r.zero) : "");
  fmt::print("  software stack: {} ({}); ceiling: the hardware model\n", stack.name(),
             description(stack.id));
  fmt::print("  {:<10} {:<28} {:>5} {:>10} {:>7}  {}\n", "phase", "operator", "runs", "time",
             "share", "bound");
  for (const op_row& row : rows) {
    // Shares of their phase for decoder inference (prefill, one decode step), else of the step.
    const double whole = row.phase == "decode"    ? e.decode_per_token.value()
                         : row.phase == "prefill" ? e.prefill_time.value()
                                                  : e.time.value();
    fmt::print("  {:<10} {:<28} {:>5} {:>10} {:>7}  {}\n", row.phase, row.name, row.repeats,
               format_duration(row.time), format_percent(row.time, whole), describe(row.bound));
  }
  const bool stacked = stack.id != stack_id::ceiling;
  if (generation) {
    fmt::print("  time to first token {}, {} per output token, {} for the request\n",
               format_duration(e.prefill_time.value()), format_duration(e.decode_per_token.value()),
               format_duration(e.time.value()));
    fmt::print("  {} output tokens/s{}{}\n", three_digits(e.tokens_per_second()),
               r.gpus > 1 ? " (whole job)" : "",
               stacked ? fmt::format(" (ceiling {}: first token {}, {} per output token)",
                                     three_digits(ceiling.tokens_per_second()),
                                     format_duration(ceiling.prefill_time.value()),
                                     format_duration(ceiling.decode_per_token.value()))
                       : "");
  } else {
    fmt::print(
        "  {} {}: {} samples/s{}{}{}\n", r.training() ? "step" : "batch",
        format_duration(e.time.value()), three_digits(e.samples_per_second()),
        transformer ? fmt::format(", {} tokens/s", three_digits(e.tokens_per_second())) : "",
        r.gpus > 1 ? " (whole job)" : "",
        stacked ? fmt::format(" (ceiling {}: {} samples/s)", format_duration(ceiling.time.value()),
                              three_digits(ceiling.samples_per_second()))
                : "");
  }
  fmt::print("  {} per GPU ({} of peak {}), model FLOPs utilisation {}\n",
             format_si(e.achieved().value(), "FLOP/s"),
             format_percent(e.achieved().value(), e.peak.value()),
             format_si(e.peak.value(), "FLOP/s"), format_percent(e.mfu(), 1.0));
  const memory_breakdown& n = f.need;
  fmt::print(
      "memory per GPU: weights {}, gradients {}, optimizer {}, activations {}, KV cache {}, "
      "overhead {}\n",
      format_si(n.weights.value(), "B"), format_si(n.gradients.value(), "B"),
      format_si(n.optimizer.value(), "B"), format_si(n.activations.value(), "B"),
      format_si(n.kv_cache.value(), "B"), format_si(n.overhead.value(), "B"));
  fmt::print("  total {} of {}: {} ({} {}); largest batch that fits: {}\n",
             format_si(n.total().value(), "B"), format_si(f.capacity.value(), "B"),
             f.fits ? "fits" : "does NOT fit", f.fits ? "margin" : "short by",
             format_si(std::abs(f.margin.value()), "B"), f.max_batch);
}

}  // namespace

void add_models_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("models", "List the model presets with their parameters");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  cmd->callback([json] { list_presets(*json); });
}

void add_model_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "model", "A whole model's training step or inference on a GPU, and whether it fits");
  auto o = std::make_shared<model_options>();
  add_preset_option(cmd, o->preset);
  cmd->add_option("--config", o->config, "A model file (JSON: docs/models.md)");
  cmd->add_option("--layers", o->layers, "Shape flags: layers");
  cmd->add_option("--hidden", o->hidden, "Shape flags: model width");
  cmd->add_option("--heads", o->heads, "Shape flags: attention heads");
  cmd->add_option("--kv-heads", o->kv_heads, "Shape flags: key/value heads (0: as many as heads)");
  cmd->add_option("--ffn", o->ffn, "Shape flags: FFN width (0: 4 x hidden)");
  add_enum_option<ffn_kind>(cmd, "--ffn-kind", o->ffn_type, "Shape flags: FFN kind");
  add_enum_option<transformer_kind>(cmd, "--arch", o->kind,
                                    "Shape flags: encoder, decoder or encoder_decoder");
  cmd->add_option("--vocab", o->vocab, "Shape flags: vocabulary");
  cmd->add_option("--max-seq", o->max_seq, "Shape flags: longest sequence (context)");
  cmd->add_option("--experts", o->experts, "Shape flags: MoE experts per layer (0: dense)");
  cmd->add_option("--experts-per-token", o->experts_per_token,
                  "Shape flags: MoE experts per token");
  add_device_options(cmd, o->gpu, o->device);
  add_run_options(cmd, o->run);
  add_stack_option(cmd, o->run);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
