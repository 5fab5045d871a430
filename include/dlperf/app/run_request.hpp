/// @file
/// One run of a whole model as a front end states it: the tool's run flags (--train, --batch,
/// --dtype, --gpus, ...), Python's keywords and a sweep's axes are the fields of run_options,
/// and make_run turns them into the library's run_config, naming the flag of any value at fault
/// (docs/layers.md, "The application layer").
#pragma once

#include <array>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/stack/stack.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlperf::app {

/// A run as the tool spells it; numbers stay text until make_run parses them, so that a bad one
/// is named by its flag.
struct run_options {
  bool train = false;                               ///< --train (the default mode)
  bool infer = false;                               ///< --infer
  std::string batch = "1";                          ///< --batch: sequences or images per replica
  std::string seq = "0";                            ///< --seq (0: the model's context)
  std::string image = "224";                        ///< --image: side in pixels (CNNs)
  std::string prompt = "0";                         ///< --prompt (0: --seq)
  std::string generate = "0";                       ///< --generate: tokens to generate
  dtype type = dtype::bf16;                         ///< --dtype
  weight_format weights = weight_format::native;    ///< --weights
  kv_cache_type kv_cache = kv_cache_type::as_run;   ///< --kv-dtype
  optimizer_kind optimizer = optimizer_kind::adam;  ///< --optimizer
  optimizer_kernel optimizer_kernels = optimizer_kernel::as_stack;  ///< --optimizer-kernels
  bool checkpointing = false;                                       ///< --checkpointing
  bool no_flash = false;                                            ///< --no-flash
  bool eager = false;                                               ///< --eager
  attention_kernel attention = attention_kernel::as_run;  ///< --attention (as-run: the stack's)
  selective_checkpointing selective = selective_checkpointing::none;  ///< --selective-checkpointing
  expert_dispatch ep_dispatch = expert_dispatch::per_expert;          ///< --ep-dispatch (with --ep)
  std::string document = "0";                                         ///< --doc-tokens
  bool packing = false;                                               ///< --packing
  bool nchw = false;                                                  ///< --nchw
  std::string gpus = "1";                                             ///< --gpus
  std::string zero = "0";                                             ///< --zero
  std::string tp = "1";                                               ///< --tp
  std::string overhead = "1Gi";                                       ///< --overhead
  std::string pp = "1";                                               ///< --pp (training)
  std::string vpp = "1";                                              ///< --vpp (with --pp)
  std::string cp = "1";                                               ///< --cp (training)
  std::string ep = "1";                                               ///< --ep (training MoE)
  std::string shard_group = "0";                                      ///< --shard-group
  std::string grad_accum = "1";                                       ///< --grad-accum
  std::string gpus_per_node = "8";                                    ///< --gpus-per-node
  std::string network;                 ///< --network (empty: the server's)
  std::string gpu_layers;              ///< --gpu-layers N, llama.cpp's -ngl (empty: every layer)
  std::string host_memory;             ///< --host-memory ID (empty: a current desktop's)
  bool fp32_reduce = false;            ///< --fp32-reduce
  bool async_tp = false;               ///< --async-tp (training with --tp)
  std::optional<split_mode> split;     ///< --split (none: the stack's)
  std::string lora;                    ///< --lora RANK (empty: not given)
  std::string lora_targets;            ///< --lora-targets (empty: not given)
  bool qlora = false;                  ///< --qlora
  stack_id stack = stack_id::ceiling;  ///< --stack
};

/// The run @p o describes. Throws request_error naming the flag at fault.
run_config make_run(const run_options& o);

/// The stacks that run training steps, for a message ("pytorch-eager, torch-compile, ...").
std::string training_stacks();

/// How a run field's value is written, for a front end that lays out a form (the page) or a help
/// line (the tool).
enum class run_field_kind {
  text,    ///< a number or a name the run reads later ("8", "1Gi", "ib_ndr")
  choice,  ///< one of the names of an enumeration (run_field::names)
  toggle,  ///< a switch: given or not ("true"/"false", "1"/"0")
};

/// One field of run_options by the name a front end gives it: the tool's flag without its
/// dashes and Python's keyword (`-` as `_`). It is the one list of the run's fields: the tool
/// declares its run flags from it, Python's keywords and the page's form come from it.
struct run_field {
  std::string_view keyword;  ///< "batch", "grad_accum", "dtype"
  std::string_view flag;     ///< "--batch", "--grad-accum", "--dtype"
  run_field_kind kind;       ///< how its value is written
  /// Whether it lays out a job over GPUs and host memory (job_layout_keywords).
  bool job_layout;
  /// One line for a person: the tool's --help and the page's tooltip. A text field with names
  /// gets them after it ("...: {ib_edr|ib_hdr|...}").
  std::string_view help;
  /// Sets the field of @p o from @p value, read as the tool reads the flag's text ("8Ki",
  /// "bf16", "true"); throws request_error naming the flag.
  void (*set)(run_options& o, std::string_view value);
  /// The field's value in @p o as text that set() reads back to the same value ("" for a text
  /// field not given, "false" for a switch not given).
  std::string (*get)(const run_options& o);
  /// The names the field takes (a choice) or the catalog's names it reads (a text field such as
  /// --network); empty for the rest.
  std::vector<std::string> (*names)();
};

/// Every field a sweep or a keyword call can set, in the order the tool's help lists them.
std::span<const run_field> run_fields();

/// The field of keyword @p keyword (or its flag, "--grad-accum"). Throws request_error listing
/// the keywords for an unknown one.
const run_field& run_field_of(std::string_view keyword);

/// Every link's id (hardware/links.hpp), in the catalog's order: the names --network reads, and
/// the tool's --link.
std::vector<std::string> link_ids();

/// The run fields that lay out a job over GPUs and host memory (gpus, zero, tp, async_tp, pp,
/// vpp, cp, ep, ep_dispatch, shard_group, split, gpus_per_node, network, fp32_reduce, gpu_layers,
/// host_memory: those run_field::job_layout marks). A request whose run is its model's on each GPU
/// it compares (power, rank, speedup, advise) takes none of them: the buying layer lays out each
/// job itself.
std::span<const std::string_view> job_layout_keywords();

}  // namespace dlperf::app

namespace dlperf {
/// The kinds of run field, by the names the page's form and Python read.
template <>
struct enum_list<app::run_field_kind> {
  static constexpr std::string_view kind = "run field kind";  ///< what the enum names
  /// Every kind.
  static constexpr std::array values{
      enumerator{app::run_field_kind::text, "text", "a number or a name the run reads"},
      enumerator{app::run_field_kind::choice, "choice", "one of an enumeration's names"},
      enumerator{app::run_field_kind::toggle, "toggle", "a switch, given or not"}};
};
}  // namespace dlperf
