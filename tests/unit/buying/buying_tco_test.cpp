// Cloud or desktop (docs/buying.md, "Cloud or desktop"): the worked example of Dettmers, Which
// GPU(s) to Get for Deep Learning, 2020 edition
// (https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/), and input validation.
#include <catch2/catch.hpp>
#include <dlperf/buying/tco.hpp>

using namespace dlperf;
using namespace dlperf::literals;

namespace {

// The guide's example: a desktop with one RTX 3090 for $2200, GPU 350 W + CPU 100 W, 15 %
// utilisation, $0.12 per kWh, against a cloud V100 spot instance at $2.14 per hour, 300 days.
constexpr tco_inputs guide_2020{.gpu = 350_W,
                                .other = 100_W,
                                .utilization = 0.15,
                                .kwh_price = dollars_per_kwh(0.12),
                                .system_price = 2200_usd,
                                .cloud_hourly = dollars_per_hour(2.14),
                                .period = calendar::days(300)};

}  // namespace

TEST_CASE("591 kWh and $71 of electricity per year, Dettmers 2020", "[buying][tco]") {
  const tco_result r = total_cost(guide_2020);
  CHECK(in_kilowatt_hours(r.energy_per_year) == Approx(450.0 * 0.15 * 24 * 365 / 1000));
  CHECK(in_kilowatt_hours(r.energy_per_year) == Approx(591.0).margin(0.5));
  CHECK(r.electricity_per_year.value() == Approx(71.0).margin(0.5));
  CHECK(r.electricity_per_day.value() == Approx(0.19).margin(0.005));
}

TEST_CASE("cloud $2311 against desktop $2270 at 300 days, Dettmers 2020", "[buying][tco]") {
  const tco_result r = total_cost(guide_2020);
  CHECK(r.cloud_per_day.value() == Approx(7.70).margin(0.005));
  CHECK(r.cloud.value() == Approx(2.14 * 0.15 * 24 * 300));
  CHECK(r.cloud.value() == Approx(2311.0).margin(0.5));
  // A full year of electricity is charged for the 300 days (per started year).
  CHECK(r.desktop.value() == Approx(2200.0 + 591.3 * 0.12).margin(0.01));
  CHECK(r.desktop.value() == Approx(2270.0).margin(1.0));
  CHECK(r.desktop_cheaper());
}

TEST_CASE("break-even after about 293 days, Dettmers 2020", "[buying][tco]") {
  const tco_result r = total_cost(guide_2020);
  REQUIRE(r.break_even.has_value());
  const double cloud_per_day = 2.14 * 0.15 * 24;
  const double electricity_per_day = 450.0 * 0.15 * 24 * 365 / 1000 * 0.12 / 365;
  CHECK(calendar::in_days(*r.break_even) == Approx(2200.0 / (cloud_per_day - electricity_per_day)));
  CHECK(calendar::in_days(*r.break_even) == Approx(293.0).margin(0.5));
}

TEST_CASE("more than a year of deep learning: the desktop is cheaper (the guide's rule)",
          "[buying][tco]") {
  tco_inputs in = guide_2020;
  in.period = calendar::days(365);
  CHECK(total_cost(in).desktop_cheaper());
  in.period = calendar::days(200);
  CHECK_FALSE(total_cost(in).desktop_cheaper());
}

TEST_CASE("electricity per started year against pro rata", "[buying][tco]") {
  tco_inputs in = guide_2020;
  in.period = calendar::days(400);  // two started years
  const tco_result started = total_cost(in);
  CHECK(started.desktop.value() == Approx(2200.0 + 2 * started.electricity_per_year.value()));
  in.billing = electricity_billing::pro_rata;
  const tco_result pro_rata = total_cost(in);
  CHECK(pro_rata.desktop.value() ==
        Approx(2200.0 + 400.0 / 365.0 * pro_rata.electricity_per_year.value()));
}

TEST_CASE("no break-even when the cloud costs less per day than the electricity", "[buying][tco]") {
  tco_inputs in = guide_2020;
  in.cloud_hourly = dollars_per_hour(0.01);
  CHECK_FALSE(total_cost(in).break_even.has_value());
}

TEST_CASE("utilisation presets: personal 15 %, shared cluster 35 %, company cluster 60 %",
          "[buying][tco]") {
  CHECK(utilization_of(utilization_preset::personal) == 0.15);
  CHECK(utilization_of(utilization_preset::shared) == 0.35);
  CHECK(utilization_of(utilization_preset::company) == 0.60);
  CHECK(parse<utilization_preset>("shared") == utilization_preset::shared);
  CHECK_THROWS_WITH(parse<utilization_preset>("lab"), Catch::Contains("personal, shared, company"));
}

TEST_CASE("CO2 is kWh x grid intensity, default the EIA's 2023 US average", "[buying][tco]") {
  CHECK(us_grid_kg_co2_per_kwh == Approx(0.366).margin(0.001));  // 0.81 lb/kWh
  const tco_result r = total_cost(guide_2020);
  CHECK(r.co2_kg_per_year == Approx(in_kilowatt_hours(r.energy_per_year) * 0.3662).epsilon(1e-3));
  tco_inputs in = guide_2020;
  in.grid_kg_co2_per_kwh = 0.5;
  CHECK(total_cost(in).co2_kg_per_year == Approx(591.3 * 0.5).epsilon(1e-3));
}

TEST_CASE("tco inputs are validated and the field named", "[buying][tco]") {
  struct bad_input {
    const char* field;
    void (*spoil)(tco_inputs&);
  };
  const bad_input cases[] = {
      {"utilization", [](tco_inputs& in) { in.utilization = 1.5; }},
      {"utilization", [](tco_inputs& in) { in.utilization = -0.1; }},
      {"kWh price", [](tco_inputs& in) { in.kwh_price = dollars_per_kwh(-0.12); }},
      {"gpu watts", [](tco_inputs& in) { in.gpu = -350_W; }},
      {"other watts", [](tco_inputs& in) { in.other = -1_W; }},
      {"system price", [](tco_inputs& in) { in.system_price = -1_usd; }},
      {"cloud hourly price", [](tco_inputs& in) { in.cloud_hourly = dollars_per_hour(-1); }},
      {"period", [](tco_inputs& in) { in.period = calendar::days(0); }},
      {"grid", [](tco_inputs& in) { in.grid_kg_co2_per_kwh = -1; }}};
  for (const bad_input& c : cases) {
    INFO(c.field);
    tco_inputs in = guide_2020;
    c.spoil(in);
    CHECK_THROWS_AS(total_cost(in), invalid_argument);
    CHECK_THROWS_WITH(total_cost(in), Catch::Contains(c.field));
  }
}
