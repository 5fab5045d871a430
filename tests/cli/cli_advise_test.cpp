// `dlperf advise`: ranked recommendations with reasons, and its rejections.
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "cli_run.hpp"

TEST_CASE("dlperf advise --json ranks every GPU with its reasons", "[cli][advise]") {
  const dlperf_test::run_result r =
      dlperf_test::run_dlperf("advise --preset llama2_7b --infer --batch 1 --seq 1024 --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j.is_array());
  REQUIRE(!j.empty());
  bool fitting = true;
  for (const auto& item : j) {
    for (const char* key : {"id", "fits", "reasons", "within_budget", "system_cost_usd",
                            "relative_performance", "perf_per_dollar", "margin_bytes"})
      CHECK(item.contains(key));
    CHECK(!item["reasons"].empty());
    if (!item["fits"].get<bool>())
      fitting = false;
    else
      CHECK(fitting);  // every GPU that fits comes before every GPU that does not
  }
  CHECK(j.front()["fits"].get<bool>());
}

TEST_CASE("dlperf advise prints recommendations for people", "[cli][advise]") {
  const dlperf_test::run_result r =
      dlperf_test::run_dlperf("advise --use-case transformers --budget 5000 --top 3");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find(" 1. ") != std::string::npos);
  CHECK(r.out.find(" 4. ") == std::string::npos);
  CHECK(r.out.find("budget $5000") != std::string::npos);
  CHECK(r.out.find("more: --top") != std::string::npos);
}

TEST_CASE("dlperf advise rejects bad input with one line naming it", "[cli][advise]") {
  using dlperf_test::require_usage_error;
  require_usage_error("advise", "give exactly one of --preset NAME and --use-case NAME");
  require_usage_error("advise --preset bert_large --use-case kaggle",
                      "give exactly one of --preset NAME and --use-case NAME");
  require_usage_error("advise --use-case gaming", "gaming");
  require_usage_error("advise --use-case kaggle --gpus 3", "--gpus");
  require_usage_error("advise --use-case kaggle --budget -5", "--budget");
  require_usage_error("advise --use-case kaggle --budget 0", "--budget: must be positive");
  require_usage_error("advise --use-case kaggle --top 0", "--top");
  require_usage_error("advise --use-case kaggle --task train64", "train64");
  require_usage_error("advise --preset no_such_model", "no_such_model");
  require_usage_error("advise --use-case kaggle --prices /nonexistent.json", "--prices");
  require_usage_error("advise --use-case kaggle --by cheapest", "cheapest");
  require_usage_error("advise --use-case kaggle --prices-at msrp", "msrp");
  require_usage_error("advise --use-case kaggle --years 0", "--years");
  require_usage_error("advise --use-case kaggle --years 50", "--years");
  require_usage_error("advise --use-case kaggle --utilization 2", "--utilization");
  require_usage_error("advise --use-case kaggle --kwh-price -1", "--kwh-price");
  require_usage_error("advise --preset llama3_8b --infer --rent --years 3",
                      "--years does not apply to --rent");
  require_usage_error("advise --preset llama3_8b --train --epochs 2",
                      "--epochs needs --dataset-tokens");
  require_usage_error("advise --preset llama3_8b --infer --dataset-tokens 1e8",
                      "--dataset-tokens prices a training job");
  require_usage_error("advise --use-case kaggle --dataset-tokens 1e8",
                      "--dataset-tokens prices a training job");
  require_usage_error("advise --preset llama3_8b --train --dataset-tokens 0", "--dataset-tokens");
  require_usage_error("advise --preset llama3_8b --train --dataset-tokens 1e8 --epochs 0",
                      "--epochs");
  require_usage_error("advise --preset llama3_8b --infer --rent --by time",
                      "--by does not apply to --rent");
  require_usage_error("advise --preset llama3_8b --infer --rent --prices-at launch",
                      "--prices-at does not apply to --rent");
}

TEST_CASE("dlperf advise times and prices a fine-tuning job, bought or rented",
          "[cli][advise][job]") {
  const std::string run =
      "advise --preset llama3_8b --train --batch 1 --seq 2048 --lora 16 "
      "--dataset-tokens 2e8 --epochs 3";
  int jobs = 0;
  for (const auto& item : dlperf_test::json_of(run + " --json")) {
    if (item["cost_per_task_usd"].is_null()) continue;
    // 600 tasks of a million trained tokens.
    CHECK(item["job_cost_usd"].get<double>() ==
          Approx(600 * item["cost_per_task_usd"].get<double>()));
    CHECK(item["job_seconds"].get<double>() ==
          Approx(600 * item["seconds_per_task"].get<double>()));
    ++jobs;
  }
  CHECK(jobs > 10);
  for (const auto& x : dlperf_test::json_of(run + " --rent --json")) {
    CHECK(x["job_cost_usd"].get<double>() ==
          Approx(600 * x["usd_per_million_tokens"].get<double>()));
    CHECK(x["job_seconds"].get<double>() == Approx(6e8 / x["tokens_per_s"].get<double>()));
  }
  const dlperf_test::run_result text = dlperf_test::run_dlperf(run + " --rent --top 2");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("      the job: ") != std::string::npos);
}

TEST_CASE("dlperf advise prices a data-centre board's electricity as a server's",
          "[cli][advise][site]") {
  const std::string run =
      "advise --preset llama3_8b --infer --prompt 512 --generate 128 --batch 1 --top 200";
  int servers = 0;
  int desks = 0;
  for (const auto& item : dlperf_test::json_of(run + " --json")) {
    const bool server = item["site"] == "data_centre";
    servers += server ? 1 : 0;
    desks += server ? 0 : 1;
    CHECK(item["usd_per_kwh"].get<double>() == Approx(server ? 0.1241 * 1.58 : 0.1598));
    if (item["cost_per_task_usd"].is_null() || item["seconds_per_task"].is_null()) continue;
    // Energy per task = system W x seconds per task, at the site's price.
    CHECK(item["electricity_per_task_usd"].get<double>() ==
          Approx(item["system_watts"].get<double>() * item["seconds_per_task"].get<double>() /
                 3.6e6 * item["usd_per_kwh"].get<double>()));
  }
  CHECK(servers > 10);
  CHECK(desks > 10);
  // A given tariff applies to every system.
  for (const auto& item : dlperf_test::json_of(run + " --kwh-price 0.3 --json"))
    CHECK(item["usd_per_kwh"].get<double>() == Approx(0.3));
  const dlperf_test::run_result text = dlperf_test::run_dlperf(run);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("$0.160/kWh at a desk, $0.196/kWh in a data centre") != std::string::npos);
  const dlperf_test::run_result mine = dlperf_test::run_dlperf(run + " --kwh-price 0.3");
  REQUIRE(mine.exit_code == 0);
  CHECK(mine.out.find("use, $0.300/kWh)") != std::string::npos);
}

TEST_CASE("dlperf advise prices a task, says why the first wins and dates its prices",
          "[cli][advise][prices]") {
  const std::string run = "advise --preset llama3_8b --infer --prompt 512 --generate 128 --batch 1";
  const nlohmann::json j = dlperf_test::json_of(run + " --json");
  REQUIRE(!j.empty());
  const auto& first = j.front();
  CHECK(first["task"] == "1M generated tokens");
  CHECK(first["verdict"].get<std::string>().rfind("wins: the lowest cost per 1M generated", 0) ==
        0);
  double last_cost = 0;
  for (const auto& item : j) {
    if (!(item["fits"].get<bool>() && item["within_budget"].get<bool>() &&
          !item["cost_per_task_usd"].is_null()))
      break;
    const double cost = item["cost_per_task_usd"].get<double>();
    CHECK(cost >= last_cost);  // cheapest per task first
    last_cost = cost;
    CHECK(cost == Approx(item["purchase_per_task_usd"].get<double>() +
                         item["electricity_per_task_usd"].get<double>()));
    CHECK(item["seconds_per_task"].get<double>() > 0);
    CHECK(!item["price_kind"].is_null());
  }
  // The used RTX 3090 is priced at its dated resale figure by default, at launch on request.
  const auto price_of = [](const nlohmann::json& list, const char* id) {
    for (const auto& item : list)
      if (item["id"] == id) return std::pair{item["price_usd"], item["price_kind"]};
    return std::pair{nlohmann::json(), nlohmann::json()};
  };
  CHECK(price_of(j, "rtx_3090").first == 990.0);
  CHECK(price_of(j, "rtx_3090").second == "used");
  const nlohmann::json launch = dlperf_test::json_of(run + " --prices-at launch --json");
  CHECK(price_of(launch, "rtx_3090").first == 1499.0);
  CHECK(price_of(launch, "rtx_3090").second == "launch_msrp");
  // --by time puts the fastest system that fits and is priced first.
  const nlohmann::json by_time = dlperf_test::json_of(run + " --by time --json");
  double fastest = 1e300;
  for (const auto& item : by_time)
    if (item["fits"].get<bool>() && !item["seconds_per_task"].is_null() &&
        !item["cost_per_task_usd"].is_null())
      fastest = std::min(fastest, item["seconds_per_task"].get<double>());
  CHECK(by_time.front()["seconds_per_task"].get<double>() == fastest);
  // The text names the task, the terms and the price with its month.
  const dlperf_test::run_result text = dlperf_test::run_dlperf(run + " --top 80");
  REQUIRE(text.exit_code == 0);
  CHECK(
      text.out.find("Ranked by cost per 1M generated tokens (the system and its electricity: "
                    "3.00 years at 15.0 % use, $0.160/kWh at a desk, $0.196/kWh in a data centre); "
                    "market prices") != std::string::npos);
  CHECK(text.out.find("rtx_3090         recommended, $990 used, July 2026") != std::string::npos);
  CHECK(text.out.find("      = wins: ") != std::string::npos);
}

TEST_CASE("model and advise print the same memory in the same unit", "[cli][advise][units]") {
  // One unit for memory sizes (GiB, as the card is sold: docs/catalog.md, "Memory in GiB"): the
  // need and the capacity of one run read the same in both commands, where they once read
  // "68.7 GB of 85.9 GB" and "64 GB of its 80 GB".
  const std::string run =
      "--preset llama2_7b --infer --dtype bf16 --batch 4 --prompt 1024 --generate 256";
  const dlperf_test::run_result m = dlperf_test::run_dlperf("model " + run + " --gpu h100_sxm");
  const dlperf_test::run_result a = dlperf_test::run_dlperf("advise " + run + " --gpus 1 --top 70");
  REQUIRE(m.exit_code == 0);
  REQUIRE(a.exit_code == 0);
  std::smatch total;
  REQUIRE(std::regex_search(m.out, total, std::regex(R"(total (\S+ [KMGT]iB) of (\S+ [KMGT]iB))")));
  CHECK(total[2].str() == "80.0 GiB");  // sold as "80 GB"
  const std::string advise_line = "needs " + total[1].str() + " of its " + total[2].str();
  INFO(advise_line);
  const std::size_t h100 = a.out.find(". h100_sxm ");  // its entry, "17. h100_sxm ..."
  REQUIRE(h100 != std::string::npos);
  CHECK(a.out.find(advise_line, h100) != std::string::npos);
}

namespace {
// The shipped H100 PCIe device file, renamed to a GPU the catalog does not have, with a price.
struct renamed_device {
  std::string path = "dlperf_cli_my_h100.json";
  renamed_device() {
    std::ifstream in(std::string(DLPERF_SOURCE_DIR) + "/examples/devices/h100_pcie_measured.json");
    nlohmann::json j = nlohmann::json::parse(in);
    j["facts"]["id"] = "my_h100";
    j["facts"]["name"] = "My H100 PCIe";
    j["facts"]["price"] = {{"kind", "street"}, {"usd", 20000.0}, {"year", 2025}, {"month", 6}};
    std::ofstream(path) << j.dump();
  }
  ~renamed_device() { std::remove(path.c_str()); }
  renamed_device(const renamed_device&) = delete;
  renamed_device& operator=(const renamed_device&) = delete;
};
}  // namespace

TEST_CASE("dlperf advise --device adds the file's GPU to the candidates", "[cli][advise][device]") {
  const renamed_device file;
  const dlperf_test::run_result r = dlperf_test::run_dlperf(
      "advise --preset llama2_7b --infer --batch 1 --seq 1024 --device " + file.path + " --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  int mine = 0;
  for (const auto& item : j)
    if (item["id"] == "my_h100") {
      ++mine;
      CHECK(item["fits"].get<bool>());
      CHECK(item["system_cost_usd"].get<double>() >= 20000.0);
    }
  CHECK(mine == 1);
  // The shipped file keeps its catalog id: it replaces the catalog's h100_pcie, never doubles it.
  const dlperf_test::run_result same =
      dlperf_test::run_dlperf("advise --preset llama2_7b --infer --device " DLPERF_SOURCE_DIR
                              "/examples/devices/h100_pcie_measured.json --json");
  REQUIRE(same.exit_code == 0);
  int h100_pcie = 0;
  for (const auto& item : nlohmann::json::parse(same.out)) h100_pcie += item["id"] == "h100_pcie";
  CHECK(h100_pcie == 1);
  dlperf_test::require_usage_error("advise --preset llama2_7b --device /nonexistent.json",
                                   "/nonexistent.json");
}

#endif

TEST_CASE("advise runs one engine on each vendor's build of it", "[cli][advise][stack]") {
  // Issue 33: advise priced AMD cards with llama.cpp's CUDA figures. Now an AMD card runs
  // llama.cpp-rocm where the request names llama.cpp, and says so.
  const nlohmann::json j = dlperf_test::json_of(
      "advise --preset qwen3_32b --infer --weights q4_k_m --budget 2000 --top 80 "
      "--stack llama.cpp --json");
  bool amd_seen = false;
  for (const auto& item : j) {
    if (item["id"] != "rx_7900_xtx") continue;
    amd_seen = true;
    CHECK(item["fits"] == true);
    bool named = false, weights = false, requests = false;
    for (const auto& reason : item["reasons"]) {
      const std::string text = reason.get<std::string>();
      named = named || text == "stack: llama.cpp-rocm, llama.cpp's build for AMD GPUs";
      weights = weights || text.find("in bf16 with q4_k_m weights") != std::string::npos;
      requests = requests || text.find(" requests/s") != std::string::npos;
      CHECK(text.find("samples/s") == std::string::npos);  // an inference run counts requests
    }
    CHECK(named);
    CHECK(weights);
    CHECK(requests);
  }
  CHECK(amd_seen);
  // rank names the build each GPU ran.
  const nlohmann::json ranked = dlperf_test::json_of(
      "rank --task llama3_8b --infer --weights q4_k_m --stack llama.cpp --json");
  bool rocm = false, cuda = false;
  for (const auto& e : ranked) {
    if (e["id"] == "rx_7900_xtx") rocm = e["stack"] == "llama.cpp-rocm";
    if (e["id"] == "rtx_4090") cuda = e["stack"] == "llama.cpp";
  }
  CHECK(rocm);
  CHECK(cuda);
}
