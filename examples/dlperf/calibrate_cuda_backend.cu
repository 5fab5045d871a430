// The dlperf tool's CUDA calibration backend, compiled by nvcc when DLPERF_WITH_CUDA is on.
#include <dlperf/calibrate/cuda.hpp>
#include <dlperf/io/device_file.hpp>

#include "cli_support.hpp"

namespace dlperf::cli {

nlohmann::json run_cuda_calibration(int index, const std::string& gpu_id,
                                    const calibrate::protocol& p, std::vector<std::string>& log) {
  namespace cuda = calibrate::cuda;
  const cuda::device_info info = cuda::query(index);  // throws cuda_error without a GPU
  measured_device start =
      gpu_id.empty() ? cuda::guess_nominal(info) : measured_device(catalog::find(gpu_id));
  log.push_back("calibrating CUDA device " + std::to_string(index) + ": " + info.name + " as " +
                std::string(start.id()));
  cuda::calibration_log probes;
  const measured_device measured = cuda::calibrate_gpu(index, start, p, &probes);
  log.insert(log.end(), probes.lines.begin(), probes.lines.end());
  return calibrate::to_json(measured);
}

}  // namespace dlperf::cli
