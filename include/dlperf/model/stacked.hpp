/// @file
/// A whole model under a software stack (docs/stacks.md): the ceiling estimate of the kernel
/// sequence the stack runs (its fusion and attention choices), then every operator as the stack
/// runs it (`apply_stack`). The ceiling stack gives `estimate_model` exactly.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include <dlperf/core/library_support.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/model/parallel.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf {

/// A model's estimate under a stack, with the ceiling of the same kernel sequence beside it.
struct stacked_estimate {
  model_estimate ceiling;  ///< the kernel sequence the stack runs, at the hardware model's speed
  model_estimate stack;    ///< the same sequence as the stack runs it
};

/// The kernels that apply run @p r's optimizer update under stack @p s: the run's own choice,
/// else the stack's; 8-bit Adam's are bitsandbytes' fused kernels per tensor whatever either
/// says (stack/optimizer_kernels.hpp).
constexpr optimizer_kernel optimizer_kernels_of(const software_stack& s, const run_config& r) {
  if (r.optimizer == optimizer_kind::adam8bit) return optimizer_kernel::per_tensor_fused;
  return r.optimizer_kernels == optimizer_kernel::as_stack ? s.optimizer_kernels
                                                           : r.optimizer_kernels;
}

/// Run @p r with the kernel choices of stack @p s: its element-wise fusion and attention kernel
/// where it fixes them, the run's own where it leaves them (`as_run`), how it multiplies
/// quantised weights over many rows and calls its library GEMM (`gemm_call`), whether its FP8
/// linears cast in kernels of their own (`fp8_casts`), which of a layer's fused operators it
/// splits over a prompt and in a decode step (`prompt_kernels`, `decode_kernels`), and its
/// optimizer kernels unless the run names its own.
constexpr run_config run_under(const software_stack& s, run_config r) {
  if (s.fusion != kernel_fusion::as_run) r.eager = s.fusion == kernel_fusion::eager;
  if (s.attention != attention_kernel::as_run)
    r.flash_attention = s.attention != attention_kernel::unfused;
  if (s.norms != norm_kernel::as_run) r.composite_norms = s.norms == norm_kernel::composite;
  r.prompt_dequantize = s.prompt_dequantize;
  r.gemm_call = s.gemm_call;
  r.fp8_casts = s.fp8_casts;
  if (s.fused_softmax_glue) r.fused_softmax_glue = true;
  r.prompt_kernels = s.prompt_kernels;
  r.decode_kernels = s.decode_kernels;
  if (r.training()) r.optimizer_kernels = optimizer_kernels_of(s, r);
  return r;
}

/// Whether stacks @p a and @p b choose the same kernels: every field `run_under` reads, so that
/// the same run under either is the same kernel sequence.
constexpr bool same_kernel_choices(const software_stack& a, const software_stack& b) {
  return a.fusion == b.fusion && a.attention == b.attention && a.norms == b.norms &&
         a.prompt_dequantize.above_rows == b.prompt_dequantize.above_rows &&
         a.prompt_dequantize.ubatch == b.prompt_dequantize.ubatch &&
         a.gemm_call.same(b.gemm_call) && a.fp8_casts.same(b.fp8_casts) &&
         a.fused_softmax_glue == b.fused_softmax_glue && a.prompt_kernels.same(b.prompt_kernels) &&
         a.decode_kernels.same(b.decode_kernels) && a.optimizer_kernels == b.optimizer_kernels;
}

/// @p ceiling (an `estimate_model` result for @p m under @p r) as stack @p s runs it on the
/// device @p device describes (`device_context`: its DRAM bandwidth, warp-level MMA share and SM
/// cycles a second): every operator through `apply_stack`, the times summed again as the
/// estimate sums them.
DLPERF_CONSTEXPR_VECTOR model_estimate apply_stack(const software_stack& s,
                                                   const model_estimate& ceiling,
                                                   const model_spec& m, const run_config& r,
                                                   const stack_op_context& device) {
  s.validate();
  // The stack's quantised-GEMV share is its dequantisation cost: it applies where the weights
  // are dequantised in the product (a weight-only format, or FP8/FP4 on a GPU without them).
  stack_op_context c = device;
  c.convolution = m.kind == model_kind::cnn;
  c.quantized_weights = ceiling.dequantized_weights;
  c.tf32 = r.type == dtype::tf32;
  model_estimate e = ceiling;
  e.forward = apply_stack(s, ceiling.forward, c);
  e.recompute = apply_stack(s, ceiling.recompute, c);
  e.backward = apply_stack(s, ceiling.backward, c);
  // The optimizer's kernels are issued by framework op calls (or a multi-tensor call), which
  // cost the host far less than a module call: they take the stack's optimizer host time.
  software_stack update = s;
  update.host_overhead = s.optimizer_host_overhead;
  e.optimizer = apply_stack(update, ceiling.optimizer, c);
  e.prefill = apply_stack(s, ceiling.prefill, c);
  // A decode step of more sequences than the stack replays as a graph runs eagerly
  // (stack/decode_graphs.hpp): its kernels at the eager host time.
  if (s.decode_graphs.eager_at(r.batch, device.memory)) {
    software_stack eager = s;
    eager.host_overhead = s.decode_graphs.eager_host_overhead;
    e.decode = apply_stack(eager, ceiling.decode, c);
  } else {
    e.decode = apply_stack(s, ceiling.decode, c);
  }
  e.sum_phases();  // the step as estimate_model sums it
  return e;
}

/// The link between the GPUs of run @p r on device @p d: the run's, else the system's
/// (system_link) for a device with a board's facts. Throws invalid_argument for a device without
/// them when the run has no link.
template <class D>
constexpr const link_spec& link_of_run(const D& d, const run_config& r) {
  if (r.link != nullptr) return *r.link;
  if constexpr (requires { d.facts(); })
    return system_link(d);
  else
    detail::throw_invalid_argument(
        "run: this device has no board facts to find its system's link; give run_config::link");
}

/// The market segment of device @p d where it has a board's facts (datacenter otherwise: peer
/// to peer over PCIe).
template <class D>
constexpr segment segment_of(const D& d) {
  if constexpr (requires { d.facts(); })
    return d.facts().segment;
  else
    return segment::datacenter;
}

namespace detail {

// launch_gap_without_graphs for stack @p s, computed: one estimate of the measured run.
template <class = void>
duration measured_launch_gap(const software_stack& s) {
  const graph_saving& g = s.multi_gpu.pipeline.graphs_lost;
  run_config r;  // the measured run: llama-bench's tg128, batch 1
  r.mode = run_mode::infer;
  r.type = dtype::fp16;
  r.weights = g.weights;
  r.prompt = 1;
  r.generate = 128;
  r.flash_attention = false;
  const model_estimate e =
      estimate_model(catalog::find(g.gpu), presets::find(g.model), run_under(s, r));
  return g.per_token() / kernels_of(e.decode);
}

// Whether @p a and @p b name the same published measurement.
constexpr bool same_saving(const graph_saving& a, const graph_saving& b) {
  return a.model == b.model && a.gpu == b.gpu && a.weights == b.weights && a.without == b.without &&
         a.with == b.with;
}

}  // namespace detail

/// The time each kernel of a generated token costs stack @p s when a layer split keeps it from
/// using its CUDA graphs: the per-token time its graphs saved in the published run
/// (layer_pipeline::graphs_lost) over the kernels of that run's token as @p s runs it. Zero for a
/// stack that loses none. The named stacks' gaps are computed once (a stack's kernel choices are
/// its record's; a device file measures figures, not kernels); a stack whose measurement differs
/// from its record's is computed each call.
template <class = void>
duration launch_gap_without_graphs(const software_stack& s) {
  const graph_saving& g = s.multi_gpu.pipeline.graphs_lost;
  if (!g.exists()) return {};
  static const std::array<duration, enum_count<stack_id>> named = [] {
    std::array<duration, enum_count<stack_id>> gaps{};
    for (const software_stack* record : stacks::all)
      if (record->multi_gpu.pipeline.graphs_lost.exists())
        gaps[enum_index(record->id)] = detail::measured_launch_gap(*record);
    return gaps;
  }();
  const software_stack& record = stacks::of(s.id);
  if (detail::same_saving(g, record.multi_gpu.pipeline.graphs_lost) &&
      same_kernel_choices(s, record))
    return named[enum_index(s.id)];
  return detail::measured_launch_gap(s);
}

namespace detail {
// The message of the FlashAttention-3 check: reached only to throw (the browser build's libc++
// has no constexpr std::string for a constexpr function's variables).
inline std::string flash3_off_hopper(std::string_view gpu) {
  return "attention kernel flash-attention-3 runs on Hopper GPUs (sm_90) only, not on " +
         std::string(gpu);
}
}  // namespace detail

/// What a system-on-chip's GPU (an Apple silicon Mac's) is, for messages that refuse more than
/// one of it: "NAME is a system-on-chip's GPU, one to a machine". The one wording `model`,
/// `tco` and `power` use.
inline std::string one_to_a_machine_text(std::string_view gpu) {
  return std::string(gpu) + " is a system-on-chip's GPU, one to a machine";
}

/// Throws unsupported when a run spreads over @p gpus GPUs of device @p d and @p d is a
/// system-on-chip's GPU (an Apple silicon Mac's): one to a machine, so no GPU of the same
/// machine shares its work (gpu_facts::form, form_factor::integrated).
template <class D>
constexpr void check_gpus_per_machine(const D& d, long long gpus) {
  if constexpr (requires { d.facts().form; })
    if (gpus > 1 && d.facts().form == form_factor::integrated)
      dlperf::detail::throw_unsupported(
          one_to_a_machine_text(d.name()) + ": a run on " + std::to_string(gpus) +
          " GPUs (--gpus, --tp, --pp) needs GPUs that share one machine");
}

/// The estimate of @p m on @p d under @p r as stack @p named runs it (with the attention kernel
/// r.attention names in place of its own: stacks::with_attention), with its ceiling; inference
/// over several GPUs (tp or pp above 1) with the communication of its split on both
/// (with_communication). Throws as `estimate_model` does, invalid_argument for a stack figure
/// out of its domain or a training run under an inference engine (`check_runs`), and unsupported
/// for a stack that does not run on the device's vendor (`stacks::check_runs_on`), an
/// asynchronous tensor split under a stack without one (`stacks::check_async_tp`) or
/// FlashAttention-3 off Hopper.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR stacked_estimate estimate_model(const D& d, const model_spec& m,
                                                        const run_config& r,
                                                        const software_stack& named) {
  // The run's own attention kernel, if it names one, in place of the stack's.
  const software_stack s = stacks::with_attention(named, r.attention);
  if (r.attention == attention_kernel::flash3 && d.arch().family != family::hopper)
    dlperf::detail::throw_unsupported(detail::flash3_off_hopper(d.name()));
  s.validate();
  check_runs(s, r.training());
  stacks::check_runs_on(s, d.arch().vendor, d.name());
  stacks::check_async_tp(s, r.async_tp);
  check_gpus_per_machine(d, r.gpus);
  const run_config run = run_under(s, r);
  stacked_estimate out{estimate_model(d, m, run), {}};
  out.stack = apply_stack(s, out.ceiling, m, run, device_context(d));
  if (!run.training() && run.model_parallel() > 1) {
    const link_spec& link = link_of_run(d, run);
    const bool graphs_lost =
        run.pp > 1 && s.multi_gpu.pipeline.graphs_lost.applies(d.arch().family);
    const duration gap = graphs_lost ? launch_gap_without_graphs(s) : duration{};
    out.ceiling =
        with_communication(out.ceiling, m, run, s, link, segment_of(d), d.arch().vendor, gap);
    out.stack = with_communication(out.stack, m, run, s, link, segment_of(d), d.arch().vendor, gap);
  }
  return out;
}

/// The stack run @p r runs under on device @p d: the one of r.measured_stacks measured on d
/// (by id) for r.stack, else the named stack r.stack (stacks::of).
template <gemm_device D>
constexpr const software_stack& stack_of_run(const D& d, const run_config& r) {
  if constexpr (requires { d.id(); })
    for (const measured_stack& s : r.measured_stacks)
      if (s.stack != nullptr && s.stack->id == r.stack && s.device == d.id()) return *s.stack;
  return stacks::of(r.stack);
}

/// The step of run @p r of model @p m on device @p d as r's own software stack runs it
/// (r.stack, one of stacks::all, with the figures measured on d where r.measured_stacks has
/// them: `stack_of_run`): the stack's figures of estimate_model(d, m, r, stack), or the
/// hardware model's ceiling when r.stack is ceiling; inference over several GPUs with its split's
/// communication (with_communication). What the buying layer (speed-ups, rankings, advice,
/// clusters) compares, so a ranking under a stack can differ from the ceiling's.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR model_estimate estimate_run(const D& d, const model_spec& m,
                                                    const run_config& r) {
  if (r.stack == stack_id::ceiling && r.attention == attention_kernel::as_run &&
      (r.training() || r.model_parallel() == 1))
    return estimate_model(d, m, r);
  return estimate_model(d, m, r, stack_of_run(d, r)).stack;
}

}  // namespace dlperf
