// Compile-time tests: units compose and convert inside constant expressions.
#include <dlperf/core/units.hpp>

using namespace dlperf;
using namespace dlperf::literals;

static_assert((1_TFLOP / 1_TFLOPS).value() == 1.0, "FLOP / FLOP/s is seconds");
static_assert((2_GB / 1_s) == 2_GBps, "bytes / seconds is a bandwidth");
static_assert((1_PFLOPS).value() == 1e15);
static_assert((1_KiB).value() == 1024.0 && (1_KB).value() == 1000.0);
static_assert((1_kWh).value() == 3.6e6, "1 kWh is 3.6 MJ");
static_assert(in_megahertz(1410_MHz) == 1410.0);
static_assert((350_W * 2_s).value() == 700.0, "watts times seconds is joules");
static_assert(1.5_GHz > 1410_MHz);
static_assert((10_usd + 5_usd).value() == 15.0);
