/// @file
/// HIP calibration: measures an AMD GPU the way dlperf/calibrate/cuda.hpp measures an NVIDIA one
/// and returns it as a `measured_device`. A thin backend: the probes, their protocol and how they
/// fill the device are in dlperf/calibrate/gpu_probes.hpp; this header adds the HIP runtime
/// shim, the device query and `guess_nominal`. Compiled only in clang's HIP mode (`__HIPCC__`,
/// `-x hip` or hipcc); a plain C++ compiler sees nothing but the error class. Link with
/// libamdhip64 (CMake: hip::host).
///
/// No GEMM probes: Debian bookworm packages no hipBLAS, so the backend has no BLAS to time and
/// logs the GEMM probes as skipped; every peak of a HIP-calibrated device stays nominal (its
/// provenance says so). clock64() is HIP's shader-cycle counter (s_memtime on the gfx9 and
/// gfx10 targets built here). Every HIP call is checked; failures (no GPU, out of memory) throw
/// `dlperf::calibrate::hip_error` with the call and the HIP message. See docs/calibration.md.
#pragma once

#include <dlperf/calibrate/gpu_probes.hpp>

namespace dlperf::calibrate {

/// A HIP runtime call failed, or there is no HIP GPU: the message names the call and the error.
class hip_error : public gpu_error {
 public:
  using gpu_error::gpu_error;
};

}  // namespace dlperf::calibrate

#if defined(__HIPCC__)

#include <hip/hip_runtime.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/measured_device.hpp>

namespace dlperf::calibrate::hip {

/// Throws hip_error naming @p call unless @p status is hipSuccess.
inline void check(hipError_t status, const char* call) {
  if (status != hipSuccess)
    throw hip_error(std::string(call) + " failed: " + hipGetErrorName(status) + " (" +
                    hipGetErrorString(status) + ")");
}

/// Checks a HIP runtime call, naming it in the error.
#define DLPERF_HIP_CHECK(call) ::dlperf::calibrate::hip::check((call), #call)

using calibrate::calibration_log;
using calibrate::device_info;

/// Device @p index's properties. Throws hip_error when there is no such device (or no GPU).
inline device_info query(int index) {
  int count = 0;
  const hipError_t status = hipGetDeviceCount(&count);
  require_device<hip_error>("HIP", "hipGetDeviceCount", index, count,
                            status == hipErrorNoDevice || status == hipErrorInsufficientDriver,
                            status == hipSuccess ? "" : hipGetErrorString(status));
  check(status, "hipGetDeviceCount");
  DLPERF_HIP_CHECK(hipSetDevice(index));
  hipDeviceProp_t p{};
  DLPERF_HIP_CHECK(hipGetDeviceProperties(&p, index));
  device_info d = shared_properties(index, p);
  d.isa = p.gcnArchName;
  d.clock_mhz = p.clockRate / 1000.0;
  d.memory_clock_mhz = p.memoryClockRate / 1000.0;
  d.bus_width_bits = p.memoryBusWidth;
  return d;
}

/// The HIP runtime shim of the shared probes (see gpu::calibrate_gpu).
struct runtime {
  static constexpr std::string_view name = "HIP";  ///< names the events in provenance
  using event_type = hipEvent_t;                   ///< a HIP event
  /// Device @p index's properties.
  static device_info query(int index) { return hip::query(index); }
  /// hipMalloc.
  static void allocate(void** p, std::size_t bytes) { DLPERF_HIP_CHECK(hipMalloc(p, bytes)); }
  /// hipFree (unchecked: runs in destructors).
  static void release(void* p) { (void)hipFree(p); }
  /// hipMemset to 0.
  static void zero(void* p, std::size_t bytes) { DLPERF_HIP_CHECK(hipMemset(p, 0, bytes)); }
  /// Host to device copy.
  static void to_device(void* dst, const void* src, std::size_t bytes) {
    DLPERF_HIP_CHECK(hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice));
  }
  /// Device to host copy.
  static void to_host(void* dst, const void* src, std::size_t bytes) {
    DLPERF_HIP_CHECK(hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost));
  }
  /// hipEventCreate.
  static void event_create(event_type* e) { DLPERF_HIP_CHECK(hipEventCreate(e)); }
  /// hipEventDestroy (unchecked: runs in destructors).
  static void event_destroy(event_type e) { (void)hipEventDestroy(e); }
  /// hipEventRecord on the default stream.
  static void event_record(event_type e) { DLPERF_HIP_CHECK(hipEventRecord(e, nullptr)); }
  /// Waits for @p stop and returns the seconds from @p start to it.
  static double event_seconds(event_type start, event_type stop) {
    DLPERF_HIP_CHECK(hipEventSynchronize(stop));
    float ms = 0;
    DLPERF_HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    return ms * 1e-3;
  }
  /// Throws hip_error naming @p what when the last launch failed.
  static void check_launch(const char* what) { check(hipGetLastError(), what); }
  /// Why the GEMM probes are skipped: there is no hipBLAS to time.
  static std::string gemm_skipped() {
    return "the HIP backend has no BLAS (Debian bookworm packages no hipBLAS)";
  }
  /// Never called (gemm_skipped is not empty).
  static std::string_view gemm_library(dtype) { return "hipBLAS"; }
  /// Never called (gemm_skipped is not empty).
  static sample_stats time_gemm(dtype t, int, const protocol&) {
    throw hip_error("no HIP GEMM probe for " + std::string(::dlperf::name(t)));
  }
  /// The nominal device to start from (hip::guess_nominal).
  static measured_device guess_nominal(const device_info& d);
};

/// Measures HIP device @p index and returns @p m (its catalog entry, see `guess_nominal`) with
/// the measurements of dlperf/calibrate/gpu_probes.hpp in place; the GEMM probes are logged as
/// skipped. Throws hip_error when there is no GPU or a probe's HIP call fails.
inline measured_device calibrate_gpu(int index, measured_device m, const protocol& p,
                                     calibration_log* log = nullptr) {
  return gpu::calibrate_gpu<runtime>(index, std::move(m), p, log);
}

/// Calibrates HIP device @p index as gpu::calibrate_device does: from catalog entry @p gpu_id, or
/// from `guess_nominal` when empty, appending progress and the skipped GEMM probes to @p log.
inline measured_device calibrate_device(int index, std::string_view gpu_id, const protocol& p,
                                        calibration_log& log) {
  return gpu::calibrate_device<runtime>(index, gpu_id, p, log);
}

/// The catalog entry of the device (amd_catalog_id: gfx90a -> mi250x or mi210, gfx942 -> mi300x,
/// mi325x or mi300a, gfx1100 -> rx_7900_xtx, rx_7900_xt or radeon_pro_w7900). Throws hip_error
/// naming the device when no entry matches or this dlperf's catalog lacks it: pass `--gpu ID` then.
inline measured_device guess_nominal(const device_info& d) {
  const std::string_view id = amd_catalog_id(d);
  const std::string device = "'" + d.name + "' (" + d.isa + ")";
  if (id.empty()) throw hip_error("no catalog entry for HIP device " + device + ": pass --gpu ID");
  try {
    return measured_device(catalog::find(id));
  } catch (const not_found& e) {
    throw hip_error("HIP device " + device + " is catalog id '" + std::string(id) +
                    "', which this dlperf's catalog lacks (" + e.what() + "): pass --gpu ID");
  }
}

inline measured_device runtime::guess_nominal(const device_info& d) {
  return hip::guess_nominal(d);
}

}  // namespace dlperf::calibrate::hip

#endif  // __HIPCC__
