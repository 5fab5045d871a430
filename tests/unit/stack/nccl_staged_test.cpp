// NCCL's all-reduce through host memory (stack/nccl_staged.hpp): the published runs' medians,
// the step slope against the 8-GPU runs the table does not hold, and the properties of the
// measured curve inside nccl_time.
#include <algorithm>
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <initializer_list>

using namespace dlperf;

namespace {

double us(duration t) { return t.value() * 1e6; }

}  // namespace

TEST_CASE("the staged all-reduce table is the published runs' medians", "[nccl][staged]") {
  // 2 GPUs at 16 KiB: 23.67, 17.61 and 17.11 us (two RTX 4090 hosts, two RTX 2080 Ti).
  CHECK(us(nccl::staged_all_reduce_measured(kibibytes(16), 2)) == Approx(17.61));
  // 4 GPUs at 64 KiB: 81.19, 81.53 and 54.10 us.
  CHECK(us(nccl::staged_all_reduce_measured(kibibytes(64), 4)) == Approx(81.19));
  // At 4 KiB the 2-GPU median (12.01 us) dips under 1 KiB's (12.10): a larger message keeps the
  // smaller one's time.
  CHECK(us(nccl::staged_all_reduce_measured(kibibytes(4), 2)) == Approx(12.10));
  // Half-way between 16 and 32 KiB, half-way between their times; below 8 bytes, 8 bytes' time.
  CHECK(us(nccl::staged_all_reduce_measured(kibibytes(24), 2)) == Approx(0.5 * (17.61 + 25.42)));
  CHECK(us(nccl::staged_all_reduce_measured(bytes(1), 2)) == Approx(10.98));
  // 3 GPUs: 4 ring steps, half-way between 2 GPUs' 2 and 4 GPUs' 6.
  CHECK(us(nccl::staged_all_reduce_measured(kibibytes(256), 3)) == Approx(0.5 * (97.63 + 210.1)));
}

TEST_CASE("the staged table's step slope meets the published 8-GPU runs it does not hold",
          "[nccl][staged]") {
  // 8 GPUs, 14 ring steps, from the 2- and 4-GPU medians at 8 bytes: 39.4 us, where 8 RTX 4090s
  // took 42.1 and 8 RTX 3090s 54.2.
  const double eight = us(nccl::staged_all_reduce_measured(bytes(8), 8));
  for (double published : nccl::staged_eight_gpu_8_bytes) {
    INFO("published " << published << " us, table " << eight << " us");
    CHECK(eight <= published);
    CHECK(eight >= 0.7 * published);
  }
}

TEST_CASE("an all-reduce through host memory takes at least the measured time, monotonically",
          "[nccl][staged][properties]") {
  for (const link_spec& l : links::all) {
    if (l.link.kind != interconnect_kind::pcie) continue;
    for (long long n : {2LL, 3LL, 4LL, 8LL, 16LL}) {
      duration before{};
      for (double b = 1; b <= 1e9; b *= 1.7) {
        const byte_count data = bytes(b);
        const duration staged = nccl_time(collective::all_reduce, data, n, l, true).time;
        INFO(l.id << " n=" << n << " bytes=" << b);
        const duration model =
            detail::nccl_model_time(collective::all_reduce, data, n, l, true).time;
        CHECK(staged >= model);
        // Within the table on a x16 link, the measured time: the runs' links were x16, and
        // NCCL's model of them is always faster (a x4 link's own bandwidth can be slower).
        if (data <= nccl::staged_measured_up_to && l.id.ends_with("_x16"))
          CHECK(staged == nccl::staged_all_reduce_measured(data, n));
        CHECK(staged >= before);
        before = staged;
        // More GPUs never take less time.
        CHECK(nccl_time(collective::all_reduce, data, n + 1, l, true).time >= staged);
      }
      // No step at the table's end: just past 256 KiB is 256 KiB's time and what NCCL's model
      // adds for the extra bytes.
      const byte_count top = nccl::staged_measured_up_to;
      const duration at = nccl_time(collective::all_reduce, top, n, l, true).time;
      const duration past = nccl_time(collective::all_reduce, top + bytes(64), n, l, true).time;
      const duration added =
          detail::nccl_model_time(collective::all_reduce, top + bytes(64), n, l, true).time -
          detail::nccl_model_time(collective::all_reduce, top, n, l, true).time;
      CHECK(us(past - at) == Approx(us(added)).margin(1e-9));
    }
  }
}

TEST_CASE("the staged table leaves peer-to-peer links and other collectives to NCCL's model",
          "[nccl][staged]") {
  for (double kb : {1.0, 16.0, 256.0, 4096.0}) {
    const byte_count data = kibibytes(kb);
    CHECK(nccl_time(collective::all_reduce, data, 4, links::pcie4_x16, false).time ==
          detail::nccl_model_time(collective::all_reduce, data, 4, links::pcie4_x16, false).time);
    CHECK(nccl_time(collective::all_gather, data, 4, links::pcie4_x16, true).time ==
          detail::nccl_model_time(collective::all_gather, data, 4, links::pcie4_x16, true).time);
    CHECK(nccl_time(collective::all_reduce, data, 4, links::nvlink3, true).time ==
          detail::nccl_model_time(collective::all_reduce, data, 4, links::nvlink3, true).time);
  }
}

TEST_CASE("across servers, only the steps inside a server take the staged table",
          "[nccl][staged]") {
  const link_spec& pcie = links::pcie4_x16;
  const link_spec& ib = links::ib_hdr;
  for (double kb : {1.0, 16.0, 256.0, 25600.0}) {
    const byte_count data = kibibytes(kb);
    INFO(kb << " KiB");
    // One GPU a server: no step inside a server, NCCL's model alone.
    CHECK(nccl_time(collective::all_reduce, data, 16, pcie, true, ib, 1).time ==
          detail::nccl_model_time(collective::all_reduce, data, 16, pcie, true, ib, 1).time);
    // 16 GPUs in servers of 8: the 28 steps inside the servers each take what the table adds
    // per step to an 8-GPU server's own ring (14 steps); the 2 network steps the model's.
    const duration added =
        nccl_time(collective::all_reduce, data, 8, pcie, true).time -
        detail::nccl_model_time(collective::all_reduce, data, 8, pcie, true).time;
    CHECK(
        nccl_time(collective::all_reduce, data, 16, pcie, true, ib, 8).time.value() ==
        Approx((detail::nccl_model_time(collective::all_reduce, data, 16, pcie, true, ib, 8).time +
                28.0 / 14.0 * added)
                   .value()));
    // A second server never makes the ring faster.
    CHECK(nccl_time(collective::all_reduce, data, 16, pcie, true, ib, 8).time >=
          nccl_time(collective::all_reduce, data, 8, pcie, true, ib, 8).time);
  }
}

TEST_CASE("NCCL's rings over PCIe go through host memory, RCCL's and NVLink's do not",
          "[nccl][staged]") {
  CHECK(nccl_through_host(vendor::nvidia, links::pcie4_x16));
  CHECK(nccl_through_host(vendor::nvidia, links::pcie3_x4));
  CHECK_FALSE(nccl_through_host(vendor::nvidia, links::nvlink3));
  CHECK_FALSE(nccl_through_host(vendor::nvidia, links::ib_ndr));
  CHECK_FALSE(nccl_through_host(vendor::amd, links::pcie4_x16));
  CHECK_FALSE(nccl_through_host(vendor::amd, links::infinity_fabric));
}
