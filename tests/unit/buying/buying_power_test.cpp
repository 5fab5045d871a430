// Power of a deep-learning box (docs/buying.md, "Power"): the published figures of Dettmers,
// Which GPU(s) to Get for Deep Learning, 2020 edition
// (https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/), and the properties of the
// power-limit model.
#include <catch2/catch.hpp>
#include <dlperf/buying/power.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/step.hpp>

using namespace dlperf;
using namespace dlperf::literals;

TEST_CASE("board power of RTX 3090 (350 W) and RTX 3080 (320 W), Dettmers 2020",
          "[buying][power]") {
  CHECK(power_budget_of(catalog::rtx_3090, 1).board == 350_W);
  CHECK(power_budget_of(catalog::rtx_3080, 1).board == 320_W);
}

TEST_CASE("4x RTX 3090 draw 1400 W of GPUs, a 1600 W PSU leaves 200 W, the guide wants 1700 W",
          "[buying][power]") {
  const power_budget b = power_budget_of(catalog::rtx_3090, 4);
  CHECK(b.gpus == 1400_W);
  CHECK(b.left_by(1600_W) == 200_W);
  // Default rest of the system: 150 W CPU + 100 W other components; PSU margin 10 %.
  CHECK(b.system == 1650_W);
  CHECK(b.recommended_psu.value() == Approx(1815.0));
  CHECK(b.recommended_psu >= 1700_W);  // the guide: at least 1700 W
  CHECK(b.warns(power_warning::psu_beyond_desktop));
  CHECK(b.warns(power_warning::system_beyond_desktop));
  CHECK_FALSE(b.warns(power_warning::beyond_circuit));  // 1650 W < 15 A x 120 V
}

TEST_CASE("RTX 3090 limited from 350 W to 300 W saves 200 W in a 4-GPU box, which then fits 1600 W",
          "[buying][power]") {
  CHECK(power_limit_saving(350_W, 300_W, 4) == 200_W);
  const power_budget limited = power_budget_of(300_W, 4);
  CHECK(limited.gpus == 1200_W);
  CHECK(limited.recommended_psu.value() == Approx((1200.0 + 250.0) * 1.1));
  CHECK_FALSE(limited.warns(power_warning::psu_beyond_desktop));
}

TEST_CASE("a small box raises no warning, 6 GPUs of 350 W exceed a 15 A circuit",
          "[buying][power]") {
  const power_budget one = power_budget_of(catalog::rtx_3080, 1);
  for (power_warning w : enum_values<power_warning>) CHECK_FALSE(one.warns(w));
  CHECK(power_budget_of(catalog::rtx_3090, 6).warns(power_warning::beyond_circuit));
}

TEST_CASE(
    "power limit 250 -> 200 W on RTX 2080 Ti: BERT-Large inference about 7 % slower, "
    "Dettmers 2020",
    "[buying][power]") {
  // Dettmers 2020: BERT-Large inference, 500 mini-batches, RTX 2080 Ti limited by 50 W
  // (250 -> 200 W): about 7 % slower. The page does not give the batch; a 16-bit batch of 32
  // sequences of 128 tokens is assumed here.
  REQUIRE(catalog::rtx_2080_ti.facts().tdp == 250_W);
  const model_estimate e = estimate_model(
      catalog::rtx_2080_ti, presets::bert_large,
      run_config{.mode = run_mode::infer, .batch = 32, .seq = 128, .type = dtype::fp16});
  const double share = clock_bound_share(e);
  const double f = performance_fraction(e, 200_W, catalog::rtx_2080_ti.facts().tdp);
  INFO("clock-bound share " << share << ", performance fraction " << f);
  CHECK(clock_fraction(200_W, 250_W) == Approx(0.9283).epsilon(1e-4));  // (0.8)^(1/3)
  CHECK(1.0 - f == Approx(0.07).margin(0.01));
}

TEST_CASE("under a power limit DRAM-bound work loses less than compute-bound work",
          "[buying][power]") {
  // On A100 80GB: Llama-2-7B decode at batch 1 reads the weights (DRAM-bound); BERT-large
  // training in FP16 at batch 32 x 512 is mostly tensor-core arithmetic. (Not on an RTX 3090:
  // there the tile model's 64-wide narrowest tile makes the decode FFN GEMM compute-bound,
  // docs/models.md, "Known limits".)
  const auto& gpu = catalog::a100_sxm4_80gb;
  const power tdp = gpu.facts().tdp;
  const model_estimate decode = estimate_model(
      gpu, presets::llama2_7b,
      run_config{
          .mode = run_mode::infer, .batch = 1, .prompt = 1, .generate = 128, .type = dtype::fp16});
  const model_estimate train = estimate_model(
      gpu, presets::bert_large, run_config{.batch = 32, .seq = 512, .type = dtype::fp16});
  CHECK(clock_bound_share(decode) < 0.2);
  CHECK(clock_bound_share(train) > 0.5);
  for (double w : {150.0, 250.0, 300.0, 350.0}) {
    const double d = performance_fraction(decode, watts(w), tdp);
    const double t = performance_fraction(train, watts(w), tdp);
    INFO(w << " W: decode " << d << ", training " << t);
    CHECK(d > t);
    CHECK(t >= clock_fraction(watts(w), tdp));  // never worse than all compute-bound
  }
  // The two ends of the share: all DRAM-bound does not slow, all compute-bound runs at the clock.
  CHECK(performance_fraction(0.0, 200_W, 250_W) == 1.0);
  CHECK(performance_fraction(1.0, 200_W, 250_W) == Approx(clock_fraction(200_W, 250_W)));
  CHECK(performance_fraction(1.0, 250_W, 250_W) == 1.0);
}

TEST_CASE("energy per step is system power x step time", "[buying][power]") {
  const model_estimate e = estimate_model(catalog::rtx_3090, presets::bert_large,
                                          run_config{.batch = 32, .seq = 512, .type = dtype::fp16});
  const power_budget b = power_budget_of(catalog::rtx_3090, 1);
  CHECK(energy_per_step(b, e).value() == Approx(600.0 * e.time.value()));  // 350 + 250 W
  CHECK(energy_per_token(b, e).value() == Approx(energy_per_step(b, e).value() / (32.0 * 512.0)));
}

TEST_CASE("power inputs are validated: zero count, negative power, limit above TDP",
          "[buying][power]") {
  CHECK_THROWS_AS(power_budget_of(catalog::rtx_3090, 0), invalid_argument);
  CHECK_THROWS_WITH(power_budget_of(catalog::rtx_3090, 0), Catch::Contains("count"));
  CHECK_THROWS_WITH(power_budget_of(-1_W, 1), Catch::Contains("board power"));
  CHECK_THROWS_WITH(power_budget_of(300_W, 1, power_parameters{.rest_of_system = -1_W}),
                    Catch::Contains("rest_of_system"));
  CHECK_THROWS_WITH(power_budget_of(300_W, 1, power_parameters{.psu_margin = -0.1}),
                    Catch::Contains("psu_margin"));
  CHECK_THROWS_WITH(clock_fraction(400_W, 350_W), Catch::Contains("must not exceed"));
  CHECK_THROWS_WITH(clock_fraction(0_W, 350_W), Catch::Contains("limit"));
  CHECK_THROWS_WITH(power_limit_saving(350_W, 300_W, 0), Catch::Contains("count"));
  CHECK_THROWS_WITH(performance_fraction(1.5, 0.9), Catch::Contains("compute share"));
}
