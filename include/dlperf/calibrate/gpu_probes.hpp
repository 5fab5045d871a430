/// @file
/// The GPU calibration probes shared by the CUDA (`dlperf/calibrate/cuda.hpp`) and HIP
/// (`dlperf/calibrate/hip.hpp`) backends: the kernels, the timing protocol of each probe, and how
/// the measurements fill a `measured_device`. A backend is a small runtime shim (see
/// `calibrate_gpu`) around its vendor's runtime; everything else is written once, here.
///
/// The plain C++ part (the device description the runtimes report, the calibration log, and the
/// device-name to catalog-id mapping) compiles anywhere and is unit-tested without a GPU. The
/// kernels and probes are compiled only by a device compiler (`__CUDACC__` for nvcc, `__HIPCC__`
/// for clang's HIP mode), so including this header from plain C++ is harmless.
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
///  - achieved GEMM throughput per datatype at 8192^3, where the backend has a BLAS; a datatype
///    the GPU or library cannot run, or a backend without a BLAS, is logged as skipped.
/// See docs/calibration.md.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/core/error.hpp>

namespace dlperf::calibrate {

/// A GPU runtime or library call failed, or there is no GPU: the message names the call and the
/// runtime's error. The CUDA and HIP backends throw their own subclasses.
class gpu_error : public ::dlperf::error {
 public:
  using ::dlperf::error::error;
};

/// What a GPU runtime says about a device.
struct device_info {
  int index = 0;                ///< the runtime's device index
  std::string name;             ///< marketing name ("NVIDIA H100 80GB HBM3", "AMD Instinct MI250X")
  std::string isa;              ///< ISA target: "sm_90", or AMD's gcnArchName ("gfx90a:sramecc+")
  int cc_major = 0;             ///< compute capability (AMD: the runtime's major.minor)
  int cc_minor = 0;             ///< compute capability
  int sms = 0;                  ///< multiprocessors (AMD: compute units)
  double l2_bytes = 0;          ///< L2 size
  double memory_bytes = 0;      ///< global memory
  double clock_mhz = 0;         ///< nominal SM clock
  int bus_width_bits = 0;       ///< memory bus width
  double memory_clock_mhz = 0;  ///< memory clock
};

/// Progress and skipped probes: kept in order, and passed to `on_line` the moment each is
/// added, so that a caller can show progress while the probes run (a calibration takes minutes).
struct calibration_log {
  std::vector<std::string> lines;  ///< one per probe: what was measured or why it was skipped
  std::function<void(const std::string&)> on_line;  ///< called with each new line, if set

  /// Records @p line and hands it to on_line.
  void add(std::string line) {
    if (on_line) on_line(line);
    lines.push_back(std::move(line));
  }
};

/// Throws @p Error unless the runtime @p runtime ("CUDA", "HIP") found a device @p index among
/// the @p count its @p count_call reported: "no CUDA GPU found (cudaGetDeviceCount: ...)" when
/// @p none (the runtime's no-device status, whose text is @p status) or none counted, "no CUDA
/// device 3 (2 present)" for an index out of range.
template <class Error>
void require_device(std::string_view runtime, std::string_view count_call, int index, int count,
                    bool none, std::string_view status) {
  if (none || count == 0)
    throw Error("no " + std::string(runtime) + " GPU found (" + std::string(count_call) + ": " +
                std::string(status.empty() ? "0 devices" : status) + ")");
  if (index < 0 || index >= count)
    throw Error("no " + std::string(runtime) + " device " + std::to_string(index) + " (" +
                std::to_string(count) + " present)");
}

/// The fields CUDA's cudaDeviceProp and HIP's hipDeviceProp_t share (name, compute capability,
/// multiprocessors, L2 and global memory) of device @p index; the backend adds the rest.
template <class Properties>
device_info shared_properties(int index, const Properties& p) {
  device_info d;
  d.index = index;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sms = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.memory_bytes = static_cast<double>(p.totalGlobalMem);
  return d;
}

namespace detail {

// Whether @p c is a letter or a digit (ASCII; device names are ASCII).
constexpr bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Whether @p name holds the model @p needle as whole words: not inside a longer model number
// ("L4" is not "L40", "A10" not "A100" or "A10G") and not followed by a word that names a
// different board of the same number ("RTX 4080 SUPER", "RTX 3080 Ti", "RTX 4090 D",
// "H100 NVL", "RTX 4090 Laptop GPU").
constexpr bool names_model(std::string_view name, std::string_view needle) {
  constexpr std::string_view variants[] = {"Ti", "SUPER", "Super", "D", "NVL", "Laptop", "Max-Q"};
  for (std::size_t at = name.find(needle); at != std::string_view::npos;
       at = name.find(needle, at + 1)) {
    const std::size_t after = at + needle.size();
    if (at > 0 && is_alnum(name[at - 1])) continue;
    if (after < name.size() && is_alnum(name[after])) continue;
    std::string_view rest = name.substr(after);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '-')) rest.remove_prefix(1);
    bool variant = false;
    for (std::string_view v : variants)
      if (rest.substr(0, v.size()) == v && (rest.size() == v.size() || !is_alnum(rest[v.size()])))
        variant = true;
    if (!variant) return true;
  }
  return false;
}

}  // namespace detail

/// The catalog id of an NVIDIA device from the name its runtime reports ("NVIDIA H100 80GB HBM3"
/// -> "h100_sxm"), or an empty view when no catalog entry matches. Model numbers match as whole
/// words, and a variant word after them (SUPER, Ti, D, NVL, Laptop, Max-Q) names another board:
/// "NVIDIA L40" and "NVIDIA GeForce RTX 4090 D" match nothing, "RTX 4080 SUPER" its own entry.
constexpr std::string_view nvidia_catalog_id(std::string_view device_name) {
  struct rule {
    std::string_view needle;
    std::string_view id;
  };
  // Longest, most specific names first.
  // The RTX 3060 and RTX 4060 Ti come with two memory sizes under one name: no rule for them.
  constexpr rule rules[] = {{"RTX PRO 6000 Blackwell Workstation Edition", "rtx_pro_6000"},
                            {"RTX 6000 Ada", "rtx_6000_ada"},
                            {"RTX 5000 Ada", "rtx_5000_ada"},
                            {"RTX A6000", "rtx_a6000"},
                            {"RTX A5000", "rtx_a5000"},
                            {"RTX A4000", "rtx_a4000"},
                            {"H100 PCIe", "h100_pcie"},
                            {"H100 NVL", "h100_nvl"},
                            {"H100", "h100_sxm"},
                            {"H200 NVL", "h200_nvl"},
                            {"H200", "h200_sxm"},
                            {"B200", "b200"},
                            {"A100-SXM4-80GB", "a100_sxm4_80gb"},
                            {"A800-SXM4-80GB", "a800_sxm4_80gb"},
                            {"A100 80GB PCIe", "a100_pcie_80gb"},
                            {"A100 80GB", "a100_sxm4_80gb"},
                            {"A100", "a100_sxm4_40gb"},
                            {"L40S", "l40s"},
                            {"L4", "l4"},
                            {"A40", "a40"},
                            {"A10", "a10"},
                            {"T4", "t4"},
                            {"V100", "v100_sxm2"},
                            {"TITAN RTX", "titan_rtx"},
                            {"TITAN V", "titan_v"},
                            {"TITAN Xp", "titan_xp"},
                            {"P100", "p100_sxm2"},
                            {"P40", "tesla_p40"},
                            {"RTX 5090", "rtx_5090"},
                            {"RTX 5080", "rtx_5080"},
                            {"RTX 5070 Ti", "rtx_5070_ti"},
                            {"RTX 5070", "rtx_5070"},
                            {"RTX 4090", "rtx_4090"},
                            {"RTX 4080 SUPER", "rtx_4080_super"},
                            {"RTX 4080", "rtx_4080"},
                            {"RTX 4070 Ti SUPER", "rtx_4070_ti_super"},
                            {"RTX 4070 Ti", "rtx_4070_ti"},
                            {"RTX 4070 SUPER", "rtx_4070_super"},
                            {"RTX 4070", "rtx_4070"},
                            {"RTX 4060", "rtx_4060"},
                            {"RTX 3090 Ti", "rtx_3090_ti"},
                            {"RTX 3090", "rtx_3090"},
                            {"RTX 3080 Ti", "rtx_3080_ti"},
                            {"RTX 3080", "rtx_3080"},
                            {"RTX 3070 Ti", "rtx_3070_ti"},
                            {"RTX 3070", "rtx_3070"},
                            {"RTX 3060 Ti", "rtx_3060_ti"},
                            {"RTX 2080 Ti", "rtx_2080_ti"},
                            {"RTX 2080", "rtx_2080"},
                            {"RTX 2070", "rtx_2070"},
                            {"RTX 2060", "rtx_2060"},
                            {"GTX 1650 SUPER", "gtx_1650_super"},
                            {"GTX 1080 Ti", "gtx_1080_ti"},
                            {"GTX 1080", "gtx_1080"},
                            {"GTX 1070", "gtx_1070"}};
  for (const rule& r : rules)
    if (detail::names_model(device_name, r.needle)) return r.id;
  return {};
}

/// The dlperf architecture of an NVIDIA device with no catalog entry, from its compute capability
/// and, where one capability spans chips with and without tensor cores, its name; an empty view
/// when neither tells. Compute capability 7.5 is Turing TU10x (tensor cores: GeForce/Quadro/TITAN
/// RTX, Tesla T4) or TU11x (none: GeForce GTX 16xx, MX, Quadro T400-T2000): "turing_tu10x" only
/// for an RTX or T4 name, "turing_tu11x" for a GTX or MX name or a Quadro T-number, otherwise
/// empty.
constexpr std::string_view nvidia_architecture(const device_info& d) {
  switch (d.cc_major * 10 + d.cc_minor) {
    case 60:
      return "pascal_gp100";
    case 61:
      return "pascal_gp10x";
    case 70:
      return "volta_gv100";
    case 75: {
      const std::string_view name = d.name;
      if (detail::names_model(name, "RTX") || detail::names_model(name, "T4"))
        return "turing_tu10x";
      if (name.find("GTX") != std::string_view::npos || name.find(" MX") != std::string_view::npos)
        return "turing_tu11x";
      for (std::string_view t : {"T400", "T500", "T550", "T600", "T1000", "T1200", "T2000"})
        if (detail::names_model(name, t)) return "turing_tu11x";
      return {};
    }
    case 80:
      return "ampere_ga100";
    case 86:
      return "ampere_ga10x";
    case 89:
      return "ada_ad10x";
    case 90:
      return "hopper_gh100";
    case 100:
      return "blackwell_gb100";
    case 120:
      return "blackwell_gb20x";
    default:
      return {};
  }
}

/// The catalog id of an AMD device from what HIP reports, or an empty view when no catalog entry
/// matches. The ISA (gcnArchName, target features after ':' ignored) decides; the name and the
/// memory size separate the cards that share one:
///  - gfx90a: "mi210" for the one-GCD MI210 (by name or 104 compute units), else "mi250x" (the
///    MI250X and MI250 report one name);
///  - gfx942: "mi300a" for the APU (by name or 228 compute units), else "mi325x" above 224 GiB of
///    memory (256 GB HBM3E) and "mi300x" (192 GB) below;
///  - gfx1100: "rx_7900_xt" for 84 compute units; with 96, "radeon_pro_w7900" from 32 GiB up (the
///    W7900 has 48 GB) and "rx_7900_xtx" below (24 GB), a name saying which deciding first.
inline std::string_view amd_catalog_id(const device_info& d) {
  const std::string_view isa = std::string_view(d.isa).substr(0, d.isa.find(':'));
  const auto named = [&](std::string_view s) { return d.name.find(s) != std::string::npos; };
  const double gib = d.memory_bytes / (1024.0 * 1024 * 1024);
  if (isa == "gfx90a") return (named("MI210") || d.sms == 104) ? "mi210" : "mi250x";
  if (isa == "gfx942") {
    if (named("MI300A") || d.sms == 228) return "mi300a";
    return gib > 224 ? "mi325x" : "mi300x";
  }
  if (isa == "gfx1100") {
    if (named("W7900")) return "radeon_pro_w7900";
    if (named("7900 XTX")) return "rx_7900_xtx";
    if (d.sms == 84) return "rx_7900_xt";
    if (d.sms == 96) return gib < 32 ? "rx_7900_xtx" : "radeon_pro_w7900";
  }
  return {};
}

namespace detail {

/// A random cycle (fixed seed) through every `stride`-th of n slots: next[s] is the slot after s,
/// and the slots between are never visited. A stride of one 128-byte line makes each load of a
/// chase touch a line no earlier load of it touched, until the cycle wraps. Plain C++, so the
/// tests check it without a GPU.
inline std::vector<unsigned> random_cycle(std::size_t n, std::size_t stride = 1) {
  const std::size_t visited = n / stride;
  std::vector<unsigned> order(visited), next(n, 0u);
  for (std::size_t i = 0; i < visited; ++i) order[i] = static_cast<unsigned>(i * stride);
  std::mt19937 rng(20261122);
  std::shuffle(order.begin() + 1, order.end(), rng);
  for (std::size_t i = 0; i < visited; ++i) next[order[i]] = order[(i + 1) % visited];
  return next;
}

}  // namespace detail

}  // namespace dlperf::calibrate

#if defined(__CUDACC__) || defined(__HIPCC__)

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <utility>

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

/// Measures device @p index through runtime shim @p R and returns @p m with the measurements in
/// place. Throws R's error when there is no GPU or a probe's runtime call fails for any reason
/// other than an unsupported GEMM datatype.
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
  const std::string events = std::string(R::name) + " events";
  const auto blocks = static_cast<unsigned>(d.sms);  // one per SM
  const auto note = [&](const std::string& line) {
    if (log) log->add(line);
  };

  // SM clock under load: cycles counted by clock64() over the kernel's event time.
  {
    device_buffer<R, long long> cycles(1);
    event_timer<R> timer;
    const long long wanted = static_cast<long long>(d.clock_mhz * 1e6 * 0.05);  // ~50 ms
    const auto once = [&] {
      timer.start();
      kernels::spin<<<blocks, 32>>>(wanted, cycles.get());
      const double seconds_taken = timer.stop();
      long long c = 0;
      R::to_host(&c, cycles.get(), sizeof c);
      return seconds_taken / static_cast<double>(c);  // seconds per cycle
    };
    const sample_stats st = time_repeated(once, p);
    m.set_sm_clock(megahertz(1e-6 / st.median),
                   "clock64() cycles over " + events + " time of a 50 ms spin on every SM, " +
                       "median of " + std::to_string(st.count),
                   st.spread());
    note("SM clock under load: " + std::to_string(1e-6 / st.median) + " MHz");
  }

  // DRAM: triad (reported) and copy over max(4 x L2, 1 GiB).
  {
    const double buffer = std::max(4.0 * d.l2_bytes, 1024.0 * 1024 * 1024);
    const auto n = static_cast<std::size_t>(buffer / (3 * sizeof(double)));
    const sample_stats triad = detail::time_triad<R>(n, 1, p, false);
    const double moved = 3.0 * sizeof(double) * static_cast<double>(n);
    m.set_bandwidth(tier::global, make<bandwidth>(moved / triad.median),
                    detail::describe<R>("STREAM triad", moved, triad), triad.spread());
    const sample_stats copy = detail::time_triad<R>(n, 1, p, true);
    note("DRAM triad " + std::to_string(moved / triad.median / 1e9) + " GB/s, copy " +
         std::to_string(2.0 * sizeof(double) * static_cast<double>(n) / copy.median / 1e9) +
         " GB/s");
  }
  // L2: triad over a quarter of L2, swept inside one launch until about 4 GB have moved (a
  // millisecond or more on any GPU), so the launch does not dominate.
  {
    const auto n = static_cast<std::size_t>(d.l2_bytes / 4 / (3 * sizeof(double)));
    const double per_sweep = 3.0 * sizeof(double) * static_cast<double>(n);
    const int sweeps = static_cast<int>(std::clamp(4e9 / per_sweep, 1.0, 100000.0));
    const sample_stats st = detail::time_triad<R>(n, sweeps, p, false);
    m.set_bandwidth(tier::l2, make<bandwidth>(per_sweep / st.median),
                    detail::describe<R>(
                        "STREAM triad, L2-resident, " + std::to_string(sweeps) + " sweeps a launch",
                        per_sweep, st),
                    st.spread());
    note("L2 triad " + std::to_string(per_sweep / st.median / 1e9) + " GB/s over " +
         std::to_string(static_cast<long long>(per_sweep)) + " B, " + std::to_string(sweeps) +
         " sweeps a launch");
  }
  // Shared memory: 4 blocks of 256 threads per SM, 8 B (read + write) per element per pass.
  {
    device_buffer<R, float> out(static_cast<std::size_t>(d.sms) * 4);
    event_timer<R> timer;
    const int iters = 2000;
    const auto once = [&] {
      timer.start();
      kernels::shared_stream<<<4 * blocks, 256>>>(out.get(), iters);
      R::check_launch("shared-memory kernel");
      return timer.stop();
    };
    const sample_stats st = time_repeated(once, p);
    const double moved = d.sms * 4.0 * iters * 8192.0 * 8.0;
    m.set_bandwidth(tier::shared, make<bandwidth>(moved / st.median),
                    detail::describe<R>("shared-memory stream, 4 blocks per SM", moved, st),
                    st.spread());
  }
  // Latencies in cycles.
  {
    const protocol chase_protocol{1, std::max(3, p.repetitions / 3)};
    const auto dram_slots = static_cast<std::size_t>(std::max(4.0 * d.l2_bytes, 256e6) / 4);
    const sample_stats dram = detail::time_chase<R>(dram_slots, 100000, chase_protocol, false);
    m.set_latency_cycles(
        tier::global, dram.median,
        "pointer chase (clock64) beyond L2, 100000 loads a sample, one per 128-byte line",
        dram.spread());
    const auto l2_slots = static_cast<std::size_t>(d.l2_bytes / 4 / 4);
    const sample_stats l2 = detail::time_chase<R>(l2_slots, 100000, chase_protocol, false);
    m.set_latency_cycles(
        tier::l2, l2.median,
        "pointer chase (clock64) within L2, 100000 loads a sample, one per 128-byte line",
        l2.spread());
    const sample_stats shared = detail::time_chase<R>(4096, 100000, chase_protocol, true);
    m.set_latency_cycles(tier::shared, shared.median,
                         "pointer chase (clock64) in shared memory, 100000 loads", shared.spread());
    note("latency cycles: DRAM " + std::to_string(dram.median) + ", L2 " +
         std::to_string(l2.median) + ", shared " + std::to_string(shared.median));
  }
  // Launch overhead: 1000 back-to-back empty kernels.
  {
    event_timer<R> timer;
    const auto once = [&] {
      timer.start();
      for (int i = 0; i < 1000; ++i) kernels::empty<<<1, 1>>>();
      R::check_launch("empty kernel");
      return timer.stop() / 1000;
    };
    const sample_stats st = time_repeated(once, p);
    m.set_launch_overhead(
        seconds(st.median),
        "1000 back-to-back empty kernels, " + events + ", median of " + std::to_string(st.count),
        st.spread());
  }
  // Achieved GEMM throughput per datatype, 8192^3, where the backend has a BLAS.
  if (const std::string why = R::gemm_skipped(); !why.empty()) {
    note("GEMM: skipped, " + why + "; every peak stays nominal");
    return m;
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
                         "^3 GEMM on random operands, " + events + ", median of " +
                         std::to_string(st.count),
                     st.spread());
      note("GEMM " + std::string(name(t)) + ": " + std::to_string(rate / 1e12) + " TFLOP/s");
    } catch (const gpu_error& e) {
      note("GEMM " + std::string(name(t)) + ": skipped, " + e.what());
    }
  }
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
  return calibrate_gpu<R>(index, std::move(start), p, &log);
}

}  // namespace dlperf::calibrate::gpu

#endif  // __CUDACC__ || __HIPCC__
