// Must not compile: bytes are not FLOP.
// expect: flop_base_dimension
#include <dlperf/core/units.hpp>
using namespace dlperf::literals;
dlperf::flop_count work = 1_GB;
