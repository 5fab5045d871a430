// Renting instead of buying (docs/buying.md, "Renting"): GPUs with a cloud price ranked by what a
// million tokens cost.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>

#include "cli_run.hpp"

using namespace dlperf;

namespace {
run_config chat() {
  run_config r;
  r.mode = run_mode::infer;
  r.prompt = 512;
  r.generate = 256;
  return r;
}
}  // namespace

TEST_CASE("rentals: a million tokens cost the hour over the hour's tokens, cheapest first",
          "[buying][rent]") {
  const price_table prices;
  const std::vector<rental> ranked =
      rank_rentals(presets::llama3_8b, chat(), prices, catalog::all, precision_choice::sixteen_bit);
  REQUIRE(ranked.size() >= 10);
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const rental& x = ranked[i];
    INFO(x.gpu->id());
    REQUIRE(x.split.chosen.has_value());
    CHECK(x.split.chosen->fit.fits);
    CHECK(x.per_hour == static_cast<double>(x.gpus()) * x.per_gpu_hour);
    CHECK(x.per_million_tokens.value() ==
          Approx(in_dollars_per_hour(x.per_hour) / (x.tokens_per_second * 3600) * 1e6));
    // Generated tokens: the requests per second times 256 each.
    CHECK(x.tokens_per_second == Approx(x.split.chosen->samples_per_second * 256));
    CHECK(x.per_gpu_hour == *prices.cloud_hourly(x.gpu->id()));
    if (i > 0) CHECK(ranked[i - 1].per_million_tokens <= x.per_million_tokens);
  }
  // A GPU without a cloud price is not in the list.
  for (const rental& x : ranked) CHECK(x.gpu->id() != "rtx_4070");
}

TEST_CASE("rentals: a model too big for one GPU rents the fewest that hold it", "[buying][rent]") {
  // Llama 3.3 70B in BF16 needs about 133 GiB: two 80 GB H100s, one 192 GB MI300X.
  const std::vector<rental> ranked =
      rank_rentals(presets::llama3_3_70b, chat(), price_table{}, catalog::all);
  bool h100 = false, mi300x = false;
  for (const rental& x : ranked) {
    if (x.gpu == &catalog::h100_sxm) {
      h100 = true;
      CHECK(x.gpus() == 2);
    }
    if (x.gpu == &catalog::mi300x) {
      mi300x = true;
      CHECK(x.gpus() == 1);
    }
    CHECK((x.gpus() == 1 || x.gpus() == 2 || x.gpus() == 4 || x.gpus() == 8));
    CHECK(x.split.chosen->fit.fits);
  }
  CHECK(h100);
  CHECK(mi300x);
}

TEST_CASE("rentals: a price file's cloud price reorders them", "[buying][rent]") {
  price_table prices;
  prices.set_cloud_hourly("h100_sxm", dollars_per_hour(0.01));
  const std::vector<rental> ranked = rank_rentals(presets::llama3_8b, chat(), prices, catalog::all);
  REQUIRE(!ranked.empty());
  CHECK(ranked.front().gpu == &catalog::h100_sxm);
  CHECK(!ranked.front().offer.has_value());  // priced from the file, not a built-in offer
}

TEST_CASE("rentals: what cannot be priced per token is refused by name", "[buying][rent][errors]") {
  run_config prefill = chat();
  prefill.generate = 0;
  CHECK_THROWS_WITH(rank_rentals(presets::llama3_8b, prefill, price_table{}, catalog::all),
                    Catch::Contains("generate >= 1"));
  CHECK_THROWS_WITH(rank_rentals(presets::resnet50, run_config{}, price_table{}, catalog::all),
                    Catch::Contains("resnet50 is not a transformer"));
}

TEST_CASE("advise --rent ranks rentals in text and JSON", "[cli][rent]") {
  const nlohmann::json j = dlperf_test::json_of(
      "advise --rent --preset llama3_8b --infer --prompt 512 --generate 256 --json");
  REQUIRE(j.is_array());
  REQUIRE(!j.empty());
  for (const auto& e : j)
    for (const char* key :
         {"id", "gpus", "tp", "pp", "dtype", "stack", "usd_per_gpu_hour", "usd_per_hour",
          "tokens_per_s", "usd_per_million_tokens", "price_source"})
      CHECK(e.contains(key));
  CHECK(j.front()["usd_per_million_tokens"].get<double>() <=
        j.back()["usd_per_million_tokens"].get<double>());
  const dlperf_test::run_result text =
      dlperf_test::run_dlperf("advise --rent --preset llama3_8b --infer --generate 128 --top 3");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("cheapest per million generated tokens") != std::string::npos);
  dlperf_test::require_usage_error("advise --rent --use-case kaggle", "--rent needs --preset");
  dlperf_test::require_usage_error(
      "advise --rent --preset llama3_8b --infer --generate 8 "
      "--budget 100",
      "--budget does not apply to --rent");
  dlperf_test::require_usage_error("advise --rent --preset llama3_8b --infer --generate 0",
                                   "generate >= 1");
}
