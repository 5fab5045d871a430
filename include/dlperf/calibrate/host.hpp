/// @file
/// Host probes: the calibration protocol run on the CPU, in portable C++ (threads and the
/// steady clock), so that the measure-then-estimate flow runs for real on any machine, CI
/// included, and a CPU can be placed on the same roofline as a GPU.
///
/// Probes (each: warm-up, timed repetitions, median and spread):
///  - STREAM-style triad a[i] = b[i] + s c[i] over buffers four times the last-level cache
///    (DRAM bandwidth) and over a quarter of the L2 (cache bandwidth), on every hardware thread;
///    bytes counted as STREAM does, 24 per element (two loads, one store);
///  - FMA throughput: 16 independent single-precision multiply-add chains per thread, 2 FLOP each
///    (what portable, auto-vectorised C++ reaches: a lower bound on the CPU's peak);
///  - load-to-use latency: a pointer chase through a random cyclic permutation, beyond the
///    last-level cache (DRAM) and within L2 (cache).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/host_device.hpp>

namespace dlperf::calibrate {

/// What the host offers the probes.
struct host_info {
  unsigned threads = 1;     ///< hardware threads
  byte_count l2{};          ///< L2 cache per core
  byte_count last_level{};  ///< last-level cache
  byte_count memory{};      ///< physical memory
  double clock_mhz = 0;     ///< nominal core clock, 0 when unknown
  std::string model;        ///< processor model name, when known
};

namespace detail {

#if defined(__unix__) || defined(__APPLE__)
inline double sysconf_or(int name, double fallback) {
  const long v = ::sysconf(name);
  return v > 0 ? static_cast<double>(v) : fallback;
}
#endif

// "cpu MHz" and "model name" from /proc/cpuinfo where there is one (Linux).
inline void read_cpuinfo(host_info& info) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    const std::string value = line.substr(std::min(line.size(), colon + 2));
    if (key == "cpu MHz" && info.clock_mhz == 0)
      info.clock_mhz = std::strtod(value.c_str(), nullptr);
    if (key == "model name" && info.model.empty()) info.model = value;
  }
}

// Triad over [begin, end) of the three arrays.
inline void triad(double* a, const double* b, const double* c, std::size_t begin, std::size_t end) {
  constexpr double scalar = 3.0;
  for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + scalar * c[i];
}

// Runs f(thread_index) on `threads` threads and returns the wall time in seconds.
template <class F>
double timed_parallel(unsigned threads, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  if (threads <= 1) {
    f(0U);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back([&f, t] { f(t); });
    for (std::thread& th : pool) th.join();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace detail

/// Reads thread count, cache sizes, memory size and clock. Unknown cache sizes fall back to
/// 1 MiB (L2) and 32 MiB (last level), conservative for sizing the probes.
inline host_info probe_host() {
  host_info info;
  info.threads = std::max(1U, std::thread::hardware_concurrency());
  double l2 = 1024.0 * 1024, llc = 32.0 * 1024 * 1024, mem = 0;
#if defined(__unix__) || defined(__APPLE__)
#if defined(_SC_LEVEL2_CACHE_SIZE)
  l2 = detail::sysconf_or(_SC_LEVEL2_CACHE_SIZE, l2);
#endif
#if defined(_SC_LEVEL3_CACHE_SIZE)
  llc = detail::sysconf_or(_SC_LEVEL3_CACHE_SIZE, llc);
#endif
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  mem = detail::sysconf_or(_SC_PHYS_PAGES, 0) * detail::sysconf_or(_SC_PAGESIZE, 0);
#endif
#endif
  info.l2 = bytes(l2);
  info.last_level = bytes(std::max(llc, l2));
  info.memory = bytes(mem > 0 ? mem : 8.0 * 1024 * 1024 * 1024);
  detail::read_cpuinfo(info);
  return info;
}

/// Result of a bandwidth probe.
struct bandwidth_measurement {
  bandwidth value;     ///< bytes per median sample time
  sample_stats stats;  ///< the samples
  byte_count buffer;   ///< bytes of the three arrays together
  std::string method;  ///< description for the device file
};

/// STREAM-style triad over three arrays of @p buffer bytes in total, split over @p threads.
/// Small buffers repeat the triad inside each sample until it runs about 20 ms, so neither the
/// timer's resolution nor a single preemption by another process decides the sample. Throws
/// invalid_argument for a buffer under 3 KiB or no threads.
inline bandwidth_measurement measure_triad(byte_count buffer, unsigned threads, const protocol& p) {
  if (buffer.value() < 3.0 * 1024)
    ::dlperf::detail::throw_invalid_argument("triad probe: the buffer must be at least 3 KiB");
  if (threads == 0) ::dlperf::detail::throw_invalid_argument("triad probe: needs a thread");
  const auto n = static_cast<std::size_t>(buffer.value() / (3 * sizeof(double)));
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  const auto pass = [&](unsigned t) {
    const std::size_t chunk = (n + threads - 1) / threads;
    const std::size_t begin = std::min(n, chunk * t), end = std::min(n, begin + chunk);
    detail::triad(a.data(), b.data(), c.data(), begin, end);
  };
  // Repetitions per sample: enough for about 20 ms at an assumed 100 GB/s.
  const double bytes_per_pass = 3.0 * sizeof(double) * static_cast<double>(n);
  const int inner = std::max(1, static_cast<int>(20e-3 * 100e9 / bytes_per_pass));
  const sample_stats st = time_repeated(
      [&] {
        return detail::timed_parallel(threads,
                                      [&](unsigned t) {
                                        for (int r = 0; r < inner; ++r) pass(t);
                                      }) /
               inner;
      },
      p);
  volatile double sink = a[n / 2];  // keep the stores observable
  (void)sink;
  return {make<bandwidth>(bytes_per_pass / st.median), st, bytes(bytes_per_pass),
          "STREAM triad, " + std::to_string(static_cast<long long>(bytes_per_pass)) + " B, " +
              std::to_string(threads) + " thread(s), median of " + std::to_string(st.count)};
}

/// Result of a throughput probe.
struct throughput_measurement {
  flop_rate value;     ///< FLOP per median sample time
  sample_stats stats;  ///< the samples
  std::string method;  ///< description for the device file
};

/// Single-precision FMA throughput: 16 independent chains x @p iterations per thread.
inline throughput_measurement measure_fma(unsigned threads, long long iterations,
                                          const protocol& p) {
  if (threads == 0 || iterations <= 0)
    ::dlperf::detail::throw_invalid_argument("FMA probe: needs threads and iterations");
  std::vector<float> results(threads, 0.0F);
  const auto body = [&](unsigned t) {
    std::array<float, 16> acc{};
    for (std::size_t j = 0; j < acc.size(); ++j) acc[j] = static_cast<float>(j + t) * 1e-3F;
    const float x = 0.999999F, y = 1e-7F;
    for (long long i = 0; i < iterations; ++i)
      for (float& v : acc) v = v * x + y;
    results[t] = std::accumulate(acc.begin(), acc.end(), 0.0F);
  };
  const sample_stats st = time_repeated([&] { return detail::timed_parallel(threads, body); }, p);
  volatile float sink = results[0];
  (void)sink;
  const double work = 2.0 * 16 * static_cast<double>(iterations) * threads;
  return {make<flop_rate>(work / st.median), st,
          "16 independent FP32 multiply-add chains x " + std::to_string(iterations) + " x " +
              std::to_string(threads) + " thread(s), median of " + std::to_string(st.count)};
}

/// Result of a latency probe.
struct latency_measurement {
  duration value;      ///< per load, median sample
  sample_stats stats;  ///< the samples (seconds per whole chase)
  std::string method;  ///< description for the device file
};

/// Pointer chase through a random cyclic permutation of @p buffer bytes (8-byte slots), one
/// thread, @p steps dependent loads per sample.
inline latency_measurement measure_latency(byte_count buffer, long long steps, const protocol& p) {
  const auto n = static_cast<std::size_t>(buffer.value() / sizeof(std::size_t));
  if (n < 16 || steps <= 0)
    ::dlperf::detail::throw_invalid_argument(
        "latency probe: needs a buffer of at least 128 B and steps > 0");
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // NOLINTNEXTLINE(cert-msc51-cpp): a fixed seed gives the same chase every run
  std::mt19937_64 rng(20261122);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::size_t> next(n);
  for (std::size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  std::size_t at = order[0];
  const sample_stats st = time_repeated(
      [&] {
        const auto start = std::chrono::steady_clock::now();
        for (long long i = 0; i < steps; ++i) at = next[at];
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      },
      p);
  volatile std::size_t sink = at;
  (void)sink;
  return {seconds(st.median / static_cast<double>(steps)), st,
          "pointer chase, random cycle over " +
              std::to_string(static_cast<long long>(buffer.value())) + " B, " +
              std::to_string(steps) + " loads, median of " + std::to_string(st.count)};
}

/// Sizes of a host calibration run.
struct host_plan {
  byte_count dram_buffer;    ///< triad buffer beyond the last-level cache
  byte_count cache_buffer;   ///< triad buffer within L2
  long long fma_iterations;  ///< FMA iterations per thread per sample
  long long chase_steps;     ///< dependent loads per latency sample
  unsigned threads;          ///< threads for bandwidth and FMA probes
};

/// The plan for @p info: DRAM buffer beyond_cache(last level, 64 MiB), cache buffer
/// within_cache(L2), every hardware thread.
inline host_plan plan_for(const host_info& info) {
  return {beyond_cache(info.last_level, bytes(64.0 * 1024 * 1024)), within_cache(info.l2),
          10'000'000, 1'000'000, info.threads};
}

/// Called after each probe with the figure's name ("DRAM bandwidth"), its unit ("GB/s") and the
/// measured value (its spread included), so a caller can show progress and warn about spread.
using probe_report = std::function<void(std::string_view figure, std::string_view unit,
                                        const measured_value& value)>;

/// The host probes calibrate_host runs, in order (one report each).
inline constexpr int host_probe_count = 5;

/// Runs every host probe under @p p and returns the measured CPU as a device; @p report, when
/// given, hears of each figure as soon as its probe has run.
inline host_device calibrate_host(const host_info& info, const host_plan& plan, const protocol& p,
                                  const probe_report& report = {}) {
  const auto tell = [&](std::string_view figure, std::string_view unit, const measured_value& v) {
    if (report) report(figure, unit, v);
    return v;
  };
  host_device::figures f;
  const bandwidth_measurement dram = measure_triad(plan.dram_buffer, plan.threads, p);
  f.dram_gbps = tell("DRAM bandwidth", "GB/s",
                     {in_gigabytes_per_second(dram.value), dram.method, dram.stats.spread()});
  const bandwidth_measurement cache = measure_triad(plan.cache_buffer, plan.threads, p);
  f.cache_gbps = tell("cache bandwidth", "GB/s",
                      {in_gigabytes_per_second(cache.value), cache.method, cache.stats.spread()});
  const throughput_measurement fma = measure_fma(plan.threads, plan.fma_iterations, p);
  f.fp32_tflops =
      tell("FP32 throughput", "TFLOP/s", {in_teraflops(fma.value), fma.method, fma.stats.spread()});
  const latency_measurement dram_lat = measure_latency(plan.dram_buffer, plan.chase_steps, p);
  f.dram_latency_ns =
      tell("DRAM latency", "ns",
           {dram_lat.value.value() * 1e9, dram_lat.method, dram_lat.stats.spread()});
  const latency_measurement cache_lat = measure_latency(plan.cache_buffer, plan.chase_steps, p);
  f.cache_latency_ns =
      tell("cache latency", "ns",
           {cache_lat.value.value() * 1e9, cache_lat.method, cache_lat.stats.spread()});
  f.name = (info.model.empty() ? std::string("host CPU") : info.model) + " (" +
           std::to_string(plan.threads) + " thread(s))";
  f.clock_mhz = info.clock_mhz > 0
                    ? measured_value{info.clock_mhz, "cpu MHz from /proc/cpuinfo", 0}
                    : measured_value{1000.0, "unknown: latencies in cycles of 1 GHz", 0};
  f.dram_capacity = info.memory;
  f.cache_capacity = info.l2;
  return host_device(std::move(f));
}

}  // namespace dlperf::calibrate
