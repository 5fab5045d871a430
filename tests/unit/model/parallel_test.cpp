// One model over several GPUs (docs/parallel.md): collectives as NCCL prices them, the engines'
// own all-reduce, tensor and layer splits of inference, and their rejections.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <initializer_list>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "run_types.hpp"

using namespace dlperf;
using test::decode_run;

namespace {

// Whether @p s can run inference of type @p t with weights @p w on @p g (the rest is rejected
// by the estimators with unsupported).
bool runs(const gpu_spec& g, const model_spec& m, const run_config& r) {
  try {
    (void)estimate_run(g, m, r);
    return true;
  } catch (const unsupported&) {
    return false;
  }
}

// The model's all-reduce of @p size bytes among @p n GPUs on @p l as nccl-tests reports it: bus
// bandwidth in GB/s, algbw x 2 (n - 1) / n.
double model_busbw(const link_spec& l, long long n, byte_count size) {
  const double factor = 2.0 * static_cast<double>(n - 1) / static_cast<double>(n);
  return factor * size.value() / nccl_time(collective::all_reduce, size, n, l).time.value() / 1e9;
}

}  // namespace

TEST_CASE("a ring all-reduce: 2(N-1)/N x bytes / bandwidth + 2(N-1) x step latency", "[parallel]") {
  // 1 GB over 4 GPUs at 10 GB/s each way with 5 us per step: 1.5 x 0.1 s + 6 x 5 us.
  const collective_cost per_step{seconds(0), seconds(5e-6), 1.0};
  CHECK(collective_time(collective::all_reduce, bytes(1e9), 4, gigabytes_per_second(10), per_step)
            .value() == Approx(0.15 + 30e-6));
  CHECK(collective_time(collective::all_reduce, bytes(1e9), 1, gigabytes_per_second(10), per_step)
            .value() == 0);
  CHECK_THROWS_AS(
      collective_time(collective::all_reduce, bytes(1), 0, gigabytes_per_second(1), per_step),
      invalid_argument);
}

TEST_CASE("collectives: the worked figures of NCCL's own ring model", "[parallel]") {
  // A 2-byte all-reduce over 8 GPUs on NVLink: LL is fastest, baseLat 6.6 us + 14 steps x 0.6 us
  // (NVIDIA/nccl v2.21.5-1 tuning.cc); over PCIe 14 x 1.0 us.
  const nccl_collective nv = nccl_time(collective::all_reduce, bytes(2), 8, links::nvlink4);
  CHECK(nv.protocol == nccl_protocol::ll);
  CHECK(nv.time.value() == Approx(15.0e-6).epsilon(1e-3));
  const nccl_collective pcie = nccl_time(collective::all_reduce, bytes(2), 8, links::pcie4_x16);
  CHECK(pcie.time.value() == Approx(20.6e-6).epsilon(1e-3));
  // 1 GiB: the bandwidth term dominates and Simple (the whole link) wins; the bus factor is
  // 2 (n-1)/n of the buffer at the ring's bus bandwidth measured among 8 GPUs of NVLink 3
  // (234.6 GB/s, hardware/links.hpp), and at the link's own one-way rate where none is measured
  // (PCIe 4).
  const nccl_collective big = nccl_time(collective::all_reduce, gibibytes(1), 8, links::nvlink3);
  CHECK(big.protocol == nccl_protocol::simple);
  CHECK_FALSE(big.nvls);
  CHECK(big.time.value() == Approx(8.4e-6 + 14 * 3.4e-6 + 1.75 * 1073741824.0 / 234.6e9));
  CHECK(nccl_time(collective::all_reduce, gibibytes(1), 8, links::pcie4_x16).time.value() ==
        Approx(8.4e-6 + 14 * 5.7e-6 +
               1.75 * 1073741824.0 / links::pcie4_x16.per_direction().value()));
  // LL128 only over NVLink.
  for (long long kb = 1; kb <= (1LL << 20); kb *= 4)
    CHECK(nccl_time(collective::all_reduce, kibibytes(static_cast<double>(kb)), 8, links::pcie5_x16)
              .protocol != nccl_protocol::ll128);
  CHECK(nccl_time(collective::all_reduce, bytes(2), 1, links::nvlink4).time.value() == 0.0);
}

TEST_CASE("collectives: NVLS, the switch reducing, as NCCL's code runs it", "[parallel]") {
  // NCCL's constants (stack/nccl.hpp): 16 channels on Hopper, 24 on Blackwell in one server;
  // chunks of 128 KiB from 64 loops up, 64 KiB from 8, 32 KiB from 2, else 16 KiB, a loop being
  // channels x GPUs x chunk (8 H100: 128 heads at once, so 128 KiB chunks from 1 GiB, 64 KiB from
  // 64 MiB, 32 KiB from 8 MiB).
  CHECK(nccl::nvls_channels(4) == 16);
  CHECK(nccl::nvls_channels(5) == 24);
  CHECK(nccl::nvls_chunk(gibibytes(1), 128) == kibibytes(128));
  CHECK(nccl::nvls_chunk(mebibytes(1023), 128) == kibibytes(64));
  CHECK(nccl::nvls_chunk(mebibytes(64), 128) == kibibytes(64));
  CHECK(nccl::nvls_chunk(mebibytes(63), 128) == kibibytes(32));
  CHECK(nccl::nvls_chunk(mebibytes(8), 128) == kibibytes(32));
  CHECK(nccl::nvls_chunk(mebibytes(7), 128) == kibibytes(16));
  CHECK(nccl::nvls_chunk(bytes(2), 128) == kibibytes(16));
  // 8 B200: 192 heads at once, so 32 KiB chunks up to 96 MiB.
  CHECK(nccl::nvls_chunk(mebibytes(95), 192) == kibibytes(32));
  CHECK(nccl::nvls_chunk(mebibytes(96), 192) == kibibytes(64));

  // 1 GiB over 8 H100: NVLS, 25 us and the buffer plus two loops of 16 x 8 x 128 KiB (the
  // pipeline's fill and drain) at the bus bandwidth measured of it (473.1 GB/s); the ring would
  // run at its own 363.3.
  const nccl_collective big = nccl_time(collective::all_reduce, gibibytes(1), 8, links::nvlink4);
  CHECK(big.nvls);
  CHECK(big.time.value() == Approx(25e-6 + 1.75 * (1073741824.0 + 2 * 16777216.0) / 473.1e9));
  // A message under one loop fills it alone: 1 MiB takes three passes of itself.
  CHECK(nvls_all_reduce_time(mebibytes(1), 8, links::nvlink4).value() ==
        Approx(25e-6 + 1.75 * 3 * 1048576.0 / 473.1e9));
  // Small messages take the LL ring; 4 H100 (NCCL keeps the ring below 5) and every other
  // collective take the ring at its rate.
  CHECK_FALSE(nccl_time(collective::all_reduce, kibibytes(64), 8, links::nvlink4).nvls);
  const nccl_collective four = nccl_time(collective::all_reduce, gibibytes(1), 4, links::nvlink4);
  CHECK_FALSE(four.nvls);
  CHECK(four.time.value() == Approx(8.4e-6 + 6 * 3.4e-6 + 1.5 * 1073741824.0 / 363.3e9));
  const nccl_collective gather = nccl_time(collective::all_gather, gibibytes(1), 8, links::nvlink4);
  CHECK_FALSE(gather.nvls);
  CHECK(gather.time.value() == Approx(8.4e-6 + 7 * 3.4e-6 + 0.875 * 1073741824.0 / 363.3e9));
  CHECK(links::nvlink4.ring_rate(8) == links::nvlink4.measured.at(4));
  CHECK(links::nvlink5.ring_rate(8) == links::nvlink5.measured.at(5));
  CHECK(links::nvlink3.ring_rate(8) == links::nvlink3.collective_rate(8));
  // Only where a switch runs it.
  CHECK_THROWS_WITH(nvls_all_reduce_time(mebibytes(1), 8, links::nvlink3),
                    Catch::Contains("NVLS needs an NVSwitch that runs it among 8 GPUs (nvlink3)"));
  CHECK_THROWS_WITH(nvls_all_reduce_time(mebibytes(1), 4, links::nvlink4),
                    Catch::Contains("among 4 GPUs (nvlink4)"));
  CHECK_THROWS_WITH(nvls_all_reduce_time(mebibytes(1), 8, links::pcie5_x16),
                    Catch::Contains("NVLS needs"));
  CHECK_THROWS_WITH(nvls_all_reduce_time(bytes(-1), 8, links::nvlink4),
                    Catch::Contains("bytes must be finite"));
}

TEST_CASE("an all-reduce over MI300X's Infinity Fabric mesh takes what RCCL measured",
          "[parallel]") {
  // The mesh's link rate is set from one measurement, a 4 GiB all-reduce over eight MI300X at
  // 312.9 GB/s bus bandwidth (hardware/links.hpp). Held out: RCCL 2.20.5's own latencies over
  // eight MI300X, 1 to 64 MiB of fp16 (mk1-project/quickreduce README at 910e8922, "All-Reduce
  // Latency across 8xMI300X"), and the same source's two-GPU figure, 47.7 GB/s over one link.
  // Measured: within 1 % at 1, 16, 32 and 64 MiB, 13-24 % slow at 2-8 MiB.
  const std::array<std::pair<double, double>, 7> rccl{{{1048576, 26.39e-6},
                                                       {2097152, 34.05e-6},
                                                       {4194304, 52.13e-6},
                                                       {8388608, 83.12e-6},
                                                       {16777216, 148.4e-6},
                                                       {33554432, 240.4e-6},
                                                       {67108864, 426.0e-6}}};
  for (const auto& [size, measured] : rccl) {
    INFO(size << " bytes, measured " << measured);
    const duration t =
        nccl_time(collective::all_reduce, bytes(size), 8, links::infinity_fabric).time;
    CHECK(t.value() / measured - 1.0 == Approx(0.0).margin(0.25));
  }
  const auto busbw = [](long long n) {
    return model_busbw(links::infinity_fabric, n, gibibytes(4));
  };
  CHECK(busbw(8) == Approx(312.9).epsilon(0.01));
  CHECK(busbw(2) == Approx(47.7).epsilon(0.10));
  // A mesh's collective among n GPUs runs over their n - 1 links: it never beats the link's own
  // rate and rises with n.
  for (long long n = 2; n < 8; ++n)
    CHECK(links::infinity_fabric.collective_rate(n) <
          links::infinity_fabric.collective_rate(n + 1));
  CHECK(links::infinity_fabric.collective_rate(8) <= links::infinity_fabric.per_direction());
}

TEST_CASE("an all-reduce through an NVSwitch takes what nccl-tests measured at its GPU count",
          "[parallel]") {
  // Every switch table: measured at every count by itself or its neighbours, the ring below the
  // link's one-way rate whatever n, NVLS above the ring and growing with n; more than 8 GPUs take
  // the 8-GPU figure; a link with no table keeps its own rate.
  for (const link_spec& l : links::all) {
    if (!l.measured.exists()) {
      CHECK(l.collective_rate(8) == (l.mesh.exists() ? l.collective_rate(8) : l.per_direction()));
      continue;
    }
    INFO(l.id);
    const bandwidth ring = l.measured.at(2);
    for (long long n = 2; n <= 8; ++n) {
      const bandwidth b = l.collective_rate(n);
      CHECK(b > bandwidth{});
      CHECK(b >= l.collective_rate(std::max(2LL, n - 1)));
      if (!l.measured.nvls(n)) {
        CHECK(b.value() == Approx(ring.value()).epsilon(0.01));
        CHECK(b < l.per_direction());
      } else {
        CHECK(b > ring);
      }
    }
    CHECK(l.collective_rate(72) == l.collective_rate(8));
  }
  CHECK(links::pcie5_x16.collective_rate(8) == links::pcie5_x16.per_direction());

  // Held out, the same collective on other boards and by other publishers (busbw of a 2-4 GiB
  // all-reduce, error = model / measured - 1):
  // - 8 H100 SXM (the table's are H200s): NVIDIA/nccl issue 1455 (2024-09), ring 365-370 GB/s on
  //   2-8 GPUs, NVLS about 420, 440, 460 and 480 on 5-8; nccl-tests issue 290 (2025-03), 476.
  CHECK(model_busbw(links::nvlink4, 2, gibibytes(4)) == Approx(367.5).epsilon(0.02));
  CHECK(model_busbw(links::nvlink4, 4, gibibytes(4)) == Approx(367.5).epsilon(0.02));
  // (At 5 GPUs the model is 2.0 % under "about 420": the table's H200s measured 414.2.)
  CHECK(model_busbw(links::nvlink4, 5, gibibytes(4)) == Approx(420).epsilon(0.025));
  CHECK(model_busbw(links::nvlink4, 6, gibibytes(4)) == Approx(440).epsilon(0.02));
  CHECK(model_busbw(links::nvlink4, 7, gibibytes(4)) == Approx(460).epsilon(0.02));
  CHECK(model_busbw(links::nvlink4, 8, gibibytes(4)) == Approx(476).epsilon(0.02));
  // - 8 A100 SXM4 40 GB: Oracle's BM.GPU4.8 tutorials (oracle-japan/ocitutorials), 10 GiB at
  //   232.2, 232.8 and 235.4 GB/s; Azure's ND A100 v4 results (NCCL 2.18.5) and nccl-tests
  //   issue 175 at 232.5 GB/s.
  CHECK(model_busbw(links::nvlink3, 8, gibibytes(10)) == Approx(232.5).epsilon(0.02));
}

namespace {

// One published all-reduce curve over the GPUs of one server: message bytes and nccl-tests bus
// bandwidth (GB/s), and how far the model may stray from it (model / measured - 1) from the
// message size on where NCCL itself picks the algorithm the curve ran.
struct measured_curve {
  const char* name;
  const link_spec* link;
  long long gpus;
  std::vector<std::pair<double, double>> points;
  double checked_from;  // bytes; below it only the looser bound of the test holds
  double within;        // |model / measured - 1| from checked_from
};

// Held out of the switch tables (8 GiB figures of stas00/ml-engineering, nccl-tests):
// - H200 and B200: stas00/ml-engineering network/README.md (2026-08), all_reduce_bench.py
//   (torch.distributed over NCCL 2.27.7), 1 MiB to 16 GiB. The bench waits for each call before
//   the next, nccl-tests does not: 11-18 us a call (research: the H200's two curves);
// - H100 SXM and H200: Azure/AI-benchmarking-guide Azure_Results/ND_H100_v5_results.md (ae0b6a7,
//   2024-09, NCCL 2.18.5) and ND_H200_v5_results.md (7f20e5f, NCCL 2.20.5), nccl-tests with
//   NCCL_ALGO=NVLS, in-place busbw (NCCL itself picks the LL ring up to 1 MiB, NVLS from 2 MiB:
//   NVIDIA/nccl-tests issue 309);
// - 4 H100 SXM: waynehacking8/nccl-collectives-bench results/all_reduce.txt (f9883f8, 2026-05,
//   NCCL 2.29.2), nccl-tests, NCCL's own pick (the ring), out-of-place busbw;
// - A100 SXM4 80 GB: the Azure guide's ND_A100_v4_results.md (2024-09, NCCL 2.18.5), in-place.
// Misses (docs/parallel.md): the B200's torch curve is 12-110 % slower than the model below
// 1 GiB, and the A100's ring ramps more slowly than NCCL's latencies say (+28 to +50 % at
// 8-128 MiB); both are checked only never to be much faster than the model.
const std::array<measured_curve, 6> all_reduce_curves{{
    {"8 x H200 (torch.distributed)",
     &links::nvlink4,
     8,
     {{1048576, 39.93},
      {8388608, 155.53},
      {33554432, 275.84},
      {134217728, 401.93},
      {1073741824, 463.58},
      {17179869184, 482.26}},
     8388608,
     0.19},
    {"8 x B200 (torch.distributed)",
     &links::nvlink5,
     8,
     {{1048576, 36.06},
      {8388608, 126.49},
      {33554432, 325.97},
      {134217728, 568.38},
      {1073741824, 723.34},
      {17179869184, 845.67}},
     8589934592,
     0.05},
    {"8 x H100 SXM (nccl-tests, NVLS, Azure ND H100 v5)",
     &links::nvlink4,
     8,
     {{1048576, 43.70},
      {2097152, 81.93},
      {4194304, 128.73},
      {8388608, 172.13},
      {16777216, 234.45},
      {33554432, 295.53},
      {67108864, 361.78},
      {134217728, 400.61},
      {268435456, 423.38},
      {536870912, 438.46},
      {1073741824, 466.35},
      {8589934592, 478.87}},
     2097152,
     0.11},
    {"8 x H200 (nccl-tests, NVLS, Azure ND H200 v5)",
     &links::nvlink4,
     8,
     {{1048576, 52.96},
      {2097152, 88.78},
      {4194304, 138.44},
      {8388608, 181.94},
      {16777216, 240.41},
      {33554432, 300.91},
      {67108864, 368.11},
      {134217728, 412.45},
      {268435456, 432.24},
      {536870912, 442.72},
      {1073741824, 467.58}},
     2097152,
     0.11},
    {"4 x H100 SXM (nccl-tests, ring, nccl-collectives-bench)",
     &links::nvlink4,
     4,
     {{1048576, 58.18},
      {2097152, 100.59},
      {4194304, 144.94},
      {8388608, 200.12},
      {16777216, 246.47},
      {33554432, 285.66},
      {67108864, 308.92},
      {134217728, 325.89},
      {268435456, 340.82},
      {536870912, 348.36},
      {1073741824, 357.03},
      {8589934592, 366.37}},
     2097152,
     0.07},
    {"8 x A100 SXM4 (nccl-tests, Azure ND A100 v4)",
     &links::nvlink3,
     8,
     {{1048576, 36.22},
      {8388608, 89.99},
      {33554432, 132.77},
      {134217728, 174.18},
      {1073741824, 228.10},
      {8589934592, 231.58}},
     1073741824,
     0.05},
}};

}  // namespace

TEST_CASE("published all-reduce curves: NVLS's pipeline and NCCL's ring against nccl-tests",
          "[parallel]") {
  // Where NCCL picks what the curve ran (NVLS from 2 MiB on 8 Hopper GPUs, the ring on 4), the
  // model follows the ramp: within 11 % from 2 MiB of both Azure curves, within 7 % of the 4-GPU
  // one, within 19 % of the torch.distributed curve from 8 MiB (its harness waits for every call).
  // Below, the LL ring's latencies and bandwidth share are NCCL's tuning model, faster than every
  // curve at 1-2 MiB (docs/parallel.md). Nowhere is the model more than 10 % slower than a
  // measurement.
  for (const measured_curve& c : all_reduce_curves)
    for (const auto& [size, measured] : c.points) {
      INFO(c.name << ", " << size << " bytes: measured " << measured << " GB/s");
      const double model = model_busbw(*c.link, c.gpus, bytes(size));
      if (size >= c.checked_from) CHECK(model == Approx(measured).epsilon(c.within));
      CHECK(model >= 0.9 * measured);
    }
}

TEST_CASE("published all-reduce curves against the model, printed", "[.][collective_curves]") {
  std::cout << "| curve | size | measured GB/s | model GB/s | error | NCCL's pick |\n"
               "|---|---:|---:|---:|---:|---|\n";
  for (const measured_curve& c : all_reduce_curves)
    for (const auto& [size, measured] : c.points) {
      const double model = model_busbw(*c.link, c.gpus, bytes(size));
      const nccl_collective pick = nccl_time(collective::all_reduce, bytes(size), c.gpus, *c.link);
      std::cout << "| " << c.name << " | " << size / 1048576.0 << " MiB | " << measured << " | "
                << std::round(model * 10) / 10 << " | " << std::showpos
                << std::round(1000.0 * (model / measured - 1.0)) / 10 << std::noshowpos << " % | "
                << (pick.nvls ? "NVLS" : "ring " + std::string(name(pick.protocol))) << " |\n";
    }
  CHECK(all_reduce_curves.size() == 6);
}

TEST_CASE("collectives never beat the bus-bandwidth floor and staging never helps",
          "[parallel][properties]") {
  for (const link_spec& l : links::all)
    for (collective c : enum_values<collective>)
      for (long long n : {2LL, 3LL, 8LL, 64LL, 512LL})
        for (double b = 1; b <= 1e10; b *= 37) {
          const byte_count data = bytes(b);
          // The ring's floor at the link's rate, or at the bus bandwidth measured through its
          // switch where NVLS beats the ring.
          const duration floor =
              collective_floor(c, data, n, std::max(l.per_direction(), l.collective_rate(n)));
          const duration p2p = nccl_time(c, data, n, l, false).time;
          const duration staged = nccl_time(c, data, n, l, true).time;
          INFO(l.id << " " << name(c) << " n=" << n << " bytes=" << b);
          CHECK(std::isfinite(p2p.value()));
          CHECK(p2p >= floor);
          CHECK(staged >= p2p);
          // More bytes never take less time.
          CHECK(nccl_time(c, bytes(2 * b), n, l, false).time >= p2p);
        }
  // An engine's own all-reduce keeps the bandwidth term of the ring's rate through the switch.
  for (const software_stack* s : stacks::all)
    for (double b = 1; b <= 1e9; b *= 10) {
      const tp_all_reduce a = tensor_parallel_all_reduce(*s, bytes(b), 8, links::nvlink4, false);
      CHECK(a.time >= collective_floor(collective::all_reduce, bytes(b), 8,
                                       a.custom || !a.library.nvls
                                           ? links::nvlink4.ring_rate(8)
                                           : links::nvlink4.collective_rate(8)));
    }
}

TEST_CASE("collectives: bad sizes and counts and costs are rejected by name",
          "[parallel][errors]") {
  const bandwidth bw = links::nvlink4.per_direction();
  CHECK_THROWS_WITH(collective_floor(collective::all_reduce, bytes(1), 0, bw),
                    Catch::Contains("GPUs must be 1 to 2^20"));
  CHECK_THROWS_WITH(collective_floor(collective::all_reduce, bytes(-1), 2, bw),
                    Catch::Contains("bytes must be finite"));
  CHECK_THROWS_WITH(collective_floor(collective::all_reduce, bytes(1), 2, bandwidth{}),
                    Catch::Contains("bandwidth must be positive"));
  CHECK_THROWS_WITH(
      collective_time(collective::all_reduce, bytes(1), 2, bw, {seconds(0), seconds(0), 0.0}),
      Catch::Contains("bandwidth share"));
  CHECK_THROWS_WITH(
      collective_time(collective::all_reduce, bytes(1), 2, bw, {seconds(-1e-6), seconds(0), 1.0}),
      Catch::Contains("latencies"));
}

TEST_CASE("engines' own all-reduce: peer-to-peer links only and within its size", "[parallel]") {
  const byte_count small = kibibytes(16);
  // vLLM over NVLink: its kernel (9.5 us at 2 GPUs, 10.1 at 8) beats NCCL's LL ring at 8 GPUs.
  const tp_all_reduce v = tensor_parallel_all_reduce(stacks::vllm, small, 8, links::nvlink4, false);
  CHECK(v.custom);
  // Its bandwidth term at the ring's bus bandwidth measured on NVLink 4 (363.3 GB/s): its
  // kernels load and store peer to peer, never through the switch's reduction.
  CHECK(v.time.value() == Approx(10.1e-6 + 1.75 * 16384.0 / 363.3e9));
  // GeForce cards without peer-to-peer, and more than two PCIe GPUs: NCCL.
  CHECK_FALSE(tensor_parallel_all_reduce(stacks::vllm, small, 2, links::pcie4_x16, true).custom);
  CHECK_FALSE(tensor_parallel_all_reduce(stacks::vllm, small, 4, links::pcie4_x16, false).custom);
  // Two PCIe GPUs with peer-to-peer may use it. TensorRT-LLM's (3.7 us) beats NCCL's ring by
  // NCCL's own model (6.6 + 2 x 1.0 us); vLLM's (9.5 us) does not, but beats NCCL's ring through
  // host memory, which NCCL takes between cards on the CPU's root ports (nccl_through_host):
  // 17.6 us measured at 16 KiB over 2 GPUs (stack/nccl_staged.hpp).
  CHECK(tensor_parallel_all_reduce(stacks::tensorrt_llm, small, 2, links::pcie4_x16, false).custom);
  CHECK_FALSE(
      tensor_parallel_all_reduce(stacks::tensorrt_llm, small, 4, links::pcie4_x16, false).custom);
  CHECK_FALSE(tensor_parallel_all_reduce(stacks::vllm, small, 2, links::pcie4_x16, false).custom);
  const tp_all_reduce two =
      tensor_parallel_all_reduce(stacks::vllm, small, 2, links::pcie4_x16, false, true);
  CHECK(two.custom);
  CHECK(two.library.time.value() == Approx(17.61e-6));
  // Above its 8 MiB limit, and for a stack without one: NCCL.
  CHECK_FALSE(
      tensor_parallel_all_reduce(stacks::vllm, mebibytes(9), 8, links::nvlink4, false).custom);
  CHECK_FALSE(tensor_parallel_all_reduce(stacks::ceiling, small, 8, links::nvlink4, false).custom);
}

TEST_CASE("a layer split's batch-1 decode is never faster than one GPU reading every weight",
          "[parallel][properties]") {
  // llama.cpp and eager PyTorch split by layers: the GPUs take turns on each token, so a token
  // takes at least the whole model's weights at one GPU's bandwidth and its stack's share.
  const model_spec& m = presets::llama3_70b;
  for (const gpu_spec* g : catalog::all)
    for (stack_id id : {stack_id::llama_cpp, stack_id::pytorch_eager, stack_id::ceiling})
      for (weight_format w : {weight_format::q4_k_m, weight_format::native}) {
        const run_config one = decode_run(id, w, 1);
        if (!runs(*g, m, one)) continue;
        if (g->facts().form == form_factor::integrated) continue;  // one to a machine (below)
        // One GPU of the set running the whole model: every weight a token reads, at the stack's
        // share (stack_test checks that one GPU never beats its weight-read floor).
        const duration single = estimate_run(*g, m, one).decode_per_token;
        duration previous = single;
        for (long long n : {2LL, 4LL, 8LL}) {
          run_config r = one;
          r.gpus = n;
          r.pp = n;
          const model_estimate e = estimate_run(*g, m, r);
          INFO(g->id() << " " << name(id) << " " << name(w) << " pp " << n);
          CHECK(e.decode_per_token > single);
          CHECK(e.decode_per_token >= previous);  // more hand-offs, never faster
          CHECK(e.time_of(op_kind::communication) > duration{});
          previous = e.decode_per_token;
        }
      }
}

TEST_CASE("a tensor split's decode is never faster than 1/N of one GPU's",
          "[parallel][properties]") {
  const model_spec& m = presets::llama3_8b;
  for (const gpu_spec* g : catalog::all)
    for (stack_id id : {stack_id::vllm, stack_id::tensorrt_llm, stack_id::ceiling}) {
      const run_config one = decode_run(id, weight_format::native, 1);
      if (!runs(*g, m, one)) continue;
      if (g->facts().form == form_factor::integrated) continue;  // one to a machine (below)
      const duration single = estimate_run(*g, m, one).decode_per_token;
      for (long long n : {2LL, 4LL, 8LL}) {
        run_config r = one;
        r.gpus = n;
        r.tp = n;
        const model_estimate e = estimate_run(*g, m, r);
        INFO(g->id() << " " << name(id) << " tp " << n);
        CHECK(e.decode_per_token >= single / static_cast<double>(n));
        CHECK(e.time_of(op_kind::communication) > duration{});
        // GeForce cards stage through the host: never faster than the same split peer to peer
        // (a data-centre card's copies and a library that keeps peer-to-peer, as AMD's RCCL
        // does here), all else equal.
        if (g->facts().segment == segment::geforce) {
          const model_estimate p2p = with_communication(
              estimate_model(*g, m, run_under(stacks::of(id), r)), m, run_under(stacks::of(id), r),
              stacks::of(id), link_of_run(*g, r), segment::datacenter, vendor::amd);
          CHECK(e.decode_per_token >= p2p.decode_per_token);
        }
      }
    }
}

TEST_CASE("a PCIe card's system link is its PCIe slot, an SXM module's its NVLink", "[parallel]") {
  // The A100 PCIe's and H100 PCIe's NVLink bridges join two cards (their datasheets), and
  // llm-perf-bench's A100 PCIe machines ran "on PCIe, not NVLink": a system of cards is joined by
  // its PCIe slots unless the run names the bridge.
  CHECK(system_link(catalog::a100_pcie_80gb).id == "pcie4_x16");
  CHECK(system_link(catalog::h100_pcie).id == "pcie5_x16");
  CHECK(system_link(catalog::h100_nvl).link.kind == interconnect_kind::pcie);
  CHECK(system_link(catalog::a100_sxm4_80gb).id == "nvlink3");
  CHECK(system_link(catalog::h100_sxm).link.kind == interconnect_kind::nvlink);
  for (const gpu_spec* g : catalog::all)
    if (g->facts().form == form_factor::card)
      CHECK(system_link(*g).link.kind == interconnect_kind::pcie);
}

TEST_CASE("an AMD data-centre board's system link is its Infinity Fabric and a Radeon's its PCIe",
          "[parallel]") {
  // Each at the board's own datasheet bandwidth: MI250X 8 x 100 GB/s, MI300X and MI325X
  // 7 x 128, MI355X and MI350X 7 x 153.6.
  CHECK(system_link(catalog::mi250x).id == "infinity_fabric3");
  CHECK(system_link(catalog::mi300x).id == "infinity_fabric");
  CHECK(system_link(catalog::mi325x).id == "infinity_fabric");
  CHECK(system_link(catalog::mi355x).id == "infinity_fabric4_1075");
  CHECK(system_link(catalog::mi350x).id == "infinity_fabric4_1075");
  for (const gpu_spec* g :
       std::initializer_list<const gpu_spec*>{&catalog::mi250x, &catalog::mi300x, &catalog::mi355x})
    CHECK(system_link(*g).link.throughput == g->facts().peer_link.throughput);
  CHECK(system_link(catalog::rx_7900_xtx).link.kind == interconnect_kind::pcie);
  // An 8-GPU all-reduce of a 7B model's 16-bit gradients takes a fraction of PCIe's time: the
  // mesh's measured 312.9 GB/s bus bandwidth against PCIe 5.0 x16's 63 GB/s one way.
  const double bytes = 2.0 * 6.74e9;
  const auto ring = [&](const link_spec& l) {
    return nccl_time(collective::all_reduce, make<byte_count>(bytes), 8, l, false, l, 8)
        .time.value();
  };
  CHECK(ring(system_link(catalog::mi300x)) < ring(links::pcie5_x16) / 4.5);
}

TEST_CASE("the system link is the board's own NVLink, else its PCIe", "[parallel]") {
  CHECK(system_link(catalog::a100_sxm4_80gb).id == "nvlink3");  // 600 GB/s
  CHECK(system_link(catalog::h100_sxm).id == "nvlink4");        // 900 GB/s
  // The export boards keep their generation at 400 GB/s, and pay for it in a tensor split.
  CHECK(system_link(catalog::a800_sxm4_80gb).id == "nvlink3_400");
  CHECK(system_link(catalog::h800_sxm).id == "nvlink4_400");
  CHECK(system_link(catalog::rtx_4090).id == "pcie4_x16");  // GeForce: no NVLink in its servers
  CHECK(system_link(catalog::tesla_p40).id == "pcie3_x16");
  // Every SXM board (NVSwitch connects all its server's GPUs) finds the entry of its own NVLink
  // bandwidth. (PCIe boards with NVLink bridges join pairs; that is not a system fabric.)
  for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
           &catalog::v100_sxm2, &catalog::a100_sxm4_40gb, &catalog::a100_sxm4_80gb,
           &catalog::a800_sxm4_80gb, &catalog::h100_sxm, &catalog::h800_sxm, &catalog::h200_sxm,
           &catalog::b200}) {
    INFO(g->id());
    CHECK(system_link(*g).link.throughput == g->facts().peer_link.throughput);
  }
  // Training 8-way on the A800 takes longer than on the A100: only the link differs.
  run_config r;
  r.batch = 8;
  r.seq = 2048;
  r.gpus = 8;
  r.tp = 8;
  const auto step = [&](const gpu_spec& g) {
    return estimate_cluster(g, r.gpus, presets::llama2_7b, r, system_link(g)).step_time;
  };
  CHECK(step(catalog::a800_sxm4_80gb) > step(catalog::a100_sxm4_80gb));
  CHECK(step(catalog::h800_sxm) > step(catalog::h100_sxm));
}

TEST_CASE("a layer split holds a share of the layers on each GPU", "[parallel]") {
  run_config r = decode_run(stack_id::llama_cpp, weight_format::q4_k_m, 2);
  const model_spec& m = presets::llama3_70b;  // 80 layers
  const memory_breakdown one = memory_need(m, decode_run(stack_id::llama_cpp, r.weights, 1));
  r.pp = 2;
  CHECK(memory_need(m, r).weights.value() == Approx(one.weights.value() / 2));
  CHECK(memory_need(m, r).kv_cache.value() == Approx(one.kv_cache.value() / 2));
  r.gpus = 3;
  r.pp = 3;  // 27 of 80 layers on the fullest GPU
  CHECK(memory_need(m, r).weights.value() == Approx(one.weights.value() * 27.0 / 80.0));
  // The stacks that split by layers by default, and the ones that pipeline a prompt.
  CHECK(stacks::llama_cpp.multi_gpu.split == split_mode::layer);
  CHECK(stacks::llama_cpp.multi_gpu.pipeline.pipelines());
  CHECK(stacks::pytorch_eager.multi_gpu.split == split_mode::layer);
  CHECK_FALSE(stacks::pytorch_eager.multi_gpu.pipeline.pipelines());
  CHECK(stacks::vllm.multi_gpu.split == split_mode::tensor);
  // llama.cpp's pipeline: 8 micro-batches over 2 GPUs take (2 + 7) of 16 GPU-turns; one
  // micro-batch none fewer; 8 GPUs with 4 in flight: (8 + 7 x 2) of 64.
  const layer_pipeline& p = stacks::llama_cpp.multi_gpu.pipeline;
  CHECK(p.prompt_fraction(4096, 2) == Approx(9.0 / 16.0));
  CHECK(p.prompt_fraction(512, 4) == Approx(1.0));
  CHECK(p.prompt_fraction(4096, 8) == Approx(22.0 / 64.0));
}

TEST_CASE("a pipelined layer split costs llama.cpp its CUDA graphs in decode", "[parallel]") {
  // On the run PR #6766 measured (Llama 3 8B Q4_0, tg128, RTX 4090) split over two cards, the
  // launches without graphs add exactly what graphs saved there: 1/149.28 - 1/159.67 s a token.
  run_config r = decode_run(stack_id::llama_cpp, weight_format::q4_0, 2);
  r.pp = 2;
  const auto launches = [](const model_estimate& e) {
    duration t{};
    for (const op_estimate& op : e.decode)
      if (op.name == "launches without CUDA graphs") t += static_cast<double>(op.repeats) * op.time;
    return t;
  };
  const model_estimate on_4090 = estimate_run(catalog::find("rtx_4090"), presets::llama3_8b, r);
  CHECK(launches(on_4090).value() == Approx(1.0 / 149.28 - 1.0 / 159.67).epsilon(1e-9));
  // A bigger model launches as many kernels a layer: more layers, more of the same gap.
  const model_estimate big = estimate_run(catalog::find("rtx_4090"), presets::llama3_70b, r);
  CHECK(launches(big) > 2.0 * launches(on_4090));
  // Turing had no graphs to lose (compute capability 8.0 and later), nor had the HIP build.
  CHECK(launches(estimate_run(catalog::find("rtx_2080_ti"), presets::llama3_8b, r)).value() == 0);
  r.stack = stack_id::llama_cpp_rocm;
  CHECK(launches(estimate_run(catalog::find("rx_7900_xtx"), presets::llama3_8b, r)).value() == 0);
  // Nor does one GPU, or a prompt.
  CHECK(launches(estimate_run(catalog::find("rtx_4090"), presets::llama3_8b,
                              decode_run(stack_id::llama_cpp, weight_format::q4_0, 1)))
            .value() == 0);
  for (const op_estimate& op : on_4090.prefill) CHECK(op.name != "launches without CUDA graphs");
  // The gap is the record's, computed once, for a stack with the record's kernels (a device
  // file's figures included); other kernel choices launch other kernels, and get their own.
  software_stack measured = stacks::llama_cpp;
  measured.gemm_efficiency.value = 0.5;
  CHECK(same_kernel_choices(measured, stacks::llama_cpp));
  CHECK(launch_gap_without_graphs(measured) == launch_gap_without_graphs(stacks::llama_cpp));
  software_stack other = stacks::llama_cpp;
  other.fused_softmax_glue = false;  // eager PyTorch's scale, mask and head-split kernels
  CHECK_FALSE(same_kernel_choices(other, stacks::llama_cpp));
  CHECK(launch_gap_without_graphs(other) == detail::measured_launch_gap(other));
  CHECK(launch_gap_without_graphs(other) < launch_gap_without_graphs(stacks::llama_cpp));
}

TEST_CASE("a layer split is rejected where it is not modelled", "[parallel][errors]") {
  run_config r = decode_run(stack_id::llama_cpp, weight_format::q4_k_m, 4);
  r.pp = 3;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("tp x pp (1 x 3) must divide gpus (4)"));
  r.pp = 0;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("pp"));
  run_config t;
  t.gpus = 2;
  t.virtual_stages = 2;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("need training with pp >= 2"));
  t.pp = 2;
  t.virtual_stages = 0;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("virtual_stages must be 1 to 1024"));
  t.virtual_stages = 32;  // Llama 3 8B has 32 layers: 2 stages of 32 chunks would need 64
  CHECK_THROWS_WITH(memory_need(presets::llama3_8b, t), Catch::Contains("virtual stages need"));
  run_config cnn = decode_run(stack_id::pytorch_eager, weight_format::native, 2);
  cnn.pp = 2;
  CHECK_THROWS_WITH(memory_need(presets::resnet50, cnn), Catch::Contains("CNN"));
  run_config deep = decode_run(stack_id::llama_cpp, weight_format::native, 64);
  deep.pp = 64;  // Llama 3 8B has 32 layers
  CHECK_THROWS_WITH(memory_need(presets::llama3_8b, deep), Catch::Contains("needs as many layers"));
  software_stack s = stacks::llama_cpp;
  s.multi_gpu.pipeline.in_flight = 0;
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("pipeline needs ubatch and in_flight"));
  s = stacks::vllm;
  s.multi_gpu.all_reduce.at_8 = seconds(1e-6);
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("custom all-reduce"));
  s = stacks::llama_cpp;
  s.multi_gpu.pipeline.graphs_lost.without = 200;  // faster without graphs than with them
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("graphs_lost needs"));
}

TEST_CASE("a run over several GPUs of a system-on-chip is refused, naming why", "[parallel]") {
  // An Apple silicon Mac has one GPU: no split, no cluster of its GPUs in one machine.
  run_config r = decode_run(stack_id::llama_cpp_metal, weight_format::q4_k_m, 1);
  r.type = dtype::fp16;
  CHECK_NOTHROW(estimate_run(catalog::m2_ultra_76c_192gb, presets::llama3_70b, r));
  r.gpus = 2;
  r.pp = 2;
  CHECK_THROWS_WITH(estimate_run(catalog::m2_ultra_76c_192gb, presets::llama3_70b, r),
                    Catch::Contains("one to a machine"));
  const split_outcome o = evaluate_split(
      catalog::m2_ultra_76c_192gb, presets::llama3_70b,
      decode_run(stack_id::llama_cpp_metal, weight_format::q4_k_m, 1), parallel_split{2, 1, 2});
  CHECK_FALSE(o.runs);
  CHECK_THAT(o.why_not, Catch::Contains("one to a machine"));
  CHECK_THROWS_WITH(estimate_cluster(catalog::m2_ultra_76c_192gb, 2, presets::llama3_8b,
                                     run_config{}, links::pcie4_x16),
                    Catch::Contains("one to a machine"));
}
