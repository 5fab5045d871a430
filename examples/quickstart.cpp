// The README's usage example: compile-time and run-time questions through the same functions.
#include <dlperf/dlperf.hpp>
#include <iostream>

using namespace dlperf;
using namespace dlperf::literals;

// "This GEMM is compute-bound on H100 in FP8": 8192^3 GEMM, FP8 operands, FP16 output.
constexpr double n = 8192;
constexpr auto gemm = workload{}
                          .compute(dtype::fp8_e4m3, flops(2 * n * n * n))
                          .move(tier::global, bytes(2 * n * n * 1 + n * n * 2));
constexpr auto on_h100 = roofline(catalog::h100_sxm, gemm);
static_assert(on_h100.bound == bound::compute, "expected compute-bound");
static_assert(traits(dtype::fp16).max_finite() == 65504.0);

int main() {
  const auto& gpu = catalog::find("rtx_4090");  // the same estimator at run time
  const auto r = roofline(gpu, gemm);
  std::cout << gpu.name() << ": " << in_teraflops(r.attainable) << " TFLOPS, "
            << name(r.bound) << "-bound, " << r.time.value() * 1e3 << " ms\n";
}
