// A GPU under a power limit (estimate/power_limit.hpp, docs/buying.md "Power"): its SM clock
// domain slows by (limit / TDP)^(1/3), its DRAM does not, and every estimator takes it unchanged.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>

using namespace dlperf;
using namespace dlperf::literals;

TEST_CASE("a power limit slows the SM clock domain by (limit / TDP)^(1/3), not DRAM",
          "[power_limit]") {
  // torchtitan's Grand Teton H100s run at 500 W of 700 (docs/evidence.md).
  const gpu_spec& h100 = catalog::h100_sxm;
  const double f = std::cbrt(500.0 / 700.0);
  const measured_device d = under_power_limit(h100, 500_W);
  CHECK(clock_fraction(500_W, 700_W) == Approx(f));
  CHECK(d.sm_clock().value() == Approx(h100.sm_clock().value() * f));
  CHECK(d.peak(dtype::bf16).value() == Approx(h100.peak(dtype::bf16).value() * f));
  CHECK(d.memory(tier::l2).throughput.value() ==
        Approx(h100.memory(tier::l2).throughput.value() * f));
  CHECK(d.memory(tier::shared).throughput.value() ==
        Approx(h100.memory(tier::shared).throughput.value() * f));
  CHECK(d.memory(tier::global).throughput.value() == h100.memory(tier::global).throughput.value());
  // Latencies in cycles stay; in seconds they stretch with the clock.
  CHECK(d.memory(tier::l2).latency.value() == Approx(h100.memory(tier::l2).latency.value() / f));
  // The board keeps its facts (its TDP, its memory): only the speeds change.
  CHECK(d.facts().tdp == h100.facts().tdp);
  REQUIRE(d.clock_record().has_value());
  CHECK(d.clock_record()->method.find("power limit 500 W of 700 W") != std::string::npos);
  // At the board power nothing changes.
  CHECK(under_power_limit(h100, 700_W).peak(dtype::bf16).value() ==
        Approx(h100.peak(dtype::bf16).value()));
}

TEST_CASE("a device file's measured throughputs slow with the clock, its DRAM does not",
          "[power_limit]") {
  measured_device m(catalog::a100_sxm4_80gb);
  m.set_achieved(dtype::bf16, accumulator::fp32, make<flop_rate>(270e12), "cuBLAS 8192^3");
  m.set_bandwidth(tier::global, make<bandwidth>(1.7e12), "STREAM triad");
  m.set_bandwidth(tier::l2, make<bandwidth>(5e12), "L2 sweep");
  m.set_sm_clock(make<frequency>(1.35e9), "nvidia-smi under load");
  const measured_device d = under_power_limit(m, 300_W);
  const double f = std::cbrt(300.0 / 400.0);
  CHECK(d.peak(dtype::bf16).value() == Approx(270e12 * f));
  CHECK(d.sm_clock().value() == Approx(1.35e9 * f));
  CHECK(d.memory(tier::l2).throughput.value() == Approx(5e12 * f));
  CHECK(d.memory(tier::global).throughput.value() == 1.7e12);
  CHECK(d.achieved_record(dtype::bf16, accumulator::fp32)
            ->method.find("cuBLAS 8192^3; power "
                          "limit 300 W") != std::string::npos);
}

TEST_CASE("over the catalog a lower limit never speeds a step up, and never slows it past 1/f",
          "[power_limit]") {
  const run_config train{.batch = 8, .seq = 512, .type = dtype::fp16};
  const run_config decode{
      .mode = run_mode::infer, .batch = 1, .prompt = 1, .generate = 64, .type = dtype::fp16};
  for (const gpu_spec* g : catalog::all) {
    if (!g->supports(dtype::fp16, accumulator::fp32)) continue;
    const power tdp = g->facts().tdp;
    for (const run_config& r : {train, decode}) {
      const model_estimate full = estimate_model(*g, presets::gpt2, r);
      double previous = full.time.value();
      for (double share : {0.9, 0.7, 0.5, 0.35, 0.2}) {
        const power limit = share * tdp;
        const model_estimate e = estimate_model(under_power_limit(*g, limit), presets::gpt2, r);
        const double f = clock_fraction(limit, tdp);
        INFO(g->id() << " at " << limit.value() << " W, " << name(r.mode));
        REQUIRE(std::isfinite(e.time.value()));
        CHECK(e.time.value() >= previous * (1 - 1e-12));              // monotonic in the limit
        CHECK(e.time.value() <= full.time.value() / f * (1 + 1e-9));  // at most all clock-bound
        previous = e.time.value();
      }
    }
  }
}

TEST_CASE("under a power limit a DRAM-bound decode slows less than a compute-bound step",
          "[power_limit]") {
  // Llama-2-7B decode at batch 1 reads every weight each token; BERT-large training at batch
  // 32 x 512 in FP16 is tensor-core arithmetic (as buying_power_test's clock-bound shares say).
  const gpu_spec& gpu = catalog::a100_sxm4_80gb;
  const run_config decode{
      .mode = run_mode::infer, .batch = 1, .prompt = 1, .generate = 128, .type = dtype::fp16};
  const run_config train{.batch = 32, .seq = 512, .type = dtype::fp16};
  const double decode_full = estimate_model(gpu, presets::llama2_7b, decode).time.value();
  const double train_full = estimate_model(gpu, presets::bert_large, train).time.value();
  for (double w : {300.0, 200.0, 100.0}) {
    const measured_device d = under_power_limit(gpu, watts(w));
    const double slow_decode =
        estimate_model(d, presets::llama2_7b, decode).time.value() / decode_full;
    const double slow_train =
        estimate_model(d, presets::bert_large, train).time.value() / train_full;
    INFO(w << " W: decode x" << slow_decode << ", training x" << slow_train);
    CHECK(slow_decode < slow_train);
    CHECK(slow_decode < 1.1);
    CHECK(slow_train > 1.0 + 0.5 * (1.0 / clock_fraction(watts(w), 400_W) - 1.0));
  }
}

TEST_CASE(
    "power limits below a fifth of the board power or above it are refused with what is wrong",
    "[power_limit]") {
  CHECK_THROWS_WITH(under_power_limit(catalog::h100_sxm, 800_W),
                    Catch::Contains("must not exceed the board power (700 W)"));
  CHECK_THROWS_WITH(under_power_limit(catalog::h100_sxm, 100_W),
                    Catch::Contains("below a fifth of the board power (700 W)"));
  CHECK_THROWS_AS(under_power_limit(catalog::h100_sxm, watts(std::nan(""))), invalid_argument);
  CHECK_THROWS_AS(under_power_limit(catalog::h100_sxm, 0_W), invalid_argument);
  measured_device m(catalog::rtx_4090);
  CHECK_THROWS_WITH(m.slow_clock(1.5, "overclock"), Catch::Contains("clock fraction"));
  CHECK_THROWS_WITH(m.slow_clock(0.0, "off"), Catch::Contains("clock fraction"));
}
