// Must not compile: A100's tensor cores have no FP8.
// expect: cannot multiply this datatype
#include <dlperf/dlperf.hpp>
auto p = dlperf::peak(dlperf::catalog::a100_sxm4_40gb, dlperf::fp8_e4m3);
