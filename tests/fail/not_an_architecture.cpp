// Must not compile: int is not an architecture tag.
// expect: architecture
#include <dlperf/hardware/architectures.hpp>
int rate = dlperf::tensor_fma_per_clock<int, dlperf::fp16_tag>();
