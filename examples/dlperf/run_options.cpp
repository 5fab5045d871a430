// The run flags shared by the model-estimating commands (run_options.hpp).
#include "run_options.hpp"

#include <fmt/format.h>
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

std::string ceiling_bracket_note(stack_id s) {
  if (s == stack_id::ceiling) return {};
  return "; in brackets, the hardware model's ceiling of the kernels this stack runs (its fusion, "
         "attention and norm choices kept; --stack ceiling runs the command's own)";
}

namespace {

// The stacks that run training steps, for a message.
std::string training_stacks() {
  std::string out;
  for (const software_stack* s : stacks::all)
    if (s->trains) out += (out.empty() ? "" : ", ") + std::string(s->name());
  return out;
}

}  // namespace

rank_workload task_workload(rank_task t, stack_id stack) {
  if (t == rank_task::train16 && !stacks::of(stack).trains)
    throw usage_error("--stack " + std::string(name(stack)) + " is an inference engine: task " +
                      std::string(name(t)) + " trains; rank infer16 or infer8 under it, or " +
                      "train16 under one of " + training_stacks());
  return make_workload(t, stack);
}

run_config make_run(const run_options& o) {
  if (o.train && o.infer) throw usage_error("give one of --train and --infer");
  run_config r;
  r.mode = o.infer ? run_mode::infer : run_mode::train;
  r.batch = parse_count("--batch", o.batch);
  r.seq = parse_tokens("--seq", o.seq);
  r.image = parse_count("--image", o.image);
  r.prompt = parse_tokens("--prompt", o.prompt);
  r.generate = parse_tokens("--generate", o.generate);
  r.type = o.type;
  r.weights = o.weights;
  r.kv_cache = o.kv_cache;
  r.optimizer = o.optimizer;
  r.optimizer_kernels = o.optimizer_kernels;
  if (r.optimizer_kernels != optimizer_kernel::as_stack) {
    if (!r.training()) throw usage_error("--optimizer-kernels is for --train");
    if (r.optimizer == optimizer_kind::adam8bit &&
        r.optimizer_kernels != optimizer_kernel::per_tensor_fused)
      throw usage_error(
          "--optimizer-kernels: adam8bit runs bitsandbytes' fused kernel per tensor, so "
          "per-tensor-fused (or as-stack), not " +
          std::string(name(r.optimizer_kernels)));
  }
  r.checkpointing = o.checkpointing;
  if (o.selective != selective_checkpointing::none && o.checkpointing)
    throw usage_error(
        "--selective-checkpointing recomputes part of the forward, --checkpointing all of it: "
        "give one");
  if (o.selective != selective_checkpointing::none && o.infer)
    throw usage_error("--selective-checkpointing is for --train");
  r.selective = o.selective;
  r.document = parse_tokens("--doc-tokens", o.document);
  r.packing = o.packing;
  r.nchw = o.nchw;
  if ((r.document > 0 || r.packing) && !r.training())
    throw usage_error(std::string(r.packing ? "--packing" : "--doc-tokens") +
                      " describes a training set: it is for --train");
  if (r.packing && r.document == 0)
    throw usage_error("--packing needs --doc-tokens N, the documents' mean length in tokens");
  r.flash_attention = !o.no_flash;
  if (o.attention == attention_kernel::vendor)
    throw usage_error(
        "--attention vendor is an engine's own kernel: give the engine's --stack instead");
  if (o.no_flash && o.attention != attention_kernel::as_run &&
      o.attention != attention_kernel::unfused)
    throw usage_error("--attention " + std::string(name(o.attention)) +
                      " is a fused kernel, but --no-flash asks for unfused attention");
  r.attention = o.attention;
  r.eager = o.eager;
  r.gpus = parse_count("--gpus", o.gpus);
  const double zero = parse_amount("--zero", o.zero);
  if (zero != 0 && zero != 1 && zero != 2 && zero != 3)
    throw usage_error("--zero: must be 0, 1, 2 or 3, got '" + o.zero + "'");
  r.zero = static_cast<int>(zero);
  r.tp = parse_count("--tp", o.tp);
  r.grad_accumulation = parse_count("--grad-accum", o.grad_accum);
  if (r.grad_accumulation > 1 && !r.training()) throw usage_error("--grad-accum is for --train");
  r.gpus_per_node = parse_count("--gpus-per-node", o.gpus_per_node);
  if (!o.network.empty()) {
    try {
      r.network = &find_link(o.network);
    } catch (const dlperf::error& e) {
      throw usage_error(std::string("--network: ") + e.what());
    }
  }
  r.fp32_gradient_reduce = o.fp32_reduce;
  if (r.fp32_gradient_reduce && r.zero < 2)
    throw usage_error("--fp32-reduce is for sharded gradients: give --zero 2 or 3");
  r.overhead_bytes = parse_plausible("--overhead", o.overhead);
  r.stack = o.stack;
  // A layer split (the stack's default, or --split layer) spreads one model copy over every GPU
  // that --tp leaves: llama.cpp runs one process on all the GPUs it sees.
  const split_mode split = o.split ? *o.split : stacks::of(r.stack).multi_gpu.split;
  if (o.split == split_mode::layer && !o.infer)
    throw usage_error("--split layer is for --infer: a training pipeline takes --pp STAGES (1F1B)");
  if (split == split_mode::layer && o.infer && r.tp > 0 && r.gpus % r.tp == 0) r.pp = r.gpus / r.tp;
  const long long stages = parse_count("--pp", o.pp);
  const long long chunks = parse_count("--vpp", o.vpp);
  if ((stages > 1 || chunks > 1) && !r.training())
    throw usage_error(std::string(stages > 1 ? "--pp" : "--vpp") +
                      " is a training pipeline: for --infer, --split layer spreads the layers");
  if (chunks > 1 && stages < 2) throw usage_error("--vpp needs --pp 2 or more");
  if (r.training()) {
    r.pp = stages;
    r.virtual_stages = chunks;
    if (r.gpus % (r.tp * r.pp) != 0)
      throw usage_error(fmt::format("--tp {} x --pp {} must divide --gpus {}", r.tp, r.pp, r.gpus));
  }
  if (r.training() && !stacks::of(r.stack).trains)
    throw usage_error("--stack " + std::string(name(r.stack)) +
                      " is an inference engine: give --infer, or train under one of " +
                      training_stacks());
  if (!o.lora.empty()) {
    r.lora.rank = parse_count("--lora", o.lora);
    if (!r.training()) throw usage_error("--lora and --qlora are for --train");
  } else if (!o.lora_targets.empty() || o.qlora) {
    throw usage_error(std::string(o.qlora ? "--qlora" : "--lora-targets") + " needs --lora RANK");
  }
  if (!o.lora_targets.empty()) {
    try {
      r.lora.targets = parse_lora_targets(o.lora_targets);
    } catch (const dlperf::error& e) {
      throw usage_error(std::string("--lora-targets: ") + e.what());
    }
  }
  r.lora.qlora = o.qlora;
  if (r.training() && r.weights != weight_format::native)
    throw usage_error("--weights " + std::string(name(r.weights)) + " is for --infer");
  if (r.training() && r.kv_cache != kv_cache_type::as_run)
    throw usage_error("--kv-dtype is for --infer");
  if (r.kv_cache != kv_cache_type::as_run && r.kv_cache != kv_cache_type::float16 &&
      !r.flash_attention)
    throw usage_error("--kv-dtype " + std::string(name(r.kv_cache)) +
                      " needs fused attention (engines dequantise an 8-bit KV cache inside their "
                      "attention kernels): drop --no-flash");
  r.validate();
  return r;
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

long long parse_host_gpus(const std::string& text) {
  const long long n = parse_count("--gpus", text);
  if (n != 1 && n != 2 && n != 4 && n != 8)
    throw usage_error("--gpus: hosts are priced for 1, 2, 4 or 8 GPUs, got " + text);
  return n;
}

rank_options parse_rank_options(const std::string& gpus, const std::string& min_memory) {
  rank_options o;
  o.search_gpus = gpus.empty();
  if (!o.search_gpus) o.gpus = parse_host_gpus(gpus);
  o.min_memory = gibibytes(parse_plausible("--min-memory", min_memory));
  return o;
}

}  // namespace dlperf::cli
