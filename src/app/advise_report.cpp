// `dlperf advise` as typed requests and reports (dlperf/app/advise_report.hpp).
#include <dlperf/app/advise_report.hpp>

#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/price_file.hpp>
#include <dlperf/app/rank_report.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/model/presets.hpp>

namespace dlperf::app {
namespace {

// Every text keyword of an advise request that is not a run field, and the option it sets (the
// use case, order and price basis are read apart: enumerators): one list for
// advise_options_from_keywords and advise_keywords.
constexpr std::array<text_keyword<advise_options_text>, 13> advice_fields{
    {{"preset", &advise_options_text::preset},
     {"task", &advise_options_text::task},
     {"budget", &advise_options_text::budget},
     {"gpus", &advise_options_text::gpus},
     {"prices", &advise_options_text::prices},
     {"top", &advise_options_text::top},
     {"host_cost", &advise_options_text::host_cost},
     {"device", &advise_options_text::device},
     {"years", &advise_options_text::years},
     {"utilization", &advise_options_text::utilization},
     {"kwh_price", &advise_options_text::kwh_price},
     {"dataset_tokens", &advise_options_text::dataset_tokens},
     {"epochs", &advise_options_text::epochs}}};
constexpr auto advice_keywords =
    keyword_names(advice_fields, std::array<std::string_view, 3>{"use_case", "by", "prices_at"});

// The training job of --dataset-tokens and --epochs, none without them; refused for --epochs
// alone or a job beside a run that does not train a transformer.
std::optional<training_job> parse_job(const advise_options_text& o, bool training) {
  if (o.dataset_tokens.empty()) {
    if (!o.epochs.empty()) throw request_error("--epochs needs --dataset-tokens N");
    return std::nullopt;
  }
  if (!training)
    throw request_error("--dataset-tokens prices a training job: give --preset NAME --train");
  training_job job{parse_plausible("--dataset-tokens", o.dataset_tokens), 1.0};
  if (!o.epochs.empty()) job.epochs = parse_plausible("--epochs", o.epochs);
  try {
    job.validate();
  } catch (const invalid_argument& e) {
    throw request_error(std::string("--dataset-tokens: ") + e.what());
  }
  return job;
}

// Refuses the first flag of @p given (a flag and whether it was given) that renting does not
// take, saying @p why.
void refuse_for_rent(std::initializer_list<std::pair<const char*, bool>> given, const char* why) {
  for (const auto& [flag, is_given] : given)
    if (is_given)
      throw request_error(std::string(flag) + " does not apply to --rent (" + why + ")");
}

}  // namespace

advise_request make_advise_request(const advise_options_text& o) {
  if (o.preset.empty() == !o.use)
    throw request_error("give exactly one of --preset NAME and --use-case NAME");
  advise_request out;
  advice_request& q = out.advice;
  q.search_gpus = o.gpus.empty();
  if (!q.search_gpus) q.gpus = parse_host_gpus(o.gpus);
  if (!o.budget.empty()) {
    const double b = parse_amount("--budget", o.budget);
    if (!(b > 0)) throw request_error("--budget: must be positive, got '" + o.budget + "'");
    q.budget = dollars(parse_plausible("--budget", o.budget));
  }
  out.top = parse_plausible_count("--top", o.top);
  q.prices = read_price_file(o.prices, o.host_cost);
  q.prices.basis = o.prices_at;
  q.order = o.order;
  if (!o.years.empty()) q.ownership.years = parse_plausible("--years", o.years);
  if (!o.utilization.empty())
    q.ownership.utilization = parse_plausible("--utilization", o.utilization);
  if (!o.kwh_price.empty())
    q.ownership.set_kwh_price(dollars_per_kwh(parse_plausible("--kwh-price", o.kwh_price)));
  if (!o.preset.empty()) {
    q.model = &presets::find(o.preset);
    q.run = make_run(o.run);
    q.workload = make_workload(*q.model, q.run);
    // Without --dtype each GPU runs its best 16-bit type (BF16, else FP16), as the guide compares.
    if (!o.dtype_given) q.workload.precision = precision_choice::sixteen_bit;
  } else {
    q.use = *o.use;
  }
  q.job = parse_job(o, q.model != nullptr && q.run.training());
  if (!o.task.empty())
    q.workload = task_workload(parse_named<rank_task>("--task", o.task), o.run.stack);
  else if (q.model == nullptr)
    q.workload = task_workload(rank_task::train16, o.run.stack);
  if (!o.device.empty()) {
    out.device = gpu_device_file("--device", "advise", o.device);
    out.device_file = o.device;
  }
  out.stack = o.run.stack;
  return out;
}

rent_request make_rent_request(const advise_options_text& o) {
  if (o.preset.empty())
    throw request_error("--rent needs --preset NAME (it prices a model's tokens)");
  refuse_for_rent({{"--use-case", o.use.has_value()},
                   {"--budget", !o.budget.empty()},
                   {"--task", !o.task.empty()},
                   {"--gpus", !o.gpus.empty()},
                   {"--device", !o.device.empty()},
                   {"--host-cost", !o.host_cost.empty()}},
                  "a rented GPU has no budget, host or fixed count");
  refuse_for_rent({{"--years", !o.years.empty()},
                   {"--utilization", !o.utilization.empty()},
                   {"--kwh-price", !o.kwh_price.empty()},
                   {"--by", o.by_given},
                   {"--prices-at", o.prices_at_given}},
                  "a rental is priced per hour at its cloud price and ranked per million tokens");
  rent_request q;
  q.model = presets::find(o.preset);
  q.run = make_run(o.run);
  q.prices = read_price_file(o.prices, "");
  q.precision = o.dtype_given ? precision_choice::as_given : precision_choice::sixteen_bit;
  // A run whose tokens cannot be priced (a decoder that generates none, a CNN) is refused before
  // --top and the job: a price per token is what renting ranks by.
  try {
    (void)tokens_per_request(q.model, q.run);
  } catch (const invalid_argument& e) {
    throw request_error(e.what());
  }
  q.top = parse_plausible_count("--top", o.top);
  q.job = parse_job(o, q.run.training());
  return q;
}

std::span<const std::string_view> advise_keywords() { return advice_keywords; }

advise_options_text advise_options_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  return options_from_keywords(
      fields, advice_fields, "advise",
      [](advise_options_text& o, std::string_view k, const std::string& value) {
        if (k == "use_case") {
          o.use = parse_named<use_case>("--use-case", value);
        } else if (k == "by") {
          o.order = parse_named<advice_order>("--by", value);
          o.by_given = true;
        } else if (k == "prices_at") {
          o.prices_at = parse_named<price_basis>("--prices-at", value);
          o.prices_at_given = true;
        } else {
          apply_model_run_keyword(o.run, k, value, "advise");
          o.dtype_given = o.dtype_given || k == "dtype";
        }
        return true;
      });
}

advise_request advise_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  return make_advise_request(advise_options_from_keywords(fields));
}

rent_request rent_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  return make_rent_request(advise_options_from_keywords(fields));
}

advise_report estimate(const advise_request& q) {
  advise_report out;
  out.stack = q.stack;
  out.top = q.top;
  out.device_file = q.device_file;
  advice_request a = q.advice;
  const candidate_gpus candidates = candidates_with(q.device, q.device_file, q.stack);
  a.run.measured_stacks = candidates.measured_stacks;
  for (rank_item& i : a.workload.items) i.run.measured_stacks = candidates.measured_stacks;
  out.advice = advise(a, candidates.list);
  out.task = task_of(a);
  // The runs' measured stacks point into this call's candidates: the report says which GPU ran
  // them (measured_on) instead.
  a.run.measured_stacks = {};
  for (rank_item& i : a.workload.items) i.run.measured_stacks = {};
  out.request = std::move(a);
  out.device = candidates.device;
  out.calibrations = candidates.calibrations;
  out.measured = candidates.measured;
  return out;
}

rent_report estimate(const rent_request& q) {
  rent_report out;
  out.model = q.model;
  out.run = q.run;
  out.job = q.job;
  out.top = q.top;
  try {
    out.ranked = rank_rentals(out.model, q.run, q.prices, catalog::all, q.precision);
  } catch (const invalid_argument& e) {
    throw request_error(e.what());
  }
  return out;
}

}  // namespace dlperf::app
