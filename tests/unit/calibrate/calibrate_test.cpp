// Calibration: the measurement protocol, measured devices through every estimator, and the
// host probes run for real.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/calibrate/gpu_device.hpp>
#include <dlperf/calibrate/host.hpp>
#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <limits>
#include <vector>

using namespace dlperf;
using namespace dlperf::literals;

TEST_CASE("samples are summarised by median, extremes and spread", "[calibrate]") {
  const std::vector<double> odd{3, 1, 2, 10, 4};
  const calibrate::sample_stats s = calibrate::summarize(odd);
  CHECK(s.median == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 10);
  CHECK(s.mean == 4);
  CHECK(s.count == 5);
  CHECK(s.spread() == Approx(3.0));
  const std::vector<double> even{4, 1, 3, 2};
  CHECK(calibrate::summarize(even).median == 2.5);
}

TEST_CASE("bad samples and protocols are rejected", "[calibrate][errors]") {
  CHECK_THROWS_WITH(calibrate::summarize(std::vector<double>{}), "summarize: no samples");
  CHECK_THROWS_AS(calibrate::summarize(std::vector<double>{1, -1}), invalid_argument);
  CHECK_THROWS_AS(calibrate::summarize(std::vector<double>{std::nan("")}), invalid_argument);
  CHECK_THROWS_AS(calibrate::summarize(std::vector<double>{0.0}), invalid_argument);
  CHECK_THROWS_WITH(calibrate::protocol({-1, 3}).validate(), "protocol: warmup must be >= 0");
  CHECK_THROWS_WITH(calibrate::protocol({1, 0}).validate(), "protocol: repetitions must be >= 1");
}

TEST_CASE("the protocol warms up, then times the repetitions", "[calibrate]") {
  int calls = 0;
  const calibrate::sample_stats s = calibrate::time_repeated(
      [&] {
        ++calls;
        return calls <= 2 ? 100.0 : static_cast<double>(calls);  // warm-up samples are dropped
      },
      {2, 5});
  CHECK(calls == 7);
  CHECK(s.count == 5);
  CHECK(s.median == 5);
  CHECK(s.max == 7);
}

TEST_CASE("probe sizes clear or stay inside a cache", "[calibrate]") {
  CHECK(calibrate::beyond_cache(40_MiB, 64_MiB) == 160_MiB);
  CHECK(calibrate::beyond_cache(1_MiB, 64_MiB) == 64_MiB);
  CHECK(calibrate::within_cache(40_MiB) == 10_MiB);
  const auto r = calibrate::rate(bytes(3e9), calibrate::sample_stats{0.5, 0.4, 0.6, 0.5, 3});
  CHECK(in_gigabytes_per_second(r) == Approx(6.0));
}

TEST_CASE("calibrated bandwidth changes the roofline answer", "[calibrate][measured]") {
  measured_device d(catalog::rtx_3090);
  const auto w = workload{}.compute(dtype::fp16, 1_GFLOP).move(tier::global, 10_GB);
  const roofline_result nominal = roofline(d, w);
  CHECK(nominal.time == roofline(catalog::rtx_3090, w).time);  // nothing measured yet
  d.set_bandwidth(tier::global, 820_GBps, "STREAM triad, test");
  const roofline_result measured = roofline(d, w);
  CHECK(measured.time.value() == Approx(10e9 / 820e9));
  CHECK(measured.time > nominal.time);
  CHECK(d.bandwidth_provenance(tier::global) == provenance::measured);
  CHECK(d.bandwidth_provenance(tier::l2) == provenance::nominal);
  CHECK(d.bandwidth_record(tier::global)->method == "STREAM triad, test");
}

TEST_CASE("measured throughput replaces the peak and the GEMM efficiency",
          "[calibrate][measured]") {
  measured_device d(catalog::a100_sxm4_40gb);
  d.set_achieved(dtype::bf16, accumulator::fp32, 271.2_TFLOPS, "cuBLAS 8192^3");
  CHECK(d.peak(dtype::bf16) == 271.2_TFLOPS);
  CHECK(d.peak(dtype::bf16, accumulator::fp32, sparsity::sparse_2_4) == 542.4_TFLOPS);
  CHECK(d.peak_provenance(dtype::bf16, accumulator::fp32) == provenance::measured);
  CHECK(d.gemm_efficiency(dtype::bf16) == 1.0);  // the rate is already an achieved one
  CHECK(d.gemm_efficiency(dtype::fp16) == catalog::a100_sxm4_40gb.gemm_efficiency(dtype::fp16));
  // A large GEMM then runs at about the measured rate.
  const gemm_estimate e = best_gemm(d, {8192, 8192, 8192, 1, dtype::bf16});
  CHECK(in_teraflops(e.throughput) == Approx(271.2).epsilon(0.05));
  d.set_gemm_efficiency(dtype::bf16, 0.9, "fitted");
  CHECK(d.gemm_efficiency(dtype::bf16) == 0.9);
}

TEST_CASE("a measured clock scales nominal peaks and clock-derived bandwidths",
          "[calibrate][measured]") {
  measured_device d(catalog::rtx_4090);
  d.set_sm_clock(2.772_GHz, "nvidia-smi under load");  // 10 % above the rated 2520 MHz
  CHECK(d.peak(dtype::fp32).value() == Approx(1.1 * catalog::rtx_4090.peak(dtype::fp32).value()));
  CHECK(d.memory(tier::shared).throughput.value() ==
        Approx(1.1 * catalog::rtx_4090.memory(tier::shared).throughput.value()));
  CHECK(d.memory(tier::global).throughput == catalog::rtx_4090.memory(tier::global).throughput);
  d.set_latency_cycles(tier::global, 600, "pointer chase");
  CHECK(d.memory(tier::global).latency.value() == Approx(600 / 2.772e9));
}

TEST_CASE("every estimator accepts a measured device", "[calibrate][measured]") {
  measured_device d(catalog::h100_sxm);
  d.set_bandwidth(tier::global, 3.0_TBps, "test").set_launch_overhead(2_us, "test");
  CHECK(d.launch_overhead() == 2_us);
  CHECK(best_gemm(d, {4096, 4096, 4096, 1, dtype::bf16}).time.value() > 0);
  CHECK(estimate_attention_fused(d, {1, 8, 1024, 1024, 128, dtype::bf16}).time.value() > 0);
  CHECK(estimate_transformer_layer(d, {1, 512, 1024, 8}, true).size() == 7);
  CHECK(estimate_bottleneck(d, {8, 64, 56, 56, 64}, true).time().value() > 0);
  CHECK(cycles_with_tensor_cores(dettmers_example, latencies_of(d.arch())).total() > 0);
}

TEST_CASE("copies of a measured device keep their own strings", "[calibrate][measured]") {
  gpu_facts facts = catalog::l4.facts();
  std::string name = "lab L4 #3";
  facts.name = name;
  facts.id = "lab_l4";
  auto* original = new measured_device(ada_ad10x::spec, facts);
  original->set_bandwidth(tier::global, 250_GBps, "triad");
  name.assign(64, 'x');  // the caller's string changes; the device keeps its copy
  measured_device copy = *original;
  delete original;
  CHECK(copy.name() == "lab L4 #3");
  CHECK(copy.nominal().name() == "lab L4 #3");
  CHECK(copy.id() == "lab_l4");
  CHECK(in_gigabytes_per_second(copy.memory(tier::global).throughput) == Approx(250));
  measured_device assigned(catalog::t4);
  assigned = copy;
  CHECK(assigned.nominal().id() == "lab_l4");
}

TEST_CASE("impossible measurements are rejected, naming the figure",
          "[calibrate][measured][errors]") {
  measured_device d(catalog::a100_sxm4_40gb);
  CHECK_THROWS_WITH(d.set_bandwidth(tier::global, bytes(0) / 1_s, "x"),
                    "bandwidth of tier global must be positive and finite");
  CHECK_THROWS_AS(d.set_bandwidth(tier::l2, make<bandwidth>(-1), "x"), invalid_argument);
  CHECK_THROWS_AS(d.set_latency_cycles(tier::shared, std::numeric_limits<double>::infinity(), "x"),
                  invalid_argument);
  CHECK_THROWS_WITH(d.set_sm_clock(make<frequency>(0), "x"),
                    "SM clock must be positive and finite");
  CHECK_THROWS_WITH(d.set_gemm_efficiency(dtype::fp16, 2.0, "x"),
                    Catch::StartsWith("GEMM efficiency of fp16 must be in [0.01, 1]"));
  CHECK_THROWS_WITH(d.set_gemm_efficiency(dtype::fp16, 1.06, "x"),
                    Catch::Contains("records the measured SM clock"));
  // Under 1 % of the peak is a broken run, not an efficiency (core/plausible.hpp).
  CHECK_THROWS_WITH(d.set_gemm_efficiency(dtype::fp16, 0.005, "x"),
                    Catch::StartsWith("GEMM efficiency of fp16 must be in [0.01, 1]"));
  CHECK_THROWS_AS(d.set_gemm_efficiency(dtype::fp16, 1e-308, "x"), invalid_argument);
  CHECK_NOTHROW(d.set_gemm_efficiency(dtype::fp16, 0.01, "x"));
  CHECK_THROWS_AS(d.set_launch_overhead(seconds(-1e-6), "x"), invalid_argument);
  CHECK_THROWS_WITH(d.set_achieved(dtype::fp8_e4m3, accumulator::fp32, 1_PFLOPS, "x"),
                    Catch::Contains("ampere_ga100 cannot run fp8_e4m3"));
}

TEST_CASE("host probes run for real and pass sanity checks", "[calibrate][host][probe]") {
  const calibrate::host_info info = calibrate::probe_host();
  CHECK(info.threads >= 1);
  CHECK(info.l2.value() > 0);
  CHECK(info.last_level >= info.l2);
  CHECK(info.memory.value() > 0);
  // Small sizes and few repetitions: a test checks the flow and sanity, not the figures.
  calibrate::host_plan plan = calibrate::plan_for(info);
  plan.fma_iterations = 1'000'000;
  plan.chase_steps = 200'000;
  const calibrate::protocol quick{1, 3};
  const host_device host = calibrate::calibrate_host(info, plan, quick);
  const host_device::figures& f = host.measured();
  for (const calibrate::measured_value* v :
       {&f.fp32_tflops, &f.dram_gbps, &f.cache_gbps, &f.dram_latency_ns, &f.cache_latency_ns}) {
    CHECK(v->value > 0);
    CHECK(std::isfinite(v->value));
    CHECK(!v->method.empty());
  }
  CHECK(f.dram_gbps.value < f.cache_gbps.value);              // DRAM slower than cache
  CHECK(f.dram_latency_ns.value > f.cache_latency_ns.value);  // and further away
  // The CPU and a GPU on one roofline: a memory-bound copy runs at each one's DRAM bandwidth.
  const auto copy = workload{}.compute(dtype::fp32, 0_FLOP).move(tier::global, 1_GB);
  const roofline_result cpu = roofline(host, copy);
  CHECK(cpu.bound == bound::global);
  CHECK(cpu.time.value() == Approx(1.0 / f.dram_gbps.value));
  CHECK(roofline(catalog::rtx_2060, copy).time < cpu.time);
  CHECK_THROWS_AS(roofline(host, workload{}.compute(dtype::fp16, 1_GFLOP)), unsupported);
}

TEST_CASE("samples that disagree by more than 10 % give a warning naming the figure",
          "[calibrate]") {
  CHECK(calibrate::max_agreeing_spread == 0.10);  // docs/calibration.md
  const measured_value steady{18.8, "triad", 0.05};
  const measured_value busy{18.8, "triad", 0.234};
  CHECK(calibrate::spread_warning("DRAM bandwidth", steady).empty());
  CHECK(calibrate::spread_warning("DRAM bandwidth", {18.8, "triad", 0.10}).empty());
  CHECK(calibrate::spread_warning("DRAM bandwidth", busy) ==
        "DRAM bandwidth: the samples disagree by 23 % (more than 10 %); rerun on an idle machine "
        "or with more repetitions");
  CHECK_FALSE(calibrate::spread_warning("L2 latency", steady, 0.04).empty());
}

TEST_CASE("host calibration reports each figure as its probe finishes",
          "[calibrate][host][probe]") {
  const calibrate::host_info info = calibrate::probe_host();
  calibrate::host_plan plan = calibrate::plan_for(info);
  plan.fma_iterations = 100'000;
  plan.chase_steps = 20'000;
  // This case checks the order of the reports, not the figures (the case above does): a DRAM
  // buffer of 64 MiB instead of four times the last-level cache, which on a machine reporting
  // 480 MiB of L3 is 1.9 GB to fill and shuffle (20 s of a serial test).
  plan.dram_buffer = bytes(64.0 * 1024 * 1024);
  std::vector<std::string> figures;
  const host_device host = calibrate::calibrate_host(
      info, plan, {0, 2},
      [&](std::string_view figure, std::string_view unit, const measured_value& v) {
        figures.push_back(std::string(figure) + " [" + std::string(unit) + "]");
        CHECK(v.value > 0);
        CHECK(v.spread >= 0);
      });
  CHECK(figures == std::vector<std::string>{"DRAM bandwidth [GB/s]", "cache bandwidth [GB/s]",
                                            "FP32 throughput [TFLOP/s]", "DRAM latency [ns]",
                                            "cache latency [ns]"});
  CHECK(static_cast<int>(figures.size()) == calibrate::host_probe_count);
  CHECK(host.measured().dram_gbps.value > 0);
}

TEST_CASE("host probes reject impossible sizes", "[calibrate][host][errors]") {
  CHECK_THROWS_AS(calibrate::measure_triad(bytes(100), 1, {}), invalid_argument);
  CHECK_THROWS_AS(calibrate::measure_triad(1_MiB, 0, {}), invalid_argument);
  CHECK_THROWS_AS(calibrate::measure_fma(1, 0, {}), invalid_argument);
  CHECK_THROWS_AS(calibrate::measure_latency(bytes(64), 10, {}), invalid_argument);
  host_device::figures f;
  f.name = "broken";
  CHECK_THROWS_WITH(host_device(f), "host device: clock_mhz must be positive and finite");
}

namespace {
calibrate::device_info amd(const char* name, const char* isa, int cus, double gib) {
  calibrate::device_info d;
  d.name = name;
  d.isa = isa;
  d.sms = cus;
  d.memory_bytes = gib * 1024 * 1024 * 1024;
  return d;
}
}  // namespace

TEST_CASE("HIP devices map to catalog ids by ISA, name and memory", "[calibrate][gpu]") {
  using calibrate::amd_catalog_id;
  // gcnArchName carries target features after ':'; MI250X and MI250 report one name.
  CHECK(amd_catalog_id(amd("AMD Instinct MI250X / MI250", "gfx90a:sramecc+:xnack-", 110, 64)) ==
        "mi250x");
  CHECK(amd_catalog_id(amd("AMD Instinct MI210", "gfx90a:sramecc+:xnack-", 104, 64)) == "mi210");
  CHECK(amd_catalog_id(amd("", "gfx90a", 104, 64)) == "mi210");
  // gfx942: 192 GB HBM3 (191.98 GiB reported) is the MI300X, 256 GB HBM3E the MI325X.
  CHECK(amd_catalog_id(amd("AMD Instinct MI300X", "gfx942:sramecc+:xnack-", 304, 191.98)) ==
        "mi300x");
  CHECK(amd_catalog_id(amd("AMD Instinct MI325X", "gfx942:sramecc+:xnack-", 304, 256)) == "mi325x");
  CHECK(amd_catalog_id(amd("AMD Instinct MI300A", "gfx942:sramecc+:xnack-", 228, 128)) == "mi300a");
  // gfx1100: the RX 7900 XTX by name, or by 96 compute units and 24 GB; the W7900 by name or
  // 96 compute units and 48 GB; the RX 7900 XT by its 84 compute units.
  CHECK(amd_catalog_id(amd("Radeon RX 7900 XTX", "gfx1100", 96, 23.98)) == "rx_7900_xtx");
  CHECK(amd_catalog_id(amd("", "gfx1100", 96, 23.98)) == "rx_7900_xtx");
  CHECK(amd_catalog_id(amd("AMD Radeon PRO W7900", "gfx1100", 96, 47.98)) == "radeon_pro_w7900");
  CHECK(amd_catalog_id(amd("", "gfx1100", 96, 47.98)) == "radeon_pro_w7900");
  CHECK(amd_catalog_id(amd("Radeon RX 7900 XT", "gfx1100", 84, 19.98)) == "rx_7900_xt");
  CHECK(amd_catalog_id(amd("AMD Radeon RX 6900 XT", "gfx1030", 80, 16)).empty());
  // Every id the mapping gives is a catalog entry of the right architecture.
  CHECK(catalog::find("mi250x").arch().family == family::cdna2);
  CHECK(catalog::find(amd_catalog_id(amd("AMD Instinct MI300X", "gfx942", 304, 191.98)))
            .arch()
            .family == family::cdna3);
  CHECK(catalog::find("mi325x").arch().family == family::cdna3);
  CHECK(catalog::find(amd_catalog_id(amd("Radeon RX 7900 XTX", "gfx1100", 96, 23.98)))
            .arch()
            .family == family::rdna3);
}

TEST_CASE("CUDA device names map to catalog entries that exist", "[calibrate][gpu]") {
  using calibrate::nvidia_catalog_id;
  CHECK(nvidia_catalog_id("NVIDIA H100 80GB HBM3") == "h100_sxm");
  CHECK(nvidia_catalog_id("NVIDIA H100 PCIe") == "h100_pcie");
  CHECK(nvidia_catalog_id("NVIDIA A100-SXM4-80GB") == "a100_sxm4_80gb");
  CHECK(nvidia_catalog_id("NVIDIA A100-SXM4-40GB") == "a100_sxm4_40gb");
  CHECK(nvidia_catalog_id("NVIDIA A800-SXM4-80GB") == "a800_sxm4_80gb");
  CHECK(nvidia_catalog_id("NVIDIA RTX A5000") == "rtx_a5000");
  CHECK(nvidia_catalog_id("NVIDIA RTX A4000") == "rtx_a4000");
  CHECK(nvidia_catalog_id("Tesla P40") == "tesla_p40");
  CHECK(nvidia_catalog_id("NVIDIA GeForce RTX 4070 Ti") == "rtx_4070_ti");
  CHECK(nvidia_catalog_id("NVIDIA RTX 6000 Ada Generation") == "rtx_6000_ada");
  CHECK(nvidia_catalog_id("Tesla K80").empty());
  // The ids the rules return name catalog entries.
  for (const char* name :
       {"NVIDIA H200", "NVIDIA B200", "NVIDIA L40S", "NVIDIA L4", "NVIDIA A10", "Tesla T4",
        "Tesla V100-SXM2-16GB", "Tesla P100-SXM2-16GB", "NVIDIA TITAN RTX", "TITAN V",
        "NVIDIA TITAN Xp", "NVIDIA GeForce GTX 1650 SUPER", "NVIDIA GeForce RTX 5090"}) {
    const std::string_view id = nvidia_catalog_id(name);
    INFO(name);
    REQUIRE_FALSE(id.empty());
    CHECK_NOTHROW(catalog::find(id));
  }
}

TEST_CASE("CUDA device names match whole model names, not their neighbours", "[calibrate][gpu]") {
  using calibrate::nvidia_catalog_id;
  CHECK(nvidia_catalog_id("NVIDIA L4") == "l4");
  CHECK(nvidia_catalog_id("NVIDIA L40S") == "l40s");
  CHECK(nvidia_catalog_id("NVIDIA A10") == "a10");
  CHECK(nvidia_catalog_id("NVIDIA GeForce RTX 3080") == "rtx_3080");
  CHECK(nvidia_catalog_id("NVIDIA GeForce GTX 1080 Ti") == "gtx_1080_ti");
  CHECK(nvidia_catalog_id("Tesla V100-SXM2-16GB") == "v100_sxm2");
  // Variants with entries of their own.
  CHECK(nvidia_catalog_id("NVIDIA H100 NVL") == "h100_nvl");
  CHECK(nvidia_catalog_id("NVIDIA H20") == "h20");
  CHECK(nvidia_catalog_id("NVIDIA H200") == "h200_sxm");
  CHECK(nvidia_catalog_id("NVIDIA L20") == "l20");
  CHECK(nvidia_catalog_id("NVIDIA A100 80GB PCIe") == "a100_pcie_80gb");
  CHECK(nvidia_catalog_id("NVIDIA GeForce RTX 4080 SUPER") == "rtx_4080_super");
  CHECK(nvidia_catalog_id("NVIDIA GeForce RTX 4070 Ti SUPER") == "rtx_4070_ti_super");
  CHECK(nvidia_catalog_id("NVIDIA GeForce RTX 3080 Ti") == "rtx_3080_ti");
  CHECK(nvidia_catalog_id("NVIDIA RTX PRO 6000 Blackwell Workstation Edition") == "rtx_pro_6000");
  // Other boards whose names contain a catalog model: none has an entry (the 4060 Ti and 3060 are
  // sold with two memory sizes under one name).
  for (const char* name :
       {"NVIDIA L40", "NVIDIA A10G", "NVIDIA RTX A1000", "NVIDIA T400", "NVIDIA GeForce RTX 4090 D",
        "NVIDIA GeForce RTX 2060 SUPER", "NVIDIA GeForce RTX 4090 Laptop GPU",
        "NVIDIA GeForce GTX 1650", "NVIDIA GeForce GTX 1660", "NVIDIA GeForce RTX 4060 Ti",
        "NVIDIA GeForce RTX 3060", "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"}) {
    INFO(name);
    CHECK(nvidia_catalog_id(name).empty());
  }
}

TEST_CASE("compute capability 7.5 is TU10x with tensor cores only when the name says so",
          "[calibrate][gpu]") {
  using calibrate::nvidia_architecture;
  const auto cc75 = [](const char* name) {
    calibrate::device_info d;
    d.name = name;
    d.cc_major = 7;
    d.cc_minor = 5;
    return nvidia_architecture(d);
  };
  // TU116/TU117 boards have no tensor cores (turing.hpp): never the TU10x architecture.
  for (const char* name : {"NVIDIA GeForce GTX 1660", "NVIDIA GeForce GTX 1660 Ti",
                           "NVIDIA GeForce GTX 1650", "NVIDIA GeForce MX450", "NVIDIA T1000"}) {
    INFO(name);
    REQUIRE(cc75(name) == "turing_tu11x");
    CHECK(find_architecture(cc75(name)).tensor_cores_per_sm == 0);
  }
  for (const char* name : {"NVIDIA GeForce RTX 2080 SUPER", "Quadro RTX 4000", "Tesla T4"}) {
    INFO(name);
    REQUIRE(cc75(name) == "turing_tu10x");
    CHECK(find_architecture(cc75(name)).tensor_cores_per_sm == 8);
  }
  // A name that tells neither: no guess (guess_nominal then asks for --gpu ID).
  CHECK(cc75("NVIDIA CMP 30HX").empty());
  calibrate::device_info orin;
  orin.cc_major = 8;
  orin.cc_minor = 7;
  CHECK(nvidia_architecture(orin).empty());
  orin.cc_minor = 6;
  CHECK(nvidia_architecture(orin) == "ampere_ga10x");
}

TEST_CASE("GPU backends say when there is no GPU, or no such device", "[calibrate][gpu][errors]") {
  using calibrate::gpu_error;
  using calibrate::require_device;
  CHECK_THROWS_WITH(
      require_device<gpu_error>("HIP", "hipGetDeviceCount", 0, 0, true, "hipErrorNoDevice"),
      "no HIP GPU found (hipGetDeviceCount: hipErrorNoDevice)");
  CHECK_THROWS_WITH(require_device<gpu_error>("CUDA", "cudaGetDeviceCount", 0, 0, false, ""),
                    "no CUDA GPU found (cudaGetDeviceCount: 0 devices)");
  CHECK_THROWS_WITH(require_device<gpu_error>("CUDA", "cudaGetDeviceCount", 2, 2, false, ""),
                    "no CUDA device 2 (2 present)");
  CHECK_THROWS_WITH(require_device<gpu_error>("HIP", "hipGetDeviceCount", -1, 1, false, ""),
                    "no HIP device -1 (1 present)");
  CHECK_NOTHROW(require_device<gpu_error>("HIP", "hipGetDeviceCount", 1, 2, false, ""));
}

TEST_CASE("a GPU calibration log hands each line on the moment it is added, in order",
          "[calibrate][gpu]") {
  // The CUDA and HIP backends print progress through on_line while their probes run; here the
  // sink sees the log as it stood when each line arrived.
  calibrate::calibration_log log;
  std::vector<std::size_t> seen_before;
  std::vector<std::string> printed;
  log.on_line = [&](const std::string& line) {
    seen_before.push_back(log.lines.size());
    printed.push_back(line);
  };
  log.add("SM clock under load: 1755 MHz");
  log.add("DRAM bandwidth: 1.73 TB/s");
  CHECK(printed ==
        std::vector<std::string>{"SM clock under load: 1755 MHz", "DRAM bandwidth: 1.73 TB/s"});
  CHECK(seen_before == std::vector<std::size_t>{0, 1});  // before it was kept, not after the run
  CHECK(log.lines == printed);
  calibrate::calibration_log quiet;  // no sink: lines are only kept
  quiet.add("skipped");
  CHECK(quiet.lines == std::vector<std::string>{"skipped"});
}

TEST_CASE("The latency probes' pointer chase visits every line of its buffer once a cycle",
          "[calibrate][gpu]") {
  // The GPU latency probe chases next[] through one slot per 128-byte line; a chase that came back
  // to a line early would be served by L2 and report L2's latency as DRAM's (as a chase replaying
  // the same 100000 lines did on an H100: 292 cycles for "DRAM", 290 for L2).
  using calibrate::detail::random_cycle;
  for (const std::size_t stride : {std::size_t{1}, std::size_t{32}}) {
    const std::size_t slots = 32 * 1000;
    const std::vector<unsigned> next = random_cycle(slots, stride);
    REQUIRE(next.size() == slots);
    std::vector<bool> seen(slots, false);
    unsigned at = 0;
    std::size_t steps = 0;
    do {
      REQUIRE(at % stride == 0);  // only line starts are visited
      REQUIRE_FALSE(seen[at]);    // and none twice before the cycle closes
      seen[at] = true;
      at = next[at];
      ++steps;
    } while (at != 0 && steps <= slots);
    CHECK(steps == slots / stride);  // one cycle through every line
  }
  // Random, not sequential: a prefetcher must not see a stride.
  const std::vector<unsigned> next = random_cycle(32 * 1000, 32);
  std::size_t sequential = 0;
  for (std::size_t s = 0; s + 32 < next.size(); s += 32) sequential += next[s] == s + 32 ? 1U : 0U;
  CHECK(sequential < 10);
}

TEST_CASE("A calibration says where the runtime's device disagrees with its catalog entry",
          "[calibrate][gpu]") {
  using calibrate::catalog_mismatches;
  using calibrate::device_info;
  // What the CUDA runtime reported on the lent GPUs (docs/calibration.md, 2026-11-27).
  device_info h100{};
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.sms = 132;
  h100.l2_bytes = 52428800;
  h100.memory_bytes = 85017493504;
  device_info h200 = h100;
  h200.name = "NVIDIA H200";
  h200.l2_bytes = 62914560;
  h200.memory_bytes = 150109880320;
  CHECK(catalog_mismatches(h100, catalog::h100_sxm).empty());
  CHECK(catalog_mismatches(h200, catalog::h200_sxm).empty());  // 60 MiB of L2 since it was read
  // The H200 started from the H100's entry: its L2 and memory are named, with both values.
  const std::vector<std::string> wrong = catalog_mismatches(h200, catalog::h100_sxm);
  REQUIRE(wrong.size() == 2);
  CHECK_THAT(wrong[0],
             Catch::Contains("60.0 MiB of L2") && Catch::Contains("h100_sxm has 50.0 MiB"));
  CHECK_THAT(wrong[1], Catch::Contains("139.8 GiB of memory") && Catch::Contains("80.0 GiB"));
  CHECK_THAT(wrong[1], Catch::Contains("pass --gpu ID"));
  // An H100 SXM taken for the PCIe board (114 SMs): the SM count is named.
  const std::vector<std::string> pcie = catalog_mismatches(h100, catalog::h100_pcie);
  REQUIRE_FALSE(pcie.empty());
  CHECK_THAT(pcie[0], Catch::Contains("132 multiprocessors") && Catch::Contains("114"));
  // Figures the runtime did not report (0) are not compared.
  CHECK(catalog_mismatches(device_info{}, catalog::h100_sxm).empty());
}
