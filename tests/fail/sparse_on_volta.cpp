// Must not compile: 2:4 structured sparsity needs Ampere or later.
// expect: 2:4 structured sparsity needs Ampere or later
#include <dlperf/dlperf.hpp>
auto p = dlperf::peak(dlperf::catalog::v100_sxm2, dlperf::fp16, dlperf::accumulate_fp32,
                      dlperf::sparse_2_4);
