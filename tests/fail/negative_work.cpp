// Must not compile: a negative FLOP count in a constant expression is rejected.
// expect: throw_invalid_argument
#include <dlperf/dlperf.hpp>
constexpr auto w = dlperf::workload{}.compute(dlperf::dtype::fp16, dlperf::flops(-1));
