// Expert parallelism (buying/expert_collectives.hpp, docs/parallel.md "Expert parallelism"): what a
// GPU computes, holds and sends when a mixture of experts' routed experts are spread whole over ep
// GPUs, as properties over the catalog, and every rejection.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/links.hpp>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>

using namespace dlperf;

namespace {

// Qwen3-30B-A3B training over @p gpus GPUs, tensor split @p tp, experts over @p ep of them.
run_config moe_run(long long gpus, long long tp, long long ep) {
  run_config r;
  r.batch = 1;
  r.seq = 4096;
  r.type = dtype::bf16;
  r.gpus = gpus;
  r.tp = tp;
  r.ep = ep;
  r.zero = 1;
  r.grad_accumulation = 2;
  return r;
}

// The work of @p ops's products and attention (op_kind gemm and attention), each run counted.
double product_work(const op_sequence& ops) {
  double w = 0;
  for (const op_estimate& op : ops)
    if (op.kind == op_kind::gemm || op.kind == op_kind::attention)
      w += static_cast<double>(op.repeats) * op.work.value();
  return w;
}

const step_collective* find_collective(const cluster_estimate& c, std::string_view name) {
  for (const step_collective& x : c.collectives)
    if (x.name == name) return &x;
  return nullptr;
}

}  // namespace

TEST_CASE("expert parallelism: a GPU does the work a tensor split of its experts does",
          "[buying][cluster][ep]") {
  // Whole experts, experts / ep a GPU, take the GPU's tokens' k copies: the same products as
  // every expert cut into tp slices over every token. Balanced routing fills each local expert
  // alike.
  const model_spec& m = presets::qwen3_30b_a3b;
  for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
           &catalog::a100_sxm4_80gb, &catalog::h100_sxm, &catalog::b200})
    for (const auto& [tp, ep] : {std::pair{1LL, 8LL}, std::pair{2LL, 4LL}, std::pair{2LL, 8LL}}) {
      INFO(g->id() << " tp " << tp << " ep " << ep);
      const model_estimate split = estimate_model(*g, m, moe_run(8, tp, 1));
      const model_estimate spread = estimate_model(*g, m, moe_run(8, tp, ep));
      CHECK(product_work(spread.forward) == Approx(product_work(split.forward)).epsilon(1e-12));
      CHECK(product_work(spread.backward) == Approx(product_work(split.backward)).epsilon(1e-12));
      // The combine sums only the GPU's own tokens' copies, not every token's on each tp GPU.
      CHECK(spread.forward.work().value() <= split.forward.work().value());
      CHECK(spread.tokens == split.tokens);
      CHECK(std::isfinite(spread.time.value()));
    }
}

TEST_CASE(
    "expert parallelism: a GPU holds its experts' share and shards their state over the "
    "GPUs holding the same ones",
    "[buying][cluster][ep]") {
  const model_spec& m = presets::qwen3_30b_a3b;
  const double experts = m.transformer.routed_expert_parameters();
  // 48 layers of 128 experts of 3 x 2048 x 768.
  CHECK(experts == 48.0 * 128.0 * 3.0 * 2048.0 * 768.0);
  const double dense = m.parameters() - experts;
  for (const auto& [gpus, tp, ep] :
       {std::tuple{8LL, 1LL, 8LL}, std::tuple{16LL, 2LL, 8LL}, std::tuple{32LL, 1LL, 16LL}}) {
    INFO(gpus << " GPUs, tp " << tp << ", ep " << ep);
    run_config r = moe_run(gpus, tp, ep);
    r.zero = 0;
    const parameter_share own = parameters_per_gpu(m, r);
    CHECK(own.dense == Approx(dense / static_cast<double>(tp)).epsilon(1e-12));
    CHECK(own.experts == Approx(experts / static_cast<double>(ep)).epsilon(1e-12));
    CHECK(own.expert_copies == gpus / ep);
    CHECK(own.dense_copies == gpus / tp);
    const memory_breakdown whole = memory_need(m, r);
    CHECK(whole.weights.value() == Approx(2.0 * own.total()).epsilon(1e-12));
    // ZeRO 1 (Megatron's distributed optimizer): each group's optimizer state over its copies.
    r.zero = 1;
    const memory_breakdown sharded = memory_need(m, r);
    CHECK(sharded.optimizer.value() == Approx(12.0 * (own.dense / static_cast<double>(gpus / tp) +
                                                      own.experts / static_cast<double>(gpus / ep)))
                                           .epsilon(1e-12));
    CHECK(sharded.weights.value() == whole.weights.value());
  }
}

TEST_CASE("expert parallelism: four all-to-alls a layer of the GPU's token copies, unhidden",
          "[buying][cluster][ep]") {
  const model_spec& m = presets::qwen3_30b_a3b;
  const cluster_estimate c =
      estimate_cluster(catalog::h100_sxm, 16, m, moe_run(16, 1, 16), links::nvlink4);
  const step_collective* fwd = find_collective(c, "expert all-to-all (forward)");
  const step_collective* bwd = find_collective(c, "expert all-to-all (backward)");
  REQUIRE(fwd != nullptr);
  REQUIRE(bwd != nullptr);
  CHECK(find_collective(c, "expert all-to-all (recompute)") == nullptr);
  // 4096 tokens x 8 experts each x 2048 wide x 2 bytes; dispatch and combine in each of the 48
  // layers, per micro-batch.
  CHECK(fwd->bytes.value() == 4096.0 * 8.0 * 2048.0 * 2.0);
  CHECK(fwd->calls == 2 * 48 * 2);
  CHECK(bwd->calls == fwd->calls);
  CHECK(fwd->kind == collective::all_to_all);
  CHECK(fwd->exposed == fwd->time);
  CHECK(c.ep == 16);
  // The ep GPUs span two servers: each exchange is no faster than half its buffer through one
  // GPU's network port.
  const duration each = fwd->time / static_cast<double>(fwd->calls);
  CHECK(each >= 0.5 * fwd->bytes / c.network.per_direction());
  // Inside one server the same exchange is faster.
  const cluster_estimate inside =
      estimate_cluster(catalog::h100_sxm, 8, m, moe_run(8, 1, 8), links::nvlink4);
  const step_collective* near = find_collective(inside, "expert all-to-all (forward)");
  REQUIRE(near != nullptr);
  CHECK(near->time < fwd->time);
  // Full checkpointing recomputes the layer and its exchanges.
  run_config again = moe_run(16, 1, 16);
  again.checkpointing = true;
  const cluster_estimate redo = estimate_cluster(catalog::h100_sxm, 16, m, again, links::nvlink4);
  const step_collective* rec = find_collective(redo, "expert all-to-all (recompute)");
  REQUIRE(rec != nullptr);
  CHECK(rec->calls == fwd->calls);
}

TEST_CASE("expert parallelism: the experts' gradients are reduced over the GPUs holding them",
          "[buying][cluster][ep]") {
  const model_spec& m = presets::qwen3_30b_a3b;
  // 8 GPUs, ep 8: every GPU holds its own experts, nothing to reduce them with.
  const cluster_estimate own =
      estimate_cluster(catalog::h100_sxm, 8, m, moe_run(8, 1, 8), links::nvlink4);
  CHECK(find_collective(own, "expert gradient all-reduce") == nullptr);
  // 32 GPUs, ep 8: each expert on 4 GPUs.
  const cluster_estimate four =
      estimate_cluster(catalog::h100_sxm, 32, m, moe_run(32, 1, 8), links::nvlink4);
  const step_collective* reduce = find_collective(four, "expert gradient all-reduce");
  REQUIRE(reduce != nullptr);
  const double experts = m.transformer.routed_expert_parameters() / 8.0 * 2.0;
  CHECK(static_cast<double>(reduce->calls) * reduce->bytes.value() ==
        Approx(experts).epsilon(1e-12));
  CHECK(reduce->exposed <= reduce->time);
  // The dense gradients are only the rest of the model's.
  CHECK(four.gradient_bytes.value() ==
        Approx(2.0 * (m.parameters() - m.transformer.routed_expert_parameters())).epsilon(1e-12));
  for (const cluster_estimate* c : {&own, &four}) {
    CHECK(std::isfinite(c->step_time.value()));
    CHECK(c->step_time >= c->compute_step);
  }
}

TEST_CASE("nccl all-to-all across servers: each GPU's port carries its own share",
          "[buying][cluster][ep]") {
  const byte_count data = mebibytes(128);
  for (const long long n : {16LL, 32LL, 64LL}) {
    INFO(n << " GPUs");
    const nccl_collective a =
        nccl_time(collective::all_to_all, data, n, links::nvlink4, false, links::ib_ndr, 8);
    // The shares for other servers, (n - 8) / n of the buffer, leave through one port.
    const double out = static_cast<double>(n - 8) / static_cast<double>(n);
    CHECK(a.time >= out * data / links::ib_ndr.per_direction());
    CHECK(a.time == nccl_all_to_all(data, n, links::nvlink4, false, links::ib_ndr, 8).time);
  }
  // More servers send more of the buffer out: never faster.
  CHECK(nccl_time(collective::all_to_all, data, 64, links::nvlink4, false, links::ib_ndr, 8).time >=
        nccl_time(collective::all_to_all, data, 16, links::nvlink4, false, links::ib_ndr, 8).time);
}

TEST_CASE("a token's experts reach a group of experts as often as k distinct picks do",
          "[buying][cluster][ep]") {
  // One pick: the group's share; every expert: certain; never less for a larger group.
  CHECK(detail::routed_to_group(128, 16, 1) == Approx(16.0 / 128.0).epsilon(1e-15));
  CHECK(detail::routed_to_group(128, 128, 8) == 1.0);
  CHECK(detail::routed_to_group(128, 0, 8) == 0.0);
  double last = 0;
  for (const double group : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) {
    const double p = detail::routed_to_group(128, group, 8);
    CHECK(p > last);
    CHECK(p <= std::min(1.0, 8.0 * group / 128.0));  // at most k picks' worth
    last = p;
  }
}

TEST_CASE("expert dispatch: once a GPU sends no more than each copy, the same for one expert",
          "[buying][cluster][ep]") {
  for (const long long gpus : {8LL, 16LL, 64LL}) {
    INFO(gpus << " GPUs");
    run_config copies = moe_run(gpus, 1, gpus);
    run_config once = copies;
    once.dispatch = expert_dispatch::per_gpu;
    model_spec m = presets::qwen3_30b_a3b;
    const auto exchange = [&](const model_spec& model, const run_config& r) {
      const cluster_estimate c =
          estimate_cluster(catalog::h100_sxm, gpus, model, r, links::nvlink4);
      CHECK(c.dispatch == r.dispatch);
      return find_collective(c, "expert all-to-all (forward)")->time;
    };
    // Eight experts a token: the copies for one GPU (or one server) travel once.
    CHECK(exchange(m, once) < exchange(m, copies));
    // One expert a token: nothing to share, the same bytes either way.
    m.transformer.experts_per_token = 1;
    CHECK(exchange(m, once).value() == Approx(exchange(m, copies).value()).epsilon(1e-12));
  }
}

TEST_CASE("expert parallelism: bad splits are rejected by name", "[buying][cluster][ep][errors]") {
  const model_spec& moe = presets::qwen3_30b_a3b;
  run_config r = moe_run(8, 1, 3);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("must divide the GPUs of a pipeline stage (8"));
  r = moe_run(8, 1, 0);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("ep"));
  r = moe_run(8, 1, 8);
  r.mode = run_mode::infer;
  r.grad_accumulation = 1;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("is modelled for training"));
  r = moe_run(8, 1, 8);
  r.zero = 3;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("with sharded gradients (zero 3)"));
  r = moe_run(8, 1, 1);
  r.dispatch = expert_dispatch::per_gpu;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("it needs ep > 1"));
  r = moe_run(8, 1, 8);
  r.lora.rank = 16;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("with LoRA adapters"));
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, presets::llama3_1_8b, moe_run(8, 1, 8)),
                    Catch::Contains("this model has no experts"));
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, presets::resnet50, moe_run(8, 1, 8)),
                    Catch::Contains("this model has no experts"));
  // 128 experts do not split over 16 x 3.
  CHECK_THROWS_WITH(memory_need(moe, moe_run(48, 1, 48)),
                    Catch::Contains("must divide the model's experts (128)"));
}
