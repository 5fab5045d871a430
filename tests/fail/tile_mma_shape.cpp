// Must not compile: a 24-row warp tile is not a multiple of Ampere's m16n8k16.
// expect: MMA instruction shape
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>
int blocks = dlperf::blocks_per_sm<dlperf::ampere_ga100, dlperf::tile<96, 96, 32, 24, 48, 2>,
                                   dlperf::fp16_tag>();
