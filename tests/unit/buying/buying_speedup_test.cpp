// Speed-up between two GPUs (docs/buying.md, "Speed-up between two GPUs"): the guide's rule
// reproduces its published figures through the public API, the modelled ratios are held against
// the guide's de-biased measurements with the tolerance the model achieves.
//
// Published figures: Dettmers, Which GPU(s) to Get for Deep Learning (2020 edition),
// https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/ (A100 over V100: bandwidth
// 1555/900 = 1.73, x 1.02-1.05 shared memory x 1.01-1.03 tensor cores = 1.78-1.87; de-biased
// A100/V100 1.70 Transformer, 1.43 SE-ResNeXt-101, 1.47 Mask R-CNN; RTX 3090/2080 Ti 1.5
// Transformers, 1.57 CNNs) and its 2018 edition (GTX 1080 over GTX 1070 = 320/256 = 1.25).
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>

namespace {

using namespace dlperf;

// The runs the comparisons use (docs/buying.md): the Transformer big on WMT14-sized batches
// (5120 tokens per GPU as sentences of 32 tokens, NVIDIA DeepLearningExamples' batch per V100),
// CNN training at DLE's batches; FP16 mixed precision, eager PyTorch, unfused attention (2020
// fairseq).
run_config transformer_run() {
  return run_config{
      .batch = 160, .seq = 32, .type = dtype::fp16, .flash_attention = false, .eager = true};
}
run_config cnn_run(long long batch) {
  return run_config{
      .batch = batch, .type = dtype::fp16, .optimizer = optimizer_kind::sgd, .eager = true};
}

}  // namespace

TEST_CASE("speed-up rule: A100 over V100 bandwidth 1555/900 = 1.73", "[buying][speedup]") {
  const rule_speedup r = speedup_by_rule(catalog::v100_sxm2, catalog::a100_sxm4_40gb);
  // The catalog derives both from bus width x data rate: 1555.2 and 898.6 GB/s.
  CHECK(in_gigabytes_per_second(r.to_bandwidth) == Approx(1555).epsilon(0.001));
  CHECK(in_gigabytes_per_second(r.from_bandwidth) == Approx(900).epsilon(0.002));
  CHECK(r.bandwidth_ratio() == Approx(1.73).epsilon(0.005));
  CHECK(r.gained == std::vector<std::string_view>{"ampere_ga100"});
  CHECK(r.lost.empty());
}

TEST_CASE("speed-up rule: A100 over V100 = 1.78-1.87 with the Ampere factors",
          "[buying][speedup]") {
  const rule_speedup r = speedup_by_rule(catalog::v100_sxm2, catalog::a100_sxm4_40gb);
  CHECK(r.shared_memory.low == Approx(1.02));
  CHECK(r.shared_memory.high == Approx(1.05));
  CHECK(r.tensor_cores.low == Approx(1.01));
  CHECK(r.tensor_cores.high == Approx(1.03));
  CHECK(r.speedup().low == Approx(1.78).margin(0.005));
  CHECK(r.speedup().high == Approx(1.87).margin(0.005));
}

TEST_CASE("speed-up rule: GTX 1080 over GTX 1070 = 320/256 = 1.25 within one architecture",
          "[buying][speedup]") {
  const rule_speedup r = speedup_by_rule(catalog::gtx_1070, catalog::gtx_1080);
  CHECK(r.bandwidth_ratio() == Approx(1.25));
  CHECK(r.speedup().low == Approx(1.25));
  CHECK(r.speedup().high == Approx(1.25));
  CHECK(r.gained.empty());
  CHECK(r.lost.empty());
}

TEST_CASE("speed-up rule: two chips of one generation are compared by bandwidth alone",
          "[buying][speedup]") {
  // GA100 and GA10x are both Ampere: no generation is crossed.
  const rule_speedup r = speedup_by_rule(catalog::rtx_3090, catalog::a100_sxm4_40gb);
  CHECK(r.speedup().low == Approx(r.bandwidth_ratio()));
  CHECK(r.speedup().high == Approx(r.bandwidth_ratio()));
}

TEST_CASE("speed-up rule: RTX 3090 over RTX 2080 Ti crosses Ampere from Turing",
          "[buying][speedup]") {
  const rule_speedup r = speedup_by_rule(catalog::rtx_2080_ti, catalog::rtx_3090);
  CHECK(r.bandwidth_ratio() == Approx(936.0 / 616.0));
  CHECK(r.gained == std::vector<std::string_view>{"ampere_ga10x"});
  // 1.52 x 1.02-1.05 x 1.01-1.03 = 1.57-1.64: the guide's 1.57 for CNNs is its low end, its 1.5
  // for Transformers 4 % below it.
  CHECK(r.speedup().low == Approx(1.57).margin(0.005));
  CHECK(r.speedup().high == Approx(1.64).margin(0.005));
}

TEST_CASE("speed-up rule: going back is the inverse, and low <= high", "[buying][speedup]") {
  for (const gpu_spec* a : catalog::all)
    for (const gpu_spec* b : catalog::all) {
      INFO(a->id() << " -> " << b->id());
      rule_speedup there;
      try {
        there = speedup_by_rule(*a, *b);
      } catch (const unsupported&) {  // tensor cores on one side only, or no shared line
        CHECK_THROWS_AS(speedup_by_rule(*b, *a), unsupported);
        continue;
      }
      const rule_speedup back = speedup_by_rule(*b, *a);
      CHECK(there.speedup().low <= there.speedup().high);
      CHECK(there.bandwidth_ratio() * back.bandwidth_ratio() == Approx(1.0));
      CHECK(there.speedup().low * back.speedup().high == Approx(1.0));
      CHECK(there.speedup().high * back.speedup().low == Approx(1.0));
    }
  // V100 -> RTX 3090 steps into Turing (factors 1.0) and then GA10x (the Ampere factors).
  const rule_speedup r = speedup_by_rule(catalog::v100_sxm2, catalog::rtx_3090);
  CHECK(r.gained == std::vector<std::string_view>{"ampere_ga10x", "turing_tu10x"});
  CHECK(r.shared_memory.low == Approx(1.02));
}

TEST_CASE("speed-up rule: every factor is sourced and every predecessor exists",
          "[buying][speedup]") {
  for (const architecture_spec& a : all_architectures) {
    INFO(a.name);
    CHECK(!a.rule_factors.source.empty());
    CHECK(a.rule_factors.shared_memory.low <= a.rule_factors.shared_memory.high);
    CHECK(a.rule_factors.tensor_cores.low <= a.rule_factors.tensor_cores.high);
    if (!a.rule_factors.previous.empty())
      CHECK(find_architecture(a.rule_factors.previous).vendor == a.vendor);
  }
}

TEST_CASE("speed-up rule: does not apply between a GPU with tensor cores and one without",
          "[buying][speedup][errors]") {
  CHECK_THROWS_AS(speedup_by_rule(catalog::gtx_1080, catalog::v100_sxm2), unsupported);
  CHECK_THROWS_WITH(speedup_by_rule(catalog::v100_sxm2, catalog::gtx_1080),
                    Catch::Contains("GTX 1080 has no tensor cores"));
  CHECK_THROWS_WITH(speedup_by_rule(catalog::a100_sxm4_40gb, catalog::mi300x),
                    Catch::Contains("share no line of generations"));
}

TEST_CASE("modelled speed-up: the inverse pair gives the inverse ratio", "[buying][speedup]") {
  const model_speedup there =
      speedup_by_model(catalog::rtx_2080_ti, catalog::rtx_3090, presets::resnet50, cnn_run(64));
  const model_speedup back =
      speedup_by_model(catalog::rtx_3090, catalog::rtx_2080_ti, presets::resnet50, cnn_run(64));
  CHECK(there.ratio() * back.ratio() == Approx(1.0));
  CHECK(there.from.time == back.to.time);
}

TEST_CASE("modelled speed-up: RTX 3090 over RTX 2080 Ti within 8 % of the guide's 1.5 and 1.57",
          "[buying][speedup]") {
  const double transformer = speedup_by_model(catalog::rtx_2080_ti, catalog::rtx_3090,
                                              presets::transformer_big, transformer_run())
                                 .ratio();
  const double resnet =
      speedup_by_model(catalog::rtx_2080_ti, catalog::rtx_3090, presets::resnet50, cnn_run(64))
          .ratio();
  const double sxt = speedup_by_model(catalog::rtx_2080_ti, catalog::rtx_3090,
                                      presets::se_resnext101_32x4d, cnn_run(64))
                         .ratio();
  // Model: 1.61 (+7 %), 1.55 (-1 %) and 1.54 (-2 %; SE-ResNeXt's narrow conv groups take the
  // skinny GEMM kernel, estimate/gemm.hpp).
  CHECK(transformer == Approx(1.5).epsilon(0.08));
  CHECK(resnet == Approx(1.57).epsilon(0.02));
  CHECK(sxt == Approx(1.57).epsilon(0.03));
}

TEST_CASE("modelled speed-up: A100 over V100 Transformer reproduces DLE's measured 2.47",
          "[buying][speedup]") {
  // NVIDIA DeepLearningExamples PyTorch/Translation/Transformer README (pytorch-20.06, commit
  // 2de29455), one GPU, mixed precision: A100 40GB 82618 tokens/s at 10240 tokens per batch,
  // V100 16GB 33468 at 5120: 2.47. Each GPU at its own batch.
  run_config v100 = transformer_run();
  run_config a100 = transformer_run();
  a100.batch = 320;
  const double ratio =
      estimate_model(catalog::a100_sxm4_40gb, presets::transformer_big, a100).tokens_per_second() /
      estimate_model(catalog::v100_sxm2, presets::transformer_big, v100).tokens_per_second();
  CHECK(ratio == Approx(82618.0 / 33468.0).epsilon(0.03));  // model 2.43: -1.6 %
}

TEST_CASE("modelled speed-up: A100 over V100 is above the guide's de-biased figures (known miss)",
          "[buying][speedup]") {
  // The guide de-biases NVIDIA's A100/V100 tables to 1.70 (Transformer), 1.43 (SE-ResNeXt-101)
  // and 1.47 (Mask R-CNN). At equal batches the model gives 2.21, 1.92 and 1.94 (ResNet-50 for
  // the second vision network): 30 %, 34 % and 32 % above. The same de-biasing applied to DLE's
  // own Transformer table gives 2.47 / 1.136 = 2.17, which the model meets within 2 %
  // (docs/buying.md, "Speed-up between two GPUs"). The Transformer's ratio was 2.30 before the
  // kernels eager PyTorch runs around unfused attention, biases, residuals and norms were
  // counted (docs/models.md, "Fused or eager"): memory traffic, which A100 speeds up by its
  // bandwidth (1.73), not by its tensor peak.
  const double transformer = speedup_by_model(catalog::v100_sxm2, catalog::a100_sxm4_40gb,
                                              presets::transformer_big, transformer_run())
                                 .ratio();
  const double sxt = speedup_by_model(catalog::v100_sxm2, catalog::a100_sxm4_40gb,
                                      presets::se_resnext101_32x4d, cnn_run(128))
                         .ratio();
  const double resnet =
      speedup_by_model(catalog::v100_sxm2, catalog::a100_sxm4_40gb, presets::resnet50, cnn_run(256))
          .ratio();
  CHECK(transformer / 1.70 - 1 == Approx(0.30).margin(0.03));
  CHECK(sxt / 1.43 - 1 == Approx(0.34).margin(0.03));
  CHECK(resnet / 1.47 - 1 == Approx(0.32).margin(0.03));
  CHECK(transformer / (82618.0 / 33468.0 / 1.136) - 1 == Approx(0.02).margin(0.03));
}
