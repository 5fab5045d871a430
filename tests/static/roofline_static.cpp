// Compile-time tests: the roofline answers inside static_assert.
#include <dlperf/dlperf.hpp>

using namespace dlperf;
using namespace dlperf::literals;

namespace roofline_static {  // named: the unity build shares one anonymous namespace per batch
constexpr double n = 8192;
constexpr auto big_gemm =
    workload{}.compute(dtype::fp8_e4m3, flops(2 * n * n * n)).move(tier::global, bytes(3 * n * n));
constexpr auto small_copy = workload{}.compute(dtype::fp32, 0_FLOP).move(tier::global, 1_GB);

static_assert(roofline(catalog::h100_sxm, big_gemm).bound == bound::compute,
              "an 8192^3 FP8 GEMM is compute-bound on H100");
static_assert(roofline(catalog::h100_sxm, small_copy).bound == bound::global);
static_assert(roofline(catalog::a100_sxm4_40gb, workload{}.compute(dtype::fp16, 1_TFLOP))
                      .ridge_point.value() > 200.0,
              "A100 FP16 ridge point ~200 FLOP/byte");
static_assert(roofline(catalog::v100_sxm2, small_copy).time >
              roofline(catalog::a100_sxm4_40gb, small_copy).time);

}  // namespace roofline_static
