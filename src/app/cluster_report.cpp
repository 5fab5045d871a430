// `dlperf cluster` as a typed request and report (dlperf/app/cluster_report.hpp).
#include <dlperf/app/cluster_report.hpp>

#include <algorithm>
#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace dlperf::app {

namespace {

// The job on @p gpus (one per rank; catalog GPUs, or device files' GPUs) into @p out.
template <class D>
void estimate_job(cluster_report& out, const cluster_request& q, run_config r,
                  const std::vector<const D*>& gpus) {
  // The device file's GPU runs on the stack figures the file measured, if any.
  auto held = calibration_store();
  const software_stack measured = stack_on_device(r.stack, q.device_file, *held, &out.measured);
  const std::string first_id(gpus.front()->id());
  const std::vector<measured_stack> stacks{{first_id, &measured}};
  if (out.measured != nullptr) r.measured_stacks = stacks;
  const model_spec& m = q.model;
  out.job = estimate_cluster_on<D>(std::span<const D* const>(gpus), m, r, *q.link, q.bucket);
  // Each rank's id; each GPU type once, in rank order: its name, and the job's memory on it (the
  // first type's, or the first that does not fit, is reported).
  out.boards = board_class_of(*gpus.front());
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const D& g = *gpus[i];
    out.gpu_ids.emplace_back(g.id());
    if (out.boards != board_class_of(g)) out.boards.reset();
    const auto before = gpus.begin() + static_cast<std::ptrdiff_t>(i);
    if (std::find(gpus.begin(), before, gpus[i]) != before) continue;
    out.gpu_names += (out.gpu_names.empty() ? "" : " + ") + std::string(g.name());
    if (!out.short_gpu.empty()) continue;
    const fit_verdict f = check_fit(g, m, r);
    if (!f.fits || i == 0) out.fit = f;
    if (!f.fits) {
      out.short_gpu = std::string(g.id());
      out.fitting_tp = smallest_fitting_tp(g, m, r);
    }
  }
  const cluster_estimate& c = out.job;
  out.samples_per_s =
      static_cast<double>(c.data_parallel * r.batch * r.grad_accumulation) / c.step_time.value();
  if (m.kind == model_kind::transformer) {
    out.seq = detail::transformer_shapes::of(m.transformer, r).whole_seq();
    out.tokens_per_s = out.samples_per_s * static_cast<double>(out.seq);
  }
  // The report's run is the run as requested: the file's stacks are in `measured`.
  r.measured_stacks = {};
  out.run = r;
  out.calibrations = std::move(held);
}

// The GPU types of --gpu @p list (comma-separated catalog ids).
std::vector<device_choice> gpu_types(const std::string& list) {
  std::vector<device_choice> ids;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    try {
      ids.emplace_back(&catalog::find(list.substr(start, comma - start)));
    } catch (const not_found& e) {
      throw request_error(std::string("--gpu: ") + e.what());
    }
    start = comma + 1;
  }
  return ids;
}

// Every keyword of a cluster request that is not a run field, and the option it sets: one list
// for cluster_request_from_keywords and cluster_keywords (which adds the run's `mode`).
constexpr std::array<text_keyword<cluster_options>, 6> job_fields{
    {{"gpu", &cluster_options::gpu},
     {"device", &cluster_options::device},
     {"link", &cluster_options::link},
     {"preset", &cluster_options::preset},
     {"bucket", &cluster_options::bucket},
     {"power_limit", &cluster_options::power_limit}}};
constexpr auto job_keywords = keyword_names(job_fields, std::array<std::string_view, 1>{"mode"});

}  // namespace

cluster_options::cluster_options() {
  run.batch = std::to_string(typical_cluster_run.batch);
  run.type = typical_cluster_run.type;
  run.optimizer = typical_cluster_run.optimizer;
  run.gpus = "";
}

cluster_request make_cluster_request(const cluster_options& o) {
  if (o.gpu.empty() == o.device.empty())
    throw request_error("give exactly one of --gpu ID and --device FILE");
  if (o.link.empty()) throw request_error("--link is required: the slowest link between the GPUs");
  run_options run = o.run;
  cluster_request q;
  q.model = presets::find(o.preset);
  q.link = &find_link(o.link);
  if (o.device.empty()) {
    q.gpus = gpu_types(o.gpu);
    if (run.gpus.empty()) run.gpus = std::to_string(q.gpus.size());
  } else {
    q.device_file = o.device;
    q.gpus = {gpu_device_file("--device", "cluster", o.device)};
    if (run.gpus.empty()) run.gpus = "1";
  }
  if (!o.power_limit.empty()) {
    // A limit in watts is one board's: a job of mixed GPUs is refused.
    const std::string first = device_label(q.gpus.front());
    for (const device_choice& g : q.gpus)
      if (device_label(g) != first)
        throw request_error("--power-limit: a limit in watts is one board's; this job mixes " +
                            first + " and " + device_label(g) + " (give one --gpu id)");
    q.gpus = {with_power_limit(q.gpus.front(), o.power_limit, &q.power_limit)};
  }
  q.bucket = bytes(parse_plausible("--bucket", o.bucket));
  q.run = make_run(run);
  return q;
}

std::span<const std::string_view> cluster_keywords() { return job_keywords; }

cluster_request cluster_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  // A cluster's link is its own keyword; it has no power limit per run.
  const cluster_options o = options_from_keywords(
      fields, job_fields, "cluster",
      [](cluster_options& c, std::string_view k, const std::string& value) {
        run_extras unused;
        apply_run_keyword(c.run, unused, k, value);  // names an unknown keyword itself
        return true;
      });
  return make_cluster_request(o);
}

cluster_report estimate(const cluster_request& q) {
  if (q.gpus.empty()) throw request_error("cluster: the request names no GPU (--gpu or --device)");
  if (q.link == nullptr) throw request_error("cluster: the request names no link (--link)");
  const run_config& r = q.run;
  if (!r.training()) throw request_error("--infer: cluster models training steps only");
  if (r.tp > 1 && q.model.kind != model_kind::transformer)
    throw request_error("--tp: tensor parallelism is for transformer presets only");
  const auto types = static_cast<long long>(q.gpus.size());
  if (r.gpus < 1 || r.gpus % types != 0)
    throw request_error("--gpus: " + std::to_string(r.gpus) + " is not a multiple of the " +
                        std::to_string(types) + " GPU ids of --gpu");
  cluster_report out;
  out.model = q.model.name;
  out.power_limit = q.power_limit;
  out.device_file = q.device_file;
  out.link = q.link;
  // Every rank's GPU, the types repeated in order: all catalog GPUs or all device files' GPUs.
  const auto ranks = static_cast<std::size_t>(r.gpus);
  if (std::all_of(q.gpus.begin(), q.gpus.end(), [](const device_choice& d) {
        return std::holds_alternative<const gpu_spec*>(d);
      })) {
    for (const device_choice& d : q.gpus) refuse_null_gpu(d, "cluster");
    std::vector<const gpu_spec*> gpus;
    for (std::size_t i = 0; i < ranks; ++i)
      gpus.push_back(std::get<const gpu_spec*>(q.gpus[i % q.gpus.size()]));
    estimate_job(out, q, r, gpus);
    return out;
  }
  if (std::all_of(q.gpus.begin(), q.gpus.end(), [](const device_choice& d) {
        return std::holds_alternative<measured_device>(d);
      })) {
    std::vector<const measured_device*> gpus;
    for (std::size_t i = 0; i < ranks; ++i)
      gpus.push_back(&std::get<measured_device>(q.gpus[i % q.gpus.size()]));
    estimate_job(out, q, r, gpus);
    return out;
  }
  if (std::any_of(q.gpus.begin(), q.gpus.end(),
                  [](const device_choice& d) { return std::holds_alternative<host_device>(d); }))
    throw request_error("cluster: a host CPU has no collectives to price; give a GPU");
  throw request_error(
      "cluster: a job of catalog GPUs and device files' GPUs together is not supported; give "
      "--gpu ids or one --device file");
}

}  // namespace dlperf::app
