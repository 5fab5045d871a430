/// @file
/// A GPU whose figures are partly measured: a catalog device (or one built from scratch) with any
/// subset of its parameters replaced by calibration results, each remembering whether it is
/// nominal or measured and how it was measured. Models `device` and `gemm_device`, so every
/// estimator accepts it unchanged.
///
/// What a measurement replaces:
///  - tier bandwidth and latency (cycles): `memory(tier)` reports them;
///  - achieved throughput per (datatype, accumulator), e.g. a large cuBLAS GEMM: `peak` reports it
///    (doubled for 2:4 sparsity) and, because it is already an achieved rate, the GEMM
///    efficiency of that datatype becomes 1 unless measured separately;
///  - the SM clock: nominal peaks and clock-derived bandwidths (registers, shared, L2) scale with
///    it, latencies in seconds follow it;
///  - GEMM efficiency per datatype and the launch overhead.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf {

/// A GPU with measured figures in place of nominal ones.
class measured_device {
 public:
  /// Starts from @p nominal with nothing measured yet.
  explicit measured_device(const gpu_spec& nominal)
      : id_(nominal.id()),
        name_(nominal.name()),
        source_(nominal.facts().source),
        arch_names_(owned(nominal.arch())),
        base_(rebuilt(nominal.arch(), nominal.facts())) {}

  /// A device built from scratch: architecture @p arch and datasheet @p facts (the strings of
  /// both are copied, so an architecture read from a file need not outlive the device). Throws
  /// invalid_argument as gpu_spec does for impossible facts.
  measured_device(const architecture_spec& arch, const gpu_facts& facts)
      : id_(facts.id),
        name_(facts.name),
        source_(facts.source),
        arch_names_(owned(arch)),
        base_(rebuilt(arch, facts)) {}

  /// Copies re-point the nominal description at their own strings.
  measured_device(const measured_device& other)
      : id_(other.id_),
        name_(other.name_),
        source_(other.source_),
        arch_names_(other.arch_names_),
        base_(rebuilt(other.base_.arch(), other.base_.facts())),
        clock_(other.clock_),
        bandwidth_(other.bandwidth_),
        latency_(other.latency_),
        achieved_(other.achieved_),
        efficiency_(other.efficiency_),
        launch_(other.launch_) {}
  /// Copy assignment (see the copy constructor).
  measured_device& operator=(const measured_device& other) {
    if (this != &other) {
      id_ = other.id_;
      name_ = other.name_;
      source_ = other.source_;
      arch_names_ = other.arch_names_;
      base_ = rebuilt(other.base_.arch(), other.base_.facts());
      clock_ = other.clock_;
      bandwidth_ = other.bandwidth_;
      latency_ = other.latency_;
      achieved_ = other.achieved_;
      efficiency_ = other.efficiency_;
      launch_ = other.launch_;
    }
    return *this;
  }
  /// Moves copy: the strings a moved-from object's views point into may move with it.
  // NOLINTNEXTLINE(performance-*,bugprone-exception-escape): a copy, may throw
  measured_device(measured_device&& other) : measured_device(std::as_const(other)) {}
  /// Move assignment (a copy, see the move constructor).
  // NOLINTNEXTLINE(performance-noexcept-move-constructor): a copy, which may throw
  measured_device& operator=(measured_device&& other) { return *this = std::as_const(other); }
  ~measured_device() = default;

  // --- setting measurements ---------------------------------------------------------------

  /// Measured bandwidth of tier @p m. Throws invalid_argument unless positive and finite.
  measured_device& set_bandwidth(tier m, bandwidth value, std::string method, double spread = 0) {
    check_positive(value.value(), "bandwidth of tier " + std::string(dlperf::name(m)));
    bandwidth_[index(m)] = measured_value{value.value(), std::move(method), spread};
    return *this;
  }
  /// Measured load-to-use latency of tier @p m, in SM cycles.
  measured_device& set_latency_cycles(tier m, double cycles, std::string method,
                                      double spread = 0) {
    check_positive(cycles, "latency of tier " + std::string(dlperf::name(m)));
    latency_[index(m)] = measured_value{cycles, std::move(method), spread};
    return *this;
  }
  /// Measured achieved throughput for (@p t, @p a), dense. Throws unsupported if the
  /// architecture has no path for it (a measurement cannot create hardware).
  measured_device& set_achieved(dtype t, accumulator a, flop_rate value, std::string method,
                                double spread = 0) {
    check_positive(value.value(), "achieved throughput of " + std::string(dlperf::name(t)));
    if (!base_.supports(t, a)) (void)base_.peak(t, a);  // throws unsupported with the reason
    achieved_[index(t, a)] = measured_value{value.value(), std::move(method), spread};
    return *this;
  }
  /// Throws invalid_argument naming the figure unless every measured rate is one the hardware
  /// can reach: an achieved throughput at most the architecture's dense peak at the clock it ran
  /// at (the measured SM clock where it is above the rated one), a DRAM bandwidth at most the
  /// board's pin rate (core/plausible.hpp). Readers call it once every measurement is set, since
  /// a file may give the clock after the throughputs.
  void check_measurements() const {
    const double clock = std::max(1.0, clock_ratio());
    for (dtype t : all_dtypes)
      for (accumulator a : enum_values<accumulator>) {
        const auto& m = achieved_[index(t, a)];
        if (!m || !base_.supports(t, a)) continue;
        const double peak = base_.peak(t, a, sparsity::dense).value() * clock;
        if (!plausible::within_peak(m->value, peak))
          detail::throw_invalid_argument(
              "achieved throughput of " + std::string(dlperf::name(t)) + " with " +
              std::string(dlperf::name(a)) + " accumulation: " +
              detail::figure_text(m->value / 1e12) + " TFLOP/s is above the peak of " +
              std::string(base_.name()) + ", " + detail::figure_text(peak / 1e12) +
              " TFLOP/s at its clock (a board above its rated clock records the measured "
              "sm_clock_mhz)");
      }
    if (const auto& bw = bandwidth_[index(tier::global)]) {
      const double pins = base_.memory_bandwidth().value();
      if (!plausible::within_peak(bw->value, pins))
        detail::throw_invalid_argument(
            "bandwidth of tier global: " + detail::figure_text(bw->value / 1e9) +
            " GB/s is above the pin rate of " + std::string(base_.name()) + "'s DRAM, " +
            detail::figure_text(pins / 1e9) + " GB/s");
    }
  }
  /// Measured sustained SM clock.
  measured_device& set_sm_clock(frequency value, std::string method, double spread = 0) {
    check_positive(value.value(), "SM clock");
    clock_ = measured_value{value.value(), std::move(method), spread};
    return *this;
  }
  /// The SM clock domain slowed to @p fraction of its present speed, as a power limit slows it
  /// (estimate/power_limit.hpp): the clock, every measured achieved throughput and the measured
  /// bandwidths of the on-chip tiers (registers, shared memory, L2) scale by it, each record's
  /// method gaining @p why; DRAM and an off-die last-level cache (AMD's Infinity Cache, on its
  /// own fabric clock) keep theirs. Throws invalid_argument unless 0 < @p fraction <= 1.
  measured_device& slow_clock(double fraction, const std::string& why) {
    if (!(fraction > 0.0 && fraction <= 1.0))
      detail::throw_invalid_argument("clock fraction must be in (0, 1], got " +
                                     detail::figure_text(fraction));
    const auto scaled = [&](const measured_value& m) {
      return measured_value{m.value * fraction, m.method + "; " + why, m.spread};
    };
    clock_ = clock_ ? scaled(*clock_) : measured_value{base_.sm_clock().value() * fraction, why, 0};
    for (auto& a : achieved_)
      if (a) a = scaled(*a);
    for (tier m : enum_values<tier>)
      if (m != tier::global && m != tier::llc && bandwidth_[index(m)])
        bandwidth_[index(m)] = scaled(*bandwidth_[index(m)]);
    return *this;
  }
  /// Measured large-GEMM efficiency for operands @p t, a fraction of the peak in [0.01, 1]
  /// (core/plausible.hpp). The
  /// peak is taken at the SM clock (set_sm_clock), so a board that sustains more than its rated
  /// boost clock records that clock, and its efficiency stays a fraction of what it can do.
  measured_device& set_gemm_efficiency(dtype t, double fraction, std::string method) {
    if (!plausible::fraction(fraction))
      detail::throw_invalid_argument(
          "GEMM efficiency of " + std::string(dlperf::name(t)) +
          " must be in [0.01, 1]; a board above its rated clock records the measured SM clock, "
          "which raises the peaks");
    efficiency_[t] = measured_value{fraction, std::move(method), 0};
    return *this;
  }
  /// Measured per-call launch overhead.
  measured_device& set_launch_overhead(duration value, std::string method, double spread = 0) {
    check_positive(value.value(), "launch overhead");
    launch_ = measured_value{value.value(), std::move(method), spread};
    return *this;
  }

  // --- provenance ---------------------------------------------------------------------------

  /// The datasheet description this device starts from.
  [[nodiscard]] const gpu_spec& nominal() const { return base_; }
  /// Stable id (the catalog's, or the one given).
  [[nodiscard]] std::string_view id() const { return id_; }
  /// Measured bandwidth record of tier @p m, if any.
  [[nodiscard]] const std::optional<measured_value>& bandwidth_record(tier m) const {
    return bandwidth_[index(m)];
  }
  /// Measured latency record of tier @p m, if any.
  [[nodiscard]] const std::optional<measured_value>& latency_record(tier m) const {
    return latency_[index(m)];
  }
  /// Measured achieved-throughput record of (@p t, @p a), if any.
  [[nodiscard]] const std::optional<measured_value>& achieved_record(dtype t, accumulator a) const {
    return achieved_[index(t, a)];
  }
  /// Measured clock record, if any.
  [[nodiscard]] const std::optional<measured_value>& clock_record() const { return clock_; }
  /// Measured GEMM-efficiency record of @p t, if any.
  [[nodiscard]] const std::optional<measured_value>& efficiency_record(dtype t) const {
    return efficiency_[t];
  }
  /// Measured launch-overhead record, if any.
  [[nodiscard]] const std::optional<measured_value>& launch_record() const { return launch_; }
  /// Whether tier @p m's bandwidth is measured or nominal.
  [[nodiscard]] provenance bandwidth_provenance(tier m) const {
    return bandwidth_[index(m)] ? provenance::measured : provenance::nominal;
  }
  /// Whether the throughput of (@p t, @p a) is measured or nominal.
  [[nodiscard]] provenance peak_provenance(dtype t, accumulator a) const {
    return achieved_[index(t, a)] ? provenance::measured : provenance::nominal;
  }

  // --- the device concepts --------------------------------------------------------------------

  /// Marketing name.
  [[nodiscard]] std::string_view name() const { return name_; }
  /// Whether the architecture has a path for (t, a, s).
  [[nodiscard]] bool supports(dtype t, accumulator a, sparsity s = sparsity::dense) const {
    return base_.supports(t, a, s);
  }
  /// Measured achieved throughput where there is one, else the nominal peak at the measured
  /// clock. Throws unsupported as the nominal device does.
  [[nodiscard]] flop_rate peak(dtype t, accumulator a, sparsity s = sparsity::dense) const {
    const flop_rate nominal_peak = base_.peak(t, a, s);  // validates (t, a, s)
    if (const auto& m = achieved_[index(t, a)])
      return make<flop_rate>(m->value * (s == sparsity::sparse_2_4 ? 2.0 : 1.0));
    return nominal_peak * clock_ratio();
  }
  /// Throughput of @p t with its default accumulator, dense.
  [[nodiscard]] flop_rate peak(dtype t) const {
    return peak(t, default_accumulator(t), sparsity::dense);
  }
  /// Tier @p m with measured bandwidth and latency where there are some; clock-derived nominal
  /// bandwidths (registers, shared, L2) scale with a measured clock.
  [[nodiscard]] tier_spec memory(tier m) const {
    tier_spec t = base_.memory(m);
    if (const auto& bw = bandwidth_[index(m)])
      t.throughput = make<bandwidth>(bw->value);
    else if (m != tier::global && m != tier::llc)  // DRAM and Infinity Cache have own clocks
      t.throughput = t.throughput * clock_ratio();
    if (const auto& lat = latency_[index(m)]) t.latency_cycles = lat->value;
    t.latency = seconds(t.latency_cycles / sm_clock().value());
    return t;
  }
  /// Architecture facts.
  [[nodiscard]] const architecture_spec& arch() const { return base_.arch(); }
  /// The board's datasheet facts as the file gives them (memory, TDP, price, links): what
  /// power budgets and costs read; the measured figures above override the speeds only.
  [[nodiscard]] const gpu_facts& facts() const { return base_.facts(); }
  /// Enabled SMs.
  [[nodiscard]] int sm_count() const { return base_.sm_count(); }
  /// Measured SM clock, else the nominal boost clock.
  [[nodiscard]] frequency sm_clock() const {
    return clock_ ? make<frequency>(clock_->value) : base_.sm_clock();
  }
  /// Measured efficiency; 1 where the achieved throughput of @p t (default accumulator) was
  /// measured; else the nominal efficiency.
  [[nodiscard]] double gemm_efficiency(dtype t) const {
    if (const auto& e = efficiency_[t]) return e->value;
    if (achieved_[index(t, default_accumulator(t))]) return 1.0;
    return base_.gemm_efficiency(t);
  }
  /// Measured launch overhead, else the nominal one.
  [[nodiscard]] duration launch_overhead() const {
    return launch_ ? seconds(launch_->value) : base_.launch_overhead();
  }

 private:
  static tier index(tier m) { return m; }
  static std::size_t index(dtype t, accumulator a) {
    return enum_index(t) * enum_count<accumulator> + enum_index(a);
  }
  static void check_positive(double v, const std::string& what) {
    detail::require_positive_finite(v, what);
  }
  [[nodiscard]] double clock_ratio() const {
    return clock_ ? clock_->value / base_.sm_clock().value() : 1.0;
  }
  // The architecture's strings (name, chips, ISA target), owned.
  static std::array<std::string, 3> owned(const architecture_spec& arch) {
    return {std::string(arch.name), std::string(arch.chips), std::string(arch.isa)};
  }
  // The nominal description, its string views pointing at this object's own strings.
  [[nodiscard]] gpu_spec rebuilt(architecture_spec arch, gpu_facts facts) const {
    facts.id = id_;
    facts.name = name_;
    facts.source = source_;
    arch.name = arch_names_[0];
    arch.chips = arch_names_[1];
    arch.isa = arch_names_[2];
    return {arch, facts};
  }
  std::string id_, name_, source_;
  std::array<std::string, 3> arch_names_;
  gpu_spec base_;
  std::optional<measured_value> clock_;
  per_tier<std::optional<measured_value>> bandwidth_{};
  per_tier<std::optional<measured_value>> latency_{};
  std::array<std::optional<measured_value>, enum_count<dtype> * enum_count<accumulator>>
      achieved_{};
  enum_array<dtype, std::optional<measured_value>> efficiency_{};
  std::optional<measured_value> launch_;
};

static_assert(device<measured_device> && gemm_device<measured_device>,
              "measured_device must model dlperf::device and dlperf::gemm_device");

}  // namespace dlperf
