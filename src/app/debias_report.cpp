// `dlperf debias` as a typed request and report (dlperf/app/debias_report.hpp).
#include <dlperf/app/debias_report.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/model/presets.hpp>
#include <type_traits>
#include <variant>

namespace dlperf::app {
namespace {

// Every text keyword of a debias request and the option it sets (the kind is read apart: an
// enumerator): one list for debias_request_from_keywords and debias_keywords.
constexpr std::array<text_keyword<debias_options>, 14> comparison_fields{
    {{"ratio", &debias_options::ratio},
     {"batch_from", &debias_options::batch_from},
     {"batch_to", &debias_options::batch_to},
     {"gpus_from", &debias_options::gpus_from},
     {"gpus_to", &debias_options::gpus_to},
     {"efficiency_from", &debias_options::efficiency_from},
     {"efficiency_to", &debias_options::efficiency_to},
     {"gpu_from", &debias_options::gpu_from},
     {"gpu_to", &debias_options::gpu_to},
     {"device_from", &debias_options::device_from},
     {"device_to", &debias_options::device_to},
     {"link_from", &debias_options::link_from},
     {"link_to", &debias_options::link_to},
     {"preset", &debias_options::preset}}};
constexpr auto comparison_keywords =
    keyword_names(comparison_fields, std::array<std::string_view, 1>{"kind"});

// One side's efficiency basis, as its flags give it (the GPU, file and link resolved).
void read_side(debias_side& s, std::string_view side, const std::string& given,
               const std::string& gpu, const std::string& device, const std::string& link) {
  const std::string eff_flag = fmt::format("--efficiency-{}", side);
  const bool modelled = !gpu.empty() || !device.empty();
  if (!gpu.empty() && !device.empty())
    throw request_error(fmt::format("give one of --gpu-{} and --device-{}", side, side));
  if (!given.empty()) {
    if (modelled || !link.empty())
      throw request_error(
          fmt::format("{}: give it or --gpu-{} (or --device-{}) with --link-{}, not both", eff_flag,
                      side, side, side));
    s.basis = efficiency_basis::given;
    s.efficiency = parse_plausible(eff_flag, given);  // a fraction, from 0.01
    return;
  }
  if (modelled != !link.empty())
    throw request_error(
        fmt::format("--gpu-{} (or --device-{}) and --link-{} go together", side, side, side));
  if (!modelled) {
    s.basis = s.gpus > 1 ? efficiency_basis::linear : efficiency_basis::one_gpu;
    return;
  }
  s.basis = efficiency_basis::model;
  if (!gpu.empty()) {
    s.gpu = &catalog::find(gpu);
  } else {
    // A device file's GPU, as `cluster --device` runs it: every GPU of the side a copy of it.
    s.gpu = gpu_device_file(fmt::format("--device-{}", side), "debias", device);
    s.device_file = device;
  }
  s.link = &find_link(link);
}

// The efficiency of side @p s of @p q, with its basis.
side_efficiency efficiency_of(const debias_side& s, const debias_request& q) {
  side_efficiency out{s.efficiency, s.basis, {}, s.device_file, {}};
  if (s.basis == efficiency_basis::one_gpu || s.basis == efficiency_basis::linear) out.value = 1.0;
  if (s.basis != efficiency_basis::model) return out;
  if (!s.gpu || s.link == nullptr || !q.model)
    throw request_error("debias: a modelled side needs its GPU, its link and a model");
  run_config r = typical_cluster_run;
  r.batch = s.batch;
  out.gpu = device_label(*s.gpu);
  out.link = std::string(s.link->id);
  out.value = visit_device(*s.gpu, [&](const auto& g) -> double {
    if constexpr (gemm_device<std::decay_t<decltype(g)>>)
      return estimate_cluster_on(g, s.gpus, *q.model, r, *s.link).efficiency;
    else
      throw request_error("debias: a host CPU has no scaling to model; give a GPU");
  });
  return out;
}

}  // namespace

debias_options::debias_options() : preset(typical_cluster_model.name) {}

debias_request make_debias_request(const debias_options& o) {
  debias_request q;
  q.ratio = parse_plausible("--ratio", o.ratio);
  q.kind = o.kind;
  // A side without --batch-X takes the other side's batch, and both the typical job's (the
  // multi-GPU model's default) when neither is given: no batch factor without two batches.
  const long long from =
      o.batch_from.empty() ? 0 : parse_plausible_count("--batch-from", o.batch_from);
  const long long to = o.batch_to.empty() ? 0 : parse_plausible_count("--batch-to", o.batch_to);
  q.from.batch = from > 0 ? from : (to > 0 ? to : typical_cluster_run.batch);
  q.to.batch = to > 0 ? to : q.from.batch;
  q.from.gpus = parse_plausible_count("--gpus-from", o.gpus_from);
  q.to.gpus = parse_plausible_count("--gpus-to", o.gpus_to);
  // The "from" side's model is read before the "to" side's flags, as the command always has.
  read_side(q.from, "from", o.efficiency_from, o.gpu_from, o.device_from, o.link_from);
  if (q.from.basis == efficiency_basis::model) q.model = presets::find(o.preset);
  read_side(q.to, "to", o.efficiency_to, o.gpu_to, o.device_to, o.link_to);
  if (q.to.basis == efficiency_basis::model && !q.model) q.model = presets::find(o.preset);
  return q;
}

std::span<const std::string_view> debias_keywords() { return comparison_keywords; }

debias_request debias_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  const debias_options o =
      options_from_keywords(fields, comparison_fields, "debias",
                            [](debias_options& d, std::string_view k, const std::string& value) {
                              if (k != "kind") return false;
                              d.kind = parse_named<workload_kind>("--kind", value);
                              return true;
                            });
  return make_debias_request(o);
}

debias_report estimate(const debias_request& q) {
  debias_report out;
  out.from = efficiency_of(q.from, q);
  out.to = efficiency_of(q.to, q);
  if (q.model) out.model = std::string(q.model->name);
  debias_input in;
  in.ratio = q.ratio;
  in.batch_from = q.from.batch;
  in.batch_to = q.to.batch;
  in.gpus_from = q.from.gpus;
  in.gpus_to = q.to.gpus;
  in.efficiency_from = out.from.value;
  in.efficiency_to = out.to.value;
  in.kind = q.kind;
  out.result = debias(in);
  return out;
}

}  // namespace dlperf::app
