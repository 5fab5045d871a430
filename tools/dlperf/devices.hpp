// What the commands say about their devices: a power limit, a sustained clock and the stack
// figures a device file measured.
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <string>
#include <string_view>

namespace dlperf::cli {

/// The line for people: "power limit 500 W of 700 W: SM clock 1.77 GHz, 89.4 % of its speed at
/// full power ...".
std::string power_limit_text(const app::power_limit_info& p);

/// The line for people: "clock: a long job's tensor work holds 1.47 GHz, 80.3 % of the 1.83 GHz
/// its peak is quoted at ...".
std::string sustained_clock_text(const app::sustained_clock_info& s);

/// "measured on @p where: gemm_efficiency 0.700 (torch.matmul ...), host_overhead 21.0 µs
/// (...)": calibration @p c for the text output.
std::string describe_measured(const stack_calibration& c, std::string_view where);

}  // namespace dlperf::cli
