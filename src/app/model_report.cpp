// `dlperf model` as a typed request and report (dlperf/app/model_report.hpp).
#include <dlperf/app/model_report.hpp>

#include <dlperf/app/request_error.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/stacks.hpp>
#include <type_traits>
#include <utility>

namespace dlperf::app {

namespace {

// A partial offload (run_config::gpu_layers): the stack's estimate and its ceiling with the host
// layers run as llama.cpp runs them, and the memory the GPU then holds (model/offload.hpp).
template <class D>
void apply_offload(model_report& out, const D& d, const model_spec& m, const run_config& r) {
  const layer_offload& how = out.stack.offload;
  if (d.facts().form == form_factor::integrated)
    throw request_error("--gpu-layers: " + std::string(d.name()) +
                        " shares its machine's memory with the CPU, so there are no layers to "
                        "offload: a model fits the GPU's working set or it does not");
  if (!how.supported())
    throw request_error("--gpu-layers: stack " + std::string(out.stack.name()) +
                        " has no partial-offload figures; --stack llama.cpp (CUDA) has them "
                        "(its -ngl)");
  if (m.kind != model_kind::transformer || m.transformer.kind != transformer_kind::decoder)
    throw request_error("--gpu-layers is for a decoder's inference (llama.cpp's -ngl)");
  // Leading dense layers repeat apart from the mixture-of-experts ones, and llama.cpp's "last N"
  // takes the latter first: not modelled (model/offload.hpp counts one block of equal layers).
  if (m.transformer.dense_layers > 0)
    throw request_error(
        "--gpu-layers: a mixture of experts with leading dense layers is not "
        "modelled for a partial offload");
  const transformer_config& t = m.transformer;
  const host_memory_spec& memory =
      r.host_memory != nullptr ? *r.host_memory : host_memories::typical;
  const offload_host host{
      memory.peak() * how.host_dram_share.value,
      d.facts().host_link.per_direction() * how.upload_link_share.value, how.min_offload_batch,
      out.stack.prompt_dequantize.ubatch > 0 ? out.stack.prompt_dequantize.ubatch : 512};
  if (!(host.upload.value() > 0) || !(host.dram.value() > 0))
    throw request_error("--gpu-layers: the device has no host link bandwidth to copy weights over");
  const offload_weights w = offload_weights::of(t, out.fit.need.weights);
  const layer_placement p = layer_placement::of(r.gpu_layers, t.total_layers());
  out.estimate.stack = offloaded(out.estimate.stack, p, host, w);
  out.estimate.ceiling = offloaded(out.estimate.ceiling, p, host, w);
  const byte_count on_gpu =
      static_cast<double>(p.gpu_layers) * w.layer + (p.output_on_gpu ? w.output : bytes(0.0));
  out.offload = offload_report{p, &memory, host, most_gpu_layers(out.fit, p.layers, w),
                               out.fit.need.weights - on_gpu};
  out.fit = offloaded_fit(out.fit, p, w);
}

}  // namespace

model_report estimate(const model_request& q) {
  if (const auto* g = std::get_if<const gpu_spec*>(&q.device); g != nullptr && *g == nullptr)
    throw request_error("model: the request names no device");
  const model_spec& m = q.model;
  const run_config& r = q.run;
  model_report out;
  out.model = m;
  out.run = r;
  out.device = device_label(q.device);
  out.power_limit = q.power_limit;
  // The stack's own figures, or those the device file measured for it (docs/stacks.md, "Your own
  // measurements").
  auto held = calibration_store();
  out.stack = stack_on_device(r.stack, q.device_file, *held, &out.measured);
  out.calibrations = std::move(held);
  out.split = !r.training() && r.model_parallel() > 1;
  // Training over several GPUs: the multi-GPU model's communication (buying/cluster.hpp) joins
  // the step, as `dlperf cluster` prices it.
  const bool cluster = r.training() && r.gpus > 1;
  visit_device(q.device, [&](const auto& d) {
    if constexpr (gemm_device<std::decay_t<decltype(d)>>) {
      out.link = out.split || cluster ? &link_of_run(d, r) : nullptr;
      // A training pipeline's stages share the estimate of every layer (buying/cluster.hpp).
      out.estimate = estimate_model(d, m, cluster ? pipeline_stage_run(r) : r, out.stack);
      if (cluster) {
        out.job = estimate_cluster_on(d, r.gpus, m, r, *out.link);
        run_config bare = r;
        bare.stack = stack_id::ceiling;
        bare.measured_stacks = {};
        out.estimate.stack = with_cluster_communication(out.estimate.stack, *out.job);
        out.estimate.ceiling = with_cluster_communication(
            out.estimate.ceiling, estimate_cluster_on(d, r.gpus, m, bare, *out.link));
      }
      const fit_verdict whole = check_fit(d, m, r);
      out.fit = whole;
      if (r.gpu_layers >= 0) apply_offload(out, d, m, r);
      // The clock the stack's figures ran at: the step as the stack runs it.
      if (const double f = out.estimate.stack.clock_fraction; f < 1.0) {
        const frequency quoted = quoted_tensor_clock(d.facts());
        out.sustained_clock = sustained_clock_info{f, f * quoted, quoted};
      }
      out.gpu_name = std::string(d.name());
      out.arch = std::string(d.arch().name);
      out.unified_memory = d.facts().unified_memory;
      // A model that fits at the run's own degree needs no larger one (smallest_fitting_tp's
      // first check, not repeated).
      out.fitting_tp = r.pp > 1 || whole.fits ? std::nullopt : smallest_fitting_tp(d, m, r);
      out.staged = out.link != nullptr && staged_through_host(segment_of(d), *out.link);
      out.collectives_staged =
          out.link != nullptr && (out.staged || nccl_through_host(d.arch().vendor, *out.link));
      out.boards = board_class_of(d);
    } else {
      throw request_error("model needs a GPU: device file '" + q.device_file +
                          "' describes a host CPU");
    }
  });
  out.transformer = m.kind == model_kind::transformer;
  out.generation = out.transformer && !r.training() && m.transformer.generates();
  // The whole sequence, not a context-parallel GPU's share of it.
  if (out.transformer) out.seq = detail::transformer_shapes::of(m.transformer, r).whole_seq();
  out.trainable = r.training() ? trainable_parameters(m, r) : 0.0;
  return out;
}

}  // namespace dlperf::app
