// Catalog: every derived peak and bandwidth against the vendor's published figure.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <set>
#include <string>

#include "published.hpp"

using namespace dlperf;

namespace {
double relative_error(double derived, double published) {
  return (derived - published) / published;
}
}  // namespace

TEST_CASE("derived peaks are within 2 % of every published figure", "[catalog]") {
  for (const test::published_peak& p : test::published_peaks) {
    const gpu_spec& g = catalog::find(p.gpu);
    const double derived = in_teraflops(g.peak(p.type, p.acc, p.sparse));
    INFO(p.gpu << " " << name(p.type) << "/" << name(p.acc) << " " << name(p.sparse) << ": derived "
               << derived << " vs published " << p.tflops << " (" << p.source << ")");
    CHECK(std::abs(relative_error(derived, p.tflops)) <= 0.02);
  }
}

TEST_CASE("derived DRAM bandwidth is within 2 % of the datasheet", "[catalog]") {
  REQUIRE(test::published_bandwidths.size() == catalog::all.size());
  for (const test::published_bandwidth& b : test::published_bandwidths) {
    const gpu_spec& g = catalog::find(b.gpu);
    const double derived = in_gigabytes_per_second(g.memory_bandwidth());
    INFO(b.gpu << ": derived " << derived << " vs published " << b.gbps);
    if (g.arch().vendor == vendor::apple) {
      // Apple rounds its figures to two or three significant digits, mostly down (204.8 GB/s is
      // "200GB/s", 409.6 "400GB/s" on an M1 Max and "410GB/s" on a 32-core M4 Max).
      CHECK(std::abs(relative_error(derived, b.gbps)) <= 0.025);
    } else {
      CHECK(std::abs(relative_error(derived, b.gbps)) <= 0.02);
    }
  }
}

TEST_CASE("Apple's published FP32 rates are the derived peaks rounded down", "[catalog]") {
  // Cores x 128 ALUs x 2 FLOP x the measured clock (philipturner/metal-benchmarks) against Apple's
  // figures, which are rounded down as its bandwidths are: M1 2.617 is "2.6", M1 Max 10.617 "10.4".
  for (const test::published_peak& p : test::apple_fp32_peaks) {
    const double derived = in_teraflops(catalog::find(p.gpu).peak(dtype::fp32));
    INFO(p.gpu << ": derived " << derived << " vs published " << p.tflops << " (" << p.source
               << ")");
    CHECK(derived >= p.tflops * 0.999);
    CHECK(relative_error(derived, p.tflops) <= 0.025);
  }
}

TEST_CASE("every catalog GPU but three has a published peak to check", "[catalog]") {
  std::set<std::string> checked;
  for (const auto& p : test::published_peaks) checked.insert(std::string(p.gpu));
  std::set<std::string> unchecked;
  for (const gpu_spec* g : catalog::all)
    if (!checked.count(std::string(g->id()))) unchecked.insert(std::string(g->id()));
  // NVIDIA published no FLOPS figure for the GTX 1650 SUPER; TITAN V's is checked below, and
  // Meta's H100 96 GB HBM2e's range after this. Apple's GPUs have a test of their own: Apple
  // publishes a rate for four of its chips only.
  for (const gpu_spec* g : catalog::all)
    if (g->arch().vendor == vendor::apple) unchecked.erase(std::string(g->id()));
  CHECK(unchecked == std::set<std::string>{"gtx_1650_super", "titan_v", "h100_sxm_96gb"});
}

// torchtitan's Grand Teton H100 (96 GB HBM2e): "The actual peak TFLOPs should be between SXM and
// NVL" (arXiv 2410.06511). The catalog takes the SXM5's clocks, the upper end (equal to the SXM5's
// by construction), so the check that can fail is the lower one.
TEST_CASE("Meta's H100 96 GB HBM2e peaks at or above the H100 NVL", "[catalog]") {
  for (const dtype t : {dtype::fp16, dtype::bf16, dtype::fp8_e4m3})
    CHECK(in_teraflops(catalog::h100_sxm_96gb.peak(t)) >= in_teraflops(catalog::h100_nvl.peak(t)));
}

// NVIDIA's "110 deep learning TFLOPS" for TITAN V is quoted at about 1343 MHz, below the
// 1455 MHz boost clock the catalog (and every other peak) uses: the ratio is the clock ratio.
TEST_CASE("TITAN V's published 110 TFLOPS implies a 1343 MHz clock", "[catalog]") {
  const double derived = in_teraflops(catalog::titan_v.peak(dtype::fp16, accumulator::fp32));
  CHECK(derived / 110.0 == Approx(1455.0 / 1343.0).epsilon(0.01));
}

TEST_CASE("catalog ids are unique and found, unknown ids are rejected by name", "[catalog]") {
  std::set<std::string_view> ids;
  for (const gpu_spec* g : catalog::all) {
    CHECK(ids.insert(g->id()).second);
    CHECK(&catalog::find(g->id()) == g);
    CHECK(!g->facts().source.empty());
  }
  CHECK(ids.size() == catalog::all.size());
  CHECK_THROWS_AS(catalog::find("rtx_9090"), not_found);
  CHECK_THROWS_WITH(catalog::find("rtx_9090"),
                    Catch::Contains("unknown GPU id 'rtx_9090'") && Catch::Contains("rtx_4090"));
}

// docs/model.md#model_bandwidth: RTX 2060 336 GB/s, RTX 3090 912-1006 GB/s, A100 40 GB 1555 GB/s,
// V100 900 GB/s; GTX 1080 / GTX 1070 bandwidth ratio 320/256 = 1.25.
TEST_CASE("bandwidths the practitioners' guides quote", "[catalog][model]") {
  CHECK(in_gigabytes_per_second(catalog::rtx_2060.memory_bandwidth()) == Approx(336));
  const double rtx3090 = in_gigabytes_per_second(catalog::rtx_3090.memory_bandwidth());
  CHECK(rtx3090 >= 912);
  CHECK(rtx3090 <= 1006);
  CHECK(in_gigabytes_per_second(catalog::a100_sxm4_40gb.memory_bandwidth()) ==
        Approx(1555).epsilon(0.001));
  CHECK(in_gigabytes_per_second(catalog::v100_sxm2.memory_bandwidth()) ==
        Approx(900).epsilon(0.002));
  CHECK(catalog::gtx_1080.memory_bandwidth() / catalog::gtx_1070.memory_bandwidth() ==
        Approx(1.25));
}

// docs/model.md#model_datatypes: P100 (2016) -> H100: memory 16 -> 80 GB (5x), FP16 21.2 -> 989.5
// TFLOPS (46x); RTX 4090 ~0.66 PFLOPS FP8 dense.
TEST_CASE("generational scale from P100 to H100", "[catalog][model]") {
  const double p100 = in_teraflops(catalog::p100_sxm2.peak(dtype::fp16, accumulator::fp16));
  const double h100 = in_teraflops(catalog::h100_sxm.peak(dtype::fp16, accumulator::fp16));
  CHECK(p100 == Approx(21.2).epsilon(0.01));
  CHECK(h100 == Approx(989.5).epsilon(0.001));
  CHECK(h100 / p100 == Approx(46).epsilon(0.02));
  CHECK(catalog::h100_sxm.memory(tier::global).capacity /
            catalog::p100_sxm2.memory(tier::global).capacity ==
        Approx(5.0));
  CHECK(in_teraflops(catalog::rtx_4090.peak(dtype::fp8_e4m3, accumulator::fp16)) ==
        Approx(660).epsilon(0.01));
}

// docs/model.md#model_hierarchy: L2 of A100 40 MB, H100 50 MB, RTX 4090 72 MB.
TEST_CASE("L2 sizes of A100, H100 and RTX 4090", "[catalog][model]") {
  CHECK(in_mebibytes(catalog::a100_sxm4_40gb.memory(tier::l2).capacity) == 40);
  CHECK(in_mebibytes(catalog::h100_sxm.memory(tier::l2).capacity) == 50);
  CHECK(in_mebibytes(catalog::rtx_4090.memory(tier::l2).capacity) == 72);
}

TEST_CASE("tiers get faster and smaller towards the SM", "[catalog]") {
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    const tier_spec reg = g->memory(tier::registers), sh = g->memory(tier::shared),
                    l2 = g->memory(tier::l2), dram = g->memory(tier::global);
    CHECK(reg.throughput > sh.throughput);
    CHECK(sh.throughput > l2.throughput);
    CHECK(l2.throughput > dram.throughput);
    CHECK(dram.capacity > l2.capacity);
    CHECK(reg.latency_cycles < sh.latency_cycles);
    CHECK(sh.latency_cycles < l2.latency_cycles);
    CHECK(l2.latency_cycles < dram.latency_cycles);
    CHECK(dram.latency.value() == Approx(dram.latency_cycles / g->facts().boost_clock.value()));
  }
}

// docs/model.md#model_bandwidth: "about 80 TB/s" of register bandwidth across the SMs (V100-class
// GPU).
TEST_CASE("register-file bandwidth is of the order the guides quote", "[catalog][model]") {
  const double v100 = catalog::v100_sxm2.memory(tier::registers).throughput.value() / 1e12;
  CHECK(v100 > 60);
  CHECK(v100 < 120);
}

TEST_CASE("prices carry a date and a kind", "[catalog]") {
  for (const gpu_spec* g : catalog::all) {
    const price_point& p = g->facts().price;
    INFO(g->id());
    if (p.kind == price_kind::none) continue;
    CHECK(p.amount.value() > 0);
    CHECK(p.year >= g->facts().year - 1);
    CHECK(p.month >= 1);
    CHECK(p.month <= 12);
  }
  CHECK(catalog::rtx_3090.facts().price.amount.value() ==
        1499);  // docs/model.md#model_cost; GA102 launch
}

namespace {
// Boards for which neither a list price nor a dated per-card figure of their launch years was
// found (each header says so; docs/catalog.md, "Prices"): they carry price_kind::none, and rank
// leaves them out unless a later market price is sourced (the A100 PCIe 80 GB's, 2026).
const std::set<std::string> unpriced{
    "a100_pcie_80gb", "h100_nvl", "h200_nvl", "mi250x", "mi210", "mi300a", "mi325x", "l40", "a10g",
    "gh200", "gb200", "a800_sxm4_80gb", "h800_sxm", "h100_sxm_96gb", "l20",
    // Apple: configurations the evidence ran whose GPU or memory option has no sourced US price
    // (docs/catalog.md, "Apple silicon").
    "m1_max_32c_64gb", "m2_pro_19c_32gb", "m2_max_38c_96gb", "m3_pro_18c_36gb", "m3_max_40c_48gb",
    "m3_max_40c_64gb", "m4_max_40c_128gb"};
}  // namespace

TEST_CASE("the data-centre GPUs without a list price carry a dated street price", "[catalog]") {
  // Sourced in their catalog headers: no public per-card list price exists for any of them.
  const struct {
    const gpu_spec* gpu;
    double dollars;
    int year;
    price_kind kind;
  } expected[] = {{&catalog::p100_sxm2, 125, 2026, price_kind::used},
                  {&catalog::v100_sxm2, 56, 2025, price_kind::used},
                  {&catalog::a100_sxm4_40gb, 10000, 2023, price_kind::street},
                  {&catalog::mi300x, 15000, 2024, price_kind::street}};
  for (const auto& e : expected) {
    const price_point& p = e.gpu->facts().street_price;
    INFO(e.gpu->id());
    CHECK(p.kind == e.kind);
    CHECK(p.amount.value() == e.dollars);
    CHECK(p.year == e.year);
  }
  // HSBC's MI355 estimate after launch, and the A40's first dated listing.
  CHECK(catalog::mi355x.facts().street_price.amount.value() == 23000);
  CHECK(catalog::a40.facts().price.kind == price_kind::street);
  CHECK(catalog::a40.facts().price.amount.value() == 5098);
  // The MI350 series' $25,000 is an analyst's per-GPU estimate at launch, not a list price.
  CHECK(catalog::mi355x.facts().price.kind == price_kind::launch_reported);
  CHECK(catalog::mi350x.facts().price.amount.value() == 25000);
  // The T4's $2,200 is the price reported at its September 2018 release.
  CHECK(catalog::t4.facts().price.kind == price_kind::launch_reported);
  CHECK(catalog::t4.facts().price.amount.value() == 2200);
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    if (g->arch().vendor == vendor::nvidia && !unpriced.count(std::string(g->id())))
      CHECK(g->facts().price.kind != price_kind::none);
  }
}

TEST_CASE("the cards local buyers compare carry a dated market price", "[catalog][prices]") {
  // GPU Poet's monthly market reports, best deal (the average of the 3 cheapest eBay and Amazon
  // listings), as each catalog header cites: the used RTX 3090 at $990 in July 2026, the RTX 5090
  // at $3,254 resale in August 2026 (new on Amazon: $4,262), the RX 7900 XTX at $781.
  const struct {
    const gpu_spec* gpu;
    double dollars;
    int year, month;
  } expected[] = {{&catalog::rtx_3090, 990, 2026, 7},
                  {&catalog::rtx_5090, 3254, 2026, 8},
                  {&catalog::rtx_4090, 2470, 2026, 4},
                  {&catalog::rx_7900_xtx, 781, 2026, 7},
                  {&catalog::tesla_p40, 295, 2026, 6},
                  // The 8 and 12 GB cards of 2020-2023 (GPU Poet; a dated buying guide's range
                  // for the RTX 3060 12 GB, insiderllm.com): cheaper used than their launch.
                  {&catalog::rtx_3060, 205, 2026, 2},
                  {&catalog::rtx_3060_ti, 200, 2026, 7},
                  {&catalog::rtx_3070, 177, 2026, 8},
                  {&catalog::rtx_4060, 207, 2026, 5},
                  {&catalog::rtx_4070, 419, 2026, 6},
                  {&catalog::rtx_4070_ti, 535, 2026, 7},
                  {&catalog::a100_pcie_80gb, 12600, 2026, 8}};
  for (const auto& e : expected) {
    INFO(e.gpu->id());
    const price_point& p = e.gpu->facts().street_price;
    CHECK(p.kind == price_kind::used);
    CHECK(p.amount.value() == e.dollars);
    CHECK(p.year == e.year);
    CHECK(p.month == e.month);
  }
  // Every later market price is dated after its board's launch and is new (street) or resale.
  int resale = 0;
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    const price_point& p = g->facts().street_price;
    if (p.kind == price_kind::none) continue;
    CHECK((p.kind == price_kind::street || p.kind == price_kind::used));
    CHECK(p.amount.value() > 0);
    CHECK(p.year >= g->facts().year);
    CHECK((p.month >= 1 && p.month <= 12));
    resale += p.kind == price_kind::used;
  }
  CHECK(resale >= 20);
}

TEST_CASE("module boards are the SXM, OAM and superchip parts", "[catalog]") {
  // An SXM or OAM module needs its vendor's baseboard server; a PCIe card goes in any slot.
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    const std::string_view id = g->id();
    if (id.find("sxm") != std::string_view::npos || id.rfind("mi3", 0) == 0 || id == "mi250x" ||
        id == "h20" || id == "b200" || id == "gb200" || id == "gh200")
      CHECK(g->facts().form == form_factor::mezzanine);
    // An Apple GPU is its machine's system-on-chip, and nothing else is.
    CHECK((g->facts().form == form_factor::integrated) == (g->arch().vendor == vendor::apple));
    if (g->facts().segment != segment::datacenter && g->arch().vendor != vendor::apple)
      CHECK(g->facts().form == form_factor::card);
  }
  CHECK(catalog::h100_pcie.facts().form == form_factor::card);
  CHECK(catalog::a100_pcie_80gb.facts().form == form_factor::card);
}

TEST_CASE("every GPU but the unpriced ones has a launch price with a date and a source",
          "[catalog][prices]") {
  // Launch price: the list price, a per-card figure reported at launch, the launch system's
  // price per GPU (DGX-1 $129,000 and $149,000, DGX A100 $199,000, for eight), or the earliest
  // dated market price; none was found for the boards in `unpriced` (docs/catalog.md, "Prices").
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    const price_point& p = g->facts().price;
    if (unpriced.count(std::string(g->id()))) {
      CHECK(p.kind == price_kind::none);
      continue;
    }
    CHECK(p.kind != price_kind::none);
    CHECK(p.amount.value() > 0);
    CHECK(p.year >= g->facts().year - 1);
    CHECK(p.year <= g->facts().year + 2);  // launch-time, not today's used price
    CHECK(p.month >= 1);
    CHECK(p.month <= 12);
    CHECK(!g->facts().source.empty());
  }
  CHECK(catalog::p100_sxm2.facts().price.amount.value() == 16125);
  CHECK(catalog::p100_sxm2.facts().price.kind == price_kind::system_share);
  CHECK(catalog::v100_sxm2.facts().price.amount.value() == 18625);
  CHECK(catalog::a100_sxm4_40gb.facts().price.amount.value() == 24875);
}

// L40 and A10G: NVIDIA's datasheet figures are half the full-rate board's for every tensor type
// at the same SM count and clock (L40S and A10), while FP32 on the CUDA cores is not halved.
TEST_CASE("L40 and A10G run every tensor type at half their full-rate sibling's rate",
          "[catalog]") {
  struct pair {
    const gpu_spec* half;
    const gpu_spec* full;
  };
  for (const pair& p : {pair{&catalog::l40, &catalog::l40s}, pair{&catalog::a10g, &catalog::a10}}) {
    INFO(p.half->id());
    const auto per_sm_clock = [](const gpu_spec& g, dtype t, accumulator a) {
      return g.peak(t, a).value() / (g.sm_count() * g.tensor_clock().value());
    };
    for (const math_rate& r : p.full->arch().tensor) {
      if (r.fma_per_clock == 0) continue;
      INFO(name(r.input) << "/" << name(r.acc));
      CHECK(per_sm_clock(*p.half, r.input, r.acc) ==
            Approx(per_sm_clock(*p.full, r.input, r.acc) / 2));
    }
    CHECK(per_sm_clock(*p.half, dtype::fp32, accumulator::fp32) ==
          Approx(per_sm_clock(*p.full, dtype::fp32, accumulator::fp32)));
  }
}

TEST_CASE("capped-rate boards: the H20 and L20 reach what torch.mm measured on them", "[catalog]") {
  // zzc0721/torch-performance-test-data issues 77 (H20, 2025-10) and 107 (L20, 2026-01).
  const auto reached = [](const gpu_spec& g, dtype t) {
    return in_teraflops(g.peak(t)) * g.gemm_efficiency(t);
  };
  CHECK(reached(catalog::h20, dtype::bf16) == Approx(142.25).epsilon(0.01));
  CHECK(reached(catalog::l20, dtype::bf16) == Approx(114.1).epsilon(0.02));
  CHECK(reached(catalog::l20, dtype::tf32) == Approx(58.2).epsilon(0.02));
  // A quarter of GH100's rate per SM on 78 SMs: 6.7x below the H100 SXM5 in every tensor type.
  for (dtype t : {dtype::bf16, dtype::fp8_e4m3, dtype::int8, dtype::tf32})
    CHECK(catalog::h100_sxm.peak(t).value() / catalog::h20.peak(t).value() ==
          Approx(132.0 * 4 / 78));
  // Its CUDA cores are GH100's: FP32 per SM and clock as the H100's.
  CHECK(catalog::h100_sxm.peak(dtype::fp32).value() / catalog::h20.peak(dtype::fp32).value() ==
        Approx(132.0 / 78));
  // The L20 is the L40's AD102 with 92 SMs at 2520 MHz.
  CHECK(catalog::l20.peak(dtype::fp8_e4m3).value() / catalog::l40.peak(dtype::fp8_e4m3).value() ==
        Approx(92.0 * 2520 / (142.0 * 2490)));
}
