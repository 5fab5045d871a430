// Asynchronous tensor parallelism (buying/tensor_parallel_collectives.hpp, async_tp_exposed;
// docs/parallel.md "Asynchronous tensor parallelism"): the tensor split's all-gathers and
// reduce-scatters cut into tp chunks and pipelined with their GEMMs, as properties, the closed form
// against the step's own operators, the stacks that run it, and every rejection.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/links.hpp>
#include <initializer_list>
#include <string>
#include <string_view>

using namespace dlperf;

namespace {

// Llama 3.1 8B over 16 GPUs, tensor split @p tp, as torchtitan trains it (FSDP over the rest).
run_config tp_run(long long tp, bool async, stack_id stack = stack_id::torch_compile) {
  run_config r;
  r.batch = 4;
  r.seq = 8192;
  r.type = dtype::bf16;
  r.gpus = 16;
  r.tp = tp;
  r.zero = 3;
  r.grad_accumulation = 2;
  r.stack = stack;
  r.async_tp = async;
  return r;
}

cluster_estimate job(const gpu_spec& g, const run_config& r, const link_spec& link) {
  return estimate_cluster(g, r.gpus, presets::llama3_1_8b, r, link);
}

const step_collective& find(const cluster_estimate& c, std::string_view name) {
  for (const step_collective& x : c.collectives)
    if (x.name == name) return x;
  FAIL("no collective " << name);
  return c.collectives.front();
}

// Time x runs of the operators of @p ops called @p name.
double op_time(const op_sequence& ops, std::string_view name) {
  double t = 0;
  for (const op_estimate& op : ops)
    if (op.name == name) t += static_cast<double>(op.repeats) * op.time.value();
  return t;
}

}  // namespace

TEST_CASE(
    "async TP: what a pass leaves exposed is never more than the collectives whole, never "
    "negative, and the step never slower",
    "[buying][cluster][async_tp][property]") {
  for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
           &catalog::a100_sxm4_80gb, &catalog::h100_sxm, &catalog::b200})
    for (long long tp : {2LL, 4LL, 8LL})
      for (stack_id stack : {stack_id::torch_compile, stack_id::megatron}) {
        const link_spec& link = links::nvlink4;
        const cluster_estimate whole = job(*g, tp_run(tp, false, stack), link);
        const cluster_estimate async = job(*g, tp_run(tp, true, stack), link);
        INFO(g->id() << " tp " << tp << " " << name(stack));
        CHECK(async.async_tp);
        CHECK_FALSE(whole.async_tp);
        for (std::string_view pass : {"tp all-reduce (forward)", "tp all-reduce (backward)"}) {
          const step_collective& w = find(whole, pass);
          const step_collective& a = find(async, pass);
          // The same bytes move; only what waits for them changes.
          CHECK(a.time.value() == Approx(w.time.value()).epsilon(1e-12));
          CHECK(a.exposed.value() >= 0.0);
          CHECK(a.exposed.value() <= w.exposed.value() * (1.0 + 1e-12));
          CHECK(std::isfinite(a.exposed.value()));
        }
        CHECK(async.step_time.value() <= whole.step_time.value() * (1.0 + 1e-12));
        // The forward's pairs always hide something: each GEMM takes time.
        CHECK(find(async, "tp all-reduce (forward)").exposed <
              find(whole, "tp all-reduce (forward)").exposed);
      }
}

TEST_CASE(
    "async TP: each all-gather and reduce-scatter leaves max(0, C - G (tp - 1) / tp) beside "
    "its GEMM, C half the all-reduce: the closed form against the step's operators",
    "[buying][cluster][async_tp]") {
  const long long tp = 4;
  run_config r = tp_run(tp, true, stack_id::megatron);
  const cluster_estimate c = job(catalog::h100_sxm, r, links::nvlink4);
  const model_estimate e = estimate_run(catalog::h100_sxm, presets::llama3_1_8b, r);
  const double layers = static_cast<double>(presets::llama3_1_8b.transformer.layers);
  const step_collective& fwd = find(c, "tp all-reduce (forward)");
  const step_collective& bwd = find(c, "tp all-reduce (backward)");
  // Two all-reduces a layer a micro-batch, each C = half of one apart.
  const double k = static_cast<double>(r.grad_accumulation);
  const double each = fwd.time.value() / static_cast<double>(fwd.calls);
  const double cut = (static_cast<double>(tp) - 1.0) / static_cast<double>(tp);
  const auto left = [&](double gemm) { return std::max(0.0, layers * each / 2.0 - cut * gemm); };
  CHECK(fwd.exposed.value() ==
        Approx(k * (left(op_time(e.forward, "QKV projection")) +
                    left(op_time(e.forward, "output projection")) +
                    left(op_time(e.forward, "FFN gate+up")) + left(op_time(e.forward, "FFN down"))))
            .epsilon(1e-9));
  // Megatron's userbuffers cut the backward's too, beside the dgrad GEMMs.
  CHECK(bwd.exposed.value() == Approx(k * (left(op_time(e.backward, "QKV dgrad")) +
                                           left(op_time(e.backward, "output dgrad")) +
                                           left(op_time(e.backward, "FFN gate+up dgrad")) +
                                           left(op_time(e.backward, "FFN down dgrad"))))
                                   .epsilon(1e-9));
  CHECK(bwd.exposed < bwd.time);
  // torchtitan's rewrites the forward graph only: its backward waits for each whole.
  const cluster_estimate titan = job(catalog::h100_sxm, tp_run(tp, true), links::nvlink4);
  CHECK(find(titan, "tp all-reduce (backward)").exposed.value() ==
        Approx(find(titan, "tp all-reduce (backward)").time.value()).epsilon(1e-12));
  CHECK(find(titan, "tp all-reduce (forward)").exposed <
        find(titan, "tp all-reduce (forward)").time);
}

TEST_CASE(
    "a recomputed forward runs its layers' tensor-parallel collectives again: every layer under "
    "full checkpointing, every second under selective 'layers', none under 'ops'",
    "[buying][cluster][async_tp][checkpointing]") {
  const auto has = [](const cluster_estimate& c, std::string_view name) {
    for (const step_collective& x : c.collectives)
      if (x.name == name) return true;
    return false;
  };
  run_config r = tp_run(4, false, stack_id::megatron);
  CHECK_FALSE(has(job(catalog::h100_sxm, r, links::nvlink4), "tp all-reduce (recompute)"));
  r.checkpointing = true;
  const cluster_estimate full = job(catalog::h100_sxm, r, links::nvlink4);
  const step_collective& again = find(full, "tp all-reduce (recompute)");
  const step_collective& forward = find(full, "tp all-reduce (forward)");
  CHECK(again.calls == forward.calls);
  CHECK(again.time.value() == Approx(forward.time.value()).epsilon(1e-12));
  CHECK(again.exposed.value() == Approx(again.time.value()).epsilon(1e-12));
  // Megatron's backward gathers each column-parallel linear's input again (its own entry).
  CHECK(
      full.tensor_parallel.value() ==
      Approx(3.0 * forward.time.value() + find(full, "tp input all-gather (backward)").time.value())
          .epsilon(1e-12));
  r.checkpointing = false;
  r.selective = selective_checkpointing::layers;
  CHECK(find(job(catalog::h100_sxm, r, links::nvlink4), "tp all-reduce (recompute)").calls ==
        forward.calls / 2);
  r.selective = selective_checkpointing::ops;
  CHECK_FALSE(has(job(catalog::h100_sxm, r, links::nvlink4), "tp all-reduce (recompute)"));
  // Megatron's userbuffers cut the recomputed forward's beside its own GEMMs; torchtitan's
  // rewrite of the forward graph leaves the backward pass's recompute whole.
  r.selective = selective_checkpointing::none;
  r.checkpointing = true;
  r.async_tp = true;
  const cluster_estimate cut = job(catalog::h100_sxm, r, links::nvlink4);
  CHECK(find(cut, "tp all-reduce (recompute)").exposed.value() ==
        Approx(find(cut, "tp all-reduce (forward)").exposed.value()).epsilon(1e-9));
  CHECK(find(cut, "tp all-reduce (recompute)").exposed < again.exposed);
  r.stack = stack_id::torch_compile;
  const cluster_estimate titan = job(catalog::h100_sxm, r, links::nvlink4);
  CHECK(find(titan, "tp all-reduce (recompute)").exposed.value() ==
        Approx(find(titan, "tp all-reduce (recompute)").time.value()).epsilon(1e-12));
}

TEST_CASE(
    "Megatron's backward overlaps its split by default: each column-parallel linear gathers its "
    "input again beside its dgrad and reduce-scatters its input gradient beside its wgrad",
    "[buying][cluster][async_tp][tp_backward]") {
  CHECK(stacks::of(stack_id::megatron).multi_gpu.tp_backward.exists());
  CHECK_FALSE(stacks::of(stack_id::torch_compile).multi_gpu.tp_backward.exists());
  CHECK_FALSE(stacks::of(stack_id::pytorch_eager).multi_gpu.tp_backward.exists());
  const long long tp = 4;
  const run_config r = tp_run(tp, false, stack_id::megatron);
  for (const link_spec* link : {&links::pcie4_x16, &links::nvlink4}) {
    INFO(link->id);
    const cluster_estimate c = job(catalog::h100_sxm, r, *link);
    const model_estimate e = estimate_run(catalog::h100_sxm, presets::llama3_1_8b, r);
    const double layers = static_cast<double>(presets::llama3_1_8b.transformer.layers);
    const double k = static_cast<double>(r.grad_accumulation);
    const step_collective& reduce = find(c, "tp all-reduce (backward)");
    const step_collective& gather = find(c, "tp input all-gather (backward)");
    const double half = reduce.time.value() / static_cast<double>(reduce.calls) / 2.0;
    const double g = gather.time.value() / static_cast<double>(gather.calls);
    CHECK(gather.calls == static_cast<long long>(2.0 * layers * k));  // QKV and gate+up
    CHECK(gather.kind == collective::all_gather);
    const auto left = [](double moved, double gemm) { return std::max(0.0, moved - gemm); };
    // The output gradients' gathers wait whole; the input gradients' reduce-scatters only
    // for what the wgrad GEMMs leave.
    CHECK(reduce.exposed.value() ==
          Approx(k * (2.0 * layers * half + left(layers * half, op_time(e.backward, "QKV wgrad")) +
                      left(layers * half, op_time(e.backward, "FFN gate+up wgrad"))))
              .epsilon(1e-9));
    CHECK(gather.exposed.value() ==
          Approx(k * (left(layers * g, op_time(e.backward, "QKV dgrad")) +
                      left(layers * g, op_time(e.backward, "FFN gate+up dgrad"))))
              .epsilon(1e-9));
    CHECK(reduce.exposed < reduce.time);
    CHECK(gather.exposed <= gather.time);
  }
  // Stacks without it wait for the backward's all-reduces whole and gather nothing again.
  const cluster_estimate titan = job(catalog::h100_sxm, tp_run(tp, false), links::nvlink4);
  CHECK(find(titan, "tp all-reduce (backward)").exposed.value() ==
        Approx(find(titan, "tp all-reduce (backward)").time.value()).epsilon(1e-12));
  for (const step_collective& x : titan.collectives)
    CHECK(x.name != std::string_view("tp input all-gather (backward)"));
}

TEST_CASE("async TP: a faster link leaves less exposed, and a link the GEMMs outpace none",
          "[buying][cluster][async_tp][property]") {
  // The same GEMMs beside ever faster transfers: what is left never grows.
  double last = INFINITY;
  for (const link_spec* link :
       {&links::pcie4_x16, &links::pcie5_x16, &links::nvlink3, &links::nvlink4, &links::nvlink5}) {
    const cluster_estimate c = job(catalog::b200, tp_run(2, true, stack_id::megatron), *link);
    const double exposed = find(c, "tp all-reduce (forward)").exposed.value();
    INFO(link->id << ": " << exposed << " s");
    CHECK(exposed <= last * (1.0 + 1e-12));
    last = exposed;
  }
  // Over NVLink 4 at tp 2 every 8192-token GEMM of Llama 3.1 8B outlasts its half all-reduce.
  const cluster_estimate fast =
      job(catalog::h100_sxm, tp_run(2, true, stack_id::megatron), links::nvlink4);
  CHECK(find(fast, "tp all-reduce (forward)").exposed.value() == 0.0);
  CHECK(find(fast, "tp all-reduce (backward)").exposed.value() == 0.0);
}

TEST_CASE("async TP: the stacks that run it, and every rejection",
          "[buying][cluster][async_tp][errors]") {
  CHECK(stacks::of(stack_id::torch_compile).multi_gpu.async_tp.exists());
  CHECK_FALSE(stacks::of(stack_id::torch_compile).multi_gpu.async_tp.backward);
  CHECK(stacks::of(stack_id::megatron).multi_gpu.async_tp.exists());
  CHECK(stacks::of(stack_id::megatron).multi_gpu.async_tp.backward);
  CHECK_FALSE(stacks::of(stack_id::pytorch_eager).multi_gpu.async_tp.exists());
  // A stack without it names the ones that have it.
  CHECK_THROWS_AS(job(catalog::h100_sxm, tp_run(4, true, stack_id::pytorch_eager), links::nvlink4),
                  unsupported);
  CHECK_THROWS_WITH(
      job(catalog::h100_sxm, tp_run(4, true, stack_id::pytorch_eager), links::nvlink4),
      Catch::Contains("stack pytorch-eager runs its tensor split's collectives whole") &&
          Catch::Contains("torch-compile: torchtitan's async TP") &&
          Catch::Contains("megatron: Megatron's --tp-comm-overlap"));
  run_config r = tp_run(1, true);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("it needs training with tp 2 or more"));
  r = tp_run(4, true);
  r.mode = run_mode::infer;
  r.zero = 0;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("it needs training with tp 2 or more"));
}

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

TEST_CASE("dlperf model --async-tp: the layout says so, JSON carries it, rejections by name",
          "[cli][async_tp]") {
  const std::string job =
      "model --preset llama3_1_8b --gpu h100_sxm --train --gpus 16 --tp 8 --zero 3 --stack "
      "torch-compile --seq 8192 --batch 4";
  const auto whole = dlperf_test::run_dlperf(job + " --json");
  const auto async = dlperf_test::run_dlperf(job + " --async-tp --json");
  REQUIRE(whole.exit_code == 0);
  REQUIRE(async.exit_code == 0);
  const nlohmann::json w = nlohmann::json::parse(whole.out), a = nlohmann::json::parse(async.out);
  CHECK(w["async_tp"] == false);
  CHECK(a["async_tp"] == true);
  CHECK(a["cluster"]["job"]["async_tp"] == true);
  CHECK(a["step_time_s"].get<double>() < w["step_time_s"].get<double>());
  const auto text = dlperf_test::run_dlperf(job + " --async-tp");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("(tp 8 async, ZeRO 3)") != std::string::npos);
  // cluster says what the GEMMs leave of the tensor split's all-reduces.
  const auto cluster = dlperf_test::run_dlperf(
      "cluster --gpu h100_sxm --gpus 16 --link nvlink4 --preset llama3_1_8b --tp 8 --zero 1 "
      "--stack megatron --seq 8192 --batch 4 --async-tp");
  REQUIRE(cluster.exit_code == 0);
  CHECK(cluster.out.find("exposed beside their GEMMs") != std::string::npos);
  const std::string llama = "model --preset llama3_1_8b --gpu h100_sxm ";
  dlperf_test::require_usage_error(llama + "--train --gpus 8 --async-tp",
                                   "--async-tp overlaps a training job's tensor-parallel");
  dlperf_test::require_usage_error(llama + "--infer --gpus 8 --tp 8 --async-tp",
                                   "give --train and --tp 2 or more");
  const auto eager = dlperf_test::run_dlperf(llama + "--train --gpus 8 --tp 8 --async-tp");
  CHECK(eager.exit_code == 2);
  CHECK(eager.err.find("runs its tensor split's collectives whole") != std::string::npos);
}
#endif
