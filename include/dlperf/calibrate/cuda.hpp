/// @file
/// CUDA calibration: measures a real GPU and returns it as a `measured_device`, the type every
/// estimator accepts. A thin backend: the probes, their protocol and how they fill the device are
/// in dlperf/calibrate/gpu_probes.hpp, shared with the HIP backend; this header adds the CUDA
/// runtime shim, the device query, the cuBLAS/cuBLASLt GEMM probes and `guess_nominal`.
/// Compiled only when the translation unit is compiled by nvcc (`__CUDACC__`); a plain C++
/// compiler sees nothing but the error class, so including it anywhere is harmless. Link with
/// CUDA::cudart and, for the GEMM probes, CUDA::cublas and CUDA::cublasLt (define
/// DLPERF_CALIBRATE_NO_CUBLAS to leave them out, which logs the GEMM probes as skipped).
///
/// GEMM probes: 8192^3 on random operands through cuBLAS (FP32, TF32, FP16, BF16, INT8) and
/// cuBLASLt (FP8 E4M3, from compute capability 8.9); a datatype the GPU or library cannot run is
/// skipped and reported, not fatal. Every CUDA call is checked; failures (no GPU, out of memory, an
/// unsupported datatype) throw `dlperf::calibrate::cuda_error` with the call and the CUDA
/// message, never crash.
#pragma once

#include <dlperf/calibrate/gpu_probes.hpp>

namespace dlperf::calibrate {

/// A CUDA runtime or library call failed: the message names the call and the error.
class cuda_error : public gpu_error {
 public:
  using gpu_error::gpu_error;
};

}  // namespace dlperf::calibrate

#if defined(__CUDACC__)

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef DLPERF_CALIBRATE_NO_CUBLAS
#include <cublasLt.h>
#include <cublas_v2.h>
#endif

#include <dlperf/hardware/architectures.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/measured_device.hpp>

namespace dlperf::calibrate::cuda {

/// Throws cuda_error naming @p call unless @p status is cudaSuccess.
inline void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw cuda_error(std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                     cudaGetErrorString(status) + ")");
}

/// Checks a CUDA runtime call, naming it in the error.
#define DLPERF_CUDA_CHECK(call) ::dlperf::calibrate::cuda::check((call), #call)

#ifndef DLPERF_CALIBRATE_NO_CUBLAS
/// Throws cuda_error naming @p call unless @p status is CUBLAS_STATUS_SUCCESS.
inline void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw cuda_error(std::string(call) + " failed: cuBLAS status " +
                     std::to_string(static_cast<int>(status)));
}
#endif

using calibrate::calibration_log;
using calibrate::device_info;

/// Device @p index's properties. Throws cuda_error when there is no such device (or no GPU).
inline device_info query(int index) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  require_device<cuda_error>("CUDA", "cudaGetDeviceCount", index, count,
                             status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver,
                             status == cudaSuccess ? "" : cudaGetErrorString(status));
  check(status, "cudaGetDeviceCount");
  DLPERF_CUDA_CHECK(cudaSetDevice(index));
  cudaDeviceProp p{};
  DLPERF_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  device_info d = shared_properties(index, p);
  d.isa = "sm_" + std::to_string(p.major * 10 + p.minor);
  int khz = 0, mem_khz = 0, bus = 0;
  DLPERF_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index));
  DLPERF_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, index));
  DLPERF_CUDA_CHECK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, index));
  d.clock_mhz = khz / 1000.0;
  d.memory_clock_mhz = mem_khz / 1000.0;
  d.bus_width_bits = bus;
  return d;
}

/// The CUDA runtime shim of the shared probes (see gpu::calibrate_gpu).
struct runtime {
  static constexpr std::string_view name = "CUDA";  ///< names the events in provenance
  using event_type = cudaEvent_t;                   ///< a CUDA event
  /// Device @p index's properties.
  static device_info query(int index) { return cuda::query(index); }
  /// cudaMalloc.
  static void allocate(void** p, std::size_t bytes) { DLPERF_CUDA_CHECK(cudaMalloc(p, bytes)); }
  /// cudaFree (unchecked: runs in destructors).
  static void release(void* p) { cudaFree(p); }
  /// cudaMemset to 0.
  static void zero(void* p, std::size_t bytes) { DLPERF_CUDA_CHECK(cudaMemset(p, 0, bytes)); }
  /// Host to device copy.
  static void to_device(void* dst, const void* src, std::size_t bytes) {
    DLPERF_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  }
  /// Device to host copy.
  static void to_host(void* dst, const void* src, std::size_t bytes) {
    DLPERF_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
  }
  /// cudaEventCreate.
  static void event_create(event_type* e) { DLPERF_CUDA_CHECK(cudaEventCreate(e)); }
  /// cudaEventDestroy (unchecked: runs in destructors).
  static void event_destroy(event_type e) { cudaEventDestroy(e); }
  /// cudaEventRecord on the default stream.
  static void event_record(event_type e) { DLPERF_CUDA_CHECK(cudaEventRecord(e)); }
  /// Waits for @p stop and returns the seconds from @p start to it.
  static double event_seconds(event_type start, event_type stop) {
    DLPERF_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    DLPERF_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms * 1e-3;
  }
  /// Throws cuda_error naming @p what when the last launch failed.
  static void check_launch(const char* what) { check(cudaGetLastError(), what); }
  /// Why the GEMM probes are skipped, empty when cuBLAS is linked.
  static std::string gemm_skipped() {
#ifdef DLPERF_CALIBRATE_NO_CUBLAS
    return "built with DLPERF_CALIBRATE_NO_CUBLAS (no cuBLAS)";
#else
    return {};
#endif
  }
  /// The library that runs the GEMM of @p t.
  static std::string_view gemm_library(dtype t) {
    return t == dtype::fp8_e4m3 ? "cuBLASLt" : "cuBLAS";
  }
  /// The n^3 GEMM of @p t (cuda::time_gemm).
  static sample_stats time_gemm(dtype t, int n, const protocol& p);
  /// The nominal device to start from (cuda::guess_nominal).
  static measured_device guess_nominal(const device_info& d);
};

/// Device memory that frees itself.
template <class T>
using device_buffer = gpu::device_buffer<runtime, T>;
/// A pair of CUDA events that time what is enqueued between `start` and `stop`.
using event_timer = gpu::event_timer<runtime>;

#ifndef DLPERF_CALIBRATE_NO_CUBLAS
namespace kernels {

// Uniform pseudo-random values in [-1, 1) (integers in [-64, 63]) from a hash of the index.
template <class T>
__global__ void fill_uniform(T* p, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    unsigned x = static_cast<unsigned>(i) * 0x9E3779B9u ^ seed;  // a multiply-xorshift hash
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    const float u = static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
    if constexpr (std::is_same_v<T, std::int8_t>)
      p[i] = static_cast<std::int8_t>(u * 64.0f);
    else
      p[i] = T(u);
  }
}

}  // namespace kernels

/// Fills the @p n elements of type @p t at @p p with uniform random values (kernels::fill_uniform).
/// A GEMM probe on zeros measures a GPU that toggles no bits: an H100 SXM ran cuBLAS's BF16
/// 8192^3 at 892 TFLOP/s on zeros in this probe, against 767-784 on random operands (and 717
/// through PyTorch; docs/calibration.md), so the operands are random, as real weights are.
inline void fill_random(void* p, dtype t, std::size_t n, unsigned seed) {
  const auto launch = [&](auto* typed) {
    kernels::fill_uniform<<<1024, 256>>>(typed, n, seed);
    check(cudaGetLastError(), "fill_uniform kernel");
  };
  switch (t) {
    case dtype::fp32:
    case dtype::tf32:
      return launch(static_cast<float*>(p));
    case dtype::fp16:
      return launch(static_cast<__half*>(p));
    case dtype::bf16:
      return launch(static_cast<__nv_bfloat16*>(p));
    case dtype::fp8_e4m3:
      return launch(static_cast<__nv_fp8_e4m3*>(p));
    case dtype::int8:
      return launch(static_cast<std::int8_t*>(p));
    default:
      throw cuda_error("cuBLAS probe: no random fill for " + std::string(name(t)));
  }
}

/// Achieved throughput of an n^3 GEMM in FP8 E4M3 through cuBLASLt (the TN layout, unit scales,
/// FP16 out), per median sample. Throws cuda_error when the GPU or library cannot run it.
inline sample_stats time_fp8_gemm(int n, const protocol& p) {
  const std::size_t elems = static_cast<std::size_t>(n) * n;
  const dtype t = dtype::fp8_e4m3;
  event_timer timer;
  cublasLtHandle_t lt{};
  check(cublasLtCreate(&lt), "cublasLtCreate");
  struct lt_guard {
    cublasLtHandle_t h;
    ~lt_guard() { cublasLtDestroy(h); }
  } guard{lt};
  device_buffer<std::uint8_t> a(elems), b(elems);
  device_buffer<__half> c(elems);
  device_buffer<float> scale(1);
  const float one = 1.0f;
  DLPERF_CUDA_CHECK(cudaMemcpy(scale.get(), &one, sizeof one, cudaMemcpyHostToDevice));
  fill_random(a.get(), t, elems, 1u);
  fill_random(b.get(), t, elems, 2u);
  cublasLtMatmulDesc_t op{};
  check(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "MatmulDescCreate");
  const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
  check(
      cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose),
      "set TRANSA (FP8 needs the TN layout)");
  check(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof keep),
        "set TRANSB");
  const float* sp = scale.get();
  check(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sp, sizeof sp),
        "set A scale");
  check(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sp, sizeof sp),
        "set B scale");
  cublasLtMatrixLayout_t la{}, lb{}, lc{};
  check(cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, n, n, n), "layout A");
  check(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, n, n, n), "layout B");
  check(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16F, n, n, n), "layout C");
  const float alpha = 1.0f, beta = 0.0f;
  const auto once = [&] {
    timer.start();
    check(cublasLtMatmul(lt, op, &alpha, a.get(), la, b.get(), lb, &beta, c.get(), lc, c.get(), lc,
                         nullptr, nullptr, 0, nullptr),
          "cublasLtMatmul (FP8 E4M3)");
    return timer.stop();
  };
  const sample_stats st = time_repeated(once, p);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(op);
  return st;
}

/// cuBLAS's operand, output and compute types of a GEMM in @p t, with their sizes in bytes.
struct cublas_gemm_types {
  cudaDataType_t in{};            ///< A and B
  cudaDataType_t out{};           ///< C
  cublasComputeType_t compute{};  ///< accumulation
  std::size_t in_size = 0;        ///< bytes per element of A and B
  std::size_t out_size = 0;       ///< bytes per element of C
};

/// The cuBLAS types of a GEMM in @p t. Throws cuda_error for a type cublasGemmEx does not run.
inline cublas_gemm_types cublas_types(dtype t) {
  cublas_gemm_types g;
  switch (t) {
    case dtype::fp32:
      g.in = g.out = CUDA_R_32F;
      g.compute = CUBLAS_COMPUTE_32F;
      g.in_size = g.out_size = 4;
      break;
    case dtype::tf32:
      g.in = g.out = CUDA_R_32F;
      g.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
      g.in_size = g.out_size = 4;
      break;
    case dtype::fp16:
      g.in = g.out = CUDA_R_16F;
      g.compute = CUBLAS_COMPUTE_32F;
      g.in_size = g.out_size = 2;
      break;
    case dtype::bf16:
      g.in = g.out = CUDA_R_16BF;
      g.compute = CUBLAS_COMPUTE_32F;
      g.in_size = g.out_size = 2;
      break;
    case dtype::int8:
      g.in = CUDA_R_8I;
      g.out = CUDA_R_32I;
      g.compute = CUBLAS_COMPUTE_32I;
      g.in_size = 1;
      g.out_size = 4;
      break;
    default:
      throw cuda_error("cuBLAS probe: no GEMM path for " + std::string(name(t)));
  }
  return g;
}

/// Achieved throughput of an n^3 GEMM in @p t through cuBLAS (cuBLASLt for FP8), in FLOP/s per
/// median sample. Throws cuda_error when the GPU or library cannot run @p t (the caller skips
/// that datatype).
inline sample_stats time_gemm(dtype t, int n, const protocol& p) {
  if (t == dtype::fp8_e4m3) return time_fp8_gemm(n, p);
  const cublas_gemm_types g = cublas_types(t);
  const std::size_t elems = static_cast<std::size_t>(n) * n;
  event_timer timer;
  cublasHandle_t h{};
  check(cublasCreate(&h), "cublasCreate");
  struct guard_t {
    cublasHandle_t h;
    ~guard_t() { cublasDestroy(h); }
  } guard{h};
  device_buffer<std::uint8_t> a(elems * g.in_size), b(elems * g.in_size), c(elems * g.out_size);
  fill_random(a.get(), t, elems, 1u);
  fill_random(b.get(), t, elems, 2u);
  const float alpha_f = 1.0f, beta_f = 0.0f;
  const int alpha_i = 1, beta_i = 0;
  const void* alpha = t == dtype::int8 ? static_cast<const void*>(&alpha_i) : &alpha_f;
  const void* beta = t == dtype::int8 ? static_cast<const void*>(&beta_i) : &beta_f;
  // INT8 GEMMs need the TN layout in cuBLAS.
  const cublasOperation_t ta = t == dtype::int8 ? CUBLAS_OP_T : CUBLAS_OP_N;
  const auto once = [&] {
    timer.start();
    check(cublasGemmEx(h, ta, CUBLAS_OP_N, n, n, n, alpha, a.get(), g.in, n, b.get(), g.in, n, beta,
                       c.get(), g.out, n, g.compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
    return timer.stop();
  };
  return time_repeated(once, p);
}
#endif

inline sample_stats runtime::time_gemm([[maybe_unused]] dtype t, [[maybe_unused]] int n,
                                       [[maybe_unused]] const protocol& p) {
#ifndef DLPERF_CALIBRATE_NO_CUBLAS
  return cuda::time_gemm(t, n, p);
#else
  throw cuda_error("built with DLPERF_CALIBRATE_NO_CUBLAS");
#endif
}

/// Measures device @p index and returns @p m (its catalog entry or a from-scratch description,
/// see `guess_nominal`) with the measurements in place (the probes of
/// dlperf/calibrate/gpu_probes.hpp). Throws cuda_error when there is no GPU or a probe's CUDA
/// call fails for any reason other than an unsupported datatype.
inline measured_device calibrate_gpu(int index, measured_device m, const protocol& p,
                                     calibration_log* log = nullptr) {
  return gpu::calibrate_gpu<runtime>(index, std::move(m), p, log);
}

/// Calibrates CUDA device @p index as gpu::calibrate_device does: from catalog entry @p gpu_id,
/// or from `guess_nominal` when empty, appending progress and skipped probes to @p log.
inline measured_device calibrate_device(int index, std::string_view gpu_id, const protocol& p,
                                        calibration_log& log) {
  return gpu::calibrate_device<runtime>(index, gpu_id, p, log);
}

/// The catalog entry whose name the device's name matches (e.g. "NVIDIA H100 80GB HBM3" ->
/// h100_sxm, see nvidia_catalog_id), else a description built from the runtime's properties on
/// the architecture nvidia_architecture gives. Throws cuda_error "unknown GPU ...: pass --gpu ID"
/// when neither tells (an unknown compute capability, or a 7.5 name that does not say whether the
/// chip has tensor cores).
inline measured_device guess_nominal(const device_info& d) {
  if (const std::string_view id = nvidia_catalog_id(d.name); !id.empty())
    return measured_device(catalog::find(id));
  const std::string_view arch = nvidia_architecture(d);
  if (arch.empty())
    throw cuda_error("unknown GPU '" + d.name + "' (compute capability " +
                     std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) +
                     "): pass --gpu ID with the catalog entry it is closest to");
  gpu_facts f{};
  f.id = "measured";
  f.name = d.name;
  f.segment = segment::datacenter;
  f.sms = d.sms;
  f.boost_clock = megahertz(d.clock_mhz);
  f.memory = bytes(d.memory_bytes);
  f.memory_type = memory_kind::hbm3;
  f.bus_width_bits = d.bus_width_bits;
  f.data_rate_gbps = 2.0 * d.memory_clock_mhz / 1000.0;  // DDR: two transfers per clock
  f.l2 = bytes(d.l2_bytes);
  f.tdp = watts(1);
  f.source = "CUDA runtime device properties";
  return measured_device(find_architecture(arch), f);
}

inline measured_device runtime::guess_nominal(const device_info& d) {
  return cuda::guess_nominal(d);
}

}  // namespace dlperf::calibrate::cuda

#endif  // __CUDACC__
