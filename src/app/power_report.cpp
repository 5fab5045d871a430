// `dlperf power` as a typed request and report (dlperf/app/power_report.hpp).
#include <dlperf/app/power_report.hpp>

#include <algorithm>
#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/stacked.hpp>
#include <type_traits>
#include <variant>

namespace dlperf::app {
namespace {

// Every keyword of a power request that is not a run field, and the option it sets: one list
// for power_request_from_keywords and power_keywords.
constexpr std::array<text_keyword<power_options>, 7> machine_fields{
    {{"gpu", &power_options::gpu},
     {"device", &power_options::device},
     {"count", &power_options::count},
     {"limit", &power_options::limit},
     {"rest_watts", &power_options::rest},
     {"compute_share", &power_options::compute_share},
     {"preset", &power_options::preset}}};
constexpr auto machine_keywords = keyword_names(machine_fields, std::array<std::string_view, 0>{});

// A system-on-chip's figure is the whole machine's at the wall, on its own power supply: one to
// a machine, nothing added for the rest, no PSU to choose and no limit to set.
void refuse_machine_options(std::string_view name, long long count, bool rest, bool limit) {
  if (count != 1 || rest || limit)
    throw request_error(one_to_a_machine_text(name) +
                        ", its power its machine's at the wall, with no power limit to set "
                        "(--count, --rest-watts and --limit do not apply)");
}

// The report of @p q on GPU @p g.
template <class G>
power_report estimate_on(const power_request& q, const G& g) {
  const bool machine = g.facts().form == form_factor::integrated;
  if (machine) refuse_machine_options(g.name(), q.count, q.rest.has_value(), q.limit.has_value());
  if (q.compute_share && q.model)
    throw request_error("give at most one of --compute-share and --preset");
  power_report out;
  out.gpu = device_label(q.gpu);
  out.gpu_name = std::string(g.name());
  out.machine = machine;
  out.tdp = g.facts().tdp;
  out.device_file = q.device_file;
  power_parameters params;
  if (q.rest) params.rest_of_system = *q.rest;
  out.params = power_parameters_for(g.facts().form, params);
  out.limit = q.limit;
  // The clock-bound share of the workload: given, from a model estimate, or 1 (the worst case).
  out.compute_share = q.compute_share.value_or(1.0);
  if (q.model) {
    // The device file's GPU runs on the stack figures the file measured, if any.
    run_config r = q.run;
    auto held = calibration_store();
    const software_stack s = stack_on_device(r.stack, q.device_file, *held, &out.measured);
    const std::string id(g.id());
    const std::vector<measured_stack> stacks{{id, &s}};
    if (out.measured != nullptr) r.measured_stacks = stacks;
    out.compute_share = clock_bound_share(estimate_run(g, *q.model, r));
    out.stack = r.stack;
    out.calibrations = std::move(held);
  }
  out.budget = power_budget_of(q.limit.value_or(out.tdp), q.count, out.params);
  out.clock_fraction = q.limit ? dlperf::clock_fraction(*q.limit, out.tdp) : 1.0;
  out.performance_fraction = dlperf::performance_fraction(out.compute_share, out.clock_fraction);
  out.saving = q.limit ? power_limit_saving(out.tdp, *q.limit, q.count) : power{};
  return out;
}

}  // namespace

power_request make_power_request(const power_options& o) {
  power_request q;
  q.gpu = select_device(o.gpu, o.device);
  q.device_file = o.device;
  if (std::holds_alternative<host_device>(q.gpu))
    throw request_error("--device: power needs a GPU; '" + o.device + "' describes a host CPU");
  q.count = parse_plausible_count("--count", o.count);
  if (!o.rest.empty()) q.rest = watts(parse_plausible("--rest-watts", o.rest));
  visit_device(q.gpu, [&](const auto& g) {
    if constexpr (gemm_device<std::decay_t<decltype(g)>>) {
      if (g.facts().form == form_factor::integrated)
        refuse_machine_options(g.name(), q.count, q.rest.has_value(), !o.limit.empty());
      if (!o.limit.empty())
        q.limit = parse_power_limit("--limit", o.limit, g.facts().tdp, device_label(q.gpu));
    }
  });
  if (!o.compute_share.empty() && !o.preset.empty())
    throw request_error("give at most one of --compute-share and --preset");
  if (!o.compute_share.empty())
    q.compute_share = parse_plausible("--compute-share", o.compute_share);
  if (!o.preset.empty()) {
    q.model = presets::find(o.preset);
    q.run = make_run(o.run);
  }
  return q;
}

std::span<const std::string_view> power_keywords() { return machine_keywords; }

power_request power_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string first_run_keyword;
  const power_options o = options_from_keywords(
      fields, machine_fields, "power",
      [&](power_options& p, std::string_view k, const std::string& value) {
        // The run fields describe the preset's run.
        apply_model_run_keyword(p.run, k, value, "power", "the limit is 'limit'");
        if (first_run_keyword.empty()) first_run_keyword = std::string(k);
        return true;
      });
  if (o.preset.empty() && !first_run_keyword.empty())
    throw request_error(first_run_keyword + ": the run fields describe preset's run; give preset");
  return make_power_request(o);
}

power_report estimate(const power_request& q) {
  refuse_null_gpu(q.gpu, "power");
  return visit_device(q.gpu, [&](const auto& g) -> power_report {
    if constexpr (gemm_device<std::decay_t<decltype(g)>>)
      return estimate_on(q, g);
    else
      throw request_error("power needs a GPU; the request's device is a host CPU");
  });
}

}  // namespace dlperf::app
