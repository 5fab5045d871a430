// Must not compile: a 128x128 warp tile needs 512 accumulator registers per thread.
// expect: more than 255 registers per thread
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>
int blocks = dlperf::blocks_per_sm<dlperf::ampere_ga100, dlperf::tile<256, 256, 32, 128, 128, 2>,
                                   dlperf::fp16_tag>();
