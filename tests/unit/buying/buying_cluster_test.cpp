// The multi-GPU model (buying/cluster.hpp), the links (hardware/links.hpp) and de-biasing
// (buying/debias.hpp) against the figures of Dettmers, Which GPU(s) to Get for Deep Learning
// (2018 and 2020 editions; 2020: https://timdettmers.com/2020/09/07/which-gpu-for-deep-learning/,
// current: https://timdettmers.com/2023/01/30/which-gpu-for-deep-learning/), and properties.
#include <catch2/catch.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/debias.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/links.hpp>
#include <string>
#include <vector>

using namespace dlperf;

namespace {

// The guide's typical job (ResNet-50, FP16, batch 64 per GPU) on @p n GPUs @p g over @p l.
cluster_estimate typical(const gpu_spec& g, long long n, const link_spec& l) {
  return estimate_cluster(g, n, typical_cluster_model, typical_cluster_run, l);
}

}  // namespace

TEST_CASE("links: PCIe figures are derived, fabrics carry the datasheets' per-GPU totals",
          "[buying][cluster]") {
  // PCIe 4.0 x16: 16 GT/s x 128/130 x 16 lanes / 8 = 31.5 GB/s each way (PCI-SIG).
  CHECK(in_gigabytes_per_second(links::pcie4_x16.per_direction()) == Approx(31.5).epsilon(0.001));
  CHECK(in_gigabytes_per_second(links::pcie3_x16.per_direction()) == Approx(15.75).epsilon(0.001));
  CHECK(in_gigabytes_per_second(links::pcie5_x4.per_direction()) == Approx(15.75).epsilon(0.001));
  // NVLink per-GPU totals of the V100, A100, H100 and B200 datasheets.
  CHECK(in_gigabytes_per_second(links::nvlink2.link.throughput) == Approx(300));
  CHECK(in_gigabytes_per_second(links::nvlink3.link.throughput) == Approx(600));
  CHECK(in_gigabytes_per_second(links::nvlink4.link.throughput) == Approx(900));
  CHECK(in_gigabytes_per_second(links::nvlink5.link.throughput) == Approx(1800));
  // The catalog's H100 SXM and MI300X carry the same fabric figures as the links.
  CHECK(catalog::h100_sxm.facts().peer_link.throughput == links::nvlink4.link.throughput);
  CHECK(catalog::mi300x.facts().peer_link.throughput == links::infinity_fabric.link.throughput);
  CHECK(catalog::mi250x.facts().peer_link.throughput == links::infinity_fabric3.link.throughput);
  // InfiniBand EDR is 100 Gbit/s each way: 12.5 GB/s.
  CHECK(in_gigabytes_per_second(links::ib_edr.per_direction()) == Approx(12.5));
  CHECK(in_gigabytes_per_second(links::eth_10g.per_direction()) == Approx(1.25));
  CHECK(links::ib_ndr.link.kind == interconnect_kind::ib);
  CHECK(links::eth_25g.link.kind == interconnect_kind::ethernet);
  CHECK(parse<interconnect_kind>("ib") == interconnect_kind::ib);
}

TEST_CASE("links: find_link finds every id and names the valid ones otherwise",
          "[buying][cluster]") {
  for (const link_spec& l : links::all) CHECK(&find_link(l.id) == &l);
  CHECK(find_link("ib_hdr").link.generation == 6);
  CHECK_THROWS_AS(find_link("nvlink9"), not_found);
  CHECK_THROWS_WITH(find_link("nvlink9"), Catch::Contains("unknown link 'nvlink9'") &&
                                              Catch::Contains("pcie4_x16") &&
                                              Catch::Contains("eth_100g"));
}

TEST_CASE("NCCL stages PCIe traffic through the host for any card: half the bandwidth",
          "[buying][cluster]") {
  // CUDA's peer-to-peer: none between GeForce boards, between any other cards.
  CHECK_FALSE(pcie_peer_to_peer(segment::geforce));
  CHECK(pcie_peer_to_peer(segment::workstation));
  CHECK(pcie_peer_to_peer(segment::datacenter));
  // NCCL's rings: through host memory over PCIe whatever the cards (no peer-to-peer across the
  // CPU's host bridge), so a training job's collectives are staged on both.
  const cluster_estimate geforce = typical(catalog::rtx_3090, 4, links::pcie4_x16);
  const cluster_estimate pro = typical(catalog::rtx_a6000, 4, links::pcie4_x16);
  for (const cluster_estimate& c : {geforce, pro}) {
    CHECK_FALSE(c.peer_to_peer);
    CHECK(c.effective_bandwidth.value() == Approx(links::pcie4_x16.per_direction().value() / 2));
  }
  // Over NVLink or the network the staging does not apply.
  CHECK(typical(catalog::rtx_3090, 8, links::ib_edr).peer_to_peer);
  CHECK(typical(catalog::rtx_a6000, 2, links::nvlink3).peer_to_peer);
}

TEST_CASE("the exposed all-reduce: the last bucket, or what the backward pass cannot hide",
          "[buying][cluster]") {
  // ResNet-50 in FP16: 25.6 M parameters x 2 B = 51.1 MB = two 25 MiB buckets.
  const cluster_estimate c = typical(catalog::rtx_3090, 4, links::pcie4_x16);
  CHECK(c.gradient_bytes.value() == Approx(presets::resnet50.parameters() * 2));
  CHECK(c.buckets == 2);
  // What the step waits for, and the backward pass slowed by the SMs NCCL's two channels hold
  // on PCIe while the first bucket's all-reduce runs beside it (overlap_of).
  REQUIRE(c.collectives.size() == 1);
  const step_collective& ar = c.collectives.front();
  CHECK(ar.sms == nccl::pcie_ring_channels);
  const duration waited = std::max(c.allreduce - c.overlappable, c.last_bucket_allreduce);
  CHECK((c.exposed_allreduce - ar.slowed).value() == Approx(waited.value()));
  CHECK(c.exposed_allreduce >= c.last_bucket_allreduce);
  CHECK(c.step_time.value() == Approx((c.compute_step + c.exposed_allreduce).value()));
  // On a fast link only the last bucket shows, and the SMs the first one took: at most their
  // share of the SMs for its time.
  CHECK((c.exposed_allreduce - ar.slowed) == c.last_bucket_allreduce);
  CHECK(ar.slowed > duration{});
  CHECK(ar.slowed.value() <=
        2.0 / catalog::rtx_3090.sm_count() * (c.allreduce - c.last_bucket_allreduce).value());
  // On a slow one the all-reduce outlasts backward, and the SMs it takes cost nothing more.
  const cluster_estimate slow = typical(catalog::a100_sxm4_40gb, 16, links::eth_10g);
  CHECK(slow.exposed_allreduce > slow.last_bucket_allreduce);
  CHECK(slow.exposed_allreduce.value() == Approx((slow.allreduce - slow.overlappable).value()));
  CHECK(slow.collectives.front().slowed == duration{});
}

TEST_CASE("overlap_of: waiting for the collectives, or the computation late by their SMs",
          "[buying][cluster]") {
  const duration comm = seconds(1.0), compute = seconds(2.0);
  // Nothing taken: only what the computation cannot hide.
  CHECK(detail::overlap_of(comm, compute, duration{}).added() == duration{});
  CHECK(detail::overlap_of(compute, comm, duration{}).wait == seconds(1.0));
  // SMs taken from a longer computation make it late by the SM time taken.
  const detail::overlap_cost late = detail::overlap_of(comm, compute, seconds(0.25));
  CHECK(late.wait == duration{});
  CHECK(late.slowed == seconds(0.25));
  // Collectives outlasting the computation: it finishes under them, the step waits for them.
  const detail::overlap_cost wait = detail::overlap_of(seconds(3.0), compute, seconds(0.5));
  CHECK(wait.wait == seconds(1.0));
  CHECK(wait.slowed == duration{});
  // Between the two the larger wins, never both.
  const detail::overlap_cost near = detail::overlap_of(seconds(2.1), compute, seconds(0.3));
  CHECK(near.added().value() == Approx(0.3));
}

// Dettmers (2020 edition), "Do I need 8x/16x PCIe lanes?" and the 4-GPU parallelism figures:
// data parallelism within one machine on 4 GPUs gives a 3.6-3.8x speed-up.
TEST_CASE("Dettmers 2020: 4 GPUs in one machine speed data parallel training up 3.6-3.8x",
          "[buying][cluster]") {
  const cluster_estimate c = typical(catalog::rtx_3090, 4, links::pcie4_x16);
  CHECK(c.speedup >= 3.6);
  CHECK(c.speedup <= 3.8);
  CHECK(c.efficiency == Approx(c.speedup / 4));
}

// Dettmers (2020 edition): "running them at 4x lanes will probably only decrease performance
// by around 5-10% if you parallelize across all 4 GPUs". A documented miss: ResNet-50's last
// 25 MiB bucket cannot overlap and crosses x4 lanes twice through host memory, 13-14 % of the
// x16 speed-up, on GeForce cards (no peer-to-peer) and on the RTX A6000 alike (NCCL takes no
// peer-to-peer across the CPU's host bridge).
TEST_CASE("Dettmers 2020: x4 PCIe lanes cost 5-10 % on 4 GPUs (13-14 %, a documented miss)",
          "[buying][cluster]") {
  // docs/buying.md, "Misses and their mechanism".
  const auto loss = [](const gpu_spec& g) {
    return 1.0 - typical(g, 4, links::pcie4_x4).speedup / typical(g, 4, links::pcie4_x16).speedup;
  };
  for (const gpu_spec* g : {&catalog::rtx_3090, &catalog::rtx_a6000}) {
    INFO(g->id());
    CHECK(loss(*g) > 0.10);  // the miss: outside 5-10 %
    CHECK(loss(*g) < 0.15);
  }
}

// Dettmers (2020 edition), "Do I need PCIe 4.0?": PCIe 4.0 gains little for a 4-GPU machine,
// about 1-7 % over PCIe 3.0.
TEST_CASE("Dettmers 2020: PCIe 4.0 gains 1-7 % over PCIe 3.0 on 4 GPUs", "[buying][cluster]") {
  for (const gpu_spec* g : {&catalog::rtx_3090, &catalog::rtx_a6000}) {
    INFO(g->id());
    const double gain =
        typical(*g, 4, links::pcie4_x16).speedup / typical(*g, 4, links::pcie3_x16).speedup - 1.0;
    CHECK(gain >= 0.01);
    CHECK(gain <= 0.07);
  }
}

// Dettmers (2018 and 2020 editions): parallelising across machines needs a network of about
// 50 Gbit/s or more (InfiniBand); slower networks make the scaling collapse. "Collapse" here:
// efficiency below 50 % and more than 0.3 below the InfiniBand EDR case. Two machines of 8
// A100 (16 GPUs).
TEST_CASE("Dettmers 2018/2020: across machines scaling needs >= 50 Gbit/s, 10/25 GbE collapse",
          "[buying][cluster]") {
  const double edr = typical(catalog::a100_sxm4_40gb, 16, links::ib_edr).efficiency;
  CHECK(edr > 0.65);
  for (const link_spec* l : {&links::eth_10g, &links::eth_25g}) {
    INFO(l->id);
    const double e = typical(catalog::a100_sxm4_40gb, 16, *l).efficiency;
    CHECK(e < 0.5);
    CHECK(e < edr - 0.3);
  }
  // The threshold moves with the GPUs' speed: slower RTX 3090s keep half their efficiency over
  // 25 GbE (documented in docs/buying.md).
  CHECK(typical(catalog::rtx_3090, 8, links::eth_25g).efficiency > 0.5);
}

// Dettmers (2020 edition), "Estimating Ampere Deep Learning Performance": NVIDIA's data give
// 8x A100 (NVLink 3) about 5 % less overhead than 8x V100 (NVLink 2), "if going from 1x A100
// to 8x A100 gives you a speedup of, say, 7.00x, then going from 1x V100 to 8x V100 only gives
// you a speedup of 6.67x". A documented miss: the model hides both NVLink all-reduces behind
// the backward pass except the last bucket, so both scale almost linearly and the A100 (whose
// faster backward leaves less to hide behind) does not come out ahead.
TEST_CASE("Dettmers 2020: 8x A100 7.0x and 8x V100 6.67x (documented miss: both ~7.9x)",
          "[buying][cluster]") {
  const double a100 = typical(catalog::a100_sxm4_40gb, 8, links::nvlink3).speedup;
  const double v100 = typical(catalog::v100_sxm2, 8, links::nvlink2).speedup;
  CHECK(a100 > 7.8);                               // the miss: published 7.00
  CHECK(v100 > 7.8);                               // the miss: published 6.67
  CHECK(a100 / v100 == Approx(1.0).margin(0.01));  // published 7.00 / 6.67 = 1.05
}

TEST_CASE("mixed GPU types run at the slowest GPU's step", "[buying][cluster]") {
  const std::vector<const gpu_spec*> mixed{&catalog::rtx_3090, &catalog::rtx_3090,
                                           &catalog::rtx_2080_ti, &catalog::rtx_2080_ti};
  const cluster_estimate c =
      estimate_cluster(mixed, typical_cluster_model, typical_cluster_run, links::pcie4_x16);
  const cluster_estimate fast = typical(catalog::rtx_3090, 4, links::pcie4_x16);
  const cluster_estimate slow = typical(catalog::rtx_2080_ti, 4, links::pcie4_x16);
  CHECK(c.gpus == 4);
  CHECK(c.step_time == slow.step_time);
  CHECK(c.single_gpu_step == fast.single_gpu_step);
  CHECK(c.speedup < fast.speedup);
}

TEST_CASE("tensor parallelism adds four activation all-reduces per layer, not overlapped",
          "[buying][cluster]") {
  run_config r;
  r.type = dtype::fp16;
  r.batch = 8;
  r.seq = 512;
  r.tp = 2;
  const cluster_estimate c =
      estimate_cluster(catalog::a100_sxm4_40gb, 8, presets::bert_large, r, links::nvlink3);
  CHECK(c.data_parallel == 4);
  const double activation = 8.0 * 512 * 1024 * 2;  // batch x seq x hidden x 2 B
  // Each as NCCL runs it over two A100s (stack/nccl.hpp): 8 MiB, its Simple ring.
  const nccl_collective each =
      nccl_time(collective::all_reduce, bytes(activation), 2, links::nvlink3);
  CHECK(each.protocol == nccl_protocol::simple);
  CHECK(c.tensor_parallel.value() == Approx(4.0 * 24 * each.time.value()));
  CHECK(c.step_time.value() ==
        Approx((c.compute_step + c.exposed_allreduce + c.tensor_parallel).value()));
  CHECK(c.gradient_bytes.value() == Approx(presets::bert_large.parameters() / 2 * 2));
}

TEST_CASE("cluster rejects no GPUs, inference, CNN tensor parallelism and a bad bucket",
          "[buying][cluster]") {
  CHECK_THROWS_WITH(typical(catalog::rtx_3090, 0, links::pcie4_x16),
                    Catch::Contains("gpus must be"));
  const std::vector<const gpu_spec*> none;
  CHECK_THROWS_WITH(
      estimate_cluster(none, typical_cluster_model, typical_cluster_run, links::pcie4_x16),
      Catch::Contains("gpus must be positive"));
  run_config infer = typical_cluster_run;
  infer.mode = run_mode::infer;
  CHECK_THROWS_WITH(
      estimate_cluster(catalog::rtx_3090, 4, typical_cluster_model, infer, links::pcie4_x16),
      Catch::Contains("training"));
  run_config tp = typical_cluster_run;
  tp.tp = 2;
  CHECK_THROWS_WITH(
      estimate_cluster(catalog::rtx_3090, 4, typical_cluster_model, tp, links::pcie4_x16),
      Catch::Contains("tensor parallelism"));
  CHECK_THROWS_WITH(estimate_cluster(catalog::rtx_3090, 4, typical_cluster_model,
                                     typical_cluster_run, links::pcie4_x16, bytes(0)),
                    Catch::Contains("bucket"));
}

TEST_CASE("properties: efficiency is positive and at most 1, more GPUs never lower throughput",
          "[buying][cluster]") {
  for (const link_spec& l : links::all)
    for (long long n : {1LL, 2LL, 3LL, 8LL, 64LL}) {
      const cluster_estimate c = typical(catalog::rtx_a6000, n, l);
      INFO(l.id << " x" << n);
      CHECK(c.efficiency > 0);
      CHECK(c.efficiency <= 1.0 + 1e-12);
      if (n == 1) CHECK(c.speedup == Approx(1));
    }
  for (const link_spec* l : {&links::nvlink3, &links::pcie4_x16, &links::ib_hdr}) {
    double previous = 0;
    for (long long n = 1; n <= 16; ++n) {
      const double speedup = typical(catalog::a100_sxm4_40gb, n, *l).speedup;
      INFO(l->id << " x" << n);
      CHECK(speedup >= previous);
      previous = speedup;
    }
  }
}

TEST_CASE("properties: at fixed work per GPU, more GPUs never raise DDP's rate per GPU",
          "[buying][cluster][properties]") {
  // Data parallelism keeps each GPU's batch: more GPUs only add communication, so the rate per
  // GPU (the efficiency) cannot rise, over a link whose collective rate does not grow with the
  // GPU count. Two kinds of link do grow it, and there the rise is physical, not a slip: a full
  // mesh (Infinity Fabric: n GPUs use n - 1 links each) and a switch whose measured bus
  // bandwidth rises with the GPUs (NVSwitch, nccl-tests; hardware/links.hpp). Sharded jobs are
  // left out too: each GPU updates 1 / n of the parameters, so its work falls with n (the tool
  // says so when the efficiency passes 100 %).
  run_config llm;
  llm.batch = 2;
  llm.seq = 2048;
  llm.type = dtype::fp16;  // every GPU of the list runs it (the V100 has no BF16)
  const std::vector<std::pair<const model_spec*, run_config>> jobs{
      {&typical_cluster_model, typical_cluster_run}, {&presets::llama3_8b, llm}};
  int checked = 0;
  for (const char* id :
       {"rtx_3090", "rtx_4090", "rtx_a6000", "a100_sxm4_80gb", "h100_sxm", "mi300x", "v100_sxm2"})
    for (const link_spec& l : links::all) {
      const gpu_spec* g = &catalog::find(id);
      if (l.mesh.exists() || l.measured.exists()) continue;
      for (const auto& [m, r] : jobs) {
        double previous = 1.0 + 1e-12;
        for (const long long n : {1LL, 2LL, 3LL, 4LL, 6LL, 8LL, 16LL, 64LL}) {
          INFO(g->id() << " over " << l.id << ", " << m->name << " on " << n << " GPUs");
          const double efficiency = estimate_cluster(*g, n, *m, r, l).efficiency;
          CHECK(efficiency <= previous * (1.0 + 1e-9));
          previous = efficiency;
          ++checked;
        }
      }
    }
  CHECK(checked >= 7 * 2 * 8 * 6);  // at least six fixed-rate links (PCIe, Ethernet, InfiniBand)
}

TEST_CASE("properties: a faster link (more bandwidth, no more latency) is never worse",
          "[buying][cluster]") {
  // What a collective over the 8 GPUs gets of each (a mesh's: 7 links at their measured rate),
  // NCCL's PCIe ring through host memory at half the rate and two crossings a step.
  const auto through = [](const link_spec& l) {
    return nccl_through_host(vendor::nvidia, l) ? 2.0 : 1.0;
  };
  for (const link_spec& a : links::all)
    for (const link_spec& b : links::all) {
      if (a.collective_rate(8) / through(a) < b.collective_rate(8) / through(b) ||
          a.latency * through(a) > b.latency * through(b))
        continue;
      INFO(a.id << " vs " << b.id);
      CHECK(typical(catalog::rtx_a6000, 8, a).step_time <=
            typical(catalog::rtx_a6000, 8, b).step_time);
    }
}

// Dettmers (2020 edition), "Estimating Ampere Deep Learning Performance": throughput grows
// 13.6 % per batch doubling for CNNs and 13.5 % for transformers.
TEST_CASE("debias: Dettmers' 13.6 %/13.5 % per batch doubling and the GPU-count factor",
          "[buying][debias]") {
  CHECK(cnn_batch_doubling_gain == 0.136);
  CHECK(transformer_batch_doubling_gain == 0.135);
  // A CNN benchmark with twice the batch on the faster side: 1.136 of the ratio is batch.
  const debias_result b =
      debias({.ratio = 2.272, .batch_from = 128, .batch_to = 256, .kind = workload_kind::cnn});
  CHECK(b.batch_doublings == Approx(1));
  CHECK(b.batch_factor == Approx(1.136));
  CHECK(b.debiased_ratio == Approx(2.0));
  // Four doublings of a transformer's batch: 1.135^4.
  CHECK(debias({.ratio = 1, .batch_from = 8, .batch_to = 128}).batch_factor ==
        Approx(1.135 * 1.135 * 1.135 * 1.135));
  // 8x A100 at 7.00x against 8x V100 at 6.67x: the A100 side gets 1.05 x for its NVLink.
  const debias_result g = debias({.ratio = 2.1,
                                  .gpus_from = 8,
                                  .gpus_to = 8,
                                  .efficiency_from = 6.67 / 8,
                                  .efficiency_to = 7.0 / 8});
  CHECK(g.gpu_factor == Approx(7.0 / 6.67));
  CHECK(g.debiased_ratio == Approx(2.1 * 6.67 / 7.0));
  // A count mismatch: 8 GPUs at 7.0x against one.
  CHECK(debias({.ratio = 7.0, .gpus_to = 8, .efficiency_to = 7.0 / 8}).debiased_ratio ==
        Approx(1.0));
}

TEST_CASE("debias: the GPU-count efficiency can come from the multi-GPU model",
          "[buying][debias]") {
  const double a100 = typical(catalog::a100_sxm4_40gb, 8, links::nvlink3).efficiency;
  const debias_result r = debias({.ratio = 16.0,
                                  .gpus_from = 1,
                                  .gpus_to = 8,
                                  .efficiency_to = a100,
                                  .kind = workload_kind::cnn});
  CHECK(r.gpu_factor == Approx(8 * a100));
  CHECK(r.debiased_ratio == Approx(16.0 / (8 * a100)));
}

TEST_CASE("debias rejects a ratio, batch, GPU count or efficiency out of range",
          "[buying][debias]") {
  CHECK_THROWS_WITH(debias({.ratio = -1}), Catch::Contains("ratio"));
  CHECK_THROWS_WITH(debias({.ratio = 1, .batch_from = 0}), Catch::Contains("batch_from"));
  CHECK_THROWS_WITH(debias({.ratio = 1, .gpus_to = 0}), Catch::Contains("gpus_to"));
  CHECK_THROWS_WITH(debias({.ratio = 1, .efficiency_to = 1.5}), Catch::Contains("efficiency"));
  CHECK_THROWS_AS(debias({.ratio = 1, .efficiency_from = 0}), invalid_argument);
}
