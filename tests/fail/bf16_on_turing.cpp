// Must not compile: Turing's tensor cores have no BF16 path.
// expect: BF16 and TF32 need Ampere or later
#include <dlperf/hardware/architectures.hpp>
int rate = dlperf::tensor_fma_per_clock<dlperf::turing_tu10x, dlperf::bf16_tag>();
