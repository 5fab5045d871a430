// `dlperf advise (--preset NAME [run flags] | --use-case NAME) [--task T] [--budget USD]
// [--gpus N] [--by cost|time|perf_per_dollar] [--prices-at market|launch] [--years Y]
// [--utilization U] [--kwh-price P] [--prices FILE] [--device FILE] [--top K] [--json]`: GPUs to
// buy for a task, best first, each with its reasons (docs/buying.md, "Advice").
#include <fmt/format.h>
#include <array>
#include <dlperf/buying/advice.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <dlperf/io/price_json.hpp>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

struct advise_options {
  std::string preset, task, budget, gpus, prices, top = "10", host_cost, device;
  std::string years, utilization, kwh_price, dataset_tokens, epochs;
  std::optional<use_case> use;
  advice_order order = advice_order::cost;
  price_basis prices_at = price_basis::market;
  run_options run;
  bool dtype_given = false, json = false, rent = false, by_given = false, prices_at_given = false;
};

// The training job of --dataset-tokens and --epochs, none without them; a usage error for
// --epochs alone or a job beside a run that does not train a transformer.
std::optional<training_job> parse_job(const advise_options& o, bool training) {
  if (o.dataset_tokens.empty()) {
    if (!o.epochs.empty()) throw usage_error("--epochs needs --dataset-tokens N");
    return std::nullopt;
  }
  if (!training)
    throw usage_error("--dataset-tokens prices a training job: give --preset NAME --train");
  training_job job{parse_plausible("--dataset-tokens", o.dataset_tokens), 1.0};
  if (!o.epochs.empty()) job.epochs = parse_plausible("--epochs", o.epochs);
  try {
    job.validate();
  } catch (const invalid_argument& e) {
    throw usage_error(std::string("--dataset-tokens: ") + e.what());
  }
  return job;
}

// `advise --rent`: the GPUs with a cloud price, cheapest per million tokens first
// (docs/buying.md, "Renting").
void run_rent(const advise_options& o) {
  if (o.preset.empty())
    throw usage_error("--rent needs --preset NAME (it prices a model's tokens)");
  for (const auto& [flag, given] :
       {std::pair{"--use-case", o.use.has_value()}, std::pair{"--budget", !o.budget.empty()},
        std::pair{"--task", !o.task.empty()}, std::pair{"--gpus", !o.gpus.empty()},
        std::pair{"--device", !o.device.empty()}, std::pair{"--host-cost", !o.host_cost.empty()}})
    if (given)
      throw usage_error(
          std::string(flag) +
          " does not apply to --rent (a rented GPU has no budget, host or fixed count)");
  for (const auto& [flag, given] :
       {std::pair{"--years", !o.years.empty()}, std::pair{"--utilization", !o.utilization.empty()},
        std::pair{"--kwh-price", !o.kwh_price.empty()}, std::pair{"--by", o.by_given},
        std::pair{"--prices-at", o.prices_at_given}})
    if (given)
      throw usage_error(std::string(flag) +
                        " does not apply to --rent (a rental is priced per hour at its cloud "
                        "price and ranked per million tokens)");
  const model_spec& m = presets::find(o.preset);
  const run_config r = make_run(o.run);
  const price_table prices = read_price_file(o.prices, "");
  std::vector<rental> ranked;
  try {
    ranked =
        rank_rentals(m, r, prices, catalog::all,
                     o.dtype_given ? precision_choice::as_given : precision_choice::sixteen_bit);
  } catch (const invalid_argument& e) {
    throw usage_error(e.what());
  }
  const long long top = parse_plausible_count("--top", o.top);
  const bool inference = !r.training();
  const std::string tokens = inference ? "generated" : "trained";
  const std::optional<training_job> job = parse_job(o, r.training());
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const rental& x : ranked) {
      const parallel_split& s = x.split.chosen->split;
      out.push_back(
          {{"id", x.gpu->id()},
           {"gpus", s.gpus},
           {"tp", s.tp},
           {"pp", s.pp},
           {"data_parallel", s.data_parallel()},
           {"dtype", name(x.type)},
           {"stack", name(stacks::build_for(r.stack, x.gpu->arch().vendor))},
           {"usd_per_gpu_hour", in_dollars_per_hour(x.per_gpu_hour)},
           {"usd_per_hour", in_dollars_per_hour(x.per_hour)},
           {"tokens_per_s", x.tokens_per_second},
           {"usd_per_million_tokens", x.per_million_tokens.value()},
           {"job_seconds",
            job ? nlohmann::json(job->seconds_at(x.tokens_per_second)) : nlohmann::json(nullptr)},
           {"job_cost_usd", job ? nlohmann::json(job->cost_at(x.per_million_tokens).value())
                                : nlohmann::json(nullptr)},
           {"price_source", x.offer ? io::to_json(*x.offer) : nlohmann::json(nullptr)}});
    }
    print_json(std::move(out));
    return;
  }
  fmt::print(
      "Renting for {} {} ({}), cheapest per million {} tokens first; each GPU at the "
      "fewest of 1, 2, 4, 8 that hold it\n",
      m.name, inference ? "inference" : "training", describe_shape(m, r), tokens);
  fmt::print("{}\n", describe_stack(r.stack));
  fmt::print("{:>3} {:<16} {:<22} {:>9} {:>10} {:>10}  {}\n", "", "GPU", "GPUs", "$/hour",
             fmt::format("{} tok/s", inference ? "gen." : "train"), "$ per 1M", "price");
  long long shown = 0;
  for (const rental& x : ranked) {
    if (shown == top) break;
    ++shown;
    fmt::print("{:>2}. {:<16} {:<22} {:>9} {:>10} {:>10}  {}\n", shown, x.gpu->id(),
               describe(x.split.chosen->split), format_usd(in_dollars_per_hour(x.per_hour)),
               three_digits(x.tokens_per_second), format_usd(x.per_million_tokens.value()),
               x.offer ? fmt::format("{} {}, {}", x.offer->provider, x.offer->offering,
                                     format_month(x.offer->year, x.offer->month))
                       : std::string("price file"));
    if (job)
      fmt::print("      the job: {}, {}\n",
                 detail::duration_text(job->seconds_at(x.tokens_per_second)),
                 format_usd(job->cost_at(x.per_million_tokens).value()));
  }
  if (shown < static_cast<long long>(ranked.size()))
    fmt::print("({} more: --top {} shows all)\n", ranked.size() - static_cast<std::size_t>(shown),
               ranked.size());
  fmt::print(
      "\nCloud prices are dated on-demand listings built in (docs/buying.md, \"Cloud prices\"); "
      "a --prices file's cloud_hourly overrides them. The run is priced as given: at batch {} a "
      "GPU {}; --batch N prices N requests together.\n",
      r.batch, r.batch == 1 && inference ? "serves one request at a time" : "runs that batch");
}

// The electricity prices a cost ranking uses: one where the user gave it or both sites cost the
// same, else a desk's and a data centre's.
std::string kwh_prices_text(const ownership_terms& t) {
  const auto per_kwh = [&](site s) {
    return detail::cost_text(dollars(in_dollars_per_kwh(t.kwh_price_at(s)))) + "/kWh";
  };
  if (t.kwh_price == t.data_centre_kwh_price) return per_kwh(site::desk);
  return per_kwh(site::desk) + " at a desk, " + per_kwh(site::data_centre) + " in a data centre";
}

void run_advise(const advise_options& o) {
  if (o.rent) {
    run_rent(o);
    return;
  }
  if (o.preset.empty() == !o.use)
    throw usage_error("give exactly one of --preset NAME and --use-case NAME");
  advice_request q;
  q.search_gpus = o.gpus.empty();
  if (!q.search_gpus) q.gpus = parse_host_gpus(o.gpus);
  if (!o.budget.empty()) {
    const double b = parse_amount("--budget", o.budget);
    if (!(b > 0)) throw usage_error("--budget: must be positive, got '" + o.budget + "'");
    q.budget = dollars(parse_plausible("--budget", o.budget));
  }
  const long long top = parse_plausible_count("--top", o.top);
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
    q.workload = task_workload(parse<rank_task>(o.task), o.run.stack);
  else if (!q.model)
    q.workload = task_workload(rank_task::train16, o.run.stack);

  const candidate_gpus candidates(o.device, "advise");
  // The device file's GPU runs on the stack figures the file measured, if any.
  device_stacks measured;
  if (candidates.device) measured.add(o.device, candidates.device->id(), o.run.stack);
  q.run.measured_stacks = measured.entries();
  for (rank_item& i : q.workload.items) i.run.measured_stacks = measured.entries();
  const std::vector<recommendation> advice = advise(q, candidates.list);
  const advice_task task = task_of(q);
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const recommendation& r : advice) {
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
          {"perf_per_dollar",
           r.ranked ? nlohmann::json(r.perf_per_dollar) : nlohmann::json(nullptr)},
          {"system_watts", r.power.system.value()},
          {"recommended_psu_watts", r.gpu->facts().form == form_factor::integrated
                                        ? nlohmann::json(nullptr)
                                        : nlohmann::json(r.power.recommended_psu.value())},
          {"reasons", r.reasons},
          {"gpus", r.gpus},
          {"host_cost_usd",
           r.priced ? nlohmann::json(r.host_cost.value()) : nlohmann::json(nullptr)},
          {"reference",
           r.ranked ? nlohmann::json(r.ranked->reference->id()) : nlohmann::json(nullptr)},
          {"stack", name(o.run.stack)},
          {"stack_measured", measured_figures_json(measured.on(r.gpu->id()))},
          {"price_usd", r.priced ? nlohmann::json(r.gpu_price.value()) : nlohmann::json(nullptr)},
          {"price_kind", r.price    ? nlohmann::json(name(r.price->kind))
                         : r.priced ? nlohmann::json("price_file")
                                    : nlohmann::json(nullptr)},
          {"price_date",
           r.price ? nlohmann::json(fmt::format("{}-{:02}", r.price->year, r.price->month))
                   : nlohmann::json(nullptr)},
          {"task", task.name},
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
    print_json(std::move(out));
    return;
  }
  const std::string what =
      q.model
          ? fmt::format("{} {}", q.model->name, q.run.training() ? "training" : "inference")
          : fmt::format("{} (needs {})", name(q.use), detail::bytes_text(memory_threshold(q.use)));
  fmt::print("GPUs for {}, {} per system{}; performance measured on {}\n", what,
             q.search_gpus && q.model ? std::string("the fewest GPUs (1, 2, 4, 8) that fit")
             : q.search_gpus          ? std::string("one GPU")
             : q.gpus == 1            ? std::string("one GPU")
                                      : fmt::format("{} GPUs", q.gpus),
             q.budget ? ", budget " + detail::dollars_text(*q.budget) : std::string(),
             q.workload.name);
  fmt::print("{}\n", describe_stack(o.run.stack));
  fmt::print(
      "Ranked by {} per {}{}; {} prices{}\n",
      q.order == advice_order::cost   ? "cost"
      : q.order == advice_order::time ? "time"
                                      : "the guide's performance per dollar, not cost",
      task.name,
      q.order == advice_order::cost
          ? fmt::format(" (the system and its electricity: {} years at {} use, {})",
                        three_digits(q.ownership.years), format_percent(q.ownership.utilization, 1),
                        kwh_prices_text(q.ownership))
          : std::string(),
      q.prices.basis == price_basis::market ? "market" : "launch",
      q.prices.basis == price_basis::market ? " (dated resale or street where sourced)" : "");
  for (const std::string& line : measured.describe()) fmt::print("{}\n", line);
  long long shown = 0;
  for (const recommendation& r : advice) {
    if (shown == top) break;
    ++shown;
    const std::string price =
        !r.priced  ? std::string()
        : !r.price ? fmt::format(", {} each (price file)", format_usd(r.gpu_price.value()))
                   : fmt::format(", {} {}, {}", format_usd(r.price->amount.value()),
                                 name(r.price->kind), format_month(r.price->year, r.price->month));
    fmt::print("{:>2}. {:<16} {}{}{}\n", shown, r.gpu->id(),
               !r.fits                  ? "does not fit"
               : !r.ranked || !r.priced ? "fits, not ranked"
               : r.within_budget        ? "recommended"
                                        : "fits, over budget",
               r.gpus > 1 ? fmt::format(" ({} GPUs)", r.gpus) : std::string(), price);
    if (!r.verdict.empty()) fmt::print("      = {}\n", r.verdict);
    for (const std::string& reason : r.reasons) fmt::print("      - {}\n", reason);
  }
  if (shown < static_cast<long long>(advice.size()))
    fmt::print("({} more: --top {} shows all)\n", advice.size() - static_cast<std::size_t>(shown),
               advice.size());
}

}  // namespace

void add_advise_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "advise", "Which GPUs to buy for a model or a use case, ranked, with reasons");
  auto o = command_options<advise_options>(cmd);
  add_preset_option(cmd, o->preset);
  add_enum_option<use_case>(cmd, "--use-case", o->use,
                            "Without a preset: the use case, whose memory threshold decides");
  cmd->add_option("--task", o->task,
                  "Rank performance on train16, infer16 or infer8 (default: the preset's run, "
                  "else train16)")
      ->check(enum_validator<rank_task>());
  cmd->add_option("--budget", o->budget, "The whole system's budget in USD");
  cmd->add_option("--gpus", o->gpus,
                  "GPUs per system: 1, 2, 4 or 8 (default: per GPU, the fewest that fit)");
  cmd->add_option("--prices", o->prices, "Price file (JSON: gpus, cloud_hourly, host)");
  cmd->add_option("--device", o->device,
                  "Device file (from `dlperf calibrate` or `dlperf export`) whose GPU joins the "
                  "candidates, in place of the catalog entry of its id");
  cmd->add_option("--host-cost", o->host_cost,
                  "The host (CPU, board, RAM, PSU, case) in USD, whatever the GPU count; 0 "
                  "leaves it out of costs and budget (default: the price file's or the guide's)");
  cmd->add_option("--top", o->top, "Recommendations to print (the JSON has all)")
      ->capture_default_str();
  add_enum_option<advice_order>(cmd, "--by", o->order,
                                "Rank the systems that fit by (default: cost)");
  add_enum_option<price_basis>(cmd, "--prices-at", o->prices_at,
                               "Catalog prices to use (default: market)");
  cmd->add_option("--years", o->years,
                  "Years the system is owned, for the cost per task (default: 3)");
  cmd->add_option("--utilization", o->utilization,
                  "Share of the time it is busy, in (0, 1] (default: 0.15, a personal desktop)");
  cmd->add_option("--dataset-tokens", o->dataset_tokens,
                  "Training: tokens in the dataset, to time and price the job on each GPU");
  cmd->add_option("--epochs", o->epochs, "Training: passes over --dataset-tokens (default: 1)");
  cmd->add_option("--kwh-price", o->kwh_price,
                  "Electricity, USD per kWh, for every system (default: 0.1598 at a desk, the "
                  "2023 US residential average; 0.196 in a data centre, the US commercial "
                  "average x PUE 1.58)");
  add_run_options(cmd, o->run, false);
  cmd->add_flag("--rent", o->rent,
                "Rank GPUs to rent by dollars per million tokens, at their cloud prices");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, cmd] {
    o->dtype_given = cmd->count("--dtype") > 0;
    o->by_given = cmd->count("--by") > 0;
    o->prices_at_given = cmd->count("--prices-at") > 0;
    run_advise(*o);
  });
}

}  // namespace dlperf::cli
