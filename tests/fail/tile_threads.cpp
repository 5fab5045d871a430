// Must not compile: 64 warps of 32x32 in a 256x256 block are 2048 threads.
// expect: more threads per block than the architecture allows
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/nvidia/arch/hopper.hpp>
int blocks = dlperf::blocks_per_sm<dlperf::hopper_gh100, dlperf::tile<256, 256, 64, 32, 32, 2>,
                                   dlperf::bf16_tag>();
