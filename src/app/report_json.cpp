// The one JSON form of the application layer's reports (dlperf/app/report_json.hpp).
#include <dlperf/app/report_json.hpp>

#include <fmt/format.h>
#include <cmath>
#include <dlperf/io/price_json.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/model/weight_file.hpp>
#include <dlperf/stack/stacks.hpp>
#include <initializer_list>
#include <string>
#include <utility>

namespace dlperf::app {
namespace {

// A band's members (model/error_bands.hpp: error_band, training_scaling_band,
// inference_split_band, serving_band) in the object open: its stack, rows, median error and
// bias, and the interval of measured / predicted it holds.
template <class Band>
void write_band_interval(report_writer& w, const Band& b) {
  write_field(w, "stack", name(b.stack));
  write_field(w, "rows", b.rows);
  write_field(w, "median_abs_error", b.median);
  write_field(w, "bias", b.bias);
  write_field(w, "coverage", Band::coverage);
  write_field(w, "measured_over_predicted", {b.low, b.high});
}

// A stack's held-out error bands (model/error_bands.hpp) on the GPU's class of board: one per
// figure of the run (a step's, or decoder inference's decode and prompt rates), each with the
// interval of measured / predicted its rows give, null without a band.
void write_error_bands(report_writer& w, stack_id stack, run_mode mode, board_class boards,
                       std::initializer_list<estimate_figure> figures) {
  w.begin_object();
  for (const estimate_figure f : figures) {
    w.key(name(f));
    const std::optional<error_band> band = error_band_of(stack, mode, f, boards);
    if (!band) {
      w.null();
      continue;
    }
    w.begin_object();
    write_band_interval(w, *band);
    write_field(w, "mode", name(band->mode));
    write_field(w, "boards", name(band->boards));
    write_field(w, "worst_abs_error", band->worst);
    write_field(w, "basis", "leave-one-source-out");
    w.end_object();
  }
  w.end_object();
}

// A partial offload: where the layers are, the host side's rates, the most layers that fit; null
// with every layer on the GPU.
void write_offload(report_writer& w, const std::optional<offload_report>& o) {
  if (!o) return w.null();
  w.begin_object();
  write_field(w, "gpu_layers", o->placement.gpu_layers + (o->placement.output_on_gpu ? 1 : 0));
  write_field(w, "layers", o->placement.layers);
  write_field(w, "layers_on_gpu", o->placement.gpu_layers);
  write_field(w, "output_on_gpu", o->placement.output_on_gpu);
  write_field(w, "host_memory", o->memory->id);
  write_field(w, "host_memory_peak_bytes_per_s", o->memory->peak().value());
  write_field(w, "host_read_bytes_per_s", o->host.dram.value());
  write_field(w, "upload_bytes_per_s", o->host.upload.value());
  write_field(w, "host_weight_bytes", o->host_weights.value());
  w.key("most_gpu_layers_that_fit");
  if (o->most_that_fit >= 0)
    write_value(w, o->most_that_fit);
  else
    w.null();
  w.end_object();
}

// A split run's multi-GPU inference bands (model/error_bands.hpp, inference_split_band): one per
// rate, each with the interval it gives that rate, null without a band.
void write_split_bands(report_writer& w, stack_id stack, split_mode split, board_class boards,
                       const model_estimate& e) {
  w.begin_object();
  for (const estimate_figure f : {estimate_figure::prompt, estimate_figure::decode}) {
    w.key(name(f));
    const std::optional<inference_split_band> b = inference_split_band_of(stack, split, f, boards);
    if (!b) {
      w.null();
      continue;
    }
    const double rate =
        f == estimate_figure::decode ? e.decode_tokens_per_second() : e.prompt_tokens_per_second();
    w.begin_object();
    write_band_interval(w, *b);
    write_field(w, "split", name(b->split));
    write_field(w, "boards", name(b->boards));
    write_field(w, "tokens_per_s", {b->low * rate, b->high * rate});
    w.end_object();
  }
  w.end_object();
}

void write_power_limit(report_writer& w, const std::optional<power_limit_info>& p) {
  if (!p) return w.null();
  w.begin_object();
  write_field(w, "watts", p->limit.value());
  write_field(w, "board_watts", p->tdp.value());
  write_field(w, "clock_fraction", p->clock_fraction);
  write_field(w, "sm_clock_hz", p->clock.value());
  w.end_object();
}

void write_sustained_clock(report_writer& w, const std::optional<sustained_clock_info>& s) {
  if (!s) return w.null();
  w.begin_object();
  write_field(w, "clock_fraction", s->clock_fraction);
  write_field(w, "sm_clock_hz", s->clock.value());
  write_field(w, "tensor_clock_hz", s->quoted.value());
  w.end_object();
}

void write_measured_figures(report_writer& w, const stack_calibration* c) {
  if (c == nullptr) return w.null();
  w.begin_object();
  for (const auto& [figure, m] : c->figures) {
    w.key(name(figure));
    w.begin_object();
    write_field(w, "value", m.value);
    write_field(w, "method", m.method);
    w.end_object();
  }
  w.end_object();
}

void write_job_collectives(report_writer& w, const cluster_estimate& c) {
  w.begin_object();
  write_field(w, "network", c.network.id);
  write_field(w, "gpus_per_node", c.gpus_per_node);
  write_field(w, "nodes", c.nodes);
  write_field(w, "grad_accumulation", c.grad_accumulation);
  write_field(w, "pp", c.pp);
  write_field(w, "virtual_stages", c.virtual_stages);
  write_field(w, "cp", c.cp);
  write_field(w, "ep", c.ep);
  write_field(w, "expert_dispatch", name(c.dispatch));
  write_field(w, "async_tp", c.async_tp);
  write_field(w, "shard_group", c.shard_group);
  write_field(w, "pipeline_bubble_s", c.pipeline_bubble.value());
  write_field(w, "exposed_communication_s", c.exposed_communication.value());
  w.key("collectives");
  w.begin_array();
  for (const step_collective& x : c.collectives) {
    w.begin_object();
    write_field(w, "name", x.name);
    write_field(w, "collective", name(x.kind));
    write_field(w, "bytes", x.bytes.value());
    write_field(w, "calls", x.calls);
    write_field(w, "time_s", x.time.value());
    write_field(w, "exposed_s", x.exposed.value());
    write_field(w, "sms", x.sms);
    write_field(w, "slowed_s", x.slowed.value());
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_training_band(report_writer& w, const run_config& run, long long seq,
                         std::optional<board_class> boards, double samples_per_s,
                         double tokens_per_s) {
  // The bands come from decoder language models: a CNN's job (no tokens) has none.
  const std::optional<training_scaling_band> b = training_scaling_band_of(run, seq, boards);
  if (!b || !(tokens_per_s > 0)) return w.null();
  const auto range = [&](std::string_view key, double rate) {
    if (rate > 0)
      write_field(w, key, {b->low * rate, b->high * rate});
    else
      write_field(w, key, nullptr);
  };
  w.begin_object();
  write_band_interval(w, *b);
  write_field(w, "sequences", name(b->sequences));
  write_field(w, "boards", name(b->boards));
  range("samples_per_s", samples_per_s);
  range("tokens_per_s", tokens_per_s);
  w.end_object();
}

}  // namespace

nlohmann::json serving_band_json(const std::optional<serving_band>& band,
                                 double output_tokens_per_s) {
  if (!band) return nullptr;
  return json_of([&](report_writer& w) {
    w.begin_object();
    write_band_interval(w, *band);
    write_field(w, "vendor", name(band->vendor));
    write_field(w, "boards", name(band->boards));
    write_field(w, "banded", band->banded());
    write_field(w, "output_tokens_per_s",
                {band->low * output_tokens_per_s, band->high * output_tokens_per_s});
    // The group's rows ran one model copy on one GPU, or on several (a tensor split of 2 to 8:
    // docs/evidence.md, "Serving on several GPUs"), as the estimate's run does.
    write_field(w, "several_gpus", band->several_gpus);
    w.key("gpus_per_row");
    if (band->several_gpus)
      w.null();
    else
      w.integer(1);
    w.end_object();
  });
}

nlohmann::json power_limit_json(const std::optional<power_limit_info>& p) {
  return json_of([&](report_writer& w) { write_power_limit(w, p); });
}

nlohmann::json sustained_clock_json(const std::optional<sustained_clock_info>& s) {
  return json_of([&](report_writer& w) { write_sustained_clock(w, s); });
}

nlohmann::json measured_figures_json(const stack_calibration* c) {
  return json_of([&](report_writer& w) { write_measured_figures(w, c); });
}

nlohmann::json job_collectives_json(const cluster_estimate& c) {
  return json_of([&](report_writer& w) { write_job_collectives(w, c); });
}

nlohmann::json training_band_json(const run_config& run, long long seq,
                                  std::optional<board_class> boards, double samples_per_s,
                                  double tokens_per_s) {
  return json_of([&](report_writer& w) {
    write_training_band(w, run, seq, boards, samples_per_s, tokens_per_s);
  });
}

nlohmann::json to_json(const cluster_report& r) {
  const cluster_estimate& c = r.job;
  return {
      {"model", r.model},
      {"gpu", r.gpu_ids},
      {"power_limit", power_limit_json(r.power_limit)},
      {"clock_fraction", c.clock_fraction},
      {"gpus", c.gpus},
      {"data_parallel", c.data_parallel},
      {"tp", c.tp},
      {"pp", c.pp},
      {"cp", c.cp},
      {"ep", c.ep},
      {"link", r.link != nullptr ? r.link->id : std::string_view()},
      {"dtype", name(r.run.type)},
      {"batch", r.run.batch},
      {"peer_to_peer", c.peer_to_peer},
      {"effective_bandwidth_bytes_per_s", c.effective_bandwidth.value()},
      {"gradient_bytes", c.gradient_bytes.value()},
      {"bucket_bytes", c.bucket.value()},
      {"buckets", c.buckets},
      {"single_gpu_step_s", c.single_gpu_step.value()},
      {"compute_step_s", c.compute_step.value()},
      {"backward_s", c.backward.value()},
      {"allreduce_s", c.allreduce.value()},
      {"last_bucket_allreduce_s", c.last_bucket_allreduce.value()},
      {"overlappable_s", c.overlappable.value()},
      {"exposed_allreduce_s", c.exposed_allreduce.value()},
      {"tensor_parallel_s", c.tensor_parallel.value()},
      {"job", job_collectives_json(c)},
      {"step_time_s", c.step_time.value()},
      {"samples_per_s", r.samples_per_s},
      {"tokens_per_s",
       r.tokens_per_s > 0 ? nlohmann::json(r.tokens_per_s) : nlohmann::json(nullptr)},
      {"training_band",
       training_band_json(r.run, r.seq, r.boards, r.samples_per_s, r.tokens_per_s)},
      {"speedup", c.speedup},
      {"efficiency", c.efficiency},
      {"fits", r.fits()},
      {"memory_need_bytes", r.fit.need.total().value()},
      {"memory_capacity_bytes", r.fit.capacity.value()},
      {"stack", name(r.run.stack)},
      {"stack_measured", measured_figures_json(r.measured)},
  };
}

namespace {

// Each operator of each phase with its time per step, repeats included (decode: per token).
void write_ops(report_writer& w, const model_estimate& e) {
  w.begin_array();
  for (const step_phase p : enum_values<step_phase>)
    for (const op_estimate& x : e.phase(p)) {
      w.begin_object();
      write_field(w, "phase", name(p));
      write_field(w, "name", x.name);
      write_field(w, "kind", name(x.kind));
      write_field(w, "repeats", x.repeats);
      write_field(w, "time_s", static_cast<double>(x.repeats) * x.time.value());
      write_field(w, "bound", name(x.bound));
      w.end_object();
    }
  w.end_array();
}

// "memory": the need per GPU by kind, the capacity and the margin, and the machine's unified
// memory of which the capacity is the GPU's working set (0 for a GPU with memory of its own).
void write_memory(report_writer& w, const fit_verdict& f, byte_count unified) {
  w.begin_object();
  write_field(w, "unified_memory_bytes", unified.value());
  write_field(w, "weights_bytes", f.need.weights.value());
  write_field(w, "gradients_bytes", f.need.gradients.value());
  write_field(w, "optimizer_bytes", f.need.optimizer.value());
  write_field(w, "activations_bytes", f.need.activations.value());
  write_field(w, "kv_cache_bytes", f.need.kv_cache.value());
  write_field(w, "overhead_bytes", f.need.overhead.value());
  write_field(w, "total_bytes", f.need.total().value());
  write_field(w, "capacity_bytes", f.capacity.value());
  write_field(w, "margin_bytes", f.margin.value());
  w.end_object();
}

// "cluster": a training job's communication, or null.
void write_cluster(report_writer& w, const std::optional<cluster_estimate>& job) {
  if (!job) return w.null();
  w.begin_object();
  write_field(w, "allreduce_s", job->allreduce.value());
  write_field(w, "exposed_allreduce_s", job->exposed_allreduce.value());
  write_field(w, "tensor_parallel_s", job->tensor_parallel.value());
  w.key("job");
  write_job_collectives(w, *job);
  write_field(w, "speedup", job->speedup);
  write_field(w, "efficiency", job->efficiency);
  w.end_object();
}

// The rates of @p x (the stack's figures or the ceiling's) into the object open: step, samples,
// tokens, FLOP/s per GPU and MFU, and for decoder inference the prefill and the three rates
// apart, as llama-bench reports them (docs/models.md, "Three rates").
void write_rates(report_writer& w, const model_report& report, const model_estimate& x) {
  write_field(w, "step_time_s", x.time.value());
  write_field(w, "samples_per_s", x.samples_per_second());
  w.key("tokens_per_s");
  if (report.transformer)
    w.number(x.tokens_per_second());
  else
    w.null();
  write_field(w, "tflops", in_teraflops(report.per_gpu(x)));
  write_field(w, "mfu", report.mfu(x));
  if (!report.generation) return;
  // No token generated (--generate 0): no time per token, rather than 0 s.
  const bool generates = report.run.generate > 0;
  write_field(w, "prefill_s", x.prefill_time.value());
  w.key("decode_s_per_token");
  if (generates)
    w.number(x.decode_per_token.value());
  else
    w.null();
  write_field(w, "prompt_tokens_per_s", x.prompt_tokens_per_second());
  w.key("decode_tokens_per_s");
  if (generates)
    w.number(x.decode_tokens_per_second());
  else
    w.null();
}

// The run's LoRA adapters, or null without.
void write_lora(report_writer& w, const lora_config& lora) {
  if (!lora.enabled()) return w.null();
  w.begin_object();
  write_field(w, "rank", lora.rank);
  write_field(w, "targets", describe(lora.targets));
  write_field(w, "qlora", lora.qlora);
  w.end_object();
}

// The members "training_band" (a training job's), "split_bands" (a split inference's) and
// "error_bands" (one GPU's, held out by source), each null where the run has none.
void write_bands(report_writer& w, const model_report& report) {
  const run_config& r = report.run;
  const model_estimate& e = report.estimate.stack;
  const stack_id stack = report.stack.id;
  w.key("training_band");
  if (report.job)
    write_training_band(w, r, report.seq, report.boards, e.samples_per_second(),
                        report.transformer ? e.tokens_per_second() : 0.0);
  else
    w.null();
  w.key("split_bands");
  if (stack != stack_id::ceiling && report.split && report.generation)
    write_split_bands(w, stack, inference_split_of(r), report.boards, e);
  else
    w.null();
  w.key("error_bands");
  if (stack == stack_id::ceiling)
    w.null();
  else if (report.generation)
    write_error_bands(w, stack, r.mode, report.boards,
                      {estimate_figure::prompt, estimate_figure::decode});
  else
    write_error_bands(w, stack, r.mode, report.boards, {estimate_figure::step});
}

}  // namespace

void write(report_writer& w, const model_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const model_estimate& e = report.estimate.stack;
  const software_stack& stack = report.stack;
  const bool transformer = report.transformer;
  const bool generation = report.generation;
  w.begin_object();
  write_field(w, "model", m.name);
  write_field(w, "kind", name(m.kind));
  write_field(w, "gpu", report.device);
  w.key("power_limit");
  write_power_limit(w, report.power_limit);
  w.key("sustained_clock");
  write_sustained_clock(w, report.sustained_clock);
  write_field(w, "dtype", name(r.type));
  write_field(w, "mode", name(r.mode));
  write_field(w, "batch", r.batch);
  write_field_if(w, "seq", transformer, report.seq);
  write_field_if(w, "document_tokens", r.document > 0, r.document);
  write_field(w, "packing", r.packing);
  write_field_if(w, "nchw", !transformer, r.nchw);
  write_field_if(w, "image", !transformer, r.image);
  write_field(w, "parameters", m.parameters());
  write_field(w, "weights", name(r.weights));
  write_field(w, "weight_file_bytes", weight_file_bytes(m, r.weights, r.type));
  write_field_if(w, "kv_dtype", generation, name(r.kv_cache));
  write_field(w, "gpus", r.gpus);
  write_field(w, "tp", r.tp);
  write_field(w, "pp", r.pp);
  write_field_if(w, "cp", r.training(), r.cp);
  write_field_if(w, "ep", r.training(), r.ep);
  write_field_if(w, "expert_dispatch", r.training(), name(r.dispatch));
  write_field_if(w, "async_tp", r.training(), r.async_tp);
  write_field_if(w, "split", report.split, name(r.pp > 1 ? split_mode::layer : split_mode::tensor));
  w.key("link");
  if (report.link != nullptr)
    write_value(w, report.link->id);
  else
    w.null();
  write_field_if(w, "staged_through_host", report.split, report.staged);
  write_field_if(w, "collectives_through_host", report.split, report.collectives_staged);
  write_field(w, "communication_s", e.time_of(op_kind::communication).value());
  w.key("cluster");
  write_cluster(w, report.job);
  write_field(w, "zero", r.zero);
  write_field(w, "eager", run_under(stack, r).eager);
  write_field(w, "attention", name(r.attention));
  write_field(w, "selective_checkpointing", name(r.selective));
  write_field_if(w, "optimizer", r.training(), name(r.optimizer));
  write_field_if(w, "optimizer_kernels", r.training(), name(optimizer_kernels_of(stack, r)));
  write_field(w, "stack", stack.name());
  w.key("stack_measured");
  write_measured_figures(w, report.measured);
  w.key("memory");
  write_memory(w, report.fit, report.unified_memory);
  write_field(w, "fits", report.fit.fits);
  write_field_if(w, "max_batch", !report.offload, report.fit.max_batch);
  w.key("offload");
  write_offload(w, report.offload);
  write_field(w, "fits_with_tp", report.fitting_tp);
  w.key("ops");
  write_ops(w, e);
  write_bands(w, report);
  write_field_if(w, "trainable_parameters", r.training(), report.trainable);
  w.key("lora");
  write_lora(w, r.lora);
  write_rates(w, report, e);
  if (generation) {
    write_field(w, "prompt", report.seq);
    write_field(w, "generate", r.generate);
  }
  w.key("ceiling");
  w.begin_object();
  write_rates(w, report, report.estimate.ceiling);
  w.end_object();
  w.end_object();
}

nlohmann::json to_json(const model_report& r) {
  return json_of([&](report_writer& w) { write(w, r); });
}

// The device file a report's device came from, or null for a catalog GPU.
nlohmann::json device_file_json(const std::string& file) {
  return file.empty() ? nlohmann::json(nullptr) : nlohmann::json(file);
}

nlohmann::json to_json(const gemm_report& r) {
  const gemm_problem& p = r.problem;
  const gemm_estimate& e = r.estimate;
  return {
      {"gpu", r.gpu},
      {"device_file", device_file_json(r.device_file)},
      {"dtype", name(p.input)},
      {"accumulator", name(p.acc)},
      {"sparse", p.sparse_a},
      {"m", p.m},
      {"n", p.n},
      {"k", p.k},
      {"batch", p.batch},
      {"time_s", e.time.value()},
      {"tflops", in_teraflops(e.throughput)},
      {"bound", name(e.bound)},
      {"tile",
       {{"m", e.tile.block_m},
        {"n", e.tile.block_n},
        {"k", e.tile.block_k},
        {"warp_m", e.tile.warp_m},
        {"warp_n", e.tile.warp_n},
        {"stages", e.tile.stages},
        {"split_k", e.tile.split_k}}},
      {"blocks_per_sm", e.blocks_per_sm},
      {"tiles", e.tiles},
      {"waves", e.waves},
      {"wave_efficiency", e.wave_efficiency},
      {"l2_hit_rate", e.l2_hit_rate},
      {"bytes",
       {{"dram", e.dram_bytes.value()},
        {"l2", e.l2_bytes.value()},
        {"shared", e.shared_bytes.value()}}},
      {"time_breakdown_s",
       {{"compute", e.compute_time.value()},
        {"dram", e.dram_time.value()},
        {"l2", e.l2_time.value()},
        {"shared", e.shared_time.value()},
        {"latency", e.latency_time.value()}}},
  };
}

nlohmann::json to_json(const roofline_report& r) {
  const roofline_result& x = r.result;
  const double ai = x.arithmetic_intensity.value();
  return {
      {"gpu", r.gpu},
      {"device_file", device_file_json(r.device_file)},
      {"dtype", name(r.type)},
      {"accumulator", name(r.acc)},
      {"sparse", r.sparse},
      {"attainable_tflops", in_teraflops(x.attainable)},
      {"peak_tflops", in_teraflops(x.peak)},
      {"bound", name(x.bound)},
      // Unbounded without DRAM traffic: null, as JSON has no infinity.
      {"arithmetic_intensity", std::isinf(ai) ? nlohmann::json(nullptr) : nlohmann::json(ai)},
      {"ridge_flops_per_byte", x.ridge_point.value()},
      {"time_s", x.time.value()},
      {"compute_time_s", x.compute_time.value()},
      {"memory_time_s", x.tier_time[tier::global].value()},
  };
}

nlohmann::json to_json(const power_report& r) {
  const power_budget& b = r.budget;
  nlohmann::json warnings = nlohmann::json::array();
  for (power_warning w : enum_values<power_warning>)
    if (b.warns(w)) warnings.push_back(name(w));
  const auto watts_or_null = [&](power p) {
    return r.machine ? nlohmann::json(nullptr) : nlohmann::json(p.value());
  };
  return {{"gpu", r.gpu},
          {"count", b.count},
          {"tdp_watts", r.tdp.value()},
          {"board_watts", b.board.value()},
          {"gpu_watts", b.gpus.value()},
          {"rest_watts", r.params.rest_of_system.value()},
          {"system_watts", b.system.value()},
          {"psu_margin", r.params.psu_margin},
          // A system-on-chip is on its own power supply: no PSU to choose.
          {"recommended_psu_watts", watts_or_null(b.recommended_psu)},
          {"desktop_psu_limit_watts", r.params.desktop_psu_limit.value()},
          {"desktop_psu_left_watts", watts_or_null(b.left_by(r.params.desktop_psu_limit))},
          {"limit_watts", r.limit ? nlohmann::json(r.limit->value()) : nlohmann::json(nullptr)},
          {"saving_watts", r.saving.value()},
          {"clock_fraction", r.clock_fraction},
          {"compute_share", r.compute_share},
          {"performance_fraction", r.performance_fraction},
          {"warnings", warnings},
          {"stack", r.stack ? nlohmann::json(name(*r.stack)) : nlohmann::json(nullptr)},
          {"stack_measured", measured_figures_json(r.measured)}};
}

nlohmann::json to_json(const debias_report& r) {
  const debias_result& d = r.result;
  return {
      {"ratio", d.ratio},
      {"debiased_ratio", d.debiased_ratio},
      {"kind", name(d.input.kind)},
      {"factors",
       {{"batch", d.batch_factor},
        {"batch_doublings", d.batch_doublings},
        {"batch_gain_per_doubling", d.batch_gain},
        {"gpus", d.gpu_factor},
        {"efficiency_from", r.from.value},
        {"efficiency_to", r.to.value}}},
  };
}

nlohmann::json to_json(const tco_report& report) {
  const tco_request& q = report.request;
  const tco_inputs& in = q.inputs;
  const tco_result& r = report.result;
  return {{"utilization", in.utilization},
          {"days", calendar::in_days(in.period)},
          {"billing", name(in.billing)},
          {"kwh_per_year", in_kilowatt_hours(r.energy_per_year)},
          {"electricity_usd_per_year", r.electricity_per_year.value()},
          {"electricity_usd_per_day", r.electricity_per_day.value()},
          {"cloud_usd_per_day", r.cloud_per_day.value()},
          {"desktop_usd", r.desktop.value()},
          {"cloud_usd", r.cloud.value()},
          {"break_even_days", r.break_even ? nlohmann::json(calendar::in_days(*r.break_even))
                                           : nlohmann::json(nullptr)},
          {"desktop_cheaper", r.desktop_cheaper()},
          {"grid_kg_per_kwh", in.grid_kg_co2_per_kwh},
          {"co2_kg_per_year", r.co2_kg_per_year},
          {"gpu", q.gpu ? nlohmann::json(*q.gpu) : nlohmann::json(nullptr)},
          {"count", q.count},
          {"gpu_watts", in.gpu.value()},
          {"other_watts", in.other.value()},
          {"system_price_usd", in.system_price.value()},
          {"cloud_usd_per_hour", in_dollars_per_hour(in.cloud_hourly)},
          {"cloud_price_source", q.offer ? io::to_json(*q.offer) : nlohmann::json(nullptr)}};
}

nlohmann::json to_json(const rank_report& r) {
  nlohmann::json out = nlohmann::json::array();
  for (const rank_entry& e : r.entries) {
    nlohmann::json splits = nlohmann::json::array();
    for (const parallel_split& s : e.splits)
      splits.push_back(
          {{"gpus", s.gpus}, {"tp", s.tp}, {"pp", s.pp}, {"data_parallel", s.data_parallel()}});
    // The device file's stack figures are its GPU's alone.
    const bool mine = r.device != nullptr && e.gpu->id() == r.device->id();
    out.push_back({{"id", e.gpu->id()},
                   {"dtype", name(e.type)},
                   {"relative_performance", e.relative_performance},
                   {"system_cost_usd", e.system_cost.value()},
                   {"perf_per_dollar", e.perf_per_dollar},
                   {"memory_gb", in_gibibytes(e.gpu->facts().memory)},  // GiB: kept stable
                   {"memory_bytes", e.gpu->facts().memory.value()},
                   {"gpus", e.gpus},
                   {"splits", splits},
                   {"reference", e.reference->id()},
                   {"gpu_price_usd", e.gpu_price.value()},
                   {"price_basis", name(r.basis)},
                   {"host_share_usd", e.host_share.value()},
                   {"stack", name(stacks::build_for(r.stack, e.gpu->arch().vendor))},
                   {"stack_measured", measured_figures_json(mine ? r.measured : nullptr)}});
  }
  return out;
}

nlohmann::json to_json(std::span<const run_field> fields) {
  const run_options defaults;
  nlohmann::json out = nlohmann::json::array();
  for (const run_field& f : fields)
    out.push_back({{"keyword", f.keyword},
                   {"flag", f.flag},
                   {"kind", name(f.kind)},
                   {"job_layout", f.job_layout},
                   {"help", f.help},
                   {"default", f.get(defaults)},
                   {"names", f.names()}});
  return out;
}

nlohmann::json to_json(const speedup_report& r) {
  nlohmann::json rule = nullptr;
  if (r.rule) {
    const factor_range s = r.rule->speedup();
    rule = {
        {"low", s.low},
        {"high", s.high},
        {"shared_memory",
         {{"low", r.rule->shared_memory.low}, {"high", r.rule->shared_memory.high}}},
        {"tensor_cores", {{"low", r.rule->tensor_cores.low}, {"high", r.rule->tensor_cores.high}}},
        {"generations_gained", r.rule->gained},
        {"generations_lost", r.rule->lost}};
  }
  nlohmann::json out = {
      {"from", r.from.id},
      {"to", r.to.id},
      {"from_bandwidth_bytes_per_s", r.from.dram.value()},
      {"to_bandwidth_bytes_per_s", r.to.dram.value()},
      {"bandwidth_ratio", r.to.dram.value() / r.from.dram.value()},
      {"rule", rule},
      {"rule_not_applied", r.no_rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.no_rule)},
  };
  if (r.modelled) {
    out["modelled"] = r.modelled->ratio();
    out["from_step_s"] = r.modelled->from.time.value();
    out["to_step_s"] = r.modelled->to.time.value();
    out["from_fits"] = r.from.fit->fits;
    out["to_fits"] = r.to.fit->fits;
    out["preset"] = r.model->name;
    out["mode"] = name(r.run.mode);
    out["dtype"] = name(r.run.type);
    out["batch"] = r.run.batch;
    out["stack"] = name(r.run.stack);
    out["from_stack_measured"] = measured_figures_json(r.from.measured);
    out["to_stack_measured"] = measured_figures_json(r.to.measured);
    if (r.ceiling) {
      out["ceiling_modelled"] = r.ceiling->ratio();
      out["ceiling_from_step_s"] = r.ceiling->from.time.value();
      out["ceiling_to_step_s"] = r.ceiling->to.time.value();
    }
  }
  return out;
}

namespace {

// One stack's serving figures: the saturation estimate and, at a rate, the load.
nlohmann::json serving_json(const serving_figures& s) {
  const serve_estimate& e = s.saturation;
  nlohmann::json j = {
      {"concurrency", e.concurrency},
      {"clock_fraction", e.clock_fraction},
      {"kv_limited_concurrency", e.kv_limited},
      {"prefill_batch", e.prefill_batch},
      {"decode_step_s", e.decode_step.value()},
      {"prefill_per_request_s", e.prefill_per_request.value()},
      {"prefill_alone_s", e.prefill_alone.value()},
      {"requests_per_second", e.job_requests_per_second()},
      {"output_tokens_per_second", e.job_output_tokens_per_second()},
      {"total_tokens_per_second", e.job_requests_per_second() * (e.prompt_mean + e.generate_mean)}};
  if (s.load) {
    const serve_load& l = *s.load;
    j["at_rate"] = {{"requests_per_second", job_requests_per_second(l, e)},
                    {"utilisation", l.utilisation},
                    {"concurrency", l.concurrency},
                    {"ttft_s", l.ttft.value()},
                    {"tpot_s", l.tpot.value()},
                    {"request_latency_s", l.latency.value()},
                    {"output_tokens_per_second", job_output_tokens_per_second(l, e)}};
  } else {
    j["at_rate"] = nullptr;
  }
  if (s.held) {
    const serve_load& l = *s.held;
    const double copies = static_cast<double>(e.replicas);
    j["at_concurrency"] = {{"concurrency", (l.concurrency + l.waiting) * copies},
                           {"sequences_decoding", l.concurrency * copies},
                           {"waiting", l.waiting * copies},
                           {"requests_per_second", job_requests_per_second(l, e)},
                           {"utilisation", l.utilisation},
                           {"ttft_s", l.ttft.value()},
                           {"tpot_s", l.tpot.value()},
                           {"request_latency_s", l.latency.value()},
                           {"output_tokens_per_second", job_output_tokens_per_second(l, e)}};
  } else {
    j["at_concurrency"] = nullptr;
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const serve_report& r) {
  const serve_estimate& e = r.at_stack.saturation;
  nlohmann::json out = serving_json(r.at_stack);
  out["model"] = r.model.name;
  out["gpu"] = r.device;
  out["power_limit"] = power_limit_json(r.power_limit);
  out["dtype"] = name(r.run.type);
  out["weights"] = name(r.run.weights);
  out["kv_dtype"] = name(r.run.kv_cache);
  out["stack"] = r.stack.name();
  out["stack_measured"] = measured_figures_json(r.measured);
  out["prompt"] = e.prompt;
  out["generate"] = e.generate;
  out["prompt_least"] = e.prompt_least;
  out["generate_least"] = e.generate_least;
  out["prompt_mean"] = e.prompt_mean;
  out["generate_mean"] = e.generate_mean;
  out["gpus"] = r.run.gpus;
  out["tp"] = r.run.tp;
  out["block_tokens"] = r.config.block_tokens;
  out["kv_memory_fraction"] = r.config.kv_memory_fraction;
  out["step_tokens"] = e.step_tokens;
  out["step_tokens_shaped"] = e.step_tokens_shaped;
  out["max_sequences"] = e.max_sequences > 0 ? nlohmann::json(e.max_sequences) : nullptr;
  out["kv_reservation"] = name(e.reservation);
  out["chunked_prefill"] = r.stack.serving.chunked_prefill;
  out["kv_budget_bytes"] = e.kv_budget.value();
  out["kv_bytes_per_token"] = e.kv_per_token.value();
  out["blocks_per_sequence"] = e.blocks_per_sequence;
  out["ceiling"] = serving_json(r.ceiling);
  out["serving_band"] = serving_band_json(r.band, e.job_output_tokens_per_second());
  if (r.at_stack.held)
    out["at_concurrency"]["serving_band"] =
        serving_band_json(r.closed_loop_band, job_output_tokens_per_second(*r.at_stack.held, e));
  return out;
}

nlohmann::json to_json(const advise_report& report) {
  const advice_request& q = report.request;
  nlohmann::json out = nlohmann::json::array();
  for (const recommendation& r : report.advice) {
    nlohmann::json item = {
        {"id", r.gpu->id()},
        {"fits", r.fits},
        {"need_bytes", r.need.value()},
        {"margin_bytes", r.margin.value()},
        {"within_budget", r.within_budget},
        {"system_cost_usd",
         r.priced ? nlohmann::json(r.system_cost.value()) : nlohmann::json(nullptr)},
        {"relative_performance",
         r.ranked ? nlohmann::json(r.ranked->relative_performance) : nlohmann::json(nullptr)},
        {"scaling", r.scaling},
        {"perf_per_dollar", r.ranked ? nlohmann::json(r.perf_per_dollar) : nlohmann::json(nullptr)},
        {"system_watts", r.power.system.value()},
        {"recommended_psu_watts", r.gpu->facts().form == form_factor::integrated
                                      ? nlohmann::json(nullptr)
                                      : nlohmann::json(r.power.recommended_psu.value())},
        {"reasons", r.reasons},
        {"gpus", r.gpus},
        {"host_cost_usd", r.priced ? nlohmann::json(r.host_cost.value()) : nlohmann::json(nullptr)},
        {"reference",
         r.ranked ? nlohmann::json(r.ranked->reference->id()) : nlohmann::json(nullptr)},
        // The engine's build for this GPU's vendor, as rank's and rent's rows name it.
        {"stack", name(stacks::build_for(report.stack, r.gpu->arch().vendor))},
        {"stack_measured", measured_figures_json(report.measured_on(r.gpu->id()))},
        {"price_usd", r.priced ? nlohmann::json(r.gpu_price.value()) : nlohmann::json(nullptr)},
        {"price_kind", r.price    ? nlohmann::json(name(r.price->kind))
                       : r.priced ? nlohmann::json("price_file")
                                  : nlohmann::json(nullptr)},
        {"price_date", r.price
                           ? nlohmann::json(fmt::format("{}-{:02}", r.price->year, r.price->month))
                           : nlohmann::json(nullptr)},
        {"task", report.task.name},
        {"samples_per_s",
         r.ranked ? nlohmann::json(r.samples_per_second) : nlohmann::json(nullptr)},
        {"seconds_per_task",
         r.ranked ? nlohmann::json(r.seconds_per_task) : nlohmann::json(nullptr)},
        {"cost_per_task_usd",
         r.cost ? nlohmann::json(r.cost->total().value()) : nlohmann::json(nullptr)},
        {"purchase_per_task_usd",
         r.cost ? nlohmann::json(r.cost->purchase.value()) : nlohmann::json(nullptr)},
        {"electricity_per_task_usd",
         r.cost ? nlohmann::json(r.cost->electricity.value()) : nlohmann::json(nullptr)},
        {"site", name(r.where)},
        {"usd_per_kwh", in_dollars_per_kwh(q.ownership.kwh_price_at(r.where))},
        {"verdict", r.verdict.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.verdict)},
        {"job_seconds",
         r.job_seconds > 0 ? nlohmann::json(r.job_seconds) : nlohmann::json(nullptr)},
        {"job_cost_usd",
         r.job_cost ? nlohmann::json(r.job_cost->value()) : nlohmann::json(nullptr)}};
    if (r.split && r.split->chosen)
      item["split"] = {{"gpus", r.split->chosen->split.gpus},
                       {"tp", r.split->chosen->split.tp},
                       {"pp", r.split->chosen->split.pp},
                       {"data_parallel", r.split->chosen->split.data_parallel()},
                       {"link", r.split->link},
                       {"samples_per_s", r.split->chosen->samples_per_second}};
    out.push_back(item);
  }
  return out;
}

nlohmann::json to_json(const rent_report& report) {
  const std::optional<training_job>& job = report.job;
  nlohmann::json out = nlohmann::json::array();
  for (const rental& x : report.ranked) {
    const parallel_split& s = x.split.chosen->split;
    out.push_back({{"id", x.gpu->id()},
                   {"gpus", s.gpus},
                   {"tp", s.tp},
                   {"pp", s.pp},
                   {"data_parallel", s.data_parallel()},
                   {"dtype", name(x.type)},
                   {"stack", name(stacks::build_for(report.run.stack, x.gpu->arch().vendor))},
                   {"usd_per_gpu_hour", in_dollars_per_hour(x.per_gpu_hour)},
                   {"usd_per_hour", in_dollars_per_hour(x.per_hour)},
                   {"tokens_per_s", x.tokens_per_second},
                   {"usd_per_million_tokens", x.per_million_tokens.value()},
                   {"job_seconds", job ? nlohmann::json(job->seconds_at(x.tokens_per_second))
                                       : nlohmann::json(nullptr)},
                   {"job_cost_usd", job ? nlohmann::json(job->cost_at(x.per_million_tokens).value())
                                        : nlohmann::json(nullptr)},
                   {"price_source", x.offer ? io::to_json(*x.offer) : nlohmann::json(nullptr)}});
  }
  return out;
}

void write(report_writer& w, const cluster_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const gemm_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const roofline_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const power_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const debias_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const tco_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const rank_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const speedup_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const advise_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const rent_report& r) { write_value(w, to_json(r)); }
void write(report_writer& w, const serve_report& r) { write_value(w, to_json(r)); }

}  // namespace dlperf::app
