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

// A stack's held-out error bands (model/error_bands.hpp) on the GPU's class of board as JSON: one
// per figure of the run (a step's, or decoder inference's decode and prompt rates), each null
// without a band.
nlohmann::json error_bands_json(stack_id stack, run_mode mode, board_class boards,
                                std::initializer_list<estimate_figure> figures) {
  nlohmann::json out = nlohmann::json::object();
  for (const estimate_figure f : figures) {
    const std::optional<error_band> band = error_band_of(stack, mode, f, boards);
    out[std::string(name(f))] =
        band ? nlohmann::json{{"stack", name(band->stack)},       {"mode", name(band->mode)},
                              {"boards", name(band->boards)},     {"rows", band->rows},
                              {"median_abs_error", band->median}, {"worst_abs_error", band->worst},
                              {"basis", "leave-one-source-out"}}
             : nlohmann::json(nullptr);
  }
  return out;
}

// A multi-GPU band (model/error_bands.hpp: training_scaling_band, inference_split_band) as JSON:
// its stack, rows, median error and bias, and the interval of measured / predicted it holds.
template <class Band>
nlohmann::json band_interval_json(const Band& b) {
  return {{"stack", name(b.stack)},       {"rows", b.rows},
          {"median_abs_error", b.median}, {"bias", b.bias},
          {"coverage", Band::coverage},   {"measured_over_predicted", {b.low, b.high}}};
}

// A split run's multi-GPU inference bands (model/error_bands.hpp, inference_split_band) as
// JSON: one per rate, each with the interval it gives that rate, null without a band.
// A partial offload: where the layers are, the host side's rates, the most layers that fit; null
// with every layer on the GPU.
nlohmann::json offload_json(const std::optional<offload_report>& o) {
  if (!o) return nullptr;
  return {{"gpu_layers", o->placement.gpu_layers + (o->placement.output_on_gpu ? 1 : 0)},
          {"layers", o->placement.layers},
          {"layers_on_gpu", o->placement.gpu_layers},
          {"output_on_gpu", o->placement.output_on_gpu},
          {"host_memory", o->memory->id},
          {"host_memory_peak_bytes_per_s", o->memory->peak().value()},
          {"host_read_bytes_per_s", o->host.dram.value()},
          {"upload_bytes_per_s", o->host.upload.value()},
          {"host_weight_bytes", o->host_weights.value()},
          {"most_gpu_layers_that_fit",
           o->most_that_fit >= 0 ? nlohmann::json(o->most_that_fit) : nlohmann::json(nullptr)}};
}

nlohmann::json split_bands_json(stack_id stack, split_mode split, board_class boards,
                                const model_estimate& e) {
  nlohmann::json out = nlohmann::json::object();
  for (const estimate_figure f : {estimate_figure::prompt, estimate_figure::decode}) {
    const std::optional<inference_split_band> b = inference_split_band_of(stack, split, f, boards);
    const double rate =
        f == estimate_figure::decode ? e.decode_tokens_per_second() : e.prompt_tokens_per_second();
    nlohmann::json& band = out[std::string(name(f))];
    if (!b) continue;  // null
    band = band_interval_json(*b);
    band["split"] = name(b->split);
    band["boards"] = name(b->boards);
    band["tokens_per_s"] = {b->low * rate, b->high * rate};
  }
  return out;
}

}  // namespace

nlohmann::json serving_band_json(const std::optional<serving_band>& band,
                                 double output_tokens_per_s) {
  if (!band) return nullptr;
  nlohmann::json out = band_interval_json(*band);
  out["vendor"] = name(band->vendor);
  out["boards"] = name(band->boards);
  out["banded"] = band->banded();
  out["output_tokens_per_s"] = {band->low * output_tokens_per_s, band->high * output_tokens_per_s};
  // The group's rows ran one model copy on one GPU, or on several (a tensor split of 2 to 8:
  // docs/evidence.md, "Serving on several GPUs"), as the estimate's run does.
  out["several_gpus"] = band->several_gpus;
  out["gpus_per_row"] = band->several_gpus ? nlohmann::json(nullptr) : nlohmann::json(1);
  return out;
}

nlohmann::json power_limit_json(const std::optional<power_limit_info>& p) {
  if (!p) return nullptr;
  return {{"watts", p->limit.value()},
          {"board_watts", p->tdp.value()},
          {"clock_fraction", p->clock_fraction},
          {"sm_clock_hz", p->clock.value()}};
}

nlohmann::json sustained_clock_json(const std::optional<sustained_clock_info>& s) {
  if (!s) return nullptr;
  return {{"clock_fraction", s->clock_fraction},
          {"sm_clock_hz", s->clock.value()},
          {"tensor_clock_hz", s->quoted.value()}};
}

nlohmann::json measured_figures_json(const stack_calibration* c) {
  if (c == nullptr) return nullptr;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [figure, m] : c->figures)
    out[std::string(name(figure))] = {{"value", m.value}, {"method", m.method}};
  return out;
}

nlohmann::json job_collectives_json(const cluster_estimate& c) {
  nlohmann::json list = nlohmann::json::array();
  for (const step_collective& x : c.collectives)
    list.push_back({{"name", x.name},
                    {"collective", name(x.kind)},
                    {"bytes", x.bytes.value()},
                    {"calls", x.calls},
                    {"time_s", x.time.value()},
                    {"exposed_s", x.exposed.value()}});
  return {{"network", c.network.id},
          {"gpus_per_node", c.gpus_per_node},
          {"nodes", c.nodes},
          {"grad_accumulation", c.grad_accumulation},
          {"pp", c.pp},
          {"virtual_stages", c.virtual_stages},
          {"pipeline_bubble_s", c.pipeline_bubble.value()},
          {"exposed_communication_s", c.exposed_communication.value()},
          {"collectives", std::move(list)}};
}

nlohmann::json training_band_json(stack_id stack, double samples_per_s, double tokens_per_s) {
  // The bands come from decoder language models: a CNN's job (no tokens) has none.
  const std::optional<training_scaling_band> b = training_scaling_band_of(stack);
  if (!b || !(tokens_per_s > 0)) return nullptr;
  const auto range = [&](double rate) {
    return rate > 0 ? nlohmann::json::array({b->low * rate, b->high * rate})
                    : nlohmann::json(nullptr);
  };
  nlohmann::json out = band_interval_json(*b);
  out["samples_per_s"] = range(samples_per_s);
  out["tokens_per_s"] = range(tokens_per_s);
  return out;
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
      {"training_band", training_band_json(r.run.stack, r.samples_per_s, r.tokens_per_s)},
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
// Built key by key: an initializer list of pairs builds each pair as a JSON array first, which
// cost more than the estimate itself over a model's operators (docs/python.md).
nlohmann::json ops_json(const model_estimate& e) {
  nlohmann::json ops = nlohmann::json::array();
  for (const step_phase p : enum_values<step_phase>)
    for (const op_estimate& x : e.phase(p)) {
      nlohmann::json& op = ops.emplace_back(nlohmann::json::object());
      op["phase"] = name(p);
      op["name"] = x.name;
      op["kind"] = name(x.kind);
      op["repeats"] = x.repeats;
      op["time_s"] = static_cast<double>(x.repeats) * x.time.value();
      op["bound"] = name(x.bound);
    }
  return ops;
}

// "memory": the need per GPU by kind, the capacity and the margin, and the machine's unified
// memory of which the capacity is the GPU's working set (0 for a GPU with memory of its own).
nlohmann::json memory_json(const fit_verdict& f, byte_count unified) {
  return {{"unified_memory_bytes", unified.value()},
          {"weights_bytes", f.need.weights.value()},
          {"gradients_bytes", f.need.gradients.value()},
          {"optimizer_bytes", f.need.optimizer.value()},
          {"activations_bytes", f.need.activations.value()},
          {"kv_cache_bytes", f.need.kv_cache.value()},
          {"overhead_bytes", f.need.overhead.value()},
          {"total_bytes", f.need.total().value()},
          {"capacity_bytes", f.capacity.value()},
          {"margin_bytes", f.margin.value()}};
}

// "cluster": a training job's communication, or null.
nlohmann::json cluster_json(const std::optional<cluster_estimate>& job) {
  if (!job) return nullptr;
  return {{"allreduce_s", job->allreduce.value()},
          {"exposed_allreduce_s", job->exposed_allreduce.value()},
          {"tensor_parallel_s", job->tensor_parallel.value()},
          {"job", job_collectives_json(*job)},
          {"speedup", job->speedup},
          {"efficiency", job->efficiency}};
}

// The rates of @p x (the stack's figures or the ceiling's) into @p out: step, samples, tokens,
// FLOP/s per GPU and MFU, and for decoder inference the prefill and the three rates apart, as
// llama-bench reports them (docs/models.md, "Three rates").
void add_rates(nlohmann::json& out, const model_report& report, const model_estimate& x) {
  out["step_time_s"] = x.time.value();
  out["samples_per_s"] = x.samples_per_second();
  out["tokens_per_s"] =
      report.transformer ? nlohmann::json(x.tokens_per_second()) : nlohmann::json(nullptr);
  out["tflops"] = in_teraflops(report.per_gpu(x));
  out["mfu"] = report.mfu(x);
  if (!report.generation) return;
  // No token generated (--generate 0): no time per token, rather than 0 s.
  const bool generates = report.run.generate > 0;
  out["prefill_s"] = x.prefill_time.value();
  out["decode_s_per_token"] =
      generates ? nlohmann::json(x.decode_per_token.value()) : nlohmann::json(nullptr);
  out["prompt_tokens_per_s"] = x.prompt_tokens_per_second();
  out["decode_tokens_per_s"] =
      generates ? nlohmann::json(x.decode_tokens_per_second()) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json to_json(const model_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const model_estimate& e = report.estimate.stack;
  const software_stack& stack = report.stack;
  const bool transformer = report.transformer;
  const bool generation = report.generation;
  const auto null_unless = [](bool has, auto value) {
    return has ? nlohmann::json(value) : nlohmann::json(nullptr);
  };
  nlohmann::json out = {
      {"model", m.name},
      {"kind", name(m.kind)},
      {"gpu", report.device},
      {"power_limit", power_limit_json(report.power_limit)},
      {"sustained_clock", sustained_clock_json(report.sustained_clock)},
      {"dtype", name(r.type)},
      {"mode", name(r.mode)},
      {"batch", r.batch},
      {"seq", null_unless(transformer, report.seq)},
      {"document_tokens", null_unless(r.document > 0, r.document)},
      {"packing", r.packing},
      {"nchw", null_unless(!transformer, r.nchw)},
      {"image", null_unless(!transformer, r.image)},
      {"parameters", m.parameters()},
      {"weights", name(r.weights)},
      {"weight_file_bytes", weight_file_bytes(m, r.weights, r.type)},
      {"kv_dtype", null_unless(generation, name(r.kv_cache))},
      {"gpus", r.gpus},
      {"tp", r.tp},
      {"pp", r.pp},
      {"split", null_unless(report.split, name(r.pp > 1 ? split_mode::layer : split_mode::tensor))},
      {"link", report.link != nullptr ? nlohmann::json(report.link->id) : nlohmann::json(nullptr)},
      {"staged_through_host", null_unless(report.split, report.staged)},
      {"communication_s", e.time_of(op_kind::communication).value()},
      {"cluster", cluster_json(report.job)},
      {"zero", r.zero},
      {"eager", run_under(stack, r).eager},
      {"attention", name(r.attention)},
      {"selective_checkpointing", name(r.selective)},
      {"optimizer", null_unless(r.training(), name(r.optimizer))},
      {"optimizer_kernels", null_unless(r.training(), name(optimizer_kernels_of(stack, r)))},
      {"stack", stack.name()},
      {"stack_measured", measured_figures_json(report.measured)},
      {"memory", memory_json(report.fit, report.unified_memory)},
      {"fits", report.fit.fits},
      {"max_batch",
       report.offload ? nlohmann::json(nullptr) : nlohmann::json(report.fit.max_batch)},
      {"offload", offload_json(report.offload)},
      {"fits_with_tp",
       report.fitting_tp ? nlohmann::json(*report.fitting_tp) : nlohmann::json(nullptr)},
      {"ops", ops_json(e)},
      {"training_band", report.job ? training_band_json(stack.id, e.samples_per_second(),
                                                        transformer ? e.tokens_per_second() : 0.0)
                                   : nlohmann::json(nullptr)},
      {"split_bands", stack.id != stack_id::ceiling && report.split && generation
                          ? split_bands_json(stack.id, inference_split_of(r), report.boards, e)
                          : nlohmann::json(nullptr)},
      {"error_bands",
       stack.id == stack_id::ceiling ? nlohmann::json(nullptr)
       : generation                  ? error_bands_json(stack.id, r.mode, report.boards,
                                                        {estimate_figure::prompt, estimate_figure::decode})
                    : error_bands_json(stack.id, r.mode, report.boards, {estimate_figure::step})},
      {"trainable_parameters", null_unless(r.training(), report.trainable)},
      {"lora", r.lora.enabled() ? nlohmann::json{{"rank", r.lora.rank},
                                                 {"targets", describe(r.lora.targets)},
                                                 {"qlora", r.lora.qlora}}
                                : nlohmann::json(nullptr)},
  };
  add_rates(out, report, e);
  if (generation) {
    out["prompt"] = report.seq;
    out["generate"] = r.generate;
  }
  nlohmann::json ceiling = nlohmann::json::object();
  add_rates(ceiling, report, report.estimate.ceiling);
  out["ceiling"] = std::move(ceiling);
  return out;
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
  nlohmann::json j = {{"concurrency", e.concurrency},
                      {"clock_fraction", e.clock_fraction},
                      {"kv_limited_concurrency", e.kv_limited},
                      {"prefill_batch", e.prefill_batch},
                      {"decode_step_s", e.decode_step.value()},
                      {"prefill_per_request_s", e.prefill_per_request.value()},
                      {"prefill_alone_s", e.prefill_alone.value()},
                      {"requests_per_second", e.job_requests_per_second()},
                      {"output_tokens_per_second", e.job_output_tokens_per_second()},
                      {"total_tokens_per_second",
                       e.job_requests_per_second() * static_cast<double>(e.prompt + e.generate)}};
  if (s.load) {
    const serve_load& l = *s.load;
    j["at_rate"] = {
        {"requests_per_second", l.rate * static_cast<double>(e.replicas)},
        {"utilisation", l.utilisation},
        {"concurrency", l.concurrency},
        {"ttft_s", l.ttft.value()},
        {"tpot_s", l.tpot.value()},
        {"request_latency_s", l.latency.value()},
        {"output_tokens_per_second", l.rate * static_cast<double>(e.replicas * e.generate)}};
  } else {
    j["at_rate"] = nullptr;
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
        {"stack", name(report.stack)},
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

}  // namespace dlperf::app
