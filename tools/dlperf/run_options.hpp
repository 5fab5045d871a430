// The options that describe one run of a whole model (--train/--infer, --batch, --seq, --dtype,
// ...), shared by every command that estimates a model: model, speedup, rank, advise, cluster.
#pragma once

#include <CLI/CLI.hpp>
#include <dlperf/app/rank_report.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/stack/stack.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace dlperf::cli {

using app::make_run;
using app::run_options;

/// Adds --preset NAME to @p cmd, checked against the presets (the help lists them).
CLI::Option* add_preset_option(CLI::App* cmd, std::string& preset);

/// Adds the run flags (--train, --infer, --batch, --seq, --image, --prompt, --generate, --dtype,
/// --weights, --kv-dtype, --optimizer, --optimizer-kernels, --checkpointing, --doc-tokens,
/// --packing, --no-flash,
/// --nchw, --eager, --lora,
/// --lora-targets, --qlora, --gpus, --zero, --tp, --pp, --vpp, --split, --grad-accum,
/// --gpus-per-node, --network, --fp32-reduce, --overhead, --stack) to @p cmd. With @p parallel
/// false, --gpus, --zero, --tp, --pp, --vpp, --split, --gpus-per-node, --network and
/// --fp32-reduce are left out (commands that set the GPU count themselves).
void add_run_options(CLI::App* cmd, run_options& o, bool parallel = true);

/// The first run flag given on @p cmd's command line ("--batch"), or empty, leaving out the
/// flags in @p except (those the command reads without a preset, or registers as its own). For
/// the commands whose run flags describe a preset's run and mean nothing without one: they
/// reject such a flag by name rather than ignore a value they never read.
std::string first_given_run_flag(const CLI::App& cmd,
                                 std::initializer_list<std::string_view> except = {});

/// Throws usage_error naming the first run flag given on @p cmd beside a guide's task @p task
/// (train16, infer16, infer8 fix their own run, all but the stack; `--gpus` is the command's
/// own, a host's GPUs): nothing would read it. A preset @p task takes the run flags.
void reject_run_flags_beside_guide_task(const CLI::App& cmd, const std::string& task);

/// The software stack line every command that runs a model prints: the stack and what it is, or,
/// for ceiling, that the times are the hardware model's (docs/stacks.md).
std::string describe_stack(stack_id s);
/// describe_stack for a table of GPUs of several vendors, each run under the engine's build for
/// its vendor (stacks::build_for), naming those builds: "...; AMD GPUs run vllm-rocm, its build for
/// them".
std::string describe_stack_builds(stack_id s);

/// What the figures in brackets beside a stack's are, for the stack line (empty for ceiling):
/// the hardware model's ceiling of the kernels the stack runs, its fusion, attention and norm
/// choices kept, which a `--stack ceiling` run of the same command (the run's own kernels) need
/// not equal.
std::string ceiling_bracket_note(stack_id s);

/// The shape of run @p r of @p m for people: "batch 8 x 512 tokens", "batch 1, prompt 512 + 256
/// generated tokens", "batch 64 x 224x224 px" (the sequence resolved as the model runs it).
std::string describe_shape(const model_spec& m, const run_config& r);

// The ranking's readers, which the rank, advise and plot commands share (the application layer's).
using app::parse_host_gpus;
using app::parse_rank_options;
using app::select_rank_workload;
using app::task_workload;

}  // namespace dlperf::cli
