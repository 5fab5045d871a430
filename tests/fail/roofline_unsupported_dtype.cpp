// Must not compile: a constant-evaluated roofline of FP8 on A100 reaches the rejection.
// expect: throw_unsupported
#include <dlperf/dlperf.hpp>
using namespace dlperf::literals;
constexpr auto r = dlperf::roofline(dlperf::catalog::a100_sxm4_40gb,
                                    dlperf::workload{}.compute(dlperf::dtype::fp8_e4m3, 1_TFLOP));
