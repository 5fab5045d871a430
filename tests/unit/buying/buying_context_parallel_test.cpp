// Context parallelism (ring attention; buying/cluster.hpp, docs/parallel.md "Training with long
// sequences"): what a GPU computes, holds and sends when each training sequence is split over cp
// GPUs, as properties over the catalog, and every rejection.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/links.hpp>
#include <initializer_list>
#include <string>

using namespace dlperf;

namespace {

// Llama 3.1 8B training over @p gpus GPUs, sequences of @p seq tokens split over @p cp of them.
run_config long_run(long long gpus, long long cp, long long seq) {
  run_config r;
  r.batch = 1;
  r.seq = seq;
  r.gpus = gpus;
  r.cp = cp;
  r.zero = 3;
  r.checkpointing = true;
  return r;
}

// The work of @p ops of kind @p k (or of every other kind), each run counted.
double work_of(const op_sequence& ops, op_kind k, bool of_kind) {
  double w = 0;
  for (const op_estimate& op : ops)
    if ((op.kind == k) == of_kind) w += static_cast<double>(op.repeats) * op.work.value();
  return w;
}

}  // namespace

TEST_CASE("context parallelism: a GPU computes 1/cp of the sequence's work, attention included",
          "[buying][cluster][cp]") {
  const model_spec& m = presets::llama3_1_8b;
  run_config whole = long_run(1, 1, 65536);
  const model_estimate one = estimate_model(catalog::h100_sxm, m, whole);
  for (const long long cp : {2LL, 4LL, 8LL}) {
    INFO("cp " << cp);
    const model_estimate part = estimate_model(catalog::h100_sxm, m, long_run(cp, cp, 65536));
    // The balanced causal split: each GPU's attention is exactly 1/cp of the whole causal
    // attention, and its products and element-wise work 1/cp of the tokens'.
    CHECK(static_cast<double>(cp) * work_of(part.forward, op_kind::attention, true) ==
          Approx(work_of(one.forward, op_kind::attention, true)).epsilon(1e-12));
    CHECK(static_cast<double>(cp) * work_of(part.backward, op_kind::attention, true) ==
          Approx(work_of(one.backward, op_kind::attention, true)).epsilon(1e-12));
    CHECK(static_cast<double>(cp) * work_of(part.forward, op_kind::attention, false) ==
          Approx(work_of(one.forward, op_kind::attention, false)).epsilon(1e-9));
    // A replica's tokens are its whole sequences, over its cp GPUs.
    CHECK(part.tokens == one.tokens);
    CHECK(part.replicas == 1);
  }
}

TEST_CASE("context parallelism: per-GPU rate never rises with cp at fixed tokens per GPU",
          "[buying][cluster][cp]") {
  // 16K tokens on each GPU: the attention each token does grows with the sequence.
  for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
           &catalog::a100_sxm4_80gb, &catalog::h100_sxm, &catalog::b200}) {
    double last = 0;
    for (const long long cp : {1LL, 2LL, 4LL, 8LL}) {
      INFO(g->name() << ", cp " << cp);
      const run_config r = long_run(8, cp, 16384 * cp);
      const cluster_estimate c = estimate_cluster(*g, 8, presets::llama3_1_8b, r, system_link(*g));
      const double per_gpu =
          static_cast<double>(r.batch * r.seq * c.data_parallel) / c.step_time.value() / 8.0;
      REQUIRE(std::isfinite(per_gpu));
      if (last > 0) CHECK(per_gpu < last);
      last = per_gpu;
      CHECK(c.cp == cp);
      CHECK(c.data_parallel * cp == 8);
    }
  }
}

TEST_CASE(
    "context parallelism: the ring's sends are never faster than the link, and shards "
    "span data parallel x cp",
    "[buying][cluster][cp]") {
  const model_spec& m = presets::llama3_1_8b;
  const run_config r = long_run(8, 8, 131072);
  const cluster_estimate c = estimate_cluster(catalog::h100_sxm, 8, m, r, links::nvlink4);
  int rings = 0;
  for (const step_collective& x : c.collectives) {
    CHECK(x.exposed <= x.time);
    if (x.kind != collective::send_recv) continue;
    ++rings;
    // K and V of the GPU's 16384 tokens: 2 x 16384 x 8 key/value heads x 128 x 2 bytes.
    CHECK(x.bytes.value() == 2.0 * 16384 * 8 * 128 * 2);
    const duration floor = x.bytes / links::nvlink4.per_direction();
    CHECK(x.time >= static_cast<double>(x.calls) * floor);
  }
  CHECK(rings == 3);  // forward, its recomputation (full checkpointing) and backward
  // One replica (dp 1) still shards over its 8 GPUs: the parameters gather and reduce there.
  CHECK(c.data_parallel == 1);
  CHECK(c.collectives.front().name == std::string_view("parameter all-gather (forward)"));
  // A GPU holds 1/8 of the parameters' state whatever cp is; its activations shrink with cp.
  const memory_breakdown split = memory_need(m, r);
  const memory_breakdown whole = memory_need(m, long_run(8, 1, 131072));
  CHECK(split.weights == whole.weights);
  CHECK(split.optimizer == whole.optimizer);
  CHECK(split.activations.value() < whole.activations.value() / 7.9);
}

TEST_CASE("context parallelism: bad splits are refused naming what is wrong",
          "[buying][cluster][cp][errors]") {
  const model_spec& llama = presets::llama3_1_8b;
  run_config r = long_run(8, 0, 8192);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("cp"));
  r.cp = 3;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("tp x pp x cp (1 x 1 x 3) must divide gpus (8)"));
  r.cp = 2;
  r.mode = run_mode::infer;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("splits a training sequence"));
  r = long_run(8, 8, 1000);
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, llama, r),
                    Catch::Contains("must be a multiple of 16"));
  r = long_run(2, 2, 512);
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, presets::bert_base, r),
                    Catch::Contains("a decoder's causal self-attention"));
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, presets::resnet50, r),
                    Catch::Contains("a CNN has none"));
  r = long_run(2, 2, 8192);
  r.document = 1024;
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, llama, r),
                    Catch::Contains("padding or packing"));
  r.document = 8192;  // one document a sequence: no padding
  CHECK_NOTHROW(estimate_model(catalog::h100_sxm, llama, r));
  r = long_run(2, 2, 8192);
  r.flash_attention = false;
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, llama, r),
                    Catch::Contains("runs fused attention"));
}

TEST_CASE("context parallelism: a ring inside a server runs over its link, tp ranks apart",
          "[buying][cluster][cp]") {
  // 8 GPUs of one server, tp 2 x cp 4: the ring's neighbours are 2 ranks apart, all inside.
  run_config r = long_run(8, 4, 32768);
  r.tp = 2;
  const cluster_estimate c =
      estimate_cluster(catalog::h100_sxm, 8, presets::llama3_1_8b, r, links::nvlink4);
  int rings = 0;
  for (const step_collective& x : c.collectives)
    if (x.kind == collective::send_recv) {
      ++rings;
      const duration each = nccl_time(collective::send_recv, x.bytes, 2, links::nvlink4).time;
      CHECK(x.time.value() == Approx(static_cast<double>(x.calls) * each.value()));
    }
  CHECK(rings == 3);
  // Across two servers (16 GPUs, tp 2 x cp 8) the ring crosses the network.
  r = long_run(16, 8, 65536);
  r.tp = 2;
  const cluster_estimate across =
      estimate_cluster(catalog::h100_sxm, 16, presets::llama3_1_8b, r, links::nvlink4);
  const step_collective& x = across.collectives.back();
  const duration each =
      nccl_time(collective::send_recv, x.bytes, 2, default_network(catalog::h100_sxm)).time;
  CHECK(x.time.value() == Approx(static_cast<double>(x.calls) * each.value()));
}
