// Prices, host costs and price files (docs/buying.md, "Prices and host costs").
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/price_json.hpp>

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
  rejected("{\"gpus\": {", "not valid JSON");
  rejected(R"({"gpus": {"rtx_9090": 1}})", "gpus.rtx_9090: unknown GPU id 'rtx_9090'");
  rejected(R"({"gpus": {"rtx_4090": -5}})", "gpus.rtx_4090: must be in [0, 1e+07], got -5");
  rejected(R"({"cloud_hourly": {"h100_sxm": "x"}})", "cloud_hourly.h100_sxm: must be a number");
  rejected(R"({"host": {"3": 100}})", "host.3: unknown field");
  rejected(R"({"host": {"8": -1}})", "host.8: must be in [0, 1e+07], got -1");
  rejected(R"({"gpu": {}})", "gpu: unknown field");
  CHECK_THROWS_AS(io::prices_from_text(R"({"gpus": {"rtx_9090": 1}})"), not_found);
  CHECK_THROWS_AS(io::prices_from_text(R"({"gpus": {"rtx_4090": -5}})"), invalid_argument);
}
