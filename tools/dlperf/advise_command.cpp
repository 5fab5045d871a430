// `dlperf advise (--preset NAME [run flags] | --use-case NAME) [--task T] [--budget USD]
// [--gpus N] [--by cost|time|perf_per_dollar] [--prices-at market|launch] [--years Y]
// [--utilization U] [--kwh-price P] [--prices FILE] [--device FILE] [--top K] [--json]`: GPUs to
// buy for a task, best first, each with its reasons (docs/buying.md, "Advice").
#include <fmt/format.h>
#include <dlperf/app/advise_report.hpp>
#include <dlperf/app/report_json.hpp>
#include <string>

#include "cli_support.hpp"
#include "run_options.hpp"

namespace dlperf::cli {
namespace {

// The options of the command: the layer's (app::advise_options_text), and how to answer.
struct advise_options {
  app::advise_options_text text;
  bool rent = false, json = false;
};

// `advise --rent`: the GPUs with a cloud price, cheapest per million tokens first
// (docs/buying.md, "Renting").
void print_rentals(const app::rent_report& report) {
  const model_spec& m = report.model;
  const run_config& r = report.run;
  const bool inference = !r.training();
  const std::string tokens = inference ? "generated" : "trained";
  fmt::print(
      "Renting for {} {} ({}), cheapest per million {} tokens first; each GPU at the "
      "fewest of 1, 2, 4, 8 that hold it\n",
      m.name, inference ? "inference" : "training", describe_shape(m, r), tokens);
  fmt::print("{}\n", describe_stack_builds(r.stack));
  fmt::print("{:>3} {:<16} {:<22} {:>9} {:>10} {:>10}  {}\n", "", "GPU", "GPUs", "$/hour",
             fmt::format("{} tok/s", inference ? "gen." : "train"), "$ per 1M", "price");
  long long shown = 0;
  for (const rental& x : report.ranked) {
    if (shown == report.top) break;
    ++shown;
    fmt::print("{:>2}. {:<16} {:<22} {:>9} {:>10} {:>10}  {}\n", shown, x.gpu->id(),
               describe(x.split.chosen->split), format_usd(in_dollars_per_hour(x.per_hour)),
               three_digits(x.tokens_per_second), format_usd(x.per_million_tokens.value()),
               x.offer ? fmt::format("{} {}, {}", x.offer->provider, x.offer->offering,
                                     format_month(x.offer->year, x.offer->month))
                       : std::string("price file"));
    if (report.job)
      fmt::print("      the job: {}, {}\n",
                 detail::duration_text(report.job->seconds_at(x.tokens_per_second)),
                 format_usd(report.job->cost_at(x.per_million_tokens).value()));
  }
  if (shown < static_cast<long long>(report.ranked.size()))
    fmt::print("({} more: --top {} shows all)\n",
               report.ranked.size() - static_cast<std::size_t>(shown), report.ranked.size());
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

// The advice for people: what was asked, how it ranks, then each GPU with its reasons.
void print_advice(const app::advise_report& report) {
  const advice_request& q = report.request;
  const advice_task& task = report.task;
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
  fmt::print("{}\n", describe_stack(report.stack));
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
  if (report.measured != nullptr)
    fmt::print("{}\n",
               describe_measured(*report.measured,
                                 fmt::format("{} ({})", report.device->id(), report.device_file)));
  long long shown = 0;
  for (const recommendation& r : report.advice) {
    if (shown == report.top) break;
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
  if (shown < static_cast<long long>(report.advice.size()))
    fmt::print("({} more: --top {} shows all)\n",
               report.advice.size() - static_cast<std::size_t>(shown), report.advice.size());
}

void run_advise(const advise_options& o) {
  if (o.rent) {
    const app::rent_report report = app::estimate(app::make_rent_request(o.text));
    if (o.json)
      print_json(app::to_json(report));
    else
      print_rentals(report);
    return;
  }
  const app::advise_report report = app::estimate(app::make_advise_request(o.text));
  if (o.json)
    print_json(app::to_json(report));
  else
    print_advice(report);
}

}  // namespace

void add_advise_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "advise", "Which GPUs to buy for a model or a use case, ranked, with reasons");
  auto o = command_options<advise_options>(cmd);
  add_preset_option(cmd, o->text.preset);
  add_enum_option<use_case>(cmd, "--use-case", o->text.use,
                            "Without a preset: the use case, whose memory threshold decides");
  cmd->add_option("--task", o->text.task,
                  "Rank performance on train16, infer16 or infer8 (default: the preset's run, "
                  "else train16)")
      ->check(enum_validator<rank_task>());
  cmd->add_option("--budget", o->text.budget, "The whole system's budget in USD");
  cmd->add_option("--gpus", o->text.gpus,
                  "GPUs per system: 1, 2, 4 or 8 (default: per GPU, the fewest that fit)");
  cmd->add_option("--prices", o->text.prices, "Price file (JSON: gpus, cloud_hourly, host)");
  cmd->add_option("--device", o->text.device,
                  "Device file (from `dlperf calibrate` or `dlperf export`) whose GPU joins the "
                  "candidates, in place of the catalog entry of its id");
  cmd->add_option("--host-cost", o->text.host_cost,
                  "The host (CPU, board, RAM, PSU, case) in USD, whatever the GPU count; 0 "
                  "leaves it out of costs and budget (default: the price file's or the guide's)");
  cmd->add_option("--top", o->text.top, "Recommendations to print (the JSON has all)")
      ->capture_default_str();
  add_enum_option<advice_order>(cmd, "--by", o->text.order,
                                "Rank the systems that fit by (default: cost)");
  add_enum_option<price_basis>(cmd, "--prices-at", o->text.prices_at,
                               "Catalog prices to use (default: market)");
  cmd->add_option("--years", o->text.years,
                  "Years the system is owned, for the cost per task (default: 3)");
  cmd->add_option("--utilization", o->text.utilization,
                  "Share of the time it is busy, in (0, 1] (default: 0.15, a personal desktop)");
  cmd->add_option("--dataset-tokens", o->text.dataset_tokens,
                  "Training: tokens in the dataset, to time and price the job on each GPU");
  cmd->add_option("--epochs", o->text.epochs,
                  "Training: passes over --dataset-tokens (default: 1)");
  cmd->add_option("--kwh-price", o->text.kwh_price,
                  "Electricity, USD per kWh, for every system (default: 0.1598 at a desk, the "
                  "2023 US residential average; 0.196 in a data centre, the US commercial "
                  "average x PUE 1.58)");
  add_run_options(cmd, o->text.run, false);
  cmd->add_flag("--rent", o->rent,
                "Rank GPUs to rent by dollars per million tokens, at their cloud prices");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, cmd] {
    o->text.dtype_given = cmd->count("--dtype") > 0;
    o->text.by_given = cmd->count("--by") > 0;
    o->text.prices_at_given = cmd->count("--prices-at") > 0;
    run_advise(*o);
  });
}

}  // namespace dlperf::cli
