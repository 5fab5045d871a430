// `dlperf rank` as a typed request and report (dlperf/app/rank_report.hpp).
#include <dlperf/app/rank_report.hpp>

#include <algorithm>
#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/price_file.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf::app {
namespace {

// Every text keyword of a rank request that is not a run field, and the option it sets (the
// price basis is read apart: an enumerator): one list for rank_request_from_keywords and
// rank_keywords.
constexpr std::array<text_keyword<rank_options_text>, 6> ranking_fields{
    {{"task", &rank_options_text::task},
     {"gpus", &rank_options_text::gpus},
     {"min_memory", &rank_options_text::min_memory},
     {"prices", &rank_options_text::prices},
     {"host_cost", &rank_options_text::host_cost},
     {"device", &rank_options_text::device}}};
constexpr auto ranking_keywords =
    keyword_names(ranking_fields, std::array<std::string_view, 1>{"prices_at"});

}  // namespace

bool is_guide_task(std::string_view task) {
  return std::any_of(enum_values<rank_task>.begin(), enum_values<rank_task>.end(),
                     [&](rank_task t) { return name(t) == task; });
}

long long parse_host_gpus(const std::string& text) {
  const long long n = parse_plausible_count("--gpus", text);
  if (n != 1 && n != 2 && n != 4 && n != 8)
    throw request_error("--gpus: hosts are priced for 1, 2, 4 or 8 GPUs, got " + text);
  return n;
}

rank_options parse_rank_options(const std::string& gpus, const std::string& min_memory) {
  rank_options o;
  o.search_gpus = gpus.empty();
  if (!o.search_gpus) o.gpus = parse_host_gpus(gpus);
  o.min_memory = gibibytes(parse_plausible("--min-memory", min_memory));
  return o;
}

rank_workload task_workload(rank_task t, stack_id stack) {
  if (t == rank_task::train16 && !stacks::of(stack).trains)
    throw request_error("--stack " + std::string(name(stack)) + " is an inference engine: task " +
                        std::string(name(t)) + " trains; rank infer16 or infer8 under it, or " +
                        "train16 under one of " + training_stacks());
  return make_workload(t, stack);
}

rank_workload select_rank_workload(const std::string& task, const run_options& run) {
  for (rank_task t : enum_values<rank_task>)
    if (name(t) == task) return task_workload(t, run.stack);
  for (const model_spec& m : presets::all)
    if (m.name == task) return make_workload(m, make_run(run));
  throw request_error("--task: unknown task '" + task + "' (valid: " + enum_names<rank_task>(", ") +
                      " or a model preset, see dlperf models)");
}

rank_request make_rank_request(const rank_options_text& o) {
  rank_request q;
  q.options = parse_rank_options(o.gpus, o.min_memory);
  if (!o.device.empty()) {
    q.device = gpu_device_file("--device", "rank", o.device);
    q.device_file = o.device;
  }
  q.prices = read_price_file(o.prices, o.host_cost);
  q.prices.basis = o.prices_at;
  q.workload = select_rank_workload(o.task, o.run);
  q.stack = o.run.stack;
  return q;
}

std::span<const std::string_view> rank_keywords() { return ranking_keywords; }

rank_request rank_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string first_run_keyword;  // a run field other than the stack
  const rank_options_text o = options_from_keywords(
      fields, ranking_fields, "rank",
      [&](rank_options_text& r, std::string_view k, const std::string& value) {
        if (k == "prices_at") {
          r.prices_at = parse_named<price_basis>("--prices-at", value);
          return true;
        }
        apply_model_run_keyword(r.run, k, value, "rank");
        if (k != "stack" && first_run_keyword.empty()) first_run_keyword = std::string(k);
        return true;
      });
  if (is_guide_task(o.task) && !first_run_keyword.empty())
    throw request_error(first_run_keyword +
                        ": the run fields describe task PRESET's run; the guide's task " + o.task +
                        " fixes its own");
  return make_rank_request(o);
}

rank_report estimate(const rank_request& q) {
  rank_report out;
  out.task = q.workload.name;
  out.basis = q.prices.basis;
  out.stack = q.stack;
  out.device_file = q.device_file;
  rank_workload w = q.workload;
  const candidate_gpus candidates = candidates_with(q.device, q.device_file, q.stack);
  for (rank_item& i : w.items) i.run.measured_stacks = candidates.measured_stacks;
  rank_options opts = q.options;
  opts.candidates = candidates.list;
  out.entries = rank_gpus(w, q.prices, opts);
  out.reference = out.entries.empty() ? opts.reference : out.entries.front().reference;
  out.options = q.options;
  out.device = candidates.device;
  out.calibrations = candidates.calibrations;
  out.measured = candidates.measured;
  return out;
}

}  // namespace dlperf::app
