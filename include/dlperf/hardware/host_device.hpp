/// @file
/// A CPU described by measured figures (`host_device`): DRAM and cache tiers and FP32 throughput,
/// as the host probes of `dlperf/calibrate/host.hpp` measure them or a device file records them.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/device.hpp>

namespace dlperf {

/// A CPU described by measured figures: DRAM and cache tiers and FP32 throughput. Models
/// `device`, so the roofline treats it like any GPU. It has no shared memory and exposes no
/// register-file figure: those tiers report the cache measurement (traffic a workload assigns
/// them runs at cache speed).
class host_device {
 public:
  /// What the device consists of.
  struct figures {
    std::string name;                 ///< description, e.g. "host CPU (2 threads)"
    measured_value clock_mhz;         ///< core clock used to express latencies in cycles
    measured_value fp32_tflops;       ///< achieved FP32 throughput
    byte_count dram_capacity;         ///< main memory
    measured_value dram_gbps;         ///< DRAM bandwidth
    measured_value dram_latency_ns;   ///< DRAM load-to-use latency
    byte_count cache_capacity;        ///< cache the cache probe ran in (L2)
    measured_value cache_gbps;        ///< cache bandwidth
    measured_value cache_latency_ns;  ///< cache load-to-use latency
  };

  /// Builds the device. Throws invalid_argument naming the first figure that is not positive
  /// and finite.
  explicit host_device(figures f) : f_(std::move(f)) {
    detail::require_positive_finite("host device", {{"clock_mhz", f_.clock_mhz.value},
                                                    {"fp32_tflops", f_.fp32_tflops.value},
                                                    {"DRAM capacity", f_.dram_capacity.value()},
                                                    {"DRAM bandwidth", f_.dram_gbps.value},
                                                    {"DRAM latency", f_.dram_latency_ns.value},
                                                    {"cache capacity", f_.cache_capacity.value()},
                                                    {"cache bandwidth", f_.cache_gbps.value},
                                                    {"cache latency", f_.cache_latency_ns.value}});
  }

  /// The figures.
  [[nodiscard]] const figures& measured() const { return f_; }
  /// Description.
  [[nodiscard]] std::string_view name() const { return f_.name; }
  /// Only dense FP32 was measured.
  // NOLINTNEXTLINE(readability-convert-member-functions-to-static): the device concept's member
  [[nodiscard]] bool supports(dtype t, accumulator a, sparsity s = sparsity::dense) const {
    return t == dtype::fp32 && a == accumulator::fp32 && s == sparsity::dense;
  }
  /// Measured FP32 throughput; throws unsupported for anything else.
  [[nodiscard]] flop_rate peak(dtype t, accumulator a, sparsity s = sparsity::dense) const {
    if (!supports(t, a, s))
      detail::throw_unsupported(f_.name + ": only dense fp32 throughput was measured, not " +
                                std::string(dlperf::name(t)) + " with " +
                                std::string(dlperf::name(a)) + " accumulation");
    return teraflops(f_.fp32_tflops.value);
  }
  /// DRAM for `global`; the cache measurement for every faster tier.
  [[nodiscard]] tier_spec memory(tier m) const {
    const bool dram = m == tier::global;
    const double ns = dram ? f_.dram_latency_ns.value : f_.cache_latency_ns.value;
    return {dram ? f_.dram_capacity : f_.cache_capacity,
            gigabytes_per_second(dram ? f_.dram_gbps.value : f_.cache_gbps.value),
            ns * f_.clock_mhz.value / 1000.0, seconds(ns * 1e-9)};
  }

 private:
  figures f_;
};

static_assert(device<host_device>, "host_device must model dlperf::device");

}  // namespace dlperf
