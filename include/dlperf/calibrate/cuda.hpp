/// @file
/// CUDA calibration: measures a real GPU and returns it as a `measured_device`, the type every
/// estimator accepts. Compiled only when the translation unit is compiled by nvcc
/// (`__CUDACC__`); a plain C++ compiler sees nothing but this comment, so including it
/// anywhere is harmless. Link with CUDA::cudart and, for the GEMM probes, CUDA::cublas and
/// CUDA::cublasLt (define DLPERF_CALIBRATE_NO_CUBLAS to leave them out).
///
/// Probes, each timed with CUDA events after warm-up runs, median and spread of the
/// repetitions (the protocol of dlperf/calibrate/measurement.hpp):
///  - DRAM bandwidth: STREAM copy and triad over buffers four times the L2 (at least 1 GiB);
///  - L2 bandwidth: the triad over a quarter of the L2, repeated inside each sample;
///  - shared-memory bandwidth: every thread of every SM streaming 32-bit words through its
///    block's shared memory;
///  - latency in cycles: one thread chasing a random cycle of pointers, timed with clock64(), in
///    a buffer beyond L2 (DRAM), within L2, and in shared memory;
///  - achieved GEMM throughput per datatype: 8192^3 through cuBLAS (FP32, TF32, FP16, BF16,
///    INT8) and cuBLASLt (FP8 E4M3, from compute capability 8.9); a datatype the GPU or library
///    cannot run is skipped and reported, not fatal;
///  - the SM clock under load: clock64() cycles over wall time across a busy kernel;
///  - launch overhead: back-to-back empty kernels.
/// Every CUDA call is checked; failures (no GPU, out of memory, an unsupported datatype) throw
/// `dlperf::calibrate::cuda_error` with the call and the CUDA message, never crash.
#pragma once

#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/core/error.hpp>

namespace dlperf::calibrate {

/// A CUDA runtime or library call failed: the message names the call and the error.
class cuda_error : public ::dlperf::error {
 public:
  using ::dlperf::error::error;
};

}  // namespace dlperf::calibrate

#if defined(__CUDACC__)

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
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

/// Device memory that frees itself.
template <class T>
class device_buffer {
 public:
  /// Allocates @p n elements. Throws cuda_error (out of memory, no device).
  explicit device_buffer(std::size_t n) : n_(n) {
    DLPERF_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(p_); }
  /// Device pointer.
  T* get() const { return p_; }
  /// Elements.
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

/// A pair of CUDA events that time what is enqueued between `start` and `stop`.
class event_timer {
 public:
  event_timer() {
    DLPERF_CUDA_CHECK(cudaEventCreate(&start_));
    DLPERF_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  /// Records the start.
  void start() { DLPERF_CUDA_CHECK(cudaEventRecord(start_)); }
  /// Records the stop, waits for it, returns seconds since start.
  double stop() {
    DLPERF_CUDA_CHECK(cudaEventRecord(stop_));
    DLPERF_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    DLPERF_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

namespace kernels {

__global__ void triad(double* a, const double* b, const double* c, double s, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    a[i] = b[i] + s * c[i];
}

__global__ void copy(double* a, const double* b, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    a[i] = b[i];
}

// Each thread reads and writes its own 32-bit words of a 32 KiB block of shared memory `iters`
// times; conflict-free (consecutive threads, consecutive banks).
__global__ void shared_stream(float* out, int iters) {
  __shared__ float tile[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) tile[i] = static_cast<float>(i);
  __syncthreads();
  float acc = 0;
  for (int it = 0; it < iters; ++it)
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) {
      acc += tile[i];
      tile[i] = acc;
    }
  if (acc == -1.0f) out[blockIdx.x] = acc;  // never true; keeps the loop
}

// One thread follows next[] `steps` times and reports clock64() cycles per load.
__global__ void chase(const unsigned* next, unsigned start, int steps, unsigned* sink,
                      long long* cycles) {
  unsigned at = start;
  for (int i = 0; i < 64; ++i) at = next[at];  // warm the TLB and the path
  const long long t0 = clock64();
  for (int i = 0; i < steps; ++i) at = next[at];
  const long long t1 = clock64();
  *sink = at;
  *cycles = t1 - t0;
}

// The same chase inside shared memory (up to 8192 slots).
__global__ void chase_shared(const unsigned* next, int n, int steps, unsigned* sink,
                             long long* cycles) {
  __shared__ unsigned local[8192];
  for (int i = 0; i < n; ++i) local[i] = next[i];
  unsigned at = 0;
  for (int i = 0; i < 64; ++i) at = local[at];
  const long long t0 = clock64();
  for (int i = 0; i < steps; ++i) at = local[at];
  const long long t1 = clock64();
  *sink = at;
  *cycles = t1 - t0;
}

// Busy loop reporting the SM cycles it took, to relate clock64() to wall time.
__global__ void spin(long long cycles_wanted, long long* cycles) {
  const long long t0 = clock64();
  long long t = t0;
  while (t - t0 < cycles_wanted) t = clock64();
  if (threadIdx.x == 0 && blockIdx.x == 0) *cycles = t - t0;
}

__global__ void empty() {}

}  // namespace kernels

/// What the runtime says about a device.
struct device_info {
  int index = 0;                ///< CUDA device index
  std::string name;             ///< cudaDeviceProp::name
  int cc_major = 0;             ///< compute capability
  int cc_minor = 0;             ///< compute capability
  int sms = 0;                  ///< multiprocessors
  double l2_bytes = 0;          ///< L2 size
  double memory_bytes = 0;      ///< global memory
  double clock_mhz = 0;         ///< nominal SM clock (cudaDevAttrClockRate)
  int bus_width_bits = 0;       ///< memory bus width
  double memory_clock_mhz = 0;  ///< memory clock (cudaDevAttrMemoryClockRate)
};

/// Device @p index's properties. Throws cuda_error when there is no such device (or no GPU).
inline device_info query(int index) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver || count == 0)
    throw cuda_error(std::string("no CUDA GPU found (cudaGetDeviceCount: ") +
                     (status == cudaSuccess ? "0 devices" : cudaGetErrorString(status)) + ")");
  check(status, "cudaGetDeviceCount");
  if (index < 0 || index >= count)
    throw cuda_error("no CUDA device " + std::to_string(index) + " (" + std::to_string(count) +
                     " present)");
  DLPERF_CUDA_CHECK(cudaSetDevice(index));
  cudaDeviceProp p{};
  DLPERF_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  device_info d;
  d.index = index;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sms = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.memory_bytes = static_cast<double>(p.totalGlobalMem);
  int khz = 0, mem_khz = 0, bus = 0;
  DLPERF_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index));
  DLPERF_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, index));
  DLPERF_CUDA_CHECK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, index));
  d.clock_mhz = khz / 1000.0;
  d.memory_clock_mhz = mem_khz / 1000.0;
  d.bus_width_bits = bus;
  return d;
}

namespace detail {

inline std::string describe(const char* what, double bytes, const sample_stats& st) {
  return std::string(what) + ", " + std::to_string(static_cast<long long>(bytes)) +
         " B, CUDA events, median of " + std::to_string(st.count);
}

// STREAM kernel over three arrays of n doubles; `passes` launches per sample.
inline sample_stats time_triad(std::size_t n, int passes, const protocol& p, bool copy_only) {
  device_buffer<double> a(n), b(n), c(n);
  DLPERF_CUDA_CHECK(cudaMemset(a.get(), 0, n * sizeof(double)));
  DLPERF_CUDA_CHECK(cudaMemset(b.get(), 0, n * sizeof(double)));
  DLPERF_CUDA_CHECK(cudaMemset(c.get(), 0, n * sizeof(double)));
  event_timer timer;
  const auto once = [&] {
    timer.start();
    for (int i = 0; i < passes; ++i) {
      if (copy_only)
        kernels::copy<<<1024, 256>>>(a.get(), b.get(), n);
      else
        kernels::triad<<<1024, 256>>>(a.get(), b.get(), c.get(), 3.0, n);
    }
    DLPERF_CUDA_CHECK(cudaGetLastError());
    return timer.stop() / passes;
  };
  return time_repeated(once, p);
}

// Random cyclic permutation of n slots (fixed seed).
inline std::vector<unsigned> random_cycle(std::size_t n) {
  std::vector<unsigned> order(n), next(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(20261122);
  std::shuffle(order.begin() + 1, order.end(), rng);
  for (std::size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  return next;
}

inline sample_stats time_chase(std::size_t slots, int steps, const protocol& p, bool shared) {
  const std::vector<unsigned> next = random_cycle(slots);
  device_buffer<unsigned> d_next(slots), sink(1);
  device_buffer<long long> cycles(1);
  DLPERF_CUDA_CHECK(
      cudaMemcpy(d_next.get(), next.data(), slots * sizeof(unsigned), cudaMemcpyHostToDevice));
  const auto once = [&] {
    if (shared)
      kernels::chase_shared<<<1, 1>>>(d_next.get(), static_cast<int>(slots), steps, sink.get(),
                                      cycles.get());
    else
      kernels::chase<<<1, 1>>>(d_next.get(), 0u, steps, sink.get(), cycles.get());
    DLPERF_CUDA_CHECK(cudaGetLastError());
    long long c = 0;
    DLPERF_CUDA_CHECK(cudaMemcpy(&c, cycles.get(), sizeof c, cudaMemcpyDeviceToHost));
    // time_repeated wants positive samples: cycles per load, carried as a "time".
    return static_cast<double>(c) / steps;
  };
  return time_repeated(once, p);
}

}  // namespace detail

#ifndef DLPERF_CALIBRATE_NO_CUBLAS
/// Achieved throughput of an n^3 GEMM in @p t through cuBLAS (cuBLASLt for FP8), in FLOP/s per
/// median sample. Throws cuda_error when the GPU or library cannot run @p t (the caller skips
/// that datatype).
inline sample_stats time_gemm(dtype t, int n, const protocol& p) {
  const std::size_t elems = static_cast<std::size_t>(n) * n;
  const double work = 2.0 * n * static_cast<double>(n) * n;
  event_timer timer;
  if (t == dtype::fp8_e4m3) {
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
    DLPERF_CUDA_CHECK(cudaMemset(a.get(), 0, elems));
    DLPERF_CUDA_CHECK(cudaMemset(b.get(), 0, elems));
    cublasLtMatmulDesc_t op{};
    check(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "MatmulDescCreate");
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    check(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                         sizeof transpose),
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
      check(cublasLtMatmul(lt, op, &alpha, a.get(), la, b.get(), lb, &beta, c.get(), lc, c.get(),
                           lc, nullptr, nullptr, 0, nullptr),
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
  cudaDataType_t in{}, out{};
  cublasComputeType_t compute{};
  std::size_t in_size = 0, out_size = 0;
  switch (t) {
    case dtype::fp32:
      in = out = CUDA_R_32F;
      compute = CUBLAS_COMPUTE_32F;
      in_size = out_size = 4;
      break;
    case dtype::tf32:
      in = out = CUDA_R_32F;
      compute = CUBLAS_COMPUTE_32F_FAST_TF32;
      in_size = out_size = 4;
      break;
    case dtype::fp16:
      in = out = CUDA_R_16F;
      compute = CUBLAS_COMPUTE_32F;
      in_size = out_size = 2;
      break;
    case dtype::bf16:
      in = out = CUDA_R_16BF;
      compute = CUBLAS_COMPUTE_32F;
      in_size = out_size = 2;
      break;
    case dtype::int8:
      in = CUDA_R_8I;
      out = CUDA_R_32I;
      compute = CUBLAS_COMPUTE_32I;
      in_size = 1;
      out_size = 4;
      break;
    default:
      throw cuda_error("cuBLAS probe: no GEMM path for " + std::string(name(t)));
  }
  cublasHandle_t h{};
  check(cublasCreate(&h), "cublasCreate");
  struct guard_t {
    cublasHandle_t h;
    ~guard_t() { cublasDestroy(h); }
  } guard{h};
  device_buffer<std::uint8_t> a(elems * in_size), b(elems * in_size), c(elems * out_size);
  DLPERF_CUDA_CHECK(cudaMemset(a.get(), 0, elems * in_size));
  DLPERF_CUDA_CHECK(cudaMemset(b.get(), 0, elems * in_size));
  const float alpha_f = 1.0f, beta_f = 0.0f;
  const int alpha_i = 1, beta_i = 0;
  const void* alpha = t == dtype::int8 ? static_cast<const void*>(&alpha_i) : &alpha_f;
  const void* beta = t == dtype::int8 ? static_cast<const void*>(&beta_i) : &beta_f;
  // INT8 GEMMs need the TN layout in cuBLAS.
  const cublasOperation_t ta = t == dtype::int8 ? CUBLAS_OP_T : CUBLAS_OP_N;
  const auto once = [&] {
    timer.start();
    check(cublasGemmEx(h, ta, CUBLAS_OP_N, n, n, n, alpha, a.get(), in, n, b.get(), in, n, beta,
                       c.get(), out, n, compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
    return timer.stop();
  };
  return time_repeated(once, p);
}
#endif

/// Progress and skipped probes, for the caller to print.
struct calibration_log {
  std::vector<std::string> lines;  ///< one per probe: what was measured or why it was skipped
};

/// Measures device @p index and returns @p m (its catalog entry or a from-scratch description,
/// see `guess_nominal`) with the measurements in place. Throws cuda_error when there is no GPU
/// or a probe's CUDA call fails for any reason other than an unsupported datatype.
inline measured_device calibrate_gpu(int index, measured_device m, const protocol& p,
                                     calibration_log* log = nullptr) {
  const device_info d = query(index);
  const auto note = [&](const std::string& line) {
    if (log) log->lines.push_back(line);
  };

  // SM clock under load: cycles counted by clock64() over the kernel's event time.
  {
    device_buffer<long long> cycles(1);
    event_timer timer;
    const long long wanted = static_cast<long long>(d.clock_mhz * 1e6 * 0.05);  // ~50 ms
    const auto once = [&] {
      timer.start();
      kernels::spin<<<d.sms, 32>>>(wanted, cycles.get());
      const double seconds_taken = timer.stop();
      long long c = 0;
      DLPERF_CUDA_CHECK(cudaMemcpy(&c, cycles.get(), sizeof c, cudaMemcpyDeviceToHost));
      return seconds_taken / static_cast<double>(c);  // seconds per cycle
    };
    const sample_stats st = time_repeated(once, p);
    m.set_sm_clock(megahertz(1e-6 / st.median),
                   "clock64() cycles over CUDA-event time of a 50 ms spin on every SM, median of " +
                       std::to_string(st.count),
                   st.spread());
    note("SM clock under load: " + std::to_string(1e-6 / st.median) + " MHz");
  }

  // DRAM: triad (reported) and copy over max(4 x L2, 1 GiB).
  {
    const double buffer = std::max(4.0 * d.l2_bytes, 1024.0 * 1024 * 1024);
    const auto n = static_cast<std::size_t>(buffer / (3 * sizeof(double)));
    const sample_stats triad = detail::time_triad(n, 1, p, false);
    const double moved = 3.0 * sizeof(double) * static_cast<double>(n);
    m.set_bandwidth(tier::global, make<bandwidth>(moved / triad.median),
                    detail::describe("STREAM triad", moved, triad), triad.spread());
    const sample_stats copy = detail::time_triad(n, 1, p, true);
    note("DRAM triad " + std::to_string(moved / triad.median / 1e9) + " GB/s, copy " +
         std::to_string(2.0 * sizeof(double) * n / copy.median / 1e9) + " GB/s");
  }
  // L2: triad over a quarter of L2, 50 launches per sample.
  {
    const auto n = static_cast<std::size_t>(d.l2_bytes / 4 / (3 * sizeof(double)));
    const sample_stats st = detail::time_triad(n, 50, p, false);
    const double moved = 3.0 * sizeof(double) * static_cast<double>(n);
    m.set_bandwidth(tier::l2, make<bandwidth>(moved / st.median),
                    detail::describe("STREAM triad, L2-resident", moved, st), st.spread());
  }
  // Shared memory: 4 blocks of 256 threads per SM, 8 B (read + write) per element per pass.
  {
    device_buffer<float> out(static_cast<std::size_t>(d.sms) * 4);
    event_timer timer;
    const int iters = 2000;
    const auto once = [&] {
      timer.start();
      kernels::shared_stream<<<d.sms * 4, 256>>>(out.get(), iters);
      DLPERF_CUDA_CHECK(cudaGetLastError());
      return timer.stop();
    };
    const sample_stats st = time_repeated(once, p);
    const double moved = d.sms * 4.0 * iters * 8192.0 * 8.0;
    m.set_bandwidth(tier::shared, make<bandwidth>(moved / st.median),
                    detail::describe("shared-memory stream, 4 blocks per SM", moved, st),
                    st.spread());
  }
  // Latencies in cycles.
  {
    const protocol chase_protocol{1, std::max(3, p.repetitions / 3)};
    const auto dram_slots = static_cast<std::size_t>(std::max(4.0 * d.l2_bytes, 256e6) / 4);
    const sample_stats dram = detail::time_chase(dram_slots, 100000, chase_protocol, false);
    m.set_latency_cycles(tier::global, dram.median,
                         "pointer chase (clock64) beyond L2, 100000 loads", dram.spread());
    const auto l2_slots = static_cast<std::size_t>(d.l2_bytes / 4 / 4);
    const sample_stats l2 = detail::time_chase(l2_slots, 100000, chase_protocol, false);
    m.set_latency_cycles(tier::l2, l2.median, "pointer chase (clock64) within L2, 100000 loads",
                         l2.spread());
    const sample_stats shared = detail::time_chase(4096, 100000, chase_protocol, true);
    m.set_latency_cycles(tier::shared, shared.median,
                         "pointer chase (clock64) in shared memory, 100000 loads", shared.spread());
    note("latency cycles: DRAM " + std::to_string(dram.median) + ", L2 " +
         std::to_string(l2.median) + ", shared " + std::to_string(shared.median));
  }
  // Launch overhead: 1000 back-to-back empty kernels.
  {
    event_timer timer;
    const auto once = [&] {
      timer.start();
      for (int i = 0; i < 1000; ++i) kernels::empty<<<1, 1>>>();
      DLPERF_CUDA_CHECK(cudaGetLastError());
      return timer.stop() / 1000;
    };
    const sample_stats st = time_repeated(once, p);
    m.set_launch_overhead(
        seconds(st.median),
        "1000 back-to-back empty kernels, CUDA events, median of " + std::to_string(st.count),
        st.spread());
  }
#ifndef DLPERF_CALIBRATE_NO_CUBLAS
  // Achieved GEMM throughput per datatype, 8192^3.
  for (dtype t :
       {dtype::fp32, dtype::tf32, dtype::fp16, dtype::bf16, dtype::int8, dtype::fp8_e4m3}) {
    const accumulator acc = default_accumulator(t);
    if (!m.supports(t, acc)) {
      note("GEMM " + std::string(name(t)) + ": skipped, " + std::string(m.arch().name) +
           " has no path for it");
      continue;
    }
    try {
      const int n = 8192;
      const sample_stats st =
          time_gemm(t, n, {std::max(1, p.warmup), std::max(3, p.repetitions / 2)});
      const double rate = 2.0 * n * static_cast<double>(n) * n / st.median;
      m.set_achieved(t, acc, make<flop_rate>(rate),
                     std::string(t == dtype::fp8_e4m3 ? "cuBLASLt" : "cuBLAS") + " " +
                         std::to_string(n) + "^3 GEMM, CUDA events, median of " +
                         std::to_string(st.count),
                     st.spread());
      note("GEMM " + std::string(name(t)) + ": " + std::to_string(rate / 1e12) + " TFLOP/s");
    } catch (const cuda_error& e) {
      note("GEMM " + std::string(name(t)) + ": skipped, " + e.what());
    }
  }
#endif
  return m;
}

/// The catalog entry whose name the device's name matches best (e.g. "NVIDIA H100 80GB HBM3" ->
/// h100_sxm), else a description built from the runtime's properties on the architecture of
/// its compute capability. Throws cuda_error for an unknown compute capability.
inline measured_device guess_nominal(const device_info& d) {
  const auto contains = [&](const char* s) { return d.name.find(s) != std::string::npos; };
  struct rule {
    const char* needle;
    const char* id;
  };
  // Longest, most specific names first.
  static constexpr rule rules[] = {{"RTX 6000 Ada", "rtx_6000_ada"},
                                   {"RTX A6000", "rtx_a6000"},
                                   {"H100 PCIe", "h100_pcie"},
                                   {"H100", "h100_sxm"},
                                   {"H200", "h200_sxm"},
                                   {"B200", "b200"},
                                   {"A100-SXM4-80GB", "a100_sxm4_80gb"},
                                   {"A100 80GB", "a100_sxm4_80gb"},
                                   {"A100", "a100_sxm4_40gb"},
                                   {"L40S", "l40s"},
                                   {"L4", "l4"},
                                   {"A10", "a10"},
                                   {"T4", "t4"},
                                   {"V100", "v100_sxm2"},
                                   {"TITAN RTX", "titan_rtx"},
                                   {"TITAN V", "titan_v"},
                                   {"TITAN Xp", "titan_xp"},
                                   {"P100", "p100_sxm2"},
                                   {"RTX 5090", "rtx_5090"},
                                   {"RTX 4090", "rtx_4090"},
                                   {"RTX 4080", "rtx_4080"},
                                   {"RTX 4070 Ti", "rtx_4070_ti"},
                                   {"RTX 3090", "rtx_3090"},
                                   {"RTX 3080", "rtx_3080"},
                                   {"RTX 3070", "rtx_3070"},
                                   {"RTX 2080 Ti", "rtx_2080_ti"},
                                   {"RTX 2080", "rtx_2080"},
                                   {"RTX 2070", "rtx_2070"},
                                   {"RTX 2060", "rtx_2060"},
                                   {"GTX 1650 SUPER", "gtx_1650_super"},
                                   {"GTX 1080 Ti", "gtx_1080_ti"},
                                   {"GTX 1080", "gtx_1080"},
                                   {"GTX 1070", "gtx_1070"}};
  for (const rule& r : rules)
    if (contains(r.needle)) return measured_device(catalog::find(r.id));
  const char* arch = nullptr;
  const int cc = d.cc_major * 10 + d.cc_minor;
  switch (cc) {
    case 60:
      arch = "pascal_gp100";
      break;
    case 61:
      arch = "pascal_gp10x";
      break;
    case 70:
      arch = "volta_gv100";
      break;
    case 75:
      arch = "turing_tu10x";
      break;
    case 80:
      arch = "ampere_ga100";
      break;
    case 86:
      arch = "ampere_ga10x";
      break;
    case 89:
      arch = "ada_ad10x";
      break;
    case 90:
      arch = "hopper_gh100";
      break;
    case 100:
      arch = "blackwell_gb100";
      break;
    case 120:
      arch = "blackwell_gb20x";
      break;
    default:
      throw cuda_error("no dlperf architecture for compute capability " +
                       std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor));
  }
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

}  // namespace dlperf::calibrate::cuda

#endif  // __CUDACC__
