// The clock a board holds through a long job (estimate/sustained_clock.hpp, docs/calibration.md
// "Clocks under sustained load"), against what a lent H200 SXM measured at its 700 W limit
// (tests/data/measured/h200_sxm_sustained_2026-11-28.json).
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

using namespace dlperf;
using namespace dlperf::literals;

namespace {

const nlohmann::json& measured() {
  static const nlohmann::json j = [] {
    std::ifstream in(DLPERF_SOURCE_DIR "/tests/data/measured/h200_sxm_sustained_2026-11-28.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
  }();
  return j;
}

double load(const std::string& name, const std::string& key) {
  return measured().at("loads").at(name).at(key).get<double>();
}

// The board with no sustained clock: what the estimate was before a long job slowed it.
gpu_spec without_sustained_clock(const gpu_spec& g) {
  gpu_facts f = g.facts();
  f.sustained_tensor_clock = frequency{};
  f.sustained_fp8_tensor_clock = frequency{};
  return {g.arch(), f};
}

model_spec llama3_8b() { return presets::find("llama3_8b"); }

}  // namespace

// A constant expression: the check a kernel engineer writes against the clock a GEMM will hold.
static_assert(sustained_clock_fraction(catalog::h200_sxm.facts(), 1.0) < 0.81,
              "a 700 W GH100 under dense tensor load holds about 80 % of its quoted tensor clock");
static_assert(sustained_clock_fraction(catalog::a100_sxm4_80gb.facts(), 1.0) == 1.0,
              "no sustained clock is measured for the A100");

TEST_CASE("the H200's sustained tensor clock is the one measured under minutes of BF16 GEMMs",
          "[sustained_clock]") {
  const gpu_facts& h200 = catalog::h200_sxm.facts();
  CHECK(h200.sustained_tensor_clock.value() == Approx(load("bf16", "sm_mhz_median") * 1e6));
  // The power limit held it there, at the board's default limit, which was never set.
  CHECK(measured().at("loads").at("bf16").at("clock_event_reasons").at(0) == "sw_power_cap");
  CHECK(measured().at("device").at("power_limit_w").get<double>() == h200.tdp.value());
  CHECK(load("bf16", "power_w_median") == Approx(h200.tdp.value()).epsilon(0.02));
  // The CUDA cores (FP32) and a DRAM-bound copy hold the boost clock under the same limit:
  // tensor share 0.
  CHECK(load("fp32", "sm_mhz_median") * 1e6 == Approx(h200.boost_clock.value()));
  CHECK(load("copy", "sm_mhz_median") * 1e6 == Approx(h200.boost_clock.value()));
  CHECK(sustained_clock(h200, 0.0) == h200.boost_clock);
  CHECK(sustained_clock(h200, 1.0).value() == Approx(h200.sustained_tensor_clock.value()));
  // Every 700 W GH100 SXM board takes the H200's figure; the PCIe and NVL boards have none.
  CHECK(catalog::h100_sxm.facts().sustained_tensor_clock == h200.sustained_tensor_clock);
  CHECK(catalog::h100_sxm_96gb.facts().sustained_tensor_clock == h200.sustained_tensor_clock);
  CHECK(catalog::h100_pcie.facts().sustained_tensor_clock.value() == 0.0);
}

TEST_CASE("the sustained clock falls from boost to the measured clock as the tensor share grows",
          "[sustained_clock][property]") {
  for (const gpu_spec* g : catalog::all) {
    const gpu_facts& f = g->facts();
    double last = f.boost_clock.value();
    for (int i = 0; i <= 20; ++i) {
      const double s = i / 20.0;
      const double clock = sustained_clock(f, s).value();
      CHECK(std::isfinite(clock));
      CHECK(clock <= last * (1 + 1e-12));
      CHECK(clock >= (f.sustained_tensor_clock.value() > 0 ? f.sustained_tensor_clock.value()
                                                           : f.boost_clock.value()) *
                         (1 - 1e-12));
      const double fraction = sustained_clock_fraction(f, s);
      CHECK(fraction > 0.0);
      CHECK(fraction <= 1.0);
      last = clock;
    }
  }
}

TEST_CASE("a large BF16 GEMM at the sustained clock is near what the H200 held for a minute",
          "[sustained_clock]") {
  // 8192^3 on random data: 671 TFLOP/s over the minute, at 1470 MHz. The GEMM model at the
  // quoted tensor clock describes short bursts (the first 20 ms ran at 804 TFLOP/s).
  const double f = sustained_clock_fraction(catalog::h200_sxm.facts(), 1.0);
  const gpu_spec slowed = at_clock_fraction(catalog::h200_sxm, f);
  const gemm_problem p{.m = 8192, .n = 8192, .k = 8192, .input = dtype::bf16};
  const double rate = best_gemm(slowed, p).throughput.value();
  const double held = load("bf16", "rate_op_per_s");
  // The model's burst efficiency at the lower clock: 8 % under (docs/calibration.md: the
  // product reaches more of a clock cycle's peak at 1470 MHz than in a burst).
  CHECK(rate / held - 1 == Approx(-0.08).margin(0.05));
  const double burst = best_gemm(catalog::h200_sxm, p).throughput.value();
  const double first = measured().at("trace").at("bf16").at(0).at("rate_op_per_s").get<double>();
  CHECK(burst / first - 1 == Approx(-0.05).margin(0.05));
}

TEST_CASE("the B200's sustained clock is MSMF's, and a long BF16 GEMM at it near what it held",
          "[sustained_clock]") {
  // Stas Bekman's ml-engineering MSMF table (fast-mamf at 082816f): a B200 SXM held 1339 MHz at
  // about 994 W over its best BF16 shape, 9472x8192x20480, at 1456.3 TFLOP/s.
  const gpu_facts& b200 = catalog::b200.facts();
  CHECK(b200.sustained_tensor_clock == megahertz(1339));
  CHECK(sustained_clock(b200, 1.0) == megahertz(1339));
  const gpu_spec slowed = at_clock_fraction(catalog::b200, sustained_clock_fraction(b200, 1.0));
  const gemm_problem held{.m = 9472, .n = 8192, .k = 20480, .input = dtype::bf16};
  // The burst efficiency (XLA's 0.742) at the lower clock: under what was held, as on the H200
  // (docs/calibration.md: a product reaches more of each cycle at the lower clock), by more.
  const double rate = best_gemm(slowed, held).throughput.value() / 1e12;
  CHECK(rate / 1456.3 - 1 == Approx(-0.17).margin(0.06));
}

TEST_CASE("FP8 products hold the lower clock measured under them", "[sustained_clock]") {
  // The lent H200 held 1350 MHz under minutes of FP8 products at its power limit, against 1470
  // under BF16's (the same file); Stas Bekman's B200 1331 against 1339 (MSMF, fast-mamf at
  // 082816f).
  const gpu_facts& h200 = catalog::h200_sxm.facts();
  CHECK(h200.sustained_fp8_tensor_clock.value() == Approx(load("fp8", "sm_mhz_median") * 1e6));
  CHECK(measured().at("loads").at("fp8").at("clock_event_reasons").at(0) == "sw_power_cap");
  CHECK(catalog::h100_sxm.facts().sustained_fp8_tensor_clock == h200.sustained_fp8_tensor_clock);
  CHECK(catalog::b200.facts().sustained_fp8_tensor_clock == megahertz(1331));
  // Every 8-bit float takes it; every other type, integers included, the 16-bit figure.
  for (dtype t : {dtype::fp8_e4m3, dtype::fp8_e5m2})
    CHECK(sustained_clock(h200, 1.0, t).value() == Approx(h200.sustained_fp8_tensor_clock.value()));
  for (dtype t : {dtype::bf16, dtype::fp16, dtype::int8, dtype::fp4_e2m1})
    CHECK(sustained_clock(h200, 1.0, t).value() == Approx(h200.sustained_tensor_clock.value()));
  // A board with a 16-bit figure only gives FP8 the same.
  gpu_facts only = h200;
  only.sustained_fp8_tensor_clock = frequency{};
  CHECK(sustained_clock(only, 1.0, dtype::fp8_e4m3).value() ==
        Approx(h200.sustained_tensor_clock.value()));
  // The same FP8 training step runs at a lower share of its clock than a BF16 one of the same
  // tensor share would, and never below the FP8 figure.
  const model_spec m = llama3_8b();
  const run_config fp8{.batch = 2, .seq = 4096, .type = dtype::fp8_e4m3};
  const model_estimate e = estimate_model(catalog::h100_sxm, m, fp8);
  const double share_clock = e.clock_fraction * quoted_tensor_clock(h200).value();
  CHECK(share_clock >= h200.sustained_fp8_tensor_clock.value() * (1 - 1e-9));
  CHECK(e.clock_fraction < 1.0);
  // The FP8 product the H200 held for a minute (8192^3 at 1226 TFLOP/s): the model's burst
  // efficiency (0.709, MAMF's) at 1350 MHz is under it, as at 1470 for BF16, by more
  // (docs/calibration.md: a product reaches more of each cycle at the lower clock).
  const gpu_spec slowed =
      at_clock_fraction(catalog::h200_sxm, sustained_clock_fraction(h200, 1.0, dtype::fp8_e4m3));
  const gemm_problem p{.m = 8192, .n = 8192, .k = 8192, .input = dtype::fp8_e4m3};
  const double rate = best_gemm(slowed, p).throughput.value();
  CHECK(rate / load("fp8", "rate_op_per_s") - 1 == Approx(-0.19).margin(0.05));
}

TEST_CASE("a training step runs at the clock its tensor share holds, inference at full clock",
          "[sustained_clock]") {
  const model_spec m = llama3_8b();
  const run_config train{.batch = 1, .seq = 4096, .checkpointing = true};
  const model_estimate held = estimate_model(catalog::h200_sxm, m, train);
  const model_estimate burst = estimate_model(without_sustained_clock(catalog::h200_sxm), m, train);
  CHECK(burst.clock_fraction == 1.0);
  CHECK(held.clock_fraction < 1.0);
  CHECK(held.clock_fraction >= sustained_clock_fraction(catalog::h200_sxm.facts(), 1.0));
  CHECK(held.time > burst.time);
  // No slower than the whole step at the lower clock, the DRAM-bound part keeping its speed.
  CHECK(held.time.value() <= burst.time.value() / held.clock_fraction * (1 + 1e-9));
  // MFU stays against the quoted peak, so it falls with the clock.
  CHECK(held.peak == burst.peak);
  CHECK(held.mfu() < burst.mfu());

  const run_config infer{.mode = run_mode::infer, .batch = 1, .prompt = 512, .generate = 128};
  CHECK(estimate_model(catalog::h200_sxm, m, infer).clock_fraction == 1.0);
  // FP32 products run on the CUDA cores, which held 1980 MHz: no slowdown.
  const run_config fp32_run{.batch = 1, .seq = 512, .type = dtype::fp32};
  CHECK(estimate_model(catalog::h200_sxm, presets::find("gpt2"), fp32_run).clock_fraction == 1.0);
}

TEST_CASE("a power limit slows a long job further, and a device file slows as the catalog board",
          "[sustained_clock]") {
  const model_spec m = llama3_8b();
  const run_config train{.batch = 2, .seq = 4096};
  const model_estimate full = estimate_model(catalog::h100_sxm, m, train);
  const model_estimate capped =
      estimate_model(under_power_limit(catalog::h100_sxm, 500_W), m, train);
  CHECK(capped.clock_fraction < 1.0);
  CHECK(capped.time > full.time);
  // The measured_device path (a power limit, a device file) and the catalog path agree at full
  // power.
  const model_estimate file = estimate_model(measured_device(catalog::h100_sxm), m, train);
  CHECK(file.clock_fraction == Approx(full.clock_fraction));
  CHECK(file.time.value() == Approx(full.time.value()).epsilon(1e-6));
}

TEST_CASE("impossible sustained clocks and shares are refused by name", "[sustained_clock]") {
  gpu_facts f = catalog::h200_sxm.facts();
  f.sustained_tensor_clock = megahertz(2500);
  CHECK_THROWS_WITH((gpu_spec{catalog::h200_sxm.arch(), f}),
                    Catch::Contains("sustained tensor clock"));
  f.sustained_tensor_clock = megahertz(-1);
  CHECK_THROWS_WITH((gpu_spec{catalog::h200_sxm.arch(), f}),
                    Catch::Contains("sustained tensor clock"));
  f = catalog::h200_sxm.facts();
  f.sustained_fp8_tensor_clock = megahertz(2500);
  CHECK_THROWS_WITH((gpu_spec{catalog::h200_sxm.arch(), f}),
                    Catch::Contains("sustained FP8 tensor clock"));
  f.sustained_fp8_tensor_clock = megahertz(-1);
  CHECK_THROWS_WITH((gpu_spec{catalog::h200_sxm.arch(), f}),
                    Catch::Contains("sustained FP8 tensor clock"));
  CHECK_THROWS_WITH(sustained_clock(catalog::h200_sxm.facts(), 1.5),
                    Catch::Contains("tensor share"));
  CHECK_THROWS_WITH(sustained_clock(catalog::h200_sxm.facts(), std::nan("")),
                    Catch::Contains("tensor share"));
  CHECK_THROWS_WITH(at_clock_fraction(catalog::h200_sxm, 0.0), Catch::Contains("clock fraction"));
}
