// The GPU calibration backends the tool is built with (CUDA, HIP), or their refusal.
#pragma once

#include <dlperf/calibrate/gpu_device.hpp>
#include <dlperf/calibrate/measurement.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace dlperf::cli {

/// Runs the CUDA calibration of GPU @p index (catalog entry @p gpu_id, or guessed from its
/// name when empty) under @p p; returns the device file JSON and adds progress to @p log as the
/// probes run.
/// Throws usage_error when this dlperf was built without CUDA, dlperf::error (exit 2) when
/// there is no GPU.
nlohmann::json run_cuda_calibration(int index, const std::string& gpu_id,
                                    const calibrate::protocol& p, calibrate::calibration_log& log);

/// The same for HIP GPU @p index (an AMD GPU; the GEMM probes are skipped and logged). Throws
/// usage_error when this dlperf was built without HIP, dlperf::error (exit 2) when there is no
/// GPU.
nlohmann::json run_hip_calibration(int index, const std::string& gpu_id,
                                   const calibrate::protocol& p, calibrate::calibration_log& log);

}  // namespace dlperf::cli
