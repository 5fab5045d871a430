// Prices, host costs and price files (docs/buying.md, "Prices and host costs").
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/price_json.hpp>
#include <optional>

using namespace dlperf;

TEST_CASE("host costs: Dettmers 2018, 4 GPUs + $1500 of other hardware", "[buying][prices]") {
  const host_costs h;
  CHECK(h.for_gpus(4) == dollars(1500));
  CHECK(h.for_gpus(8) == dollars(6000));
  CHECK_THROWS_AS(h.for_gpus(0), invalid_argument);
  CHECK_THROWS_AS(h.for_gpus(3), invalid_argument);
}

TEST_CASE("price table: launch price by default, overrides checked", "[buying][prices]") {
  price_table p;
  CHECK(p.gpu(catalog::rtx_4090) == dollars(1599));
  CHECK(!p.gpu(catalog::mi325x).has_value());
  p.set_gpu("rtx_4090", dollars(1799));
  CHECK(p.gpu(catalog::rtx_4090) == dollars(1799));
  p.set_cloud_hourly("h100_sxm", dollars_per_hour(2.99));
  CHECK(in_dollars_per_hour(*p.cloud_hourly("h100_sxm")) == Approx(2.99));
  CHECK_THROWS_AS(p.set_gpu("rtx_9090", dollars(1)), not_found);
  CHECK_THROWS_AS(p.set_gpu("rtx_4090", dollars(-1)), invalid_argument);
}

TEST_CASE("price file: gpus, cloud_hourly and host", "[buying][prices][io]") {
  const price_table p = io::prices_from_text(
      R"({"gpus": {"rtx_4090": 1799, "mi325x": 20000}, "cloud_hourly": {"h100_sxm": 2.99},
          "host": {"1": 1200, "8": 8000}})");
  CHECK(p.gpu(catalog::rtx_4090) == dollars(1799));
  CHECK(p.gpu(catalog::mi325x) == dollars(20000));
  CHECK(p.gpu(catalog::rtx_3090) == dollars(1499));
  CHECK(in_dollars_per_hour(*p.cloud_hourly("h100_sxm")) == Approx(2.99));
  CHECK(p.host.for_gpus(1) == dollars(1200));
  CHECK(p.host.for_gpus(4) == dollars(1500));
  CHECK(p.host.for_gpus(8) == dollars(8000));
}

TEST_CASE("price file rejections name the field", "[buying][prices][io]") {
  const auto rejected = [](const std::string& text, const std::string& message) {
    INFO(text);
    try {
      (void)io::prices_from_text(text);
      FAIL("accepted");
    } catch (const error& e) {
      CHECK(std::string(e.what()).find(message) != std::string::npos);
    }
  };
  rejected("{\"gpus\": {", "malformed JSON");
  // A number no double holds names its field, not the JSON parser's own message.
  rejected(R"({"gpus": {"rtx_4090": 1e400}})", "gpus.rtx_4090: number out of range");
  rejected(R"({"gpus": {"rtx_9090": 1}})", "gpus.rtx_9090: unknown GPU id 'rtx_9090'");
  rejected(R"({"gpus": {"rtx_4090": -5}})", "gpus.rtx_4090: must be in [0, 1e+07], got -5");
  rejected(R"({"cloud_hourly": {"h100_sxm": "x"}})", "cloud_hourly.h100_sxm: must be a number");
  rejected(R"({"host": {"3": 100}})", "host.3: unknown field");
  rejected(R"({"host": {"8": -1}})", "host.8: must be in [0, 1e+07], got -1");
  rejected(R"({"gpu": {}})", "gpu: unknown field");
  CHECK_THROWS_AS(io::prices_from_text(R"({"gpus": {"rtx_9090": 1}})"), not_found);
  CHECK_THROWS_AS(io::prices_from_text(R"({"gpus": {"rtx_4090": -5}})"), invalid_argument);
}

TEST_CASE("built-in cloud offers are catalog GPUs with dated, sourced prices", "[buying][prices]") {
  for (const cloud_offer& o : cloud_offers) {
    INFO(o.gpu << " at " << o.provider << ", " << o.offering);
    CHECK(catalog::index_of(o.gpu).has_value());
    CHECK(!o.provider.empty());
    CHECK(!o.offering.empty());
    CHECK(!o.source.empty());
    CHECK(o.gpus >= 1);
    CHECK(o.gpus <= 8);
    CHECK(std::isfinite(o.usd_per_hour));
    // Between a T4's spot-market floor and an 8-GPU instance's list price.
    CHECK(in_dollars_per_hour(o.per_gpu()) > 0.05);
    CHECK(in_dollars_per_hour(o.per_gpu()) < 20);
    CHECK(o.month >= 1);
    CHECK(o.month <= 12);
    // Listed after the GPU launched, and not after these prices were gathered (November 2026).
    CHECK(o.year >= catalog::find(o.gpu).facts().year);
    CHECK(o.months() <= 2026 * 12 + 10);
  }
}

TEST_CASE("an instance's price is shared by its GPUs", "[buying][prices]") {
  // AWS p5.48xlarge, 8 x H100 SXM: $55.04 an hour, $6.88 per GPU-hour in the same source
  // (datareceipts 109-gpu-pricing, "usd_per_gpu_hour": 6.88).
  const auto p5 = std::find_if(cloud_offers.begin(), cloud_offers.end(),
                               [](const cloud_offer& o) { return o.offering == "p5.48xlarge"; });
  REQUIRE(p5 != cloud_offers.end());
  CHECK(in_dollars_per_hour(p5->per_gpu()) == Approx(6.88).epsilon(0.001));
  // p4de.24xlarge, 8 x A100 80 GB: $27.44705, $3.4309 per GPU-hour in the same source.
  const auto p4de =
      std::find_if(cloud_offers.begin(), cloud_offers.end(),
                   [](const cloud_offer& o) { return o.offering == "p4de.24xlarge"; });
  REQUIRE(p4de != cloud_offers.end());
  CHECK(in_dollars_per_hour(p4de->per_gpu()) == Approx(3.4309).epsilon(0.001));
}

TEST_CASE("the reference cloud price is the cheapest current offer", "[buying][prices]") {
  // Each GPU's reference is one of its offers, none cheaper among those listed within a year of
  // the newest.
  for (const gpu_spec* g : catalog::all) {
    const std::optional<cloud_offer> ref = reference_cloud_offer(g->id());
    int newest = -1;
    for (const cloud_offer& o : cloud_offers)
      if (o.gpu == g->id()) newest = std::max(newest, o.months());
    INFO(g->id());
    CHECK(ref.has_value() == (newest >= 0));
    if (!ref) continue;
    CHECK(ref->months() >= newest - 12);
    for (const cloud_offer& o : cloud_offers)
      if (o.gpu == g->id() && o.months() >= newest - 12) CHECK(ref->per_gpu() <= o.per_gpu());
  }
  // The A100 80 GB rents from RunPod's $1.59 rather than AWS's $3.43 or Lambda's $2.79.
  CHECK(reference_cloud_offer("a100_sxm4_80gb")->provider == "RunPod");
  // RunPod's 2025 RTX A6000 at $0.33 is more than a year older than Verda's of October 2026.
  CHECK(reference_cloud_offer("rtx_a6000")->provider == "Verda (ex-DataCrunch)");
  CHECK(!reference_cloud_offer("rtx_4070").has_value());
}

TEST_CASE("a price file's cloud price overrides the built-in one", "[buying][prices]") {
  price_table p;
  CHECK(in_dollars_per_hour(*p.cloud_hourly("h100_sxm")) == Approx(3.49));  // RunPod, 2026-09
  CHECK(p.built_in_cloud_offer("h100_sxm").has_value());
  p.set_cloud_hourly("h100_sxm", dollars_per_hour(2.0));
  CHECK(in_dollars_per_hour(*p.cloud_hourly("h100_sxm")) == Approx(2.0));
  CHECK(!p.built_in_cloud_offer("h100_sxm").has_value());
  CHECK(!p.cloud_hourly("rtx_4070").has_value());
}
