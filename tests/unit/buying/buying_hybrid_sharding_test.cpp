// Hybrid sharding (buying/sharded_collectives.hpp, sharded_collectives; docs/parallel.md "Hybrid
// sharding"): ZeRO 2 and 3 sharded within shard groups of the data-parallel GPUs, each shard's
// gradients all-reduced across the groups, as properties over the catalog and every rejection.
#include <catch2/catch.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/links.hpp>
#include <initializer_list>
#include <string>

using namespace dlperf;

namespace {

// Llama 3.1 8B under FSDP (ZeRO 3) on @p gpus GPUs, sharded over @p group of them (0: all).
run_config hybrid(long long gpus, long long group) {
  run_config r;
  r.batch = 2;
  r.seq = 8192;
  r.gpus = gpus;
  r.zero = 3;
  r.shard_group = group;
  return r;
}

const step_collective* collective_named(const cluster_estimate& c, std::string_view name) {
  for (const step_collective& x : c.collectives)
    if (x.name == name) return &x;
  return nullptr;
}

}  // namespace

TEST_CASE("hybrid sharding over every data-parallel GPU is plain FSDP", "[buying][cluster][hsdp]") {
  const model_spec& m = presets::llama3_1_8b;
  const cluster_estimate plain =
      estimate_cluster(catalog::h100_sxm, 64, m, hybrid(64, 0), links::nvlink4);
  const cluster_estimate all =
      estimate_cluster(catalog::h100_sxm, 64, m, hybrid(64, 64), links::nvlink4);
  CHECK(all.step_time == plain.step_time);
  CHECK(all.collectives.size() == plain.collectives.size());
  CHECK(all.shard_group == 64);
  CHECK(collective_named(all, "gradient all-reduce across shard groups") == nullptr);
}

TEST_CASE("hybrid sharding: state over the group, gathers inside a server, shards across",
          "[buying][cluster][hsdp]") {
  const model_spec& m = presets::llama3_1_8b;
  for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
           &catalog::a100_sxm4_80gb, &catalog::h100_sxm, &catalog::b200}) {
    INFO(g->name());
    const cluster_estimate full = estimate_cluster(*g, 64, m, hybrid(64, 0), system_link(*g));
    const cluster_estimate node = estimate_cluster(*g, 64, m, hybrid(64, 8), system_link(*g));
    // A server's gather is never slower than one across the 8 servers.
    const step_collective* gather = collective_named(node, "parameter all-gather (forward)");
    REQUIRE(gather != nullptr);
    CHECK(gather->time <= collective_named(full, "parameter all-gather (forward)")->time);
    // Each shard's gradients go round the 8 groups: an eighth of a unit's gradients, never
    // faster than the network's one-way rate carries them twice over (ring all-reduce).
    const step_collective* across =
        collective_named(node, "gradient all-reduce across shard groups");
    REQUIRE(across != nullptr);
    CHECK(across->bytes == collective_named(node, "gradient reduce-scatter")->bytes / 8.0);
    const bandwidth port = default_network(*g).per_direction();
    CHECK(across->time >=
          static_cast<double>(across->calls) * 2.0 * 7.0 / 8.0 * (across->bytes / port));
    for (const step_collective& x : node.collectives) CHECK(x.exposed <= x.time);
  }
  // A GPU holds 1/8 of the parameters' state instead of 1/64.
  const memory_breakdown full = memory_need(m, hybrid(64, 0));
  const memory_breakdown node = memory_need(m, hybrid(64, 8));
  CHECK(node.weights.value() == Approx(8.0 * full.weights.value()));
  CHECK(node.gradients.value() == Approx(8.0 * full.gradients.value()));
  CHECK(node.optimizer.value() == Approx(8.0 * full.optimizer.value()));
  CHECK(node.activations == full.activations);
}

TEST_CASE("hybrid sharding: bad shard groups are refused naming what is wrong",
          "[buying][cluster][hsdp][errors]") {
  run_config r = hybrid(64, -1);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("shard_group must be 0"));
  r = hybrid(64, 1);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("a shard group of one GPU shards nothing"));
  r = hybrid(64, 7);
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("the shard group (7) must divide"));
  r = hybrid(64, 8);
  r.zero = 1;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("it needs zero 2 or 3"));
  r = hybrid(8, 4);
  r.zero = 0;
  r.mode = run_mode::infer;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("it needs zero 2 or 3"));
  // With tp 2, 32 GPUs hold each parameter: a group of 16 divides them, one of 64 does not.
  r = hybrid(64, 16);
  r.tp = 2;
  CHECK_NOTHROW(r.validate());
  r.shard_group = 64;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("(32: gpus / (tp x pp))"));
}
