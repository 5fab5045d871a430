// The run flags shared by the model-estimating commands (run_options.hpp).
#include "run_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/stacks.hpp>

#include "cli_support.hpp"

namespace dlperf::cli {

CLI::Option* add_preset_option(CLI::App* cmd, std::string& preset) {
  std::string preset_names;
  for (const model_spec& m : presets::all)
    preset_names += (preset_names.empty() ? "" : "|") + std::string(m.name);
  return cmd->add_option("--preset", preset, "A model preset: {" + preset_names + "}")
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            try {
              (void)presets::find(input);
              return {};
            } catch (const not_found& e) {
              return e.what();
            }
          },
          "PRESET", "preset"));
}

std::string first_given_run_flag(const CLI::App& cmd,
                                 std::initializer_list<std::string_view> except) {
  for (const app::run_field& f : app::run_fields()) {
    if (std::find(except.begin(), except.end(), f.flag) != except.end()) continue;
    const CLI::Option* given = cmd.get_option_no_throw(std::string(f.flag));
    if (given != nullptr && given->count() > 0) return std::string(f.flag);
  }
  return {};
}

namespace {
// The host memory configurations' ids, for the help ("ddr4_2400_2ch|...").
std::string host_memory_ids() {
  std::string ids;
  for (const host_memory_spec* h : host_memories::all)
    ids += (ids.empty() ? "" : "|") + std::string(h->id);
  return ids;
}
}  // namespace

void reject_run_flags_beside_guide_task(const CLI::App& cmd, const std::string& task) {
  if (const std::string flag = first_given_run_flag(cmd, {"--stack", "--gpus"});
      app::is_guide_task(task) && !flag.empty())
    throw usage_error(fmt::format(
        "{}: the run flags describe --task PRESET's run; the guide's task {} fixes its own", flag,
        task));
}

void add_run_options(CLI::App* cmd, run_options& o, bool parallel) {
  cmd->add_flag("--train", o.train, "A training step (the default)");
  cmd->add_flag("--infer", o.infer, "Inference");
  cmd->add_option("--batch", o.batch, "Sequences or images per replica")->capture_default_str();
  cmd->add_option("--seq", o.seq, "Tokens per sequence (0: the model's context)");
  cmd->add_option("--image", o.image, "Image side in pixels (CNNs)")->capture_default_str();
  cmd->add_option("--prompt", o.prompt, "Decoder inference: prompt tokens (0: --seq)");
  cmd->add_option("--generate", o.generate, "Decoder inference: tokens to generate");
  add_enum_option<dtype>(cmd, "--dtype", o.type, "Compute datatype (default bf16)");
  add_enum_option<weight_format>(cmd, "--weights", o.weights,
                                 "Inference weight format (docs/models.md, weight formats)");
  add_enum_option<kv_cache_type>(cmd, "--kv-dtype", o.kv_cache,
                                 "Decoder inference: KV-cache datatype (default auto: the run's)");
  add_enum_option<optimizer_kind>(cmd, "--optimizer", o.optimizer, "Optimizer (default adam)");
  add_enum_option<optimizer_kernel>(cmd, "--optimizer-kernels", o.optimizer_kernels,
                                    "Training: kernels of the optimizer's update (default "
                                    "as-stack: the stack's; docs/stacks.md)");
  cmd->add_flag("--checkpointing", o.checkpointing, "Activation checkpointing (recompute)");
  add_enum_option<selective_checkpointing>(
      cmd, "--selective-checkpointing", o.selective,
      "Training: recompute part of the forward as torchtitan's selective activation "
      "checkpointing does: ops (its per-op policy) or layers (every second layer); "
      "docs/models.md");
  cmd->add_option("--doc-tokens", o.document,
                  "Training: mean tokens per document of the data set; shorter than --seq, "
                  "each is padded to it unless --packing (0: documents fill the sequence)");
  cmd->add_flag("--packing", o.packing,
                "Training: pack documents into each sequence, attending within each under "
                "fused attention (needs --doc-tokens)");
  cmd->add_flag("--nchw", o.nchw,
                "CNNs: activations in NCHW (PyTorch's default layout), transposed around each "
                "16-bit tensor-core convolution");
  cmd->add_flag("--no-flash", o.no_flash, "Unfused attention (score matrix through DRAM)");
  add_enum_option<attention_kernel>(
      cmd, "--attention", o.attention,
      "Attention kernel in place of the stack's (default as-run: the stack's): "
      "flash-attention-2, flash-attention-3 (Hopper), flash-attention-triton (the "
      "FlashAttention-1 era Triton kernel) or unfused (docs/stacks.md)");
  cmd->add_flag("--eager", o.eager,
                "Element-wise ops as kernels of their own, as an eager framework runs them");
  cmd->add_option("--lora", o.lora,
                  "Train LoRA adapters of this rank instead of every weight (docs/models.md)");
  cmd->add_option(
      "--lora-targets", o.lora_targets,
      "LoRA target modules: all or a list of {" + enum_names<lora_target>(",") + "} (default q,v)");
  cmd->add_flag("--qlora", o.qlora,
                "QLoRA: the frozen base in 4-bit NF4 with double-quantised scales (needs --lora)");
  if (parallel) {
    cmd->add_option("--gpus", o.gpus, "GPUs of the job")->capture_default_str();
    cmd->add_option("--zero", o.zero, "ZeRO stage 0..3 over the data-parallel GPUs")
        ->capture_default_str();
    cmd->add_option("--tp", o.tp, "Tensor-parallel degree")->capture_default_str();
    cmd->add_option("--pp", o.pp,
                    "Training: pipeline stages under Megatron's 1F1B schedule, --grad-accum "
                    "micro-batches in flight (docs/parallel.md)")
        ->capture_default_str();
    cmd->add_option("--vpp", o.vpp,
                    "Training with --pp: model chunks per GPU (interleaved 1F1B; divides the "
                    "bubble)")
        ->capture_default_str();
    add_enum_option<split_mode>(
        cmd, "--split", o.split,
        "Inference: how one model copy spreads over the GPUs (default: the stack's; llama.cpp "
        "and pytorch-eager by layers, the others by tensors with --tp, the rest replicas; "
        "docs/parallel.md)");
    cmd->add_option("--gpus-per-node", o.gpus_per_node,
                    "GPUs in one server; a job of more crosses --network (docs/parallel.md)")
        ->capture_default_str();
    cmd->add_option("--network", o.network,
                    "Training across servers: each GPU's port to the others (default: the "
                    "server's, InfiniBand at its PCIe generation's rate): {" +
                        link_ids() + "}");
    cmd->add_flag("--fp32-reduce", o.fp32_reduce,
                  "Training with --zero 2 or 3 (FSDP): reduce-scatter gradients in FP32");
    cmd->add_option("--gpu-layers", o.gpu_layers,
                    "Inference with --stack llama.cpp on one GPU: layers on the GPU, the rest in "
                    "host memory (llama.cpp's -ngl; more than the layers: the output layer too; "
                    "docs/models.md, \"Partial offload\")");
    cmd->add_option("--host-memory", o.host_memory,
                    std::string("With --gpu-layers: the host memory the other layers are read "
                                "from (default ") +
                        std::string(host_memories::typical.id) + "): {" + host_memory_ids() + "}");
  }
  cmd->add_option("--grad-accum", o.grad_accum,
                  "Training: micro-batches of --batch per optimizer step (gradient accumulation)")
      ->capture_default_str();
  cmd->add_option("--overhead", o.overhead, "Framework and workspace memory per GPU")
      ->capture_default_str();
  // Every command that runs a model offers the stack: a ranking or speed-up under a stack can
  // differ from the hardware model's (docs/stacks.md).
  add_enum_option<stack_id>(cmd, "--stack", o.stack,
                            "Software stack the model runs under (default ceiling: the hardware "
                            "model; docs/stacks.md)");
}

std::string describe_stack(stack_id s) {
  if (s == stack_id::ceiling)
    return "software stack: none (--stack picks one); the times are the hardware model's: "
           "well-tuned kernels, no host overhead";
  return fmt::format("software stack: {} ({})", name(s), description(s));
}

std::string describe_stack_builds(stack_id s) {
  std::vector<std::string> builds;
  for (const vendor v : enum_values<vendor>)
    if (const stack_id own = stacks::build_for(s, v); own != s)
      builds.push_back(fmt::format("{} GPUs run {}", description(v), name(own)));
  if (builds.empty()) return describe_stack(s);
  return fmt::format("{}; {}, its build{} for them", describe_stack(s), fmt::join(builds, " and "),
                     builds.size() > 1 ? "s" : "");
}

std::string ceiling_bracket_note(stack_id s) {
  if (s == stack_id::ceiling) return {};
  return "; in brackets, the hardware model's ceiling of the kernels this stack runs (its fusion, "
         "attention, norm and GEMM-call choices kept; --stack ceiling runs the command's own)";
}

std::string describe_shape(const model_spec& m, const run_config& r) {
  if (m.kind != model_kind::transformer)
    return fmt::format("batch {} x {}x{} px", r.batch, r.image, r.image);
  const long long seq = detail::transformer_shapes::of(m.transformer, r).seq;
  if (!r.training() && m.transformer.generates())
    return fmt::format("batch {}, prompt {} + {} generated tokens", r.batch, seq, r.generate);
  if (r.document == 0 || r.document == seq)
    return fmt::format("batch {} x {} tokens", r.batch, seq);
  const double per = static_cast<double>(seq) / static_cast<double>(r.document);
  if (r.packing)
    return fmt::format("batch {} x {} tokens, documents of {} packed ({} a sequence)", r.batch, seq,
                       r.document, three_digits(per));
  return fmt::format("batch {} x {} tokens, each a document of {} padded ({} real)", r.batch, seq,
                     r.document, format_percent(1.0, per));
}

}  // namespace dlperf::cli
