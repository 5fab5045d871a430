// Conan test package: the umbrella header, one estimate at compile time, one at run time.
#include <dlperf/dlperf.hpp>
#include <iostream>

using namespace dlperf;
using namespace dlperf::literals;

// An 8192^3 BF16 GEMM on an H100 SXM is compute-bound (docs/model.md, the roofline).
constexpr double n = 8192;
constexpr auto gemm =
    workload{}.compute(dtype::bf16, flops(2 * n * n * n)).move(tier::global, bytes(3 * n * n * 2));
static_assert(roofline(catalog::h100_sxm, gemm).bound == bound::compute);

int main() {
  const auto r = roofline(catalog::find("a100_sxm4_40gb"), gemm);
  std::cout << "dlperf " << dlperf::version << ": A100 8192^3 BF16 GEMM "
            << in_teraflops(r.attainable) << " TFLOPS, " << describe(r.bound) << "\n";
  return r.bound == bound::compute ? 0 : 1;
}
