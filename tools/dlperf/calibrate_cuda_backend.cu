// The dlperf tool's CUDA calibration backend, compiled by nvcc when DLPERF_WITH_CUDA is on.
#include <dlperf/calibrate/cuda.hpp>
#include <dlperf/io/device_file.hpp>

#include "cli_support.hpp"

namespace dlperf::cli {

nlohmann::json run_cuda_calibration(int index, const std::string& gpu_id,
                                    const calibrate::protocol& p, calibrate::calibration_log& log) {
  return calibrate::to_json(calibrate::cuda::calibrate_device(index, gpu_id, p, log));
}

}  // namespace dlperf::cli
