// One run of a whole model as a front end states it (dlperf/app/run_request.hpp).
#include <dlperf/app/run_request.hpp>

#include <fmt/format.h>
#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/stack/stacks.hpp>
#include <string>

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
  if (r.training()) {
    r.pp = stages;
    r.virtual_stages = chunks;
    if (r.gpus % (r.tp * r.pp) != 0)
      throw request_error(
          fmt::format("--tp {} x --pp {} must divide --gpus {}", r.tp, r.pp, r.gpus));
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
// enumerator are read here.
template <std::string run_options::*Member>
constexpr void set_text(run_options& o, std::string_view v) {
  o.*Member = std::string(v);
}
template <bool run_options::*Member, std::string_view const* Flag>
void set_switch(run_options& o, std::string_view v) {
  o.*Member = parse_switch(*Flag, v);
}

}  // namespace

std::span<const run_field> run_fields() {
  // Each row: keyword, flag, setter. The tool's add_run_options offers the same flags; a test
  // keeps the two lists equal.
  static constexpr std::string_view train = "--train", infer = "--infer",
                                    checkpointing = "--checkpointing", packing = "--packing",
                                    nchw = "--nchw", no_flash = "--no-flash", eager = "--eager",
                                    fp32_reduce = "--fp32-reduce", qlora = "--qlora";
  static constexpr auto fields = std::to_array<run_field>({
      {"train", train, &set_switch<&run_options::train, &train>},
      {"infer", infer, &set_switch<&run_options::infer, &infer>},
      {"batch", "--batch", &set_text<&run_options::batch>},
      {"seq", "--seq", &set_text<&run_options::seq>},
      {"image", "--image", &set_text<&run_options::image>},
      {"prompt", "--prompt", &set_text<&run_options::prompt>},
      {"generate", "--generate", &set_text<&run_options::generate>},
      {"dtype", "--dtype",
       [](run_options& o, std::string_view v) { o.type = parse_named<dtype>("--dtype", v); }},
      {"weights", "--weights",
       [](run_options& o, std::string_view v) {
         o.weights = parse_named<weight_format>("--weights", v);
       }},
      {"kv_dtype", "--kv-dtype",
       [](run_options& o, std::string_view v) {
         o.kv_cache = parse_named<kv_cache_type>("--kv-dtype", v);
       }},
      {"optimizer", "--optimizer",
       [](run_options& o, std::string_view v) {
         o.optimizer = parse_named<optimizer_kind>("--optimizer", v);
       }},
      {"optimizer_kernels", "--optimizer-kernels",
       [](run_options& o, std::string_view v) {
         o.optimizer_kernels = parse_named<optimizer_kernel>("--optimizer-kernels", v);
       }},
      {"checkpointing", checkpointing, &set_switch<&run_options::checkpointing, &checkpointing>},
      {"selective_checkpointing", "--selective-checkpointing",
       [](run_options& o, std::string_view v) {
         o.selective = parse_named<selective_checkpointing>("--selective-checkpointing", v);
       }},
      {"doc_tokens", "--doc-tokens", &set_text<&run_options::document>},
      {"packing", packing, &set_switch<&run_options::packing, &packing>},
      {"nchw", nchw, &set_switch<&run_options::nchw, &nchw>},
      {"no_flash", no_flash, &set_switch<&run_options::no_flash, &no_flash>},
      {"attention", "--attention",
       [](run_options& o, std::string_view v) {
         o.attention = parse_named<attention_kernel>("--attention", v);
       }},
      {"eager", eager, &set_switch<&run_options::eager, &eager>},
      {"lora", "--lora", &set_text<&run_options::lora>},
      {"lora_targets", "--lora-targets", &set_text<&run_options::lora_targets>},
      {"qlora", qlora, &set_switch<&run_options::qlora, &qlora>},
      {"gpus", "--gpus", &set_text<&run_options::gpus>},
      {"zero", "--zero", &set_text<&run_options::zero>},
      {"tp", "--tp", &set_text<&run_options::tp>},
      {"pp", "--pp", &set_text<&run_options::pp>},
      {"vpp", "--vpp", &set_text<&run_options::vpp>},
      {"split", "--split",
       [](run_options& o, std::string_view v) { o.split = parse_named<split_mode>("--split", v); }},
      {"grad_accum", "--grad-accum", &set_text<&run_options::grad_accum>},
      {"gpus_per_node", "--gpus-per-node", &set_text<&run_options::gpus_per_node>},
      {"network", "--network", &set_text<&run_options::network>},
      {"gpu_layers", "--gpu-layers", &set_text<&run_options::gpu_layers>},
      {"host_memory", "--host-memory", &set_text<&run_options::host_memory>},
      {"fp32_reduce", fp32_reduce, &set_switch<&run_options::fp32_reduce, &fp32_reduce>},
      {"overhead", "--overhead", &set_text<&run_options::overhead>},
      {"stack", "--stack",
       [](run_options& o, std::string_view v) { o.stack = parse_named<stack_id>("--stack", v); }},
  });
  return fields;
}

const run_field& run_field_of(std::string_view keyword) {
  for (const run_field& f : run_fields())
    if (f.keyword == keyword || f.flag == keyword) return f;
  std::string valid;
  for (const run_field& f : run_fields())
    valid += (valid.empty() ? "" : ", ") + std::string(f.keyword);
  throw request_error(fmt::format("unknown run field '{}' (valid: {})", keyword, valid));
}

std::span<const std::string_view> job_layout_keywords() {
  static constexpr std::array<std::string_view, 11> keywords{
      "gpus",          "zero",    "tp",          "pp",         "vpp",        "split",
      "gpus_per_node", "network", "fp32_reduce", "gpu_layers", "host_memory"};
  return keywords;
}

}  // namespace dlperf::app
