// Must not compile: 256x256x64 with 3 stages needs 192 KiB of shared memory; GA10x allows 99 KiB.
// expect: stages exceed the architecture's shared memory per block
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>
int blocks = dlperf::blocks_per_sm<dlperf::ampere_ga10x, dlperf::tile<256, 256, 64, 64, 64, 3>,
                                   dlperf::fp16_tag>();
