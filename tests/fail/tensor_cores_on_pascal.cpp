// Must not compile: Pascal has no tensor cores.
// expect: has no tensor cores
#include <dlperf/hardware/architectures.hpp>
int rate = dlperf::tensor_fma_per_clock<dlperf::pascal_gp10x, dlperf::fp16_tag>();
