/// @file
/// A GPU: the facts a datasheet gives (`gpu_facts`), joined with its architecture into a
/// `gpu_spec` that derives peak throughput and per-tier capacity, bandwidth and latency.
///
/// Nothing derived is stored: peak FLOP/s is SMs x FMA per clock per SM x 2 x clock, DRAM
/// bandwidth is bus width x per-pin data rate, and so on, so a catalog entry can never disagree
/// with its own formula. `gpu<A>` adds the architecture as a type for compile-time checks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/hardware/interconnect.hpp>

namespace dlperf {

/// Market segment; it decides whether tensor-core rates with FP32 accumulation are halved.
enum class segment : std::uint8_t {
  geforce,      ///< NVIDIA consumer boards: FP32-accumulated tensor math at the consumer rate
  titan,        ///< TITAN boards: consumer pricing, full-rate tensor cores
  workstation,  ///< Quadro / RTX professional boards (and AMD Radeon PRO)
  datacenter,   ///< Tesla / data-centre boards (and AMD Instinct)
  radeon,       ///< AMD consumer boards
  apple         ///< Apple silicon: a Mac's integrated GPU, sold as a machine
};

/// The segments and their stable names.
template <>
struct enum_list<segment> {
  static constexpr std::string_view kind = "segment";  ///< what the enum names
  /// Every segment.
  static constexpr std::array values{enumerator{segment::geforce, "geforce"},
                                     enumerator{segment::titan, "titan"},
                                     enumerator{segment::workstation, "workstation"},
                                     enumerator{segment::datacenter, "datacenter"},
                                     enumerator{segment::radeon, "radeon"},
                                     enumerator{segment::apple, "apple"}};
};

/// Whether segment @p s sells to consumers (GeForce, Radeon, Apple's Macs): consumer tensor
/// rates, consumer cooling and pricing.
constexpr bool consumer_segment(segment s) {
  return s == segment::geforce || s == segment::radeon || s == segment::apple;
}

/// DRAM technology.
enum class memory_kind : std::uint8_t {
  gddr5,
  gddr5x,
  gddr6,
  gddr6x,
  gddr7,
  hbm2,
  hbm2e,
  hbm3,
  hbm3e,
  lpddr4x,  ///< Apple M1's unified memory
  lpddr5,   ///< M1 Pro/Max/Ultra, M2 and M3 families
  lpddr5x   ///< M4 family
};

/// The DRAM technologies and their stable names ("GDDR6X", "HBM3e", ...).
template <>
struct enum_list<memory_kind> {
  static constexpr std::string_view kind = "memory type";  ///< what the enum names
  /// Every DRAM technology.
  static constexpr std::array values{
      enumerator{memory_kind::gddr5, "GDDR5"},   enumerator{memory_kind::gddr5x, "GDDR5X"},
      enumerator{memory_kind::gddr6, "GDDR6"},   enumerator{memory_kind::gddr6x, "GDDR6X"},
      enumerator{memory_kind::gddr7, "GDDR7"},   enumerator{memory_kind::hbm2, "HBM2"},
      enumerator{memory_kind::hbm2e, "HBM2e"},   enumerator{memory_kind::hbm3, "HBM3"},
      enumerator{memory_kind::hbm3e, "HBM3e"},   enumerator{memory_kind::lpddr4x, "LPDDR4X"},
      enumerator{memory_kind::lpddr5, "LPDDR5"}, enumerator{memory_kind::lpddr5x, "LPDDR5X"}};
};

/// How a board goes into a machine: its form factor decides which host can carry it.
enum class form_factor : std::uint8_t {
  card,       ///< a PCIe card: a desktop or any server with slots holds it
  mezzanine,  ///< a mezzanine module (NVIDIA SXM, OCP OAM, a superchip or socketed APU): only a
              ///< server built around its vendor's baseboard holds it; its stable name is
              ///< "module" (the identifier avoids C++20's contextual keyword)
  integrated  ///< a system-on-chip's GPU (Apple silicon): one per machine, and its price is the
              ///< machine's, host included
};

/// The form factors and their stable names.
template <>
struct enum_list<form_factor> {
  static constexpr std::string_view kind = "form factor";  ///< what the enum names
  /// Every form factor.
  static constexpr std::array values{enumerator{form_factor::card, "card", "a PCIe card"},
                                     enumerator{form_factor::mezzanine, "module",
                                                "an SXM or OAM module on its vendor's baseboard"},
                                     enumerator{form_factor::integrated, "integrated",
                                                "a system-on-chip's GPU, sold in its machine"}};
};

/// What kind of figure a price is (docs/catalog.md, "Prices").
enum class price_kind : std::uint8_t {
  none,             ///< no price is known
  launch_msrp,      ///< the vendor's launch list price
  street,           ///< a reported market price at the date it carries
  launch_reported,  ///< a per-card price reported at launch (no list price exists)
  system_share,     ///< the vendor's launch system price divided by its GPU count (an upper
                    ///< bound on the card: it includes that system's host)
  used              ///< a reported resale price (second-hand or resold cards) at its date
};

/// The price kinds and their stable names.
template <>
struct enum_list<price_kind> {
  static constexpr std::string_view kind = "price kind";  ///< what the enum names
  /// Every price kind.
  static constexpr std::array values{enumerator{price_kind::none, "none"},
                                     enumerator{price_kind::launch_msrp, "launch_msrp"},
                                     enumerator{price_kind::street, "street"},
                                     enumerator{price_kind::launch_reported, "launch_reported"},
                                     enumerator{price_kind::system_share, "system_share"},
                                     enumerator{price_kind::used, "used"}};
};

/// A price with its date and kind: prices drift, so one without a date is meaningless.
struct price_point {
  money amount{};                      ///< US dollars, nominal
  int year = 0;                        ///< year the price applied
  int month = 0;                       ///< month the price applied (1-12)
  price_kind kind = price_kind::none;  ///< what kind of figure it is
};

/// The facts of one GPU board as its datasheet states them; every field is a published figure.
struct gpu_facts {
  std::string_view id;         ///< stable id, e.g. "a100_sxm4_40gb"
  std::string_view name;       ///< marketing name
  dlperf::segment segment;     ///< market segment
  int year;                    ///< launch year
  int sms;                     ///< enabled streaming multiprocessors
  frequency base_clock;        ///< base SM clock
  frequency boost_clock;       ///< boost SM clock, the basis of the vendor's peak figures
  frequency tensor_clock{};    ///< boost clock for tensor-core peaks where the vendor states
                               ///< a separate one (Hopper, Blackwell B200); 0 = boost_clock
  byte_count memory;           ///< DRAM capacity: what the GPU may allocate (on a GPU that shares
                               ///< the machine's memory, its working set of `unified_memory`)
  memory_kind memory_type;     ///< DRAM technology
  int bus_width_bits;          ///< DRAM interface width
  double data_rate_gbps;       ///< DRAM data rate per pin, Gbit/s
  byte_count l2;               ///< L2 cache capacity
  byte_count llc{};            ///< last-level cache behind L2 (AMD Infinity Cache); 0 = none
  bandwidth llc_bandwidth{};   ///< its peak bandwidth (the vendor's figure); needed when llc > 0
  power tdp;                   ///< board power (TDP / TGP)
  interconnect host_link;      ///< link to the host (PCI Express)
  interconnect peer_link{};    ///< GPU-to-GPU fabric (NVLink, Infinity Fabric); none by default
  price_point price{};         ///< launch price with date and kind: the list price, else a
                               ///< figure reported at launch, the launch system's price per
                               ///< GPU, or the earliest dated market price (its kind says which)
  price_point street_price{};  ///< a later market price (kind street: new; used: resale) where
                               ///< one is sourced
  std::string_view source;     ///< where the figures come from
  double gemm_efficiency = 0;  ///< large-GEMM efficiency of this board where it differs from its
                               ///< architecture's (power-limited boards); 0 = the architecture's
  /// The SM clock the board holds through minutes of back-to-back dense 16-bit tensor-core GEMMs
  /// at its default power limit, where one is measured (estimate/sustained_clock.hpp); 0 = none
  /// measured, and a long job keeps the clock the GEMM efficiencies were measured at.
  frequency sustained_tensor_clock{};
  /// The same under FP8 products, where one is measured: their operands switch more bits a cycle
  /// and draw more power, so the board settles lower; 0 = as sustained_tensor_clock.
  frequency sustained_fp8_tensor_clock{};
  dlperf::form_factor form = form_factor::card;  ///< card or module: which host carries it
  /// The machine's memory that CPU and GPU share (Apple silicon), of which `memory` is the GPU's
  /// part; 0 for a GPU with memory of its own.
  byte_count unified_memory{};
};

/// The clock board @p f's tensor-core peaks are quoted at: its tensor clock where the vendor
/// states one apart (Hopper, Blackwell B200), else its boost clock.
constexpr frequency quoted_tensor_clock(const gpu_facts& f) {
  return f.tensor_clock.value() > 0 ? f.tensor_clock : f.boost_clock;
}

/// A GPU as the estimators see it: datasheet facts plus the architecture they run on. A literal
/// type, so catalog entries are usable in constant expressions; also constructible at run time
/// from measured or user-supplied figures. Models `dlperf::device`.
class gpu_spec {
 public:
  /// Joins facts with an architecture. Throws invalid_argument if a count, clock, size or
  /// bandwidth that the estimators divide by is not positive.
  constexpr gpu_spec(architecture_spec arch, const gpu_facts& facts)
      : arch_(std::move(arch)), facts_(facts) {
    if (facts.sms <= 0) reject("SM count");
    if (!(facts.boost_clock.value() > 0)) reject("boost clock");
    if (facts.tensor_clock.value() < 0 || facts.tensor_clock.value() != facts.tensor_clock.value())
      reject("tensor clock");
    if (!(facts.sustained_tensor_clock.value() >= 0) ||
        facts.sustained_tensor_clock > facts.boost_clock)
      detail::throw_invalid_argument("GPU '" + std::string(facts_.id) +
                                     "': sustained tensor clock must be 0 (none measured) or at "
                                     "most the boost clock");
    if (!(facts.sustained_fp8_tensor_clock.value() >= 0) ||
        facts.sustained_fp8_tensor_clock > facts.boost_clock)
      detail::throw_invalid_argument("GPU '" + std::string(facts_.id) +
                                     "': sustained FP8 tensor clock must be 0 (none measured) or "
                                     "at most the boost clock");
    if (!(facts.memory.value() > 0)) reject("memory size");
    if (facts.bus_width_bits <= 0) reject("memory bus width");
    if (!(facts.data_rate_gbps > 0)) reject("memory data rate");
    if (!(facts.l2.value() > 0)) reject("L2 size");
    if (!(facts.llc.value() >= 0)) reject("last-level cache size");
    if (facts.llc.value() > 0 && !(facts.llc_bandwidth.value() > 0))
      reject("last-level cache bandwidth");
  }

  /// Stable id.
  [[nodiscard]] constexpr std::string_view id() const { return facts_.id; }
  /// Marketing name.
  [[nodiscard]] constexpr std::string_view name() const { return facts_.name; }
  /// Datasheet facts.
  [[nodiscard]] constexpr const gpu_facts& facts() const { return facts_; }
  /// Architecture facts.
  [[nodiscard]] constexpr const architecture_spec& arch() const { return arch_; }

  /// Clock the tensor-core peaks are quoted at.
  [[nodiscard]] constexpr frequency tensor_clock() const { return quoted_tensor_clock(facts_); }
  /// Enabled SMs.
  [[nodiscard]] constexpr int sm_count() const { return facts_.sms; }
  /// SM clock the per-cycle latencies and bandwidths are converted at (the boost clock).
  [[nodiscard]] constexpr frequency sm_clock() const { return facts_.boost_clock; }
  /// Fraction of peak that large GEMMs reach for operands of type @p t: the board's own figure
  /// where it has one (power-limited boards), else the architecture's published large-GEMM
  /// efficiency (see architecture_spec::gemm_efficiency).
  [[nodiscard]] constexpr double gemm_efficiency(dtype t) const {
    return facts_.gemm_efficiency > 0 ? facts_.gemm_efficiency : arch_.gemm_efficiency_for(t);
  }
  /// Fixed cost of one kernel launch.
  // NOLINTNEXTLINE(readability-convert-member-functions-to-static): the device concept's member
  [[nodiscard]] constexpr duration launch_overhead() const { return default_launch_overhead; }

  /// Fixed cost of one GEMM-like call as a framework issues it, assumed when nothing was
  /// measured: 5 us. PyTorch/cuBLAS dispatch plus launch costs 4-8 us per call in published
  /// back-to-back timings of small GEMMs (e.g. cuBLAS 1024^3 FP16 on A100 at 99.9 TFLOPS, 21.5 us,
  /// against about 10 us of tile-level work; triton-lang/triton issue 7085, 2025); CUDA graphs
  /// bring it to 1-2 us. The calibration backends replace it with a measurement.
  static constexpr duration default_launch_overhead = duration::from_value(5e-6);

  /// Whether FP32-accumulated tensor math runs at the architecture's consumer (GeForce) rate.
  [[nodiscard]] constexpr bool consumer_tensor_rate() const {
    return consumer_segment(facts_.segment);
  }

  /// Whether the GPU can multiply @p t accumulating in @p a with sparsity @p s.
  [[nodiscard]] constexpr bool supports(dtype t, accumulator a,
                                        sparsity s = sparsity::dense) const {
    return arch_.supports(t, a, s);
  }

  /// Peak throughput for (t, a, s): SMs x FMA/clock/SM x 2 FLOP x clock, at the tensor clock on
  /// the tensor path and the boost clock on CUDA cores. Throws unsupported when there is no path.
  [[nodiscard]] constexpr flop_rate peak(dtype t, accumulator a,
                                         sparsity s = sparsity::dense) const {
    const architecture_spec::execution_path path = arch_.execution(t, a, s, consumer_tensor_rate());
    const frequency clock = path.tensor_cores ? tensor_clock() : facts_.boost_clock;
    return make<flop_rate>(facts_.sms * path.fma_per_clock * 2.0 * clock.value());
  }
  /// Peak throughput of @p t with its default accumulator, dense.
  [[nodiscard]] constexpr flop_rate peak(dtype t) const {
    return peak(t, default_accumulator(t), sparsity::dense);
  }

  /// DRAM bandwidth: bus width x per-pin data rate / 8 bits per byte.
  [[nodiscard]] constexpr bandwidth memory_bandwidth() const {
    return make<bandwidth>(facts_.bus_width_bits * facts_.data_rate_gbps * 1e9 / 8.0);
  }

  /// Capacity, bandwidth and latency of tier @p m, whole device.
  ///  - registers: SMs x register file; bandwidth SMs x FP32 lanes x 3 operands x 4 B x clock
  ///    (what FFMA reads at full rate); latency 1 cycle.
  ///  - shared: SMs x shared memory per SM; SMs x bytes/clock (32 banks x 4 B) x clock.
  ///  - l2: L2 size; SMs x L2 bytes/clock/SM x clock.
  ///  - llc: the last-level cache's size and published bandwidth; without one, capacity 0 and
  ///    the DRAM's bandwidth and latency.
  ///  - global: DRAM size and bandwidth.
  [[nodiscard]] constexpr tier_spec memory(tier m) const {
    const double clock = facts_.boost_clock.value();
    const double n = facts_.sms;
    switch (m) {
      case tier::registers:
        return make_tier(n * arch_.sm.register_file().value(),
                         n * arch_.vector_rate(dtype::fp32, accumulator::fp32) * 3 * 4 * clock,
                         1.0);
      case tier::shared:
        return make_tier(n * arch_.sm.shared_per_sm.value(),
                         n * arch_.shared_bytes_per_clock * clock, arch_.latency.shared);
      case tier::l2:
        return make_tier(facts_.l2.value(), n * arch_.l2_bytes_per_clock * clock, arch_.latency.l2);
      case tier::llc:  // absent: capacity 0, and traffic sent there costs what DRAM costs
        return facts_.llc.value() > 0
                   ? make_tier(facts_.llc.value(), facts_.llc_bandwidth.value(), arch_.latency.llc)
                   : make_tier(0, memory_bandwidth().value(), arch_.latency.global);
      case tier::global:
        return make_tier(facts_.memory.value(), memory_bandwidth().value(), arch_.latency.global);
    }
    detail::throw_invalid_argument("dlperf: invalid tier enumerator");
  }

 private:
  [[nodiscard]] constexpr tier_spec make_tier(double capacity, double bytes_per_second,
                                              double cycles) const {
    return {bytes(capacity), make<bandwidth>(bytes_per_second), cycles,
            seconds(cycles / facts_.boost_clock.value())};
  }
  [[noreturn]] void reject(const char* field) const {
    detail::throw_invalid_argument("GPU '" + std::string(facts_.id) + "': " + field +
                                   " must be a positive number");
  }

  architecture_spec arch_;
  gpu_facts facts_;
};

/// A GPU whose architecture is also known as a type, so that compile-time checks
/// (`dlperf::peak(gpu, fp8_e4m3)`) can reject what the architecture cannot do.
template <architecture A>
class gpu : public gpu_spec {
 public:
  using architecture_type = A;  ///< the architecture tag

  /// A GPU of architecture @p A with datasheet @p facts.
  constexpr explicit gpu(const gpu_facts& facts) : gpu_spec(A::spec, facts) {}
};

static_assert(device<gpu_spec> && gemm_device<gpu_spec>,
              "gpu_spec must model dlperf::device and dlperf::gemm_device");

/// Peak throughput of @p g for datatype tag @p T, accumulator tag and sparsity, checked at compile
/// time against the GPU's architecture: `peak(catalog::a100_sxm4_40gb, fp8_e4m3)` does not
/// compile, and the message says why.
template <architecture A, dtype T, accumulator Acc = default_accumulator(T),
          sparsity S = sparsity::dense>
constexpr flop_rate peak(const gpu<A>& g, datatype<T> /*type*/) {
  static_assert(A::spec.supports(T, Acc),
                "dlperf: this GPU's architecture cannot multiply this datatype with its default "
                "accumulator (FP8 needs Ada, Hopper or Blackwell; BF16 and TF32 need Ampere or "
                "later; FP4 needs Blackwell; INT4 has no tensor path on Hopper or Blackwell)");
  return g.peak(T, Acc, S);
}

/// Accumulator as a type, for the compile-time checked `peak` overloads.
template <accumulator A>
struct accumulate {
  static constexpr accumulator id = A;  ///< identity
};
inline constexpr accumulate<accumulator::fp16> accumulate_fp16{};    ///< FP16 accumulation
inline constexpr accumulate<accumulator::fp32> accumulate_fp32{};    ///< FP32 accumulation
inline constexpr accumulate<accumulator::int32> accumulate_int32{};  ///< INT32 accumulation

/// Sparsity as a type, for the compile-time checked `peak` overloads.
template <sparsity S>
struct sparsity_tag {
  static constexpr sparsity id = S;  ///< identity
};
inline constexpr sparsity_tag<sparsity::dense> dense_operands{};   ///< dense operands
inline constexpr sparsity_tag<sparsity::sparse_2_4> sparse_2_4{};  ///< 2:4 structured sparsity

/// Peak of @p g for @p T accumulating in @p Acc, checked at compile time.
template <architecture A, dtype T, accumulator Acc>
constexpr flop_rate peak(const gpu<A>& g, datatype<T> /*type*/, accumulate<Acc> /*acc*/) {
  static_assert(A::spec.supports(T, Acc),
                "dlperf: this GPU's architecture cannot multiply this datatype with this "
                "accumulator");
  return g.peak(T, Acc, sparsity::dense);
}

/// Peak of @p g for @p T accumulating in @p Acc with sparsity @p S, checked at compile time.
template <architecture A, dtype T, accumulator Acc, sparsity S>
constexpr flop_rate peak(const gpu<A>& g, datatype<T> /*type*/, accumulate<Acc> /*acc*/,
                         sparsity_tag<S> /*sparsity*/) {
  static_assert(A::spec.supports(T, Acc),
                "dlperf: this GPU's architecture cannot multiply this datatype with this "
                "accumulator");
  static_assert(A::spec.supports(T, Acc, S),
                "dlperf: 2:4 structured sparsity needs Ampere or later (NVIDIA) or CDNA 3 (AMD) "
                "matrix units that run this datatype");
  return g.peak(T, Acc, S);
}

}  // namespace dlperf
