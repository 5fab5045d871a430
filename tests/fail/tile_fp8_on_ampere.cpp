// Must not compile: an FP8 tile on Ampere's tensor cores.
// expect: tensor cores cannot multiply this datatype
#include <dlperf/estimate/tile.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>
int blocks = dlperf::blocks_per_sm<dlperf::ampere_ga100, dlperf::tile<128, 128, 64, 64, 64, 3>,
                                   dlperf::fp8_e4m3_tag>();
