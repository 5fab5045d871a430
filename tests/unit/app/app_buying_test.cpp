// The application layer's buying requests and reports (dlperf/app/power_report.hpp,
// dlperf/app/debias_report.hpp, tco, rank, speedup and advise): each report is the buying layer's
// answer for its request, its JSON carries the same figures, a request by keywords is the one the
// tool's flags give, and every refusal names what is wrong.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/app/advise_report.hpp>
#include <dlperf/app/debias_report.hpp>
#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/power_report.hpp>
#include <dlperf/app/rank_report.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/speedup_report.hpp>
#include <dlperf/app/tco_report.hpp>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using dlperf::app::keyword_fields;

dlperf::app::power_report power_of(const keyword_fields& f) {
  return dlperf::app::estimate(dlperf::app::power_request_from_keywords(f));
}

}  // namespace

TEST_CASE("a power report is the budget, limit and speed of buying/power.hpp for its request") {
  // Four RTX 4090s limited to 300 W of their 450 W: the budget of four 300 W boards, and the
  // worst case (all of the time at the SM clock) for the speed.
  const dlperf::app::power_report r =
      power_of({{"gpu", "rtx_4090"}, {"count", "4"}, {"limit", "300"}});
  const dlperf::power_budget b = dlperf::power_budget_of(dlperf::watts(300), 4);
  CHECK(r.budget.system == b.system);
  CHECK(r.budget.recommended_psu == b.recommended_psu);
  CHECK(r.tdp == dlperf::catalog::rtx_4090.facts().tdp);
  CHECK(r.saving == dlperf::watts(4 * 150.0));
  CHECK(r.clock_fraction == dlperf::clock_fraction(dlperf::watts(300), dlperf::watts(450)));
  CHECK(r.compute_share == 1.0);
  CHECK(r.performance_fraction == Approx(r.clock_fraction));
  CHECK_FALSE(r.stack);
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["system_watts"].get<double>() == b.system.value());
  CHECK(j["limit_watts"] == 300.0);
  CHECK(j["stack"].is_null());
  // 1450 W of system and a 1595 W PSU: within a 1600 W desktop PSU and a 15 A circuit.
  CHECK(j["warnings"].empty());
  CHECK(dlperf::app::to_json(power_of({{"gpu", "h100_sxm"}, {"count", "8"}}))["warnings"] ==
        nlohmann::json{"psu_beyond_desktop", "system_beyond_desktop", "beyond_circuit"});
  // With a preset, the share is the model's clock-bound share of the run, which a DRAM-bound
  // decode keeps below 1; a limit then costs less than its clock.
  const dlperf::app::power_report m = power_of({{"gpu", "h100_sxm"},
                                                {"limit", "500"},
                                                {"preset", "llama3_8b"},
                                                {"mode", "infer"},
                                                {"stack", "vllm"}});
  CHECK(m.compute_share > 0.0);
  CHECK(m.compute_share < 1.0);
  CHECK(m.performance_fraction > m.clock_fraction);
  CHECK(m.performance_fraction < 1.0);
  REQUIRE(m.stack);
  CHECK(*m.stack == dlperf::stack_id::vllm);
  CHECK(dlperf::app::to_json(m)["stack"] == "vllm");
  CHECK(dlperf::app::power_keywords().size() == 7);
}

TEST_CASE("a power request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) { return [f] { (void)power_of(f); }; };
  CHECK_THROWS_WITH(refused({{"count", "2"}})(), Catch::Contains("give exactly one of --gpu"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"count", "0"}})(), Catch::Contains("--count"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"limit", "50"}})(),
                    Catch::Contains("--limit '50' must be in"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"rest_watts", "-5"}})(),
                    Catch::Contains("--rest-watts"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"compute_share", "2"}})(),
                    Catch::Contains("--compute-share"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"compute_share", "0.5"}, {"preset", "gpt2"}})(),
                    Catch::Contains("give at most one of --compute-share and --preset"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"batch", "8"}})(),
                    Catch::Contains("batch: the run fields describe preset's run"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"power_limit", "500"}})(),
                    Catch::Contains("the limit is 'limit'"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"colour", "red"}})(), Catch::Contains("colour"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"count", "2"}, {"count", "3"}})(),
                    Catch::Contains("keyword 'count' given twice"));
  // A Mac's power is its machine's at the wall: one to a machine, no rest, no limit.
  CHECK_THROWS_WITH(refused({{"gpu", "m2_max_30c_32gb"}, {"count", "2"}})(),
                    Catch::Contains("one to a machine"));
  CHECK_THROWS_WITH(refused({{"gpu", "m2_max_30c_32gb"}, {"limit", "30"}})(),
                    Catch::Contains("no power limit to set"));
  CHECK(power_of({{"gpu", "m2_max_30c_32gb"}}).machine);
  const std::string host =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";
  CHECK_THROWS_WITH(refused({{"device", host}})(), Catch::Contains("power needs a GPU"));
  // A request built in code is checked as the flags' are.
  dlperf::app::power_request q;
  q.gpu = static_cast<const dlperf::gpu_spec*>(nullptr);
  CHECK_THROWS_WITH(dlperf::app::estimate(q), Catch::Contains("names a null GPU"));
  q.gpu = &dlperf::catalog::find("m2_max_30c_32gb");
  q.count = 2;
  CHECK_THROWS_WITH(dlperf::app::estimate(q), Catch::Contains("one to a machine"));
  q.gpu = &dlperf::catalog::h100_sxm;
  q.compute_share = 0.5;
  q.model = dlperf::presets::find("gpt2");
  CHECK_THROWS_WITH(dlperf::app::estimate(q), Catch::Contains("give at most one"));
  q.gpu = dlperf::app::select_device("", host);
  CHECK_THROWS_WITH(dlperf::app::estimate(q), Catch::Contains("host CPU"));
}

TEST_CASE("a debiased ratio is buying/debias.hpp's, each side's efficiency from its basis") {
  // 3x reported for 8 H100s over NVLink 4 against 4 A100s over NVLink 3, GPT-2 on both: the
  // efficiencies are the multi-GPU model's for each side, and the de-biased ratio divides out the
  // GPU factor.
  const dlperf::app::debias_report r = dlperf::app::estimate(
      dlperf::app::debias_request_from_keywords({{"ratio", "3"},
                                                 {"gpus_from", "4"},
                                                 {"gpu_from", "a100_sxm4_80gb"},
                                                 {"link_from", "nvlink3"},
                                                 {"gpus_to", "8"},
                                                 {"gpu_to", "h100_sxm"},
                                                 {"link_to", "nvlink4"},
                                                 {"preset", "gpt2"}}));
  dlperf::run_config run = dlperf::typical_cluster_run;
  const dlperf::model_spec& gpt2 = dlperf::presets::find("gpt2");
  const double e_from = dlperf::estimate_cluster(dlperf::catalog::a100_sxm4_80gb, 4, gpt2, run,
                                                 dlperf::find_link("nvlink3"))
                            .efficiency;
  const double e_to = dlperf::estimate_cluster(dlperf::catalog::h100_sxm, 8, gpt2, run,
                                               dlperf::find_link("nvlink4"))
                          .efficiency;
  CHECK(r.from.value == e_from);
  CHECK(r.to.value == e_to);
  CHECK(r.from.basis == dlperf::app::efficiency_basis::model);
  CHECK(r.to.gpu == "h100_sxm");
  CHECK(r.to.link == "nvlink4");
  CHECK(r.model == "gpt2");
  CHECK(r.result.gpu_factor == Approx(8 * e_to / (4 * e_from)));
  CHECK(r.result.debiased_ratio == Approx(3.0 / r.result.gpu_factor));
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["debiased_ratio"].get<double>() == r.result.debiased_ratio);
  CHECK(j["factors"]["efficiency_to"].get<double>() == e_to);
  // No GPU, no efficiency: linear on several GPUs, 1 on one; a batch from the other side.
  const dlperf::app::debias_report plain =
      dlperf::app::estimate(dlperf::app::debias_request_from_keywords(
          {{"ratio", "2"}, {"gpus_to", "4"}, {"batch_to", "32"}}));
  CHECK(plain.from.basis == dlperf::app::efficiency_basis::one_gpu);
  CHECK(plain.to.basis == dlperf::app::efficiency_basis::linear);
  CHECK(plain.to.value == 1.0);
  CHECK(plain.result.input.batch_from == 32);
  CHECK(plain.result.batch_factor == 1.0);
  CHECK(plain.result.gpu_factor == 4.0);
  // A given efficiency and a workload kind by name.
  const dlperf::app::debias_report given =
      dlperf::app::estimate(dlperf::app::debias_request_from_keywords(
          {{"ratio", "2"}, {"gpus_to", "4"}, {"efficiency_to", "0.9"}, {"kind", "cnn"}}));
  CHECK(given.to.basis == dlperf::app::efficiency_basis::given);
  CHECK(given.result.gpu_factor == Approx(3.6));
  CHECK(given.result.input.kind == dlperf::workload_kind::cnn);
  CHECK(dlperf::app::debias_keywords().size() == 15);
}

TEST_CASE("a debias request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::debias_request_from_keywords(f)); };
  };
  CHECK_THROWS_WITH(refused({{"gpus_to", "2"}})(), Catch::Contains("--ratio"));
  CHECK_THROWS_WITH(refused({{"ratio", "0"}})(), Catch::Contains("--ratio '0'"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"batch_from", "0"}})(),
                    Catch::Contains("--batch-from"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"gpus_to", "0"}})(), Catch::Contains("--gpus-to"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"gpus_to", "4"}, {"gpu_to", "rtx_4090"}})(),
                    Catch::Contains("--gpu-to (or --device-to) and --link-to go together"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"efficiency_to", "0.9"}, {"link_to", "pcie4_x16"}})(),
                    Catch::Contains("--efficiency-to: give it or --gpu-to"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"efficiency_to", "1.5"}})(),
                    Catch::Contains("--efficiency-to '1.5'"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"},
                             {"gpu_to", "rtx_4090"},
                             {"device_to", "x.json"},
                             {"link_to", "pcie4_x16"}})(),
                    Catch::Contains("give one of --gpu-to and --device-to"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"kind", "nope"}})(), Catch::Contains("--kind: "));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"colour", "red"}})(),
                    Catch::Contains("debias: unknown keyword 'colour'"));
  CHECK_THROWS_WITH(refused({{"ratio", "2"}, {"ratio", "3"}})(),
                    Catch::Contains("keyword 'ratio' given twice"));
  const std::string host =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";
  CHECK_THROWS_WITH(
      refused({{"ratio", "2"}, {"gpus_to", "4"}, {"device_to", host}, {"link_to", "pcie4_x16"}})(),
      Catch::Contains("--device-to: debias needs a GPU"));
  // A modelled side built in code without its link or model is refused by name.
  dlperf::app::debias_request q;
  q.to.basis = dlperf::app::efficiency_basis::model;
  q.to.gpu = &dlperf::catalog::h100_sxm;
  CHECK_THROWS_WITH(dlperf::app::estimate(q),
                    Catch::Contains("a modelled side needs its GPU, its link and a model"));
}

TEST_CASE("a tco report is total_cost of the inputs its GPU and prices give") {
  // Two RTX 4090s, 30 % busy at $0.15 per kWh: the boards' power, their price and the host of two
  // from the catalog, and the cloud at twice the built-in per-GPU offer.
  const dlperf::app::tco_request q = dlperf::app::tco_request_from_keywords(
      {{"gpu", "rtx_4090"}, {"count", "2"}, {"utilization", "0.3"}, {"kwh_price", "0.15"}});
  const dlperf::price_table prices;
  CHECK(q.inputs.gpu == 2.0 * dlperf::catalog::rtx_4090.facts().tdp);
  CHECK(q.inputs.system_price ==
        2.0 * *prices.gpu(dlperf::catalog::rtx_4090) +
            prices.host.for_boards(2, dlperf::catalog::rtx_4090.facts().form));
  REQUIRE(q.offer);
  CHECK(q.inputs.cloud_hourly == 2.0 * *prices.cloud_hourly("rtx_4090"));
  CHECK(q.gpu == "rtx_4090");
  const dlperf::app::tco_report r = dlperf::app::estimate(q);
  const dlperf::tco_result direct = dlperf::total_cost(q.inputs);
  CHECK(r.result.desktop == direct.desktop);
  CHECK(r.result.cloud == direct.cloud);
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["desktop_usd"].get<double>() == direct.desktop.value());
  CHECK(j["count"] == 2);
  CHECK(j["cloud_price_source"]["provider"] == std::string(q.offer->provider));
  // Without a GPU every figure is given; a preset utilisation and the billing by name.
  const dlperf::app::tco_request given =
      dlperf::app::tco_request_from_keywords({{"gpu_watts", "450"},
                                              {"other_watts", "250"},
                                              {"preset_utilization", "company"},
                                              {"kwh_price", "0.15"},
                                              {"system_price", "3000"},
                                              {"cloud_hourly", "0.7"},
                                              {"billing", "pro_rata"}});
  CHECK_FALSE(given.gpu);
  CHECK(given.inputs.utilization == dlperf::utilization_of(dlperf::utilization_preset::company));
  CHECK(given.inputs.billing == dlperf::electricity_billing::pro_rata);
  CHECK(dlperf::app::to_json(dlperf::app::estimate(given))["gpu"].is_null());
  CHECK(dlperf::app::tco_keywords().size() == 15);
}

TEST_CASE("a tco request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::tco_request_from_keywords(f)); };
  };
  const keyword_fields base{{"utilization", "0.3"}, {"kwh_price", "0.15"}};
  const auto with = [&](keyword_fields extra) {
    keyword_fields f = base;
    f.insert(f.end(), extra.begin(), extra.end());
    return f;
  };
  CHECK_THROWS_WITH(refused({{"gpu", "rtx_4090"}, {"kwh_price", "0.15"}})(),
                    Catch::Contains("give exactly one of --utilization and --preset-utilization"));
  CHECK_THROWS_WITH(refused({{"gpu", "rtx_4090"}, {"utilization", "0.3"}})(),
                    Catch::Contains("--kwh-price is required"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "rtx_4090"}, {"count", "3"}}))(),
                    Catch::Contains("hosts are priced for 1, 2, 4 or 8 GPUs"));
  CHECK_THROWS_WITH(refused(with({{"count", "2"}}))(),
                    Catch::Contains("--count goes with --gpu ID or --device FILE"));
  CHECK_THROWS_WITH(refused(with({{"other_watts", "250"}}))(),
                    Catch::Contains("--gpu-watts is required without --gpu"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "a800_sxm4_80gb"}}))(),
                    Catch::Contains("--system-price: no price known for a800_sxm4_80gb"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "rtx_4090"}, {"days", "0"}}))(),
                    Catch::Contains("--days '0'"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "rtx_4090"}, {"prices", "/nonexistent.json"}}))(),
                    Catch::Contains("--prices: cannot read '/nonexistent.json'"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "m2_max_30c_32gb"}, {"count", "2"}}))(),
                    Catch::Contains("one to a machine"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "rtx_4090"}, {"billing", "weekly"}}))(),
                    Catch::Contains("--billing: "));
  CHECK_THROWS_WITH(refused(with({{"gpu", "rtx_4090"}, {"colour", "red"}}))(),
                    Catch::Contains("tco: unknown keyword 'colour'"));
  const std::string host =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";
  CHECK_THROWS_WITH(refused(with({{"device", host}}))(), Catch::Contains("tco needs a GPU"));
}

TEST_CASE(
    "a rank report is rank_gpus' ranking, the device file's GPU in its catalog entry's place") {
  // The guide's infer8 on 8-GPU systems: the entries are rank_gpus' for the same workload,
  // options and launch prices, best per dollar first.
  const dlperf::app::rank_report r = dlperf::app::estimate(
      dlperf::app::rank_request_from_keywords({{"task", "infer8"}, {"gpus", "8"}}));
  dlperf::rank_options opts;
  opts.gpus = 8;
  const std::vector<dlperf::rank_entry> direct = dlperf::rank_gpus(
      dlperf::make_workload(dlperf::rank_task::infer8), dlperf::price_table{}, opts);
  REQUIRE(r.entries.size() == direct.size());
  REQUIRE_FALSE(r.entries.empty());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    CHECK(r.entries[i].gpu == direct[i].gpu);
    CHECK(r.entries[i].perf_per_dollar == direct[i].perf_per_dollar);
  }
  for (std::size_t i = 1; i < r.entries.size(); ++i)
    CHECK(r.entries[i - 1].perf_per_dollar >= r.entries[i].perf_per_dollar);
  CHECK(r.task == "infer8");
  const nlohmann::json j = dlperf::app::to_json(r);
  REQUIRE(j.size() == direct.size());
  CHECK(j[0]["id"] == std::string(direct[0].gpu->id()));
  CHECK(j[0]["price_basis"] == "launch");
  CHECK(j[0]["stack_measured"].is_null());
  // A device file's GPU takes its catalog entry's place, and the report keeps it alive.
  const std::string file =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/export_rtx_4090.json";
  dlperf::app::rank_report copy;
  {
    const dlperf::app::rank_report with = dlperf::app::estimate(
        dlperf::app::rank_request_from_keywords({{"task", "train16"}, {"device", file}}));
    copy = with;
  }
  REQUIRE(copy.device);
  const auto rtx =
      std::find_if(copy.entries.begin(), copy.entries.end(),
                   [](const dlperf::rank_entry& e) { return e.gpu->id() == "rtx_4090"; });
  REQUIRE(rtx != copy.entries.end());
  CHECK(rtx->gpu == &copy.device->nominal());
  CHECK(std::count_if(copy.entries.begin(), copy.entries.end(),
                      [](const dlperf::rank_entry& e) { return e.gpu->id() == "rtx_4090"; }) == 1);
  CHECK(dlperf::app::rank_keywords().size() == 7);
}

TEST_CASE("a rank request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::rank_request_from_keywords(f)); };
  };
  CHECK_THROWS_WITH(refused({{"task", "train32"}})(), Catch::Contains("--task: unknown task"));
  CHECK_THROWS_WITH(refused({{"task", "infer8"}, {"gpus", "3"}})(),
                    Catch::Contains("hosts are priced for 1, 2, 4 or 8 GPUs"));
  CHECK_THROWS_WITH(refused({{"task", "infer8"}, {"min_memory", "-1"}})(),
                    Catch::Contains("--min-memory"));
  CHECK_THROWS_WITH(refused({{"task", "train16"}, {"stack", "vllm"}})(),
                    Catch::Contains("--stack vllm is an inference engine"));
  CHECK_THROWS_WITH(refused({{"task", "train16"}, {"batch", "4"}})(),
                    Catch::Contains("the guide's task train16 fixes its own"));
  CHECK_THROWS_WITH(refused({{"task", "train16"}, {"prices", "/nonexistent.json"}})(),
                    Catch::Contains("--prices: cannot read"));
  CHECK_THROWS_WITH(refused({{"task", "train16"}, {"prices_at", "msrp"}})(),
                    Catch::Contains("--prices-at: "));
  CHECK_THROWS_WITH(refused({{"task", "train16"}, {"power_limit", "300"}})(),
                    Catch::Contains("rank: unknown keyword 'power_limit'"));
  const std::string host =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";
  CHECK_THROWS_WITH(refused({{"task", "train16"}, {"device", host}})(),
                    Catch::Contains("--device: rank needs a GPU"));
}

TEST_CASE("a speedup report is the guide's rule and the modelled steps of buying/speedup.hpp") {
  // H100 over A100 on GPT-2 training under PyTorch eager: the rule's range and the model's ratio,
  // with the hardware model's ratio beside the stack's.
  const dlperf::app::speedup_report r = dlperf::app::estimate(
      dlperf::app::speedup_request_from_keywords({{"from", "a100_sxm4_80gb"},
                                                  {"to", "h100_sxm"},
                                                  {"preset", "gpt2"},
                                                  {"batch", "16"},
                                                  {"stack", "pytorch-eager"}}));
  const dlperf::rule_speedup rule =
      dlperf::speedup_by_rule(dlperf::catalog::a100_sxm4_80gb, dlperf::catalog::h100_sxm);
  REQUIRE(r.rule);
  CHECK(r.rule->speedup().low == rule.speedup().low);
  CHECK(r.rule->speedup().high == rule.speedup().high);
  REQUIRE(r.modelled);
  REQUIRE(r.ceiling);
  CHECK(r.modelled->ratio() > 1.0);  // the newer GPU is faster
  CHECK(r.from.fit->fits);
  CHECK(r.to.id == "h100_sxm");
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["modelled"].get<double>() == r.modelled->ratio());
  CHECK(j["stack"] == "pytorch-eager");
  CHECK(j["rule"]["low"].get<double>() == rule.speedup().low);
  CHECK(j["bandwidth_ratio"].get<double>() == Approx(rule.bandwidth_ratio()));
  // Without a model the rule alone; across Pascal, where the rule does not apply, the model alone.
  const dlperf::app::speedup_report bare = dlperf::app::estimate(
      dlperf::app::speedup_request_from_keywords({{"from", "rtx_3090"}, {"to", "rtx_4090"}}));
  CHECK(bare.rule);
  CHECK_FALSE(bare.modelled);
  CHECK_FALSE(dlperf::app::to_json(bare).contains("modelled"));
  const dlperf::app::speedup_report pascal =
      dlperf::app::estimate(dlperf::app::speedup_request_from_keywords({{"from", "gtx_1080_ti"},
                                                                        {"to", "rtx_3090"},
                                                                        {"preset", "resnet50"},
                                                                        {"dtype", "fp32"}}));
  CHECK_FALSE(pascal.rule);
  CHECK_FALSE(pascal.no_rule.empty());
  CHECK(pascal.modelled);
  CHECK(dlperf::app::speedup_keywords().size() == 5);
}

TEST_CASE("a speedup request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::speedup_request_from_keywords(f)); };
  };
  CHECK_THROWS_WITH(refused({{"to", "rtx_4090"}})(),
                    Catch::Contains("give exactly one of --from ID and --from-device FILE"));
  CHECK_THROWS_WITH(
      refused({{"from", "rtx_3090"}, {"from_device", "x.json"}, {"to", "rtx_4090"}})(),
      Catch::Contains("give exactly one of --from ID"));
  CHECK_THROWS_WITH(refused({{"from", "gtx_1080_ti"}, {"to", "rtx_3090"}})(),
                    Catch::Contains("--from/--to: "));
  CHECK_THROWS_WITH(
      refused({{"from", "gtx_1080_ti"}, {"to", "rtx_3090"}, {"preset", "resnet50"}})(),
      Catch::Contains("--dtype: gtx_1080_ti cannot run bf16"));
  CHECK_THROWS_WITH(refused({{"from", "rtx_3090"}, {"to", "rtx_4090"}, {"link", "nvlink4"}})(),
                    Catch::Contains("speedup: unknown keyword 'link'"));
  CHECK_THROWS_WITH(refused({{"from", "rtx_3090"}, {"to", "rtx_4090"}, {"to", "h100_sxm"}})(),
                    Catch::Contains("keyword 'to' given twice"));
  const std::string host =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";
  CHECK_THROWS_WITH(refused({{"from_device", host}, {"to", "h100_sxm"}})(),
                    Catch::Contains("speedup compares GPUs, not a host CPU"));
  dlperf::app::speedup_request q{static_cast<const dlperf::gpu_spec*>(nullptr),
                                 &dlperf::catalog::h100_sxm,
                                 "",
                                 "",
                                 std::nullopt,
                                 {}};
  CHECK_THROWS_WITH(dlperf::app::estimate(q), Catch::Contains("names a null GPU"));
}

TEST_CASE("an advise report is buying/advice.hpp's advice, a device file's GPU in its place") {
  // A use case's systems under a budget: advise's recommendations for the same request over
  // the catalog, in the same order, at market prices (the command's default).
  const dlperf::app::advise_report r = dlperf::app::estimate(
      dlperf::app::advise_request_from_keywords({{"use_case", "kaggle"}, {"budget", "3000"}}));
  dlperf::advice_request q;
  q.use = dlperf::use_case::kaggle;
  q.search_gpus = true;
  q.budget = dlperf::dollars(3000);
  q.prices.basis = dlperf::price_basis::market;
  q.workload = dlperf::make_workload(dlperf::rank_task::train16);
  const std::vector<dlperf::recommendation> direct =
      dlperf::advise(q, std::span<const dlperf::gpu_spec* const>(dlperf::catalog::all));
  REQUIRE(r.advice.size() == direct.size());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    CHECK(r.advice[i].gpu == direct[i].gpu);
    CHECK(r.advice[i].verdict == direct[i].verdict);
  }
  CHECK(r.task.name == dlperf::task_of(q).name);
  CHECK(r.top == 10);
  const nlohmann::json j = dlperf::app::to_json(r);
  REQUIRE(j.size() == direct.size());
  CHECK(j[0]["id"] == std::string(direct[0].gpu->id()));
  CHECK(j[0]["within_budget"] == direct[0].within_budget);
  CHECK(j[0]["stack_measured"].is_null());
  // A device file that measured the stack: its GPU (and only it) runs on the file's figures, and
  // the report keeps that GPU alive when copied.
  const std::string file = "dlperf_app_advise_device.json";
  std::ofstream(file) << R"({"schema": "dlperf-device", "version": 2, "kind": "gpu",
      "base": "h100_sxm", "stacks": {"vllm": {"attention_efficiency":
      {"value": 0.3, "method": "a test's figure"}}}})";
  dlperf::app::advise_report copy;
  {
    const dlperf::app::advise_report with =
        dlperf::app::estimate(dlperf::app::advise_request_from_keywords({{"preset", "llama3_8b"},
                                                                         {"mode", "infer"},
                                                                         {"generate", "128"},
                                                                         {"stack", "vllm"},
                                                                         {"device", file}}));
    copy = with;
  }
  std::remove(file.c_str());
  REQUIRE(copy.device);
  REQUIRE(copy.measured != nullptr);
  CHECK(copy.measured_on("h100_sxm") == copy.measured);
  CHECK(copy.measured_on("a100_sxm4_80gb") == nullptr);
  const auto h100 =
      std::find_if(copy.advice.begin(), copy.advice.end(),
                   [](const dlperf::recommendation& e) { return e.gpu->id() == "h100_sxm"; });
  REQUIRE(h100 != copy.advice.end());
  CHECK(h100->gpu == &copy.device->nominal());
  const nlohmann::json measured = dlperf::app::to_json(copy);
  for (const nlohmann::json& e : measured)
    CHECK(e["stack_measured"].is_null() == (e["id"] != "h100_sxm"));
}

TEST_CASE("a rent report is rank_rentals' ranking of its run at cloud prices") {
  const dlperf::app::rent_report r = dlperf::app::estimate(dlperf::app::rent_request_from_keywords(
      {{"preset", "llama3_8b"}, {"mode", "infer"}, {"generate", "128"}, {"top", "3"}}));
  dlperf::app::run_options o;
  o.infer = true;
  o.generate = "128";
  const std::vector<dlperf::rental> direct = dlperf::rank_rentals(
      dlperf::presets::find("llama3_8b"), dlperf::app::make_run(o), dlperf::price_table{},
      dlperf::catalog::all, dlperf::precision_choice::sixteen_bit);
  REQUIRE(r.ranked.size() == direct.size());
  REQUIRE_FALSE(direct.empty());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    CHECK(r.ranked[i].gpu == direct[i].gpu);
    CHECK(r.ranked[i].per_million_tokens == direct[i].per_million_tokens);
  }
  for (std::size_t i = 1; i < r.ranked.size(); ++i)
    CHECK(r.ranked[i - 1].per_million_tokens <= r.ranked[i].per_million_tokens);
  CHECK(r.top == 3);
  const nlohmann::json j = dlperf::app::to_json(r);
  REQUIRE(j.size() == direct.size());
  CHECK(j[0]["usd_per_million_tokens"].get<double>() == direct[0].per_million_tokens.value());
  CHECK(j[0]["job_seconds"].is_null());
}

TEST_CASE("advise and rent requests name what is wrong with them") {
  const auto advised = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::advise_request_from_keywords(f)); };
  };
  const auto rented = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::rent_request_from_keywords(f)); };
  };
  CHECK_THROWS_WITH(advised({})(), Catch::Contains("give exactly one of --preset NAME and"));
  CHECK_THROWS_WITH(advised({{"preset", "gpt2"}, {"use_case", "kaggle"}})(),
                    Catch::Contains("give exactly one of --preset NAME and"));
  CHECK_THROWS_WITH(advised({{"use_case", "gaming"}})(), Catch::Contains("--use-case"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"gpus", "3"}})(),
                    Catch::Contains("hosts are priced for 1, 2, 4 or 8 GPUs"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"budget", "0"}})(),
                    Catch::Contains("--budget: must be positive"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"top", "0"}})(), Catch::Contains("--top"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"years", "0"}})(),
                    Catch::Contains("--years"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"by", "cheapest"}})(),
                    Catch::Contains("--by"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"task", "train64"}})(),
                    Catch::Contains("--task"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"dataset_tokens", "1e8"}})(),
                    Catch::Contains("--dataset-tokens prices a training job"));
  CHECK_THROWS_WITH(advised({{"preset", "llama3_8b"}, {"epochs", "2"}})(),
                    Catch::Contains("--epochs needs --dataset-tokens"));
  CHECK_THROWS_WITH(advised({{"preset", "llama3_8b"}, {"tp", "2"}})(),
                    Catch::Contains("advise: unknown keyword 'tp'"));
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"rent", "true"}})(),
                    Catch::Contains("unknown run field 'rent'"));
  const std::string host =
      std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";
  CHECK_THROWS_WITH(advised({{"use_case", "kaggle"}, {"device", host}})(),
                    Catch::Contains("--device: advise needs a GPU"));
  CHECK_THROWS_WITH(rented({{"use_case", "kaggle"}})(), Catch::Contains("--rent needs --preset"));
  CHECK_THROWS_WITH(rented({{"preset", "llama3_8b"}, {"budget", "5"}})(),
                    Catch::Contains("--budget does not apply to --rent"));
  CHECK_THROWS_WITH(rented({{"preset", "llama3_8b"}, {"by", "time"}})(),
                    Catch::Contains("--by does not apply to --rent"));
  CHECK_THROWS_WITH(rented({{"preset", "resnet50"}, {"mode", "infer"}})(),
                    Catch::Contains("resnet50 is not a transformer"));
  CHECK_THROWS_WITH(
      rented({{"preset", "llama3_8b"}, {"mode", "infer"}, {"generate", "8"}, {"top", "0"}})(),
      Catch::Contains("--top"));
}
