// The dlperf tool's HIP calibration, as its HIP translation unit sees it: no JSON, CLI11 or fmt
// there, since clang 15 crashes compiling nlohmann::json for an AMD GPU (device side of -x hip).
#pragma once

#include <string>
#include <vector>

#include <dlperf/calibrate/gpu_probes.hpp>
#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/hardware/measured_device.hpp>

namespace dlperf::cli {

/// Calibrates HIP GPU @p index (catalog entry @p gpu_id, or guessed from the device when empty)
/// under @p p and adds progress, including the skipped GEMM probes, to @p log as it goes. Throws
/// calibrate::hip_error (exit 2) when there is no GPU; in a dlperf built without HIP, usage_error.
measured_device calibrate_hip_device(int index, const std::string& gpu_id,
                                     const calibrate::protocol& p, calibrate::calibration_log& log);

}  // namespace dlperf::cli
