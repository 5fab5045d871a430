// `dlperf advise`: ranked recommendations with reasons, and its rejections.
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>
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
}
#endif
