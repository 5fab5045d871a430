// What a task costs on an owned system: its price over the work done while owned, plus the
// electricity of that work (docs/buying.md, "Advice").
#include <catch2/catch.hpp>

#include <cmath>
#include <dlperf/buying/ownership.hpp>
#include <dlperf/buying/reason_text.hpp>
#include <dlperf/buying/training_job.hpp>
#include <limits>

using namespace dlperf;

TEST_CASE("a task's cost is the system's price over its busy seconds plus its energy",
          "[buying][ownership]") {
  const ownership_terms t;  // 3 years at 15 %, the 2023 US residential price
  CHECK(t.years == 3);
  CHECK(t.utilization == 0.15);
  CHECK(in_dollars_per_kwh(t.kwh_price) == Approx(0.1598));
  // 3 x 365 x 86,400 s x 0.15 = 14,191,200 busy seconds.
  CHECK(t.busy_seconds() == Approx(14191200.0));
  // A $3,000 system drawing 500 W doing 2 tasks a second: 28,382,400 tasks over its life;
  // 250 J per task, 250 / 3.6e6 kWh x $0.1598.
  const task_cost c = cost_per_task(dollars(3000), watts(500), 2.0, t);
  CHECK(c.purchase.value() == Approx(3000.0 / 28382400.0));
  CHECK(c.electricity.value() == Approx(250.0 / 3.6e6 * 0.1598));
  CHECK(c.total().value() == Approx(c.purchase.value() + c.electricity.value()));
}

TEST_CASE("cost per task: longer or busier ownership spreads the price, not the energy",
          "[buying][ownership]") {
  ownership_terms t;
  const task_cost base = cost_per_task(dollars(2500), watts(600), 0.5, t);
  for (double years : {0.5, 1.0, 3.0, 6.0, 12.0}) {
    t.years = years;
    const task_cost c = cost_per_task(dollars(2500), watts(600), 0.5, t);
    INFO(years);
    CHECK(c.electricity.value() == Approx(base.electricity.value()));
    CHECK(c.purchase.value() == Approx(base.purchase.value() * 3.0 / years));
    CHECK(std::isfinite(c.total().value()));
  }
  t = {};
  double last = 1e300;
  for (double u : {0.05, 0.15, 0.35, 0.6, 1.0}) {
    t.utilization = u;
    const double purchase = cost_per_task(dollars(2500), watts(600), 0.5, t).purchase.value();
    CHECK(purchase < last);
    last = purchase;
  }
  // A faster system at the same price and power costs less per task in both parts.
  const task_cost slow = cost_per_task(dollars(2500), watts(600), 0.5, {});
  const task_cost fast = cost_per_task(dollars(2500), watts(600), 1.0, {});
  CHECK(fast.purchase.value() == Approx(slow.purchase.value() / 2));
  CHECK(fast.electricity.value() == Approx(slow.electricity.value() / 2));
}

TEST_CASE("a server in a data centre pays the commercial price times the facility's PUE",
          "[buying][ownership][site]") {
  const ownership_terms t;
  // EIA's 2022 commercial average, 12.41 cents, times Uptime's 2023 average PUE, 1.58.
  CHECK(in_dollars_per_kwh(t.kwh_price_at(site::data_centre)) == Approx(0.1241 * 1.58));
  CHECK(in_dollars_per_kwh(t.kwh_price_at(site::desk)) == Approx(0.1598));
  // With the cooling counted, a server's kWh costs more than a home's.
  CHECK(t.kwh_price_at(site::data_centre) > t.kwh_price_at(site::desk));
  CHECK(site_of(segment::datacenter) == site::data_centre);
  for (segment s : {segment::geforce, segment::titan, segment::workstation, segment::apple})
    CHECK(site_of(s) == site::desk);
  // Same system and rate: only the electricity differs, in the ratio of the prices.
  const task_cost desk = cost_per_task(dollars(30000), watts(1000), 2.0, t, site::desk);
  const task_cost dc = cost_per_task(dollars(30000), watts(1000), 2.0, t, site::data_centre);
  CHECK(dc.purchase.value() == Approx(desk.purchase.value()));
  CHECK(dc.electricity.value() == Approx(desk.electricity.value() * 0.1241 * 1.58 / 0.1598));
  // A user's own tariff applies everywhere.
  ownership_terms mine;
  mine.set_kwh_price(dollars_per_kwh(0.3));
  CHECK(in_dollars_per_kwh(mine.kwh_price_at(site::desk)) == Approx(0.3));
  CHECK(in_dollars_per_kwh(mine.kwh_price_at(site::data_centre)) == Approx(0.3));
}

TEST_CASE("cost per task rejects terms and rates out of their domain", "[buying][ownership]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ownership_terms t;
  t.years = 0;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("years"));
  t = {};
  t.utilization = 1.5;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("utilization must be in (0, 1]"));
  t = {};
  t.utilization = 0;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("utilization"));
  t = {};
  t.kwh_price = dollars_per_kwh(-0.1);
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("kWh price must not be negative"));
  t = {};
  t.kwh_price = dollars_per_kwh(nan);
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("kWh price"));
  t = {};
  t.data_centre_kwh_price = dollars_per_kwh(-0.1);
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("kWh price must not be negative"));
  t = {};
  t.data_centre_kwh_price = dollars_per_kwh(nan);
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("data-centre kWh price"));
  CHECK_THROWS_WITH(cost_per_task(dollars(1000), watts(300), 0, {}),
                    Catch::Contains("tasks per second"));
  CHECK_THROWS_WITH(cost_per_task(dollars(1000), watts(300), nan, {}),
                    Catch::Contains("tasks per second"));
  CHECK_THROWS_WITH(cost_per_task(dollars(-1), watts(300), 1, {}),
                    Catch::Contains("must not be negative"));
  CHECK_THROWS_WITH(cost_per_task(dollars(1000), watts(nan), 1, {}),
                    Catch::Contains("system power"));
}

TEST_CASE("sums per task and times read with three significant digits", "[buying][ownership]") {
  CHECK(detail::cost_text(dollars(0.04123)) == "$0.0412");
  CHECK(detail::cost_text(dollars(0.23)) == "$0.230");
  CHECK(detail::cost_text(dollars(1.4)) == "$1.40");
  CHECK(detail::cost_text(dollars(12.34)) == "$12.3");
  CHECK(detail::cost_text(dollars(1999)) == "$1999");
  // The decimals follow the value rounded to three digits.
  CHECK(detail::cost_text(dollars(9.996)) == "$10.0");
  CHECK(detail::cost_text(dollars(0.99951)) == "$1.00");
  CHECK(detail::cost_text(dollars(999.6)) == "$1000");
  CHECK(detail::cost_text(dollars(0)) == "$0");
  CHECK(detail::cost_text(dollars(2.5e-7)) == "$2.50e-07");
  CHECK(detail::cost_text(dollars(1e-308)) == "$0");
  CHECK(detail::duration_text(0.85) == "850 ms");
  CHECK(detail::duration_text(12) == "12.0 s");
  CHECK(detail::duration_text(270) == "4.50 min");
  CHECK(detail::duration_text(3.2 * 3600) == "3.20 h");
  CHECK(detail::duration_text(2.1 * 86400) == "2.10 days");
}

TEST_CASE("a training job's time and cost follow from the rate and the price per million",
          "[buying][ownership][job]") {
  const training_job job{2e8, 3};  // 3 epochs over 200M tokens
  CHECK(job.tokens() == 6e8);
  CHECK(job.seconds_at(1e4) == Approx(6e4));
  CHECK(job.cost_at(dollars(0.5)).value() == Approx(300));
  // Twice the rate, half the time; the price per million sets the cost alone.
  CHECK(job.seconds_at(2e4) == Approx(job.seconds_at(1e4) / 2));
  CHECK_NOTHROW(job.validate());
  CHECK_THROWS_WITH((training_job{0, 1}.validate()), Catch::Contains("dataset tokens"));
  CHECK_THROWS_WITH((training_job{0.5, 1}.validate()), Catch::Contains("at least 1"));
  CHECK_THROWS_WITH((training_job{1e6, 0}.validate()), Catch::Contains("epochs"));
  CHECK_THROWS_WITH((training_job{1e14, 100}.validate()), Catch::Contains("at most 1e15"));
  CHECK_THROWS_WITH(job.seconds_at(0), Catch::Contains("tokens per second"));
}
