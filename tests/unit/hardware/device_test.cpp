// The device concept: devices built at run time go through the same estimators.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <sstream>
#include <string>

using namespace dlperf;
using namespace dlperf::literals;

namespace {

// A device that is not a GPU: a CPU described by numbers known only at run time (what a host
// calibration would produce). It models dlperf::device without touching gpu_spec.
class cpu_device {
 public:
  cpu_device(std::string name, double gflops, double dram_gbps)
      : name_(std::move(name)), gflops_(gflops), dram_gbps_(dram_gbps) {}
  [[nodiscard]] std::string_view name() const { return name_; }
  [[nodiscard]] bool supports(dtype t, accumulator a, sparsity s) const {
    return t == dtype::fp32 && a == accumulator::fp32 && s == sparsity::dense;
  }
  [[nodiscard]] flop_rate peak(dtype t, accumulator a, sparsity s) const {
    if (!supports(t, a, s)) throw unsupported(name_ + " runs only dense fp32");
    return make<flop_rate>(gflops_ * 1e9);
  }
  [[nodiscard]] tier_spec memory(tier m) const {
    const double bw = m == tier::global ? dram_gbps_ : 10 * dram_gbps_;
    return {bytes(1e9), make<bandwidth>(bw * 1e9), 100.0, seconds(30e-9)};
  }

 private:
  std::string name_;
  double gflops_;
  double dram_gbps_;
};

static_assert(device<cpu_device>);
static_assert(device<gpu_spec>);
static_assert(device<gpu<ampere_ga100>>);
static_assert(!device<int>);

}  // namespace

TEST_CASE("a device built at run time is estimated like a catalog GPU", "[device]") {
  // docs/model.md#model_bandwidth: a desktop CPU has ~50 GB/s of memory bandwidth.
  std::istringstream measured("1000 50");
  double gflops = 0, gbps = 0;
  measured >> gflops >> gbps;
  const cpu_device cpu("desktop CPU", gflops, gbps);
  const auto w = workload{}.compute(dtype::fp32, 100_GFLOP).move(tier::global, 10_GB);
  const auto r = roofline(cpu, w);
  CHECK(r.bound == bound::global);
  CHECK(r.time.value() == Approx(10e9 / 50e9));
  // The same workload on an RTX 2060 (336 GB/s): 6.7x faster, as bandwidth predicts.
  const auto g = roofline(catalog::rtx_2060, w);
  CHECK(r.time / g.time == Approx(336.0 / 50.0));
  CHECK_THROWS_AS(roofline(cpu, workload{}.compute(dtype::fp16, 1_GFLOP)), unsupported);
}

TEST_CASE("a gpu_spec built at run time from measured figures changes the answer", "[device]") {
  gpu_facts facts = catalog::rtx_3090.facts();
  facts.data_rate_gbps *= 0.85;  // e.g. measured DRAM bandwidth at 85 % of the datasheet
  const gpu_spec measured(catalog::rtx_3090.arch(), facts);
  const auto w = workload{}.compute(dtype::fp16, 1_GFLOP).move(tier::global, 10_GB);
  const auto nominal = roofline(catalog::rtx_3090, w);
  const auto real = roofline(measured, w);
  CHECK(real.time / nominal.time == Approx(1 / 0.85));
}

TEST_CASE("a GPU with impossible facts is rejected, naming the field", "[device][errors]") {
  gpu_facts facts = catalog::t4.facts();
  facts.sms = 0;
  CHECK_THROWS_WITH(gpu_spec(catalog::t4.arch(), facts),
                    "GPU 't4': SM count must be a positive number");
  facts = catalog::t4.facts();
  facts.boost_clock = megahertz(-1);
  CHECK_THROWS_WITH(gpu_spec(catalog::t4.arch(), facts), Catch::Contains("boost clock"));
  facts = catalog::t4.facts();
  facts.data_rate_gbps = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(gpu_spec(catalog::t4.arch(), facts), Catch::Contains("memory data rate"));
  facts = catalog::t4.facts();
  facts.memory = bytes(0);
  CHECK_THROWS_AS(gpu_spec(catalog::t4.arch(), facts), invalid_argument);
}

TEST_CASE("compile-time checked peaks agree with the run-time path", "[device]") {
  CHECK(peak(catalog::rtx_4090, fp8_e4m3, accumulate_fp16) ==
        catalog::rtx_4090.peak(dtype::fp8_e4m3, accumulator::fp16));
  CHECK(peak(catalog::a100_sxm4_40gb, bf16, accumulate_fp32, sparse_2_4) ==
        catalog::a100_sxm4_40gb.peak(dtype::bf16, accumulator::fp32, sparsity::sparse_2_4));
  CHECK(peak(catalog::t4, int8) == catalog::t4.peak(dtype::int8));
}
