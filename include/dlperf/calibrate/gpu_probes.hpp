/// @file
/// The GPU calibration probes shared by the CUDA (`dlperf/calibrate/cuda.hpp`) and HIP
/// (`dlperf/calibrate/hip.hpp`) backends: the kernels, the timing protocol of each probe, and how
/// the measurements fill a `measured_device`. A backend is a small runtime shim (see
/// `calibrate_gpu`) around its vendor's runtime; everything else is written once, here.
///
/// What needs no device compiler (the device description the runtimes report, the calibration
/// log, the device-name to catalog-id mapping) is in dlperf/calibrate/gpu_device.hpp, which this
/// header includes. The kernels and probes are compiled only by a device compiler (`__CUDACC__`
/// for nvcc, `__HIPCC__` for clang's HIP mode), so including this header from plain C++ is
/// harmless.
///
/// Probes, each timed with the runtime's events after warm-up runs, median and spread of the
/// repetitions (the protocol of dlperf/calibrate/measurement.hpp):
///  - the SM (compute unit) clock under load: clock64() cycles over event time of a spin on every
///    SM;
///  - DRAM bandwidth: STREAM copy and triad over buffers four times the L2 (at least 1 GiB);
///  - L2 bandwidth: the triad over a quarter of the L2, swept many times inside one launch;
///  - shared-memory bandwidth: 4 blocks per SM streaming a 32 KiB shared buffer;
///  - latency in cycles: one thread chasing a random cycle of pointers, one per 128-byte line,
///    timed with clock64(), in a buffer beyond L2 (DRAM), within L2, and in shared memory;
///  - launch overhead: 1000 back-to-back empty kernels;
///  - achieved GEMM throughput per datatype at 8192^3 on random operands, where the backend has a
///    BLAS; a datatype the GPU or library cannot run, or a backend without a BLAS, is logged as
///    skipped.
/// See docs/calibration.md.
#pragma once

#include <dlperf/calibrate/gpu_device.hpp>

#if defined(__CUDACC__) || defined(__HIPCC__)

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>  // nvcc declares the kernel vocabulary itself; HIP needs the header
#endif

#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/measured_device.hpp>

namespace dlperf::calibrate::gpu {

/// Device memory that frees itself, allocated through runtime shim @p R.
template <class R, class T>
class device_buffer {
 public:
  /// Allocates @p n elements. Throws the backend's error (out of memory, no device).
  explicit device_buffer(std::size_t n) : n_(n) {
    R::allocate(reinterpret_cast<void**>(&p_), n * sizeof(T));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { R::release(p_); }
  /// Device pointer.
  T* get() const { return p_; }
  /// Elements.
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

/// A pair of runtime events that time what is enqueued between `start` and `stop`.
template <class R>
class event_timer {
 public:
  event_timer() {
    R::event_create(&start_);
    R::event_create(&stop_);
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    R::event_destroy(start_);
    R::event_destroy(stop_);
  }
  /// Records the start.
  void start() { R::event_record(start_); }
  /// Records the stop, waits for it, returns seconds since start.
  double stop() {
    R::event_record(stop_);
    return R::event_seconds(start_, stop_);
  }

 private:
  typename R::event_type start_{}, stop_{};
};

namespace kernels {

// STREAM triad a = b + s c, swept `sweeps` times inside one launch: the L2 probe sweeps a
// quarter of L2 hundreds of times, since one sweep of it takes about as long as a launch on a
// large GPU (50 back-to-back launches over 12.5 MiB measured 3.2 TB/s on an H100); the DRAM probe
// sweeps once. On CUDA the loads and stores are the cache-global kind (ld.global.cg,
// st.global.cg), which skip L1: each thread sweeps the same elements every time, and an SM's share
// of the L2 buffer (under 100 KiB) fits in its L1.
__global__ void triad(double* a, const double* b, const double* c, double s, std::size_t n,
                      int sweeps) {
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
#if defined(__CUDACC__)
      __stcg(a + i, __ldcg(b + i) + s * __ldcg(c + i));
#else
      a[i] = b[i] + s * c[i];
#endif
    }
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
  for (int i = static_cast<int>(threadIdx.x); i < 8192; i += static_cast<int>(blockDim.x))
    tile[i] = static_cast<float>(i);
  __syncthreads();
  float acc = 0;
  for (int it = 0; it < iters; ++it)
    for (int i = static_cast<int>(threadIdx.x); i < 8192; i += static_cast<int>(blockDim.x)) {
      acc += tile[i];
      tile[i] = acc;
    }
  if (acc == -1.0f) out[blockIdx.x] = acc;  // never true; keeps the loop
}

// One thread follows next[] `steps` times from `start` and reports clock64() cycles per load;
// `sink` receives where it stopped, so the next sample continues from there.
__global__ void chase(const unsigned* next, unsigned start, int steps, unsigned* sink,
                      long long* cycles) {
  unsigned at = start;
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

namespace detail {

template <class R>
std::string describe(const std::string& what, double bytes, const sample_stats& st) {
  return what + ", " + std::to_string(static_cast<long long>(bytes)) + " B, " +
         std::string(R::name) + " events, median of " + std::to_string(st.count);
}

// STREAM kernel over three arrays of n doubles, one launch a sample: the triad swept `sweeps`
// times, or the copy once. Seconds per sweep.
template <class R>
sample_stats time_triad(std::size_t n, int sweeps, const protocol& p, bool copy_only) {
  device_buffer<R, double> a(n), b(n), c(n);
  R::zero(a.get(), n * sizeof(double));
  R::zero(b.get(), n * sizeof(double));
  R::zero(c.get(), n * sizeof(double));
  event_timer<R> timer;
  const auto once = [&] {
    timer.start();
    if (copy_only)
      kernels::copy<<<1024, 256>>>(a.get(), b.get(), n);
    else
      kernels::triad<<<1024, 256>>>(a.get(), b.get(), c.get(), 3.0, n, sweeps);
    R::check_launch(copy_only ? "copy kernel" : "triad kernel");
    return timer.stop() / (copy_only ? 1 : sweeps);
  };
  return time_repeated(once, p);
}

// Cycles per load of a one-thread pointer chase, `steps` loads a sample. Outside shared memory
// the cycle runs through one slot per 128-byte line and each sample (the warm-up included)
// continues where the last stopped: a chase beyond L2 then keeps missing it, since a line comes
// back only after `slots` / 32 loads. (Restarting each sample at slot 0 replayed the same 100000
// lines, 12.8 MB, which an H100's 50 MiB L2 kept: "DRAM" latency came out as L2's, 292 cycles.)
template <class R>
sample_stats time_chase(std::size_t slots, int steps, const protocol& p, bool shared) {
  constexpr std::size_t line_slots = 128 / sizeof(unsigned);
  const std::vector<unsigned> next =
      calibrate::detail::random_cycle(slots, shared ? 1 : line_slots);
  device_buffer<R, unsigned> d_next(slots), sink(1);
  device_buffer<R, long long> cycles(1);
  R::to_device(d_next.get(), next.data(), slots * sizeof(unsigned));
  unsigned at = 0;
  const auto once = [&] {
    if (shared)
      kernels::chase_shared<<<1, 1>>>(d_next.get(), static_cast<int>(slots), steps, sink.get(),
                                      cycles.get());
    else
      kernels::chase<<<1, 1>>>(d_next.get(), at, steps, sink.get(), cycles.get());
    R::check_launch("chase kernel");
    R::to_host(&at, sink.get(), sizeof at);
    long long c = 0;
    R::to_host(&c, cycles.get(), sizeof c);
    // time_repeated wants positive samples: cycles per load, carried as a "time".
    return static_cast<double>(c) / steps;
  };
  return time_repeated(once, p);
}

}  // namespace detail

namespace detail {

// Each probe of calibrate_gpu: measures one thing of device @p d through runtime shim @p R into
// @p m, under protocol @p p, and writes what it found to @p log (when given).

// The SM clock under load: cycles counted by clock64() over the kernel's event time.
template <class R>
void measure_sm_clock(const device_info& d, measured_device& m, const protocol& p,
                      calibration_log* log) {
  device_buffer<R, long long> cycles(1);
  event_timer<R> timer;
  const long long wanted = static_cast<long long>(d.clock_mhz * 1e6 * 0.05);  // ~50 ms
  const auto once = [&] {
    timer.start();
    kernels::spin<<<static_cast<unsigned>(d.sms), 32>>>(wanted, cycles.get());
    const double seconds_taken = timer.stop();
    long long c = 0;
    R::to_host(&c, cycles.get(), sizeof c);
    return seconds_taken / static_cast<double>(c);  // seconds per cycle
  };
  const sample_stats st = time_repeated(once, p);
  m.set_sm_clock(megahertz(1e-6 / st.median),
                 "clock64() cycles over " + std::string(R::name) + " events" +
                     " time of a 50 ms spin on every SM, " + "median of " +
                     std::to_string(st.count),
                 st.spread());
  if (log) log->add("SM clock under load: " + std::to_string(1e-6 / st.median) + " MHz");
}

// DRAM: triad (reported) and copy over max(4 x L2, 1 GiB).
template <class R>
void measure_dram(const device_info& d, measured_device& m, const protocol& p,
                  calibration_log* log) {
  const double buffer = std::max(4.0 * d.l2_bytes, 1024.0 * 1024 * 1024);
  const auto n = static_cast<std::size_t>(buffer / (3 * sizeof(double)));
  const sample_stats triad = time_triad<R>(n, 1, p, false);
  const double moved = 3.0 * sizeof(double) * static_cast<double>(n);
  m.set_bandwidth(tier::global, make<bandwidth>(moved / triad.median),
                  describe<R>("STREAM triad", moved, triad), triad.spread());
  const sample_stats copy = time_triad<R>(n, 1, p, true);
  if (log)
    log->add("DRAM triad " + std::to_string(moved / triad.median / 1e9) + " GB/s, copy " +
             std::to_string(2.0 * sizeof(double) * static_cast<double>(n) / copy.median / 1e9) +
             " GB/s");
}

// L2: triad over a quarter of L2, swept inside one launch until about 4 GB have moved (a
// millisecond or more on any GPU), so the launch does not dominate.
template <class R>
void measure_l2(const device_info& d, measured_device& m, const protocol& p, calibration_log* log) {
  const auto n = static_cast<std::size_t>(d.l2_bytes / 4 / (3 * sizeof(double)));
  const double per_sweep = 3.0 * sizeof(double) * static_cast<double>(n);
  const int sweeps = static_cast<int>(std::clamp(4e9 / per_sweep, 1.0, 100000.0));
  const sample_stats st = time_triad<R>(n, sweeps, p, false);
  m.set_bandwidth(
      tier::l2, make<bandwidth>(per_sweep / st.median),
      describe<R>("STREAM triad, L2-resident, " + std::to_string(sweeps) + " sweeps a launch",
                  per_sweep, st),
      st.spread());
  if (log)
    log->add("L2 triad " + std::to_string(per_sweep / st.median / 1e9) + " GB/s over " +
             std::to_string(static_cast<long long>(per_sweep)) + " B, " + std::to_string(sweeps) +
             " sweeps a launch");
}

// Shared memory: 4 blocks of 256 threads per SM, 8 B (read + write) per element per pass.
template <class R>
void measure_shared(const device_info& d, measured_device& m, const protocol& p) {
  device_buffer<R, float> out(static_cast<std::size_t>(d.sms) * 4);
  event_timer<R> timer;
  const int iters = 2000;
  const auto once = [&] {
    timer.start();
    kernels::shared_stream<<<4 * static_cast<unsigned>(d.sms), 256>>>(out.get(), iters);
    R::check_launch("shared-memory kernel");
    return timer.stop();
  };
  const sample_stats st = time_repeated(once, p);
  const double moved = d.sms * 4.0 * iters * 8192.0 * 8.0;
  m.set_bandwidth(tier::shared, make<bandwidth>(moved / st.median),
                  describe<R>("shared-memory stream, 4 blocks per SM", moved, st), st.spread());
}

// Latencies in cycles: pointer chases beyond L2, within L2 and in shared memory.
template <class R>
void measure_latencies(const device_info& d, measured_device& m, const protocol& p,
                       calibration_log* log) {
  const protocol chase_protocol{1, std::max(3, p.repetitions / 3)};
  const auto dram_slots = static_cast<std::size_t>(std::max(4.0 * d.l2_bytes, 256e6) / 4);
  const sample_stats dram = time_chase<R>(dram_slots, 100000, chase_protocol, false);
  m.set_latency_cycles(
      tier::global, dram.median,
      "pointer chase (clock64) beyond L2, 100000 loads a sample, one per 128-byte line",
      dram.spread());
  const auto l2_slots = static_cast<std::size_t>(d.l2_bytes / 4 / 4);
  const sample_stats l2 = time_chase<R>(l2_slots, 100000, chase_protocol, false);
  m.set_latency_cycles(
      tier::l2, l2.median,
      "pointer chase (clock64) within L2, 100000 loads a sample, one per 128-byte line",
      l2.spread());
  const sample_stats shared = time_chase<R>(4096, 100000, chase_protocol, true);
  m.set_latency_cycles(tier::shared, shared.median,
                       "pointer chase (clock64) in shared memory, 100000 loads", shared.spread());
  if (log)
    log->add("latency cycles: DRAM " + std::to_string(dram.median) + ", L2 " +
             std::to_string(l2.median) + ", shared " + std::to_string(shared.median));
}

// Launch overhead: 1000 back-to-back empty kernels.
template <class R>
void measure_launch(measured_device& m, const protocol& p) {
  event_timer<R> timer;
  const auto once = [&] {
    timer.start();
    for (int i = 0; i < 1000; ++i) kernels::empty<<<1, 1>>>();
    R::check_launch("empty kernel");
    return timer.stop() / 1000;
  };
  const sample_stats st = time_repeated(once, p);
  m.set_launch_overhead(seconds(st.median),
                        "1000 back-to-back empty kernels, " + std::string(R::name) +
                            " events, median of " + std::to_string(st.count),
                        st.spread());
}

// Achieved GEMM throughput per datatype, 8192^3, where the backend has a BLAS.
template <class R>
void measure_gemms(measured_device& m, const protocol& p, calibration_log* log) {
  const auto note = [&](const std::string& line) {
    if (log) log->add(line);
  };
  if (const std::string why = R::gemm_skipped(); !why.empty()) {
    note("GEMM: skipped, " + why + "; every peak stays nominal");
    return;
  }
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
          R::time_gemm(t, n, protocol{std::max(1, p.warmup), std::max(3, p.repetitions / 2)});
      const double rate = 2.0 * n * static_cast<double>(n) * n / st.median;
      m.set_achieved(t, acc, make<flop_rate>(rate),
                     std::string(R::gemm_library(t)) + " " + std::to_string(n) +
                         "^3 GEMM on random operands, " + std::string(R::name) +
                         " events, median of " + std::to_string(st.count),
                     st.spread());
      note("GEMM " + std::string(name(t)) + ": " + std::to_string(rate / 1e12) + " TFLOP/s");
    } catch (const gpu_error& e) {
      note("GEMM " + std::string(name(t)) + ": skipped, " + e.what());
    }
  }
}

}  // namespace detail

/// Measures device @p index through runtime shim @p R and returns @p m with the measurements in
/// place: the SM clock under load, DRAM, L2 and shared-memory bandwidth, latencies, launch
/// overhead and each datatype's achieved GEMM rate (detail::measure_*, one probe each). Throws
/// R's error when there is no GPU or a probe's runtime call fails for any reason other than an
/// unsupported GEMM datatype.
///
/// @p R provides: `name` ("CUDA", "HIP"); `event_type`; `query(index)` -> device_info;
/// `allocate`, `release`, `zero`, `to_device`, `to_host`; `event_create`, `event_destroy`,
/// `event_record`, `event_seconds(start, stop)`; `check_launch(what)`; and for the GEMM probes
/// `gemm_skipped()` (empty when the backend has a BLAS, else why not), `gemm_library(t)` and
/// `time_gemm(t, n, protocol)` (FLOP per median sample; throws R's error for a datatype the GPU
/// or library cannot run).
template <class R>
measured_device calibrate_gpu(int index, measured_device m, const protocol& p,
                              calibration_log* log = nullptr) {
  const device_info d = R::query(index);
  detail::measure_sm_clock<R>(d, m, p, log);
  detail::measure_dram<R>(d, m, p, log);
  detail::measure_l2<R>(d, m, p, log);
  detail::measure_shared<R>(d, m, p);
  detail::measure_latencies<R>(d, m, p, log);
  detail::measure_launch<R>(m, p);
  detail::measure_gemms<R>(m, p, log);
  return m;
}

/// Calibrates device @p index through runtime shim @p R (which also provides
/// `guess_nominal(device_info)`): starts from catalog entry @p gpu_id, or from R's guess when
/// empty, runs calibrate_gpu and adds to @p log what was measured and what was skipped, as it
/// happens.
template <class R>
measured_device calibrate_device(int index, std::string_view gpu_id, const protocol& p,
                                 calibration_log& log) {
  const device_info info = R::query(index);  // throws R's error without a GPU
  measured_device start =
      gpu_id.empty() ? R::guess_nominal(info) : measured_device(catalog::find(gpu_id));
  log.add("calibrating " + std::string(R::name) + " device " + std::to_string(index) + ": " +
          info.name + " (" + info.isa + ") as " + std::string(start.id()));
  for (const std::string& mismatch : catalog_mismatches(info, start.nominal()))
    log.add("warning: " + mismatch);
  return calibrate_gpu<R>(index, std::move(start), p, &log);
}

}  // namespace dlperf::calibrate::gpu

#endif  // __CUDACC__ || __HIPCC__
