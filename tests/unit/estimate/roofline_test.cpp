// Roofline: bounds, times, ridge points and the model's bandwidth argument.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <limits>

using namespace dlperf;
using namespace dlperf::literals;

TEST_CASE("a large GEMM is compute-bound, a copy is memory-bound", "[roofline]") {
  // 8192^3 FP16 GEMM: 2 n^3 FLOP over 3 n^2 x 2 bytes.
  const double n = 8192;
  const auto gemm = workload{}
                        .compute(dtype::fp16, flops(2 * n * n * n))
                        .move(tier::global, bytes(3 * n * n * 2));
  const auto r = roofline(catalog::a100_sxm4_40gb, gemm);
  CHECK(r.bound == bound::compute);
  CHECK(in_teraflops(r.attainable) == Approx(in_teraflops(r.peak)));
  CHECK(r.time.value() == Approx(2 * n * n * n / 311.9e12).epsilon(0.001));

  const auto copy = workload{}.compute(dtype::fp32, 0_FLOP).move(tier::global, 2_GB);
  const auto c = roofline(catalog::a100_sxm4_40gb, copy);
  CHECK(c.bound == bound::global);
  CHECK(c.time.value() == Approx(2e9 / 1555.2e9));
  CHECK(c.arithmetic_intensity.value() == 0.0);
}

TEST_CASE("ridge point is peak over DRAM bandwidth", "[roofline]") {
  const auto w = workload{}.compute(dtype::fp16, 1_TFLOP).move(tier::global, 1_GB);
  const auto r = roofline(catalog::a100_sxm4_40gb, w);
  CHECK(r.ridge_point.value() ==
        Approx(catalog::a100_sxm4_40gb.peak(dtype::fp16).value() / 1555.2e9));
  CHECK(r.ridge_point.value() == Approx(200.5).epsilon(0.001));
  CHECK(r.arithmetic_intensity.value() == Approx(1000.0));
  // Intensity 1000 > ridge ~200: compute-bound. At intensity 100 it is memory-bound.
  CHECK(r.bound == bound::compute);
  const auto m = roofline(catalog::a100_sxm4_40gb,
                          workload{}.compute(dtype::fp16, 100_GFLOP).move(tier::global, 1_GB));
  CHECK(m.bound == bound::global);
  CHECK(in_teraflops(m.attainable) == Approx(100 * 1555.2e9 / 1e12));
}

// docs/model.md#model_speedups and #model_bandwidth: between tensor-core GPUs bandwidth predicts
// speed; A100 vs V100 bandwidth ratio 1555 / 900 = 1.73.
TEST_CASE("memory-bound speed-up A100 over V100 is the bandwidth ratio", "[roofline][model]") {
  const auto w = workload{}.compute(dtype::fp16, 10_GFLOP).move(tier::global, 10_GB);
  const auto a100 = roofline(catalog::a100_sxm4_40gb, w);
  const auto v100 = roofline(catalog::v100_sxm2, w);
  REQUIRE(a100.bound == bound::global);
  REQUIRE(v100.bound == bound::global);
  CHECK(v100.time / a100.time == Approx(1.73).epsilon(0.005));
}

TEST_CASE("a slower tier can bind", "[roofline]") {
  // Huge L2 traffic and little DRAM traffic: L2-bound.
  const auto w =
      workload{}.compute(dtype::fp16, 1_GFLOP).move(tier::l2, 100_GB).move(tier::global, 1_GB);
  const auto r = roofline(catalog::rtx_4090, w);
  CHECK(r.bound == bound::l2);
  CHECK(r.time == r.tier_time[tier::l2]);
}

TEST_CASE("mixed datatypes add their compute times", "[roofline]") {
  const auto w = workload{}.compute(dtype::fp8_e4m3, 1_PFLOP).compute(dtype::fp32, 1_TFLOP);
  const auto r = roofline(catalog::h100_sxm, w);
  const double expected = 1e15 / catalog::h100_sxm.peak(dtype::fp8_e4m3).value() +
                          1e12 / catalog::h100_sxm.peak(dtype::fp32).value();
  CHECK(r.compute_time.value() == Approx(expected));
  CHECK(r.bound == bound::compute);
  CHECK(std::isinf(r.arithmetic_intensity.value()));
}

TEST_CASE("sparsity halves the compute time of a compute-bound term", "[roofline]") {
  const auto dense_run = roofline(catalog::rtx_3090, workload{}.compute(dtype::fp16, 1_PFLOP));
  const auto sparse_run =
      roofline(catalog::rtx_3090,
               workload{}.compute(dtype::fp16, 1_PFLOP, accumulator::fp32, sparsity::sparse_2_4));
  CHECK(dense_run.time / sparse_run.time == Approx(2.0));
}

TEST_CASE("bad workloads are rejected with what is wrong", "[roofline][errors]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(workload{}.compute(dtype::fp16, flops(-1)),
                    "workload: FLOP count must be finite and >= 0");
  CHECK_THROWS_AS(workload{}.compute(dtype::fp16, flops(nan)), invalid_argument);
  CHECK_THROWS_AS(workload{}.compute(dtype::fp16, flops(inf)), invalid_argument);
  CHECK_THROWS_WITH(workload{}.move(tier::global, bytes(-5)),
                    "workload: byte count must be finite and >= 0");
  CHECK_THROWS_AS(workload{}.move(tier::l2, bytes(nan)), invalid_argument);
  CHECK_THROWS_WITH(roofline(catalog::h100_sxm, workload{}.move(tier::global, 1_GB)),
                    Catch::Contains("at least one compute term"));
  workload full;
  for (std::size_t i = 0; i < workload::max_terms; ++i) full = full.compute(dtype::fp32, 1_FLOP);
  CHECK_THROWS_WITH(full.compute(dtype::fp32, 1_FLOP), Catch::Contains("more than 8"));
}

TEST_CASE("a datatype the GPU cannot run is rejected, naming both", "[roofline][errors]") {
  const auto w = workload{}.compute(dtype::fp8_e4m3, 1_TFLOP).move(tier::global, 1_GB);
  CHECK_THROWS_AS(roofline(catalog::a100_sxm4_40gb, w), unsupported);
  CHECK_THROWS_WITH(roofline(catalog::a100_sxm4_40gb, w),
                    Catch::Contains("ampere_ga100") && Catch::Contains("fp8_e4m3"));
}
