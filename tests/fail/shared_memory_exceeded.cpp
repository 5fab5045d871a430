// Must not compile: a 200 KiB tile does not fit GA10x's 99 KiB of shared memory per block.
// expect: exceeds the architecture's shared memory per block
#include <dlperf/hardware/architectures.hpp>
bool fits = dlperf::fits_shared_memory_per_block<dlperf::ampere_ga10x, 200 * 1024>();
