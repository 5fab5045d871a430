// Units: quantities compose dimensionally and the literals mean what they say.
#include <catch2/catch.hpp>
#include <dlperf/core/units.hpp>
#include <type_traits>

using namespace dlperf;
using namespace dlperf::literals;

TEST_CASE("FLOP over FLOP/s is a time and FLOP over bytes an intensity", "[units]") {
  const auto t = 1_TFLOP / 312_TFLOPS;
  STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<decltype(t)>, duration>);
  CHECK(t.value() == Approx(1.0 / 312.0));
  const auto ai = 1_TFLOP / 1_GB;
  STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<decltype(ai)>, intensity>);
  CHECK(ai.value() == Approx(1000.0));
  const auto bw = 1_GB / 1_ms;
  STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<decltype(bw)>, bandwidth>);
  CHECK(in_gigabytes_per_second(bw) == Approx(1000.0));
}

TEST_CASE("binary and decimal byte literals differ as they should", "[units]") {
  CHECK((1_KiB).value() == 1024.0);
  CHECK((1_GiB).value() == 1073741824.0);
  CHECK((1_GB).value() == 1e9);
  CHECK(in_mebibytes(40_MiB) == Approx(40.0));
}

// docs/model.md#model_cost (Dettmers 2020): a desktop with an RTX 3090 (350 W) and a 100 W CPU at
// 15 % utilisation uses 591 kWh a year, $71 at $0.12/kWh.
TEST_CASE("energy and money reproduce the guide's yearly electricity bill", "[units][model]") {
  const power draw = 350_W + 100_W;
  const duration year_at_15_percent = seconds(0.15 * 24 * 3600 * 365);
  const energy used = draw * year_at_15_percent;
  CHECK(in_kilowatt_hours(used) == Approx(591.3).epsilon(0.001));
  const money bill = used * dollars_per_kwh(0.12);
  CHECK(bill.value() == Approx(71.0).epsilon(0.005));
  // Cloud V100 spot at $2.14/h, 15 % of 300 days: $2311 vs the desktop's $2200 + $71.
  const money cloud = dollars(2.14 * 0.15 * 24 * 300);
  CHECK(cloud.value() == Approx(2311.0).epsilon(0.001));
  CHECK(cloud > 2200_usd + bill);
}

TEST_CASE("kWh helpers round-trip", "[units]") {
  CHECK(in_kilowatt_hours(kilowatt_hours(591.0)) == Approx(591.0));
  CHECK((1_kWh).value() == 3.6e6);
  CHECK(in_dollars_per_kwh(dollars_per_kwh(0.12)) == Approx(0.12));
}

TEST_CASE("an integer scales a quantity as a double does", "[units]") {
  STATIC_REQUIRE(3 * 1_TB == 3.0 * 1_TB);
  STATIC_REQUIRE(1_TB * 3 == 1_TB * 3.0);
  STATIC_REQUIRE(1_ms / 4 == 1_ms / 4.0);
  STATIC_REQUIRE(std::is_same_v<decltype(2 * 1_GBps), bandwidth>);
  std::size_t layers = 80;
  CHECK(in_gigabytes(layers * 1_GB) == Approx(80.0));
}

// The stack records give host times in microseconds (stack/*_stacks.hpp); dividing by the exact
// 1e6 gives the double nearest the figure in seconds, the one its literal in seconds would give.
TEST_CASE("microseconds gives the same double as the figure written in seconds", "[units]") {
  STATIC_REQUIRE(microseconds(1) == seconds(1e-6));
  STATIC_REQUIRE(microseconds(2) == seconds(2e-6));
  STATIC_REQUIRE(microseconds(3) == seconds(3e-6));
  STATIC_REQUIRE(microseconds(4) == seconds(4e-6));
  STATIC_REQUIRE(microseconds(5.25) == seconds(5.25e-6));
  STATIC_REQUIRE(microseconds(7) == seconds(7e-6));
  STATIC_REQUIRE(microseconds(7.75) == seconds(7.75e-6));
  STATIC_REQUIRE(microseconds(50) == seconds(50e-6));
  CHECK(microseconds(0.25).value() == 0.25e-6);
}
