// What every command of the dlperf tool includes: the error that maps to exit code 2, the
// application layer's names the commands use, and the tool's shared pieces, one header each
// (command_table.hpp, flags.hpp, json_output.hpp, devices.hpp, job_text.hpp,
// calibration_backends.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <deque>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/price_file.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/calibrate/gpu_device.hpp>
#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/io/device_file.hpp>
#include <dlperf/io/json.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "calibration_backends.hpp"
#include "command_table.hpp"
#include "devices.hpp"
#include "flags.hpp"
#include "human_format.hpp"
#include "job_text.hpp"
#include "json_output.hpp"

namespace dlperf::cli {

/// Bad input on the command line: reported as one line on stderr with exit code 2. The
/// application layer's error (dlperf/app/request_error.hpp), so that a request the library's
/// front ends share is refused the same way from the tool, Python and the page.
using usage_error = app::request_error;

using app::parse_amount;
using app::parse_count;
using app::parse_fraction;
using app::parse_plausible;
using app::parse_plausible_count;
using app::plausible_range;
using app::plausible_range_of;
using app::plausible_ranges;

/// Datatypes reported in `dlperf gpus`, in column order.
inline constexpr std::array<dtype, 6> reported_dtypes{dtype::fp32, dtype::tf32,     dtype::fp16,
                                                      dtype::bf16, dtype::fp8_e4m3, dtype::int8};

/// The device a command runs on: a catalog GPU (--gpu ID) or a device file (--device FILE).
using cli_device = app::device_choice;
using app::device_label;
using app::gpu_device_file;
using app::job_collectives_json;
using app::measured_figures_json;
using app::parse_power_limit;
using app::power_limit_info;
using app::power_limit_json;
using app::read_price_file;
using app::select_device;
using app::stack_on_device;
using app::training_band_json;
using app::visit_device;
using app::with_power_limit;

}  // namespace dlperf::cli
