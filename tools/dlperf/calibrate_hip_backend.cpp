// The dlperf tool's HIP calibration backend, compiled in clang's HIP mode (-x hip) when
// DLPERF_WITH_HIP is on. Includes no JSON (see hip_backend.hpp): calibrate_command.cpp writes
// the device file.
#include "hip_backend.hpp"

#include <dlperf/calibrate/hip.hpp>

namespace dlperf::cli {

measured_device calibrate_hip_device(int index, const std::string& gpu_id,
                                     const calibrate::protocol& p,
                                     calibrate::calibration_log& log) {
  return calibrate::hip::calibrate_device(index, gpu_id, p, log);
}

}  // namespace dlperf::cli
