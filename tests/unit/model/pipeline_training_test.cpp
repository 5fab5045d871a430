// Pipeline-parallel training (buying/cluster.hpp; docs/parallel.md "Training with a pipeline"):
// Megatron's 1F1B schedule and its interleaved form, as Narayanan et al. 2021
// (arXiv:2104.04473) give their bubble and memory, the hand-offs between stages, properties
// over micro-batches, and every rejection.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <string>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace {

// Llama 2 13B (40 layers) on 16 H100s as NeMo runs it: tp 1, pp 4, ZeRO 1.
run_config pipeline(long long pp, long long chunks, long long micro_batches) {
  run_config r;
  r.batch = 1;
  r.seq = 4096;
  r.gpus = 16;
  r.pp = pp;
  r.virtual_stages = chunks;
  r.grad_accumulation = micro_batches;
  r.zero = 1;
  r.type = dtype::fp8_e4m3;
  r.stack = stack_id::megatron;
  return r;
}

cluster_estimate job(const run_config& r) {
  return estimate_cluster(catalog::h100_sxm, r.gpus, presets::llama2_13b, r, links::nvlink4);
}

// One micro-batch's forward and backward through one stage: 1/pp of every layer's.
duration stage_micro_batch(const run_config& r) {
  const model_estimate e =
      estimate_run(catalog::h100_sxm, presets::llama2_13b, pipeline_stage_run(r));
  return (e.forward.time() + e.recompute.time() + e.backward.time()) / static_cast<double>(r.pp);
}

}  // namespace

TEST_CASE("a 1F1B pipeline idles (p - 1) / v micro-batches a step: Narayanan et al. 2021 s2.2",
          "[cluster][pipeline]") {
  const run_config plain = pipeline(4, 1, 8);
  const cluster_estimate c = job(plain);
  CHECK(c.pp == 4);
  CHECK(c.data_parallel == 4);
  CHECK(c.pipeline_bubble.value() == Approx(3.0 * stage_micro_batch(plain).value()));
  // The interleaved schedule's v chunks a GPU divide the bubble by v (their eq. for t_pb).
  const run_config interleaved = pipeline(4, 10, 8);
  CHECK(job(interleaved).pipeline_bubble.value() ==
        Approx(c.pipeline_bubble.value() / 10.0).epsilon(1e-9));
  // The bubble's share of the compute step is (p - 1) / (m + p - 1) less the update's share.
  const double busy = 8.0 * stage_micro_batch(plain).value();
  CHECK(c.pipeline_bubble.value() / (busy + c.pipeline_bubble.value()) ==
        Approx(3.0 / (8.0 + 3.0)));
}

TEST_CASE(
    "more micro-batches amortise the bubble: the rate per GPU rises and stays under the "
    "bubble-free rate",
    "[cluster][pipeline][property]") {
  double last = 0;
  for (long long k = 1; k <= 64; k *= 2) {
    const run_config r = pipeline(4, 1, k);
    const cluster_estimate c = job(r);
    const double rate = static_cast<double>(k) / c.step_time.value();
    INFO(k << " micro-batches: " << rate << " micro-batches/s a pipeline");
    CHECK(rate > last);
    CHECK(std::isfinite(rate));
    // Without a bubble every stage would be busy all the time.
    CHECK(c.compute_step > c.pipeline_bubble);
    CHECK(c.step_time >= c.compute_step);
    last = rate;
  }
}

TEST_CASE(
    "a stage's model FLOPs utilisation counts its own layers: under its achieved rate's share "
    "of peak, never above 1, and the pipeline's work is the whole model's",
    "[cluster][pipeline][property]") {
  for (long long pp : {1LL, 2LL, 4LL, 8LL}) {
    const run_config r = pipeline(pp, 1, 8);
    const model_estimate whole =
        estimate_run(catalog::h100_sxm, presets::llama2_13b, pipeline_stage_run(r));
    const model_estimate stage = with_cluster_communication(whole, job(r));
    INFO("pp " << pp << ": MFU " << stage.mfu() << ", achieved "
               << (stage.achieved() / stage.peak).value() << " of peak");
    CHECK(stage.mfu() > 0.0);
    CHECK(stage.mfu() <= 1.0);
    // Model work is the forward's three times, without the recompute the step also runs.
    CHECK(stage.mfu() <= (stage.achieved() / stage.peak).value() * (1.0 + 1e-9));
    // The stages together do the whole model's work and arithmetic.
    CHECK((static_cast<double>(pp) * stage.model_work).value() ==
          Approx(whole.model_work.value()).epsilon(1e-9));
    CHECK((static_cast<double>(pp) * stage.forward.work()).value() ==
          Approx(whole.forward.work().value()).epsilon(1e-9));
  }
}

TEST_CASE(
    "a stage holds its layers' parameters and, under 1F1B, the activations of min(p, m) "
    "micro-batches of them",
    "[cluster][pipeline][memory]") {
  run_config one = pipeline(1, 1, 8);
  one.gpus = 4;
  run_config four = pipeline(4, 1, 8);
  const memory_breakdown whole = memory_need(presets::llama2_13b, one);
  const memory_breakdown stage = memory_need(presets::llama2_13b, four);
  // 40 layers over 4 stages: 10 each, a quarter of the parameters.
  CHECK(stage.weights.value() == Approx(whole.weights.value() / 4.0));
  CHECK(stage.gradients.value() == Approx(whole.gradients.value() / 4.0));
  // 4 micro-batches in flight of a quarter of the layers: the whole model's one micro-batch.
  CHECK(stage.activations.value() == Approx(whole.activations.value()));
  four.grad_accumulation = 2;  // only 2 in flight
  CHECK(memory_need(presets::llama2_13b, four).activations.value() ==
        Approx(whole.activations.value() / 2.0));
}

TEST_CASE("stages hand their activations on: across servers once a stage fills one",
          "[cluster][pipeline]") {
  run_config r = pipeline(4, 1, 8);
  r.gpus = 64;  // a stage of 16 GPUs spans two servers: its neighbour is on another
  r.tp = 4;
  const cluster_estimate c = job(r);
  const step_collective* handoff = nullptr;
  for (const step_collective& x : c.collectives)
    if (x.kind == collective::send_recv) handoff = &x;
  REQUIRE(handoff != nullptr);
  // batch x seq x hidden 16-bit activations, scattered over the tensor split.
  CHECK(handoff->bytes.value() == Approx(1.0 * 4096 * 5120 * 2 / 4));
  CHECK(handoff->calls == 2 * 8);
  // Never faster than the bytes over one network port.
  CHECK(handoff->time.value() / static_cast<double>(handoff->calls) >=
        handoff->bytes.value() / links::ib_ndr.per_direction().value());
  CHECK(handoff->exposed == handoff->time);  // plain 1F1B waits for each
  r.virtual_stages = 5;
  for (const step_collective& x : job(r).collectives)
    if (x.kind == collective::send_recv) CHECK(x.exposed < x.time);  // interleaved overlaps
}

TEST_CASE("pipeline training: the run's rejections", "[cluster][pipeline][errors]") {
  run_config r = pipeline(3, 1, 8);  // 16 GPUs are not 3 stages
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("tp x pp (1 x 3) must divide gpus (16)"));
  r = pipeline(2, 1, 8);
  r.mode = run_mode::infer;
  r.grad_accumulation = 1;
  r.virtual_stages = 2;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("interleaved training schedule"));
  r = pipeline(4, 11, 8);  // 4 x 11 chunks of 40 layers
  CHECK_THROWS_WITH(job(r), Catch::Contains("4 pipeline stages x 11 virtual stages need"));
  r = pipeline(4, 1, 8);
  CHECK_THROWS_WITH(
      estimate_cluster(catalog::h100_sxm, r.gpus, presets::resnet50, r, links::nvlink4),
      Catch::Contains("CNN"));
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model and cluster: a pipeline's bubble and hand-offs, JSON in SI units",
          "[cli][pipeline]") {
  const std::string job =
      "--preset llama3_70b --gpu h100_sxm --batch 1 --seq 8192 --gpus 64 --tp 4 --pp 4 --vpp 20 "
      "--grad-accum 32 --dtype fp8_e4m3 --zero 1 --stack megatron";
  const auto t = dlperf_test::run_dlperf("model " + job);
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("tp 4 x pp 4 x dp 4") != std::string::npos);
  CHECK(t.out.find("pipeline bubble (1F1B)") != std::string::npos);
  CHECK(t.out.find("published multi-GPU megatron training runs of sequences of 8192 tokens or more "
                   "on boards with HBM memory measured") != std::string::npos);
  const auto r = dlperf_test::run_dlperf("model " + job + " --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["pp"] == 4);
  CHECK(j["cluster"]["job"]["pp"] == 4);
  CHECK(j["cluster"]["job"]["virtual_stages"] == 20);
  CHECK(j["cluster"]["job"]["pipeline_bubble_s"].get<double>() > 0);
  const auto band = j["training_band"];
  REQUIRE(band.is_object());
  CHECK(band["tokens_per_s"][0].get<double>() < j["tokens_per_s"].get<double>());
  CHECK(band["tokens_per_s"][0].get<double>() <= band["tokens_per_s"][1].get<double>());
  CHECK(band["sequences"] == "long");
  CHECK(band["boards"] == "hbm");
  // Without --seq a job runs the model's whole context, and its band is that length's class.
  const auto whole = dlperf_test::run_dlperf(
      "model --preset mpt_125m --gpu a100_sxm4_80gb --gpus 8 --zero 3 --batch 1 --max-seq 16384 "
      "--stack pytorch-eager --json");
  REQUIRE(whole.exit_code == 0);
  const auto w = nlohmann::json::parse(whole.out);
  CHECK(w["seq"] == 16384);
  CHECK(w["training_band"]["sequences"] == "long");
  const auto c = dlperf_test::run_dlperf("cluster --link nvlink4 " + job + " --json");
  REQUIRE(c.exit_code == 0);
  const auto k = nlohmann::json::parse(c.out);
  CHECK(k["pp"] == 4);
  // The same multi-GPU model; `model` runs the stack as resolved for the device, whose compute
  // step differs from the catalog stack's by a few milliseconds (the same without a pipeline).
  CHECK(k["step_time_s"].get<double>() == Approx(j["step_time_s"].get<double>()).epsilon(0.01));
  CHECK(k["job"]["pipeline_bubble_s"].get<double>() ==
        Approx(j["cluster"]["job"]["pipeline_bubble_s"].get<double>()).epsilon(0.01));
}

TEST_CASE("dlperf model: the pipeline flags' rejections", "[cli][pipeline]") {
  dlperf_test::require_usage_error(
      "model --preset llama2_13b --gpu h100_sxm --gpus 8 --pp 2 --infer",
      "--pp is a training pipeline");
  dlperf_test::require_usage_error("model --preset llama2_13b --gpu h100_sxm --gpus 8 --vpp 2",
                                   "--vpp needs --pp 2 or more");
  dlperf_test::require_usage_error("model --preset llama2_13b --gpu h100_sxm --gpus 8 --pp 3",
                                   "--tp 1 x --pp 3 must divide --gpus 8");
  dlperf_test::require_usage_error("model --preset llama2_13b --gpu h100_sxm --gpus 8 --pp 0",
                                   "--pp");
  dlperf_test::require_usage_error(
      "model --preset llama2_13b --gpu h100_sxm --gpus 8 --pp 8 --vpp 8", "virtual stages need");
}
#endif
