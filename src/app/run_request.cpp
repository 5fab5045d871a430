// One run of a whole model as a front end states it (dlperf/app/run_request.hpp).
#include <dlperf/app/run_request.hpp>

#include <fmt/format.h>
#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/hardware/host_memory.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/lora.hpp>
#include <dlperf/stack/stacks.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlperf::app {

std::string training_stacks() {
  std::string out;
  for (const software_stack* s : stacks::all)
    if (s->trains) out += (out.empty() ? "" : ", ") + std::string(s->name());
  return out;
}

namespace {

// make_run's steps, in the order its checks run (the first fault is the one named).

// The mode, the shape of the work, the datatypes and the optimizer.
void read_shape(const run_options& o, run_config& r) {
  r.mode = o.infer ? run_mode::infer : run_mode::train;
  r.batch = parse_plausible_count("--batch", o.batch);
  r.seq = parse_plausible_count("--seq", o.seq);
  r.image = parse_plausible_count("--image", o.image);
  r.prompt = parse_plausible_count("--prompt", o.prompt);
  r.generate = parse_plausible_count("--generate", o.generate);
  r.type = o.type;
  r.weights = o.weights;
  r.kv_cache = o.kv_cache;
  r.optimizer = o.optimizer;
  r.optimizer_kernels = o.optimizer_kernels;
  if (r.optimizer_kernels != optimizer_kernel::as_stack) {
    if (!r.training()) throw request_error("--optimizer-kernels is for --train");
    if (r.optimizer == optimizer_kind::adam8bit &&
        r.optimizer_kernels != optimizer_kernel::per_tensor_fused)
      throw request_error(
          "--optimizer-kernels: adam8bit runs bitsandbytes' fused kernel per tensor, so "
          "per-tensor-fused (or as-stack), not " +
          std::string(name(r.optimizer_kernels)));
  }
}

// Recompute and the training set's documents.
void read_recompute_and_documents(const run_options& o, run_config& r) {
  r.checkpointing = o.checkpointing;
  if (o.selective != selective_checkpointing::none && o.checkpointing)
    throw request_error(
        "--selective-checkpointing recomputes part of the forward, --checkpointing all of it: "
        "give one");
  if (o.selective != selective_checkpointing::none && o.infer)
    throw request_error("--selective-checkpointing is for --train");
  r.selective = o.selective;
  r.document = parse_plausible_count("--doc-tokens", o.document);
  r.packing = o.packing;
  r.nchw = o.nchw;
  if ((r.document > 0 || r.packing) && !r.training())
    throw request_error(std::string(r.packing ? "--packing" : "--doc-tokens") +
                        " describes a training set: it is for --train");
  if (r.packing && r.document == 0)
    throw request_error("--packing needs --doc-tokens N, the documents' mean length in tokens");
}

// The attention kernel and eager element-wise ops.
void read_kernels(const run_options& o, run_config& r) {
  r.flash_attention = !o.no_flash;
  if (o.attention == attention_kernel::vendor)
    throw request_error(
        "--attention vendor is an engine's own kernel: give the engine's --stack instead");
  if (o.no_flash && o.attention != attention_kernel::as_run &&
      o.attention != attention_kernel::unfused)
    throw request_error("--attention " + std::string(name(o.attention)) +
                        " is a fused kernel, but --no-flash asks for unfused attention");
  r.attention = o.attention;
  r.eager = o.eager;
}

// The GPUs, data and tensor parallelism, servers, memory overhead and the stack.
void read_parallelism(const run_options& o, run_config& r) {
  r.gpus = parse_plausible_count("--gpus", o.gpus);
  const double zero = parse_amount("--zero", o.zero);
  if (zero != 0 && zero != 1 && zero != 2 && zero != 3)
    throw request_error("--zero: must be 0, 1, 2 or 3, got '" + o.zero + "'");
  r.zero = static_cast<int>(zero);
  r.tp = parse_plausible_count("--tp", o.tp);
  r.grad_accumulation = parse_plausible_count("--grad-accum", o.grad_accum);
  if (r.grad_accumulation > 1 && !r.training()) throw request_error("--grad-accum is for --train");
  r.gpus_per_node = parse_plausible_count("--gpus-per-node", o.gpus_per_node);
  if (!o.network.empty()) {
    try {
      r.network = &find_link(o.network);
    } catch (const dlperf::error& e) {
      throw request_error(std::string("--network: ") + e.what());
    }
  }
  r.fp32_gradient_reduce = o.fp32_reduce;
  if (r.fp32_gradient_reduce && r.zero < 2)
    throw request_error("--fp32-reduce is for sharded gradients: give --zero 2 or 3");
  r.async_tp = o.async_tp;
  if (r.async_tp && (!r.training() || r.tp < 2))
    throw request_error(
        "--async-tp overlaps a training job's tensor-parallel collectives with its GEMMs: give "
        "--train and --tp 2 or more");
  r.shard_group = parse_plausible_count("--shard-group", o.shard_group);
  if (r.shard_group > 0 && (r.zero < 2 || !r.training()))
    throw request_error(
        "--shard-group is hybrid sharding of a training job's gradients: give --train and "
        "--zero 2 or 3");
  r.overhead_bytes = parse_plausible("--overhead", o.overhead);
  r.stack = o.stack;
}

// A partial offload (llama.cpp's -ngl) and the host memory its host layers are read from.
void read_offload(const run_options& o, run_config& r) {
  if (!o.gpu_layers.empty()) {
    r.gpu_layers = parse_plausible_count("--gpu-layers", o.gpu_layers);
    if (!o.infer) throw request_error("--gpu-layers is for --infer (llama.cpp's -ngl)");
    if (r.gpus > 1)
      throw request_error("--gpu-layers: a partial offload runs on one GPU, not --gpus " +
                          std::to_string(r.gpus));
  }
  if (o.host_memory.empty()) return;
  if (r.gpu_layers < 0)
    throw request_error("--host-memory is the offloaded layers' memory: give --gpu-layers N");
  try {
    r.host_memory = &host_memories::find(o.host_memory);
  } catch (const dlperf::error& e) {
    throw request_error(std::string("--host-memory: ") + e.what());
  }
}

// A layer split (inference) or a training pipeline, and whether the stack trains.
void read_pipeline(const run_options& o, run_config& r) {
  // A layer split (the stack's default, or --split layer) spreads one model copy over every GPU
  // that --tp leaves: llama.cpp runs one process on all the GPUs it sees.
  const split_mode split = o.split ? *o.split : stacks::of(r.stack).multi_gpu.split;
  if (o.split == split_mode::layer && !o.infer)
    throw request_error(
        "--split layer is for --infer: a training pipeline takes --pp STAGES (1F1B)");
  if (split == split_mode::layer && o.infer && r.tp > 0 && r.gpus % r.tp == 0) r.pp = r.gpus / r.tp;
  const long long stages = parse_plausible_count("--pp", o.pp);
  const long long chunks = parse_plausible_count("--vpp", o.vpp);
  if ((stages > 1 || chunks > 1) && !r.training())
    throw request_error(std::string(stages > 1 ? "--pp" : "--vpp") +
                        " is a training pipeline: for --infer, --split layer spreads the layers");
  if (chunks > 1 && stages < 2) throw request_error("--vpp needs --pp 2 or more");
  const long long context = parse_plausible_count("--cp", o.cp);
  if (context > 1 && !r.training())
    throw request_error(
        "--cp splits a training sequence: for --infer, --tp or --split layer spread the model");
  const long long experts = parse_plausible_count("--ep", o.ep);
  if (o.ep_dispatch != expert_dispatch::per_expert && experts < 2)
    throw request_error("--ep-dispatch sends tokens to their experts' GPUs: give --ep 2 or more");
  if (experts > 1 && !r.training())
    throw request_error(
        "--ep spreads a training job's experts: for --infer, --tp or --split layer spread the "
        "model");
  if (r.training()) {
    r.pp = stages;
    r.virtual_stages = chunks;
    r.cp = context;
    r.ep = experts;
    r.dispatch = o.ep_dispatch;
    if (r.gpus % (r.tp * r.pp * r.cp) != 0)
      throw request_error(fmt::format("--tp {} x --pp {}{} must divide --gpus {}", r.tp, r.pp,
                                      r.cp > 1 ? fmt::format(" x --cp {}", r.cp) : "", r.gpus));
  }
  if (r.training() && !stacks::of(r.stack).trains)
    throw request_error("--stack " + std::string(name(r.stack)) +
                        " is an inference engine: give --infer, or train under one of " +
                        training_stacks());
}

// LoRA and QLoRA adapters.
void read_lora(const run_options& o, run_config& r) {
  if (!o.lora.empty()) {
    r.lora.rank = parse_plausible_count("--lora", o.lora);
    if (!r.training()) throw request_error("--lora and --qlora are for --train");
  } else if (!o.lora_targets.empty() || o.qlora) {
    throw request_error(std::string(o.qlora ? "--qlora" : "--lora-targets") + " needs --lora RANK");
  }
  if (!o.lora_targets.empty()) {
    try {
      r.lora.targets = parse_lora_targets(o.lora_targets);
    } catch (const dlperf::error& e) {
      throw request_error(std::string("--lora-targets: ") + e.what());
    }
  }
  r.lora.qlora = o.qlora;
}

// Weight formats and KV-cache types are inference's, an 8-bit cache needs fused attention.
void check_inference_formats(const run_config& r) {
  if (r.training() && r.weights != weight_format::native)
    throw request_error("--weights " + std::string(name(r.weights)) + " is for --infer");
  if (r.training() && r.kv_cache != kv_cache_type::as_run)
    throw request_error("--kv-dtype is for --infer");
  if (r.kv_cache != kv_cache_type::as_run && r.kv_cache != kv_cache_type::float16 &&
      !r.flash_attention)
    throw request_error("--kv-dtype " + std::string(name(r.kv_cache)) +
                        " needs fused attention (engines dequantise an 8-bit KV cache inside their "
                        "attention kernels): drop --no-flash");
}

}  // namespace

run_config make_run(const run_options& o) {
  if (o.train && o.infer) throw request_error("give one of --train and --infer");
  run_config r;
  read_shape(o, r);
  read_recompute_and_documents(o, r);
  read_kernels(o, r);
  read_parallelism(o, r);
  read_pipeline(o, r);
  read_lora(o, r);
  read_offload(o, r);
  check_inference_formats(r);
  r.validate();
  return r;
}

namespace {

// The fields, by member: a text field keeps the text (make_run parses it), a switch and an
// enumerator are read here. Each reads back what its getter writes.
template <std::string run_options::*Member>
void set_text(run_options& o, std::string_view v) {
  o.*Member = std::string(v);
}
template <std::string run_options::*Member>
std::string text_of(const run_options& o) {
  return o.*Member;
}
template <bool run_options::*Member, std::string_view const* Flag>
void set_switch(run_options& o, std::string_view v) {
  o.*Member = parse_switch(*Flag, v);
}
template <bool run_options::*Member>
std::string switch_of(const run_options& o) {
  return o.*Member ? "true" : "false";
}
// The enumeration of a choice field's member (an enumerator, or an optional one: not given is
// the stack's choice).
template <class T>
struct enumeration_of {
  using type = T;
};
template <class T>
struct enumeration_of<std::optional<T>> {
  using type = T;
};
template <auto Member>
using member_enumeration = typename enumeration_of<
    std::remove_cvref_t<decltype(std::declval<run_options&>().*Member)>>::type;

template <auto Member, std::string_view const* Flag>
void set_choice(run_options& o, std::string_view v) {
  o.*Member = parse_named<member_enumeration<Member>>(*Flag, v);
}
template <auto Member>
std::string choice_of(const run_options& o) {
  const auto& v = o.*Member;
  if constexpr (std::is_enum_v<std::remove_cvref_t<decltype(v)>>)
    return std::string(name(v));
  else
    return v ? std::string(name(*v)) : std::string();
}

// The names a field takes or reads.
template <listed_enum E>
std::vector<std::string> names_of() {
  std::vector<std::string> out;
  for (const E e : enum_values<E>) out.emplace_back(name(e));
  return out;
}
std::vector<std::string> no_names() { return {}; }
std::vector<std::string> host_memory_names() {
  std::vector<std::string> out;
  for (const host_memory_spec* h : host_memories::all) out.emplace_back(h->id);
  return out;
}

// The flags, named once for the setters that put them in their messages.
constexpr std::string_view train_flag = "--train", infer_flag = "--infer", dtype_flag = "--dtype",
                           weights_flag = "--weights", kv_dtype_flag = "--kv-dtype",
                           optimizer_flag = "--optimizer",
                           optimizer_kernels_flag = "--optimizer-kernels",
                           checkpointing_flag = "--checkpointing",
                           selective_flag = "--selective-checkpointing", packing_flag = "--packing",
                           nchw_flag = "--nchw", no_flash_flag = "--no-flash",
                           attention_flag = "--attention", eager_flag = "--eager",
                           qlora_flag = "--qlora", split_flag = "--split",
                           fp32_reduce_flag = "--fp32-reduce", stack_flag = "--stack",
                           ep_dispatch_flag = "--ep-dispatch", async_tp_flag = "--async-tp";

// A row of each kind.
template <std::string run_options::*Member>
constexpr run_field text_field(std::string_view keyword, std::string_view flag,
                               std::string_view help, bool job_layout = false,
                               std::vector<std::string> (*names)() = &no_names) {
  return {.keyword = keyword,
          .flag = flag,
          .kind = run_field_kind::text,
          .job_layout = job_layout,
          .help = help,
          .set = &set_text<Member>,
          .get = &text_of<Member>,
          .names = names};
}
template <bool run_options::*Member, std::string_view const* Flag>
constexpr run_field toggle_field(std::string_view keyword, std::string_view help,
                                 bool job_layout = false) {
  return {.keyword = keyword,
          .flag = *Flag,
          .kind = run_field_kind::toggle,
          .job_layout = job_layout,
          .help = help,
          .set = &set_switch<Member, Flag>,
          .get = &switch_of<Member>,
          .names = &no_names};
}
template <auto Member, std::string_view const* Flag>
constexpr run_field choice_field(std::string_view keyword, std::string_view help,
                                 bool job_layout = false) {
  return {.keyword = keyword,
          .flag = *Flag,
          .kind = run_field_kind::choice,
          .job_layout = job_layout,
          .help = help,
          .set = &set_choice<Member, Flag>,
          .get = &choice_of<Member>,
          .names = &names_of<member_enumeration<Member>>};
}

constexpr bool layout = true;  // the field lays out a job over GPUs (job_layout_keywords)

// The one list of the run's fields, in the order the tool's help gives them.
constexpr auto run_field_table = std::to_array<run_field>({
    toggle_field<&run_options::train, &train_flag>("train", "A training step (the default)"),
    toggle_field<&run_options::infer, &infer_flag>("infer", "Inference"),
    text_field<&run_options::batch>("batch", "--batch", "Sequences or images per replica"),
    text_field<&run_options::seq>("seq", "--seq", "Tokens per sequence (0: the model's context)"),
    text_field<&run_options::image>("image", "--image", "Image side in pixels (CNNs)"),
    text_field<&run_options::prompt>("prompt", "--prompt",
                                     "Decoder inference: prompt tokens (0: --seq)"),
    text_field<&run_options::generate>("generate", "--generate",
                                       "Decoder inference: tokens to generate"),
    choice_field<&run_options::type, &dtype_flag>("dtype", "Compute datatype (default bf16)"),
    choice_field<&run_options::weights, &weights_flag>(
        "weights", "Inference weight format (docs/models.md, weight formats)"),
    choice_field<&run_options::kv_cache, &kv_dtype_flag>(
        "kv_dtype", "Decoder inference: KV-cache datatype (default auto: the run's)"),
    choice_field<&run_options::optimizer, &optimizer_flag>("optimizer", "Optimizer (default adam)"),
    choice_field<&run_options::optimizer_kernels, &optimizer_kernels_flag>(
        "optimizer_kernels",
        "Training: kernels of the optimizer's update (default as-stack: the stack's; "
        "docs/stacks.md)"),
    toggle_field<&run_options::checkpointing, &checkpointing_flag>(
        "checkpointing", "Activation checkpointing (recompute)"),
    choice_field<&run_options::selective, &selective_flag>(
        "selective_checkpointing",
        "Training: recompute part of the forward as torchtitan's selective activation "
        "checkpointing does: ops (its per-op policy) or layers (every second layer); "
        "docs/models.md"),
    text_field<&run_options::document>(
        "doc_tokens", "--doc-tokens",
        "Training: mean tokens per document of the data set; shorter than --seq, each is "
        "padded to it unless --packing (0: documents fill the sequence)"),
    toggle_field<&run_options::packing, &packing_flag>(
        "packing",
        "Training: pack documents into each sequence, attending within each under fused "
        "attention (needs --doc-tokens)"),
    toggle_field<&run_options::nchw, &nchw_flag>(
        "nchw",
        "CNNs: activations in NCHW (PyTorch's default layout), transposed around each 16-bit "
        "tensor-core convolution"),
    toggle_field<&run_options::no_flash, &no_flash_flag>(
        "no_flash", "Unfused attention (score matrix through DRAM)"),
    choice_field<&run_options::attention, &attention_flag>(
        "attention",
        "Attention kernel in place of the stack's (default as-run: the stack's): "
        "flash-attention-2, flash-attention-3 (Hopper), flash-attention-triton (the "
        "FlashAttention-1 era Triton kernel) or unfused (docs/stacks.md)"),
    toggle_field<&run_options::eager, &eager_flag>(
        "eager", "Element-wise ops as kernels of their own, as an eager framework runs them"),
    text_field<&run_options::lora>(
        "lora", "--lora",
        "Train LoRA adapters of this rank instead of every weight (docs/models.md)"),
    text_field<&run_options::lora_targets>(
        "lora_targets", "--lora-targets",
        "LoRA target modules, all or a comma-separated list of them (default q,v)", false,
        &names_of<lora_target>),
    toggle_field<&run_options::qlora, &qlora_flag>(
        "qlora", "QLoRA: the frozen base in 4-bit NF4 with double-quantised scales (needs --lora)"),
    text_field<&run_options::gpus>("gpus", "--gpus", "GPUs of the job", layout),
    text_field<&run_options::zero>("zero", "--zero", "ZeRO stage 0..3 over the data-parallel GPUs",
                                   layout),
    text_field<&run_options::tp>("tp", "--tp", "Tensor-parallel degree", layout),
    toggle_field<&run_options::async_tp, &async_tp_flag>(
        "async_tp",
        "Training with --tp: cut the tensor split's all-gathers and reduce-scatters into "
        "chunks pipelined with their GEMMs (torchtitan's async TP under --stack torch-compile, "
        "Megatron's --tp-comm-overlap; docs/parallel.md)",
        layout),
    text_field<&run_options::pp>("pp", "--pp",
                                 "Training: pipeline stages under Megatron's 1F1B schedule, "
                                 "--grad-accum micro-batches in flight (docs/parallel.md)",
                                 layout),
    text_field<&run_options::vpp>(
        "vpp", "--vpp",
        "Training with --pp: model chunks per GPU (interleaved 1F1B; divides the bubble)", layout),
    text_field<&run_options::shard_group>(
        "shard_group", "--shard-group",
        "Training with --zero 2 or 3: GPUs each shard group spans, the groups' copies "
        "all-reducing their shards (hybrid sharding, FSDP's HYBRID_SHARD; 0: every "
        "data-parallel GPU)",
        layout),
    text_field<&run_options::cp>(
        "cp", "--cp",
        "Training a decoder: GPUs each sequence is split over (context parallelism, ring "
        "attention; docs/parallel.md)",
        layout),
    text_field<&run_options::ep>(
        "ep", "--ep",
        "Training a mixture of experts: GPUs each layer's experts are spread over, whole "
        "experts a GPU, tokens exchanged by all-to-all (expert parallelism; docs/parallel.md)",
        layout),
    choice_field<&run_options::ep_dispatch, &ep_dispatch_flag>(
        "ep_dispatch",
        "With --ep: what a GPU sends its tokens' experts, each copy (per-expert, Megatron's "
        "alltoall dispatcher) or a token once a GPU and once a server across the network "
        "(per-gpu: DeepEP, HybridEP)",
        layout),
    choice_field<&run_options::split, &split_flag>(
        "split",
        "Inference: how one model copy spreads over the GPUs (default: the stack's; llama.cpp "
        "and pytorch-eager by layers, the others by tensors with --tp, the rest replicas; "
        "docs/parallel.md)",
        layout),
    text_field<&run_options::gpus_per_node>(
        "gpus_per_node", "--gpus-per-node",
        "GPUs in one server; a job of more crosses --network (docs/parallel.md)", layout),
    text_field<&run_options::network>(
        "network", "--network",
        "Training across servers: each GPU's port to the others (default: the server's, "
        "InfiniBand at its PCIe generation's rate)",
        layout, &link_ids),
    toggle_field<&run_options::fp32_reduce, &fp32_reduce_flag>(
        "fp32_reduce", "Training with --zero 2 or 3 (FSDP): reduce-scatter gradients in FP32",
        layout),
    text_field<&run_options::gpu_layers>(
        "gpu_layers", "--gpu-layers",
        "Inference with --stack llama.cpp on one GPU: layers on the GPU, the rest in host "
        "memory (llama.cpp's -ngl; more than the layers: the output layer too; docs/models.md, "
        "\"Partial offload\")",
        layout),
    text_field<&run_options::host_memory>(
        "host_memory", "--host-memory",
        "With --gpu-layers: the host memory the other layers are read from (default "
        "ddr5_6000_2ch: a current desktop's)",
        layout, &host_memory_names),
    text_field<&run_options::grad_accum>(
        "grad_accum", "--grad-accum",
        "Training: micro-batches of --batch per optimizer step (gradient accumulation)"),
    text_field<&run_options::overhead>("overhead", "--overhead",
                                       "Framework and workspace memory per GPU"),
    // Every command that runs a model offers the stack: a ranking or speed-up under a stack
    // can differ from the hardware model's (docs/stacks.md).
    choice_field<&run_options::stack, &stack_flag>(
        "stack",
        "Software stack the model runs under (default ceiling: the hardware model; "
        "docs/stacks.md)"),
});

}  // namespace

std::span<const run_field> run_fields() { return run_field_table; }

const run_field& run_field_of(std::string_view keyword) {
  for (const run_field& f : run_fields())
    if (f.keyword == keyword || f.flag == keyword) return f;
  std::string valid;
  for (const run_field& f : run_fields())
    valid += (valid.empty() ? "" : ", ") + std::string(f.keyword);
  throw request_error(fmt::format("unknown run field '{}' (valid: {})", keyword, valid));
}

std::vector<std::string> link_ids() {
  std::vector<std::string> out;
  for (const link_spec& l : links::all) out.emplace_back(l.id);
  return out;
}

std::span<const std::string_view> job_layout_keywords() {
  static const std::vector<std::string_view> keywords = [] {
    std::vector<std::string_view> out;
    for (const run_field& f : run_fields())
      if (f.job_layout) out.push_back(f.keyword);
    return out;
  }();
  return keywords;
}

}  // namespace dlperf::app
