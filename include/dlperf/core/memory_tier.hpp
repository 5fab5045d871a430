/// @file
/// Memory tiers as types (registers, shared memory/L1, L2, global DRAM) and the per-tier facts a
/// device reports: capacity, bandwidth and latency.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// Run-time identity of a tier, fastest first. `llc` is a last-level cache behind L2 (AMD's
/// Infinity Cache, the MALL); a device without one reports it with capacity 0 and the DRAM's
/// bandwidth and latency, so traffic a workload puts there costs what DRAM costs.
enum class tier : std::uint8_t { registers, shared, l2, llc, global };

/// The tiers and their stable names, fastest first.
template <>
struct enum_list<tier> {
  static constexpr std::string_view kind = "memory tier";  ///< what the enum names
  /// Every tier, fastest first.
  static constexpr std::array values{
      enumerator{tier::registers, "registers", "register file"},
      enumerator{tier::shared, "shared", "shared memory / L1 (AMD: LDS)"},
      enumerator{tier::l2, "l2", "L2 cache"},
      enumerator{tier::llc, "llc",
                 "last-level cache behind L2 (AMD Infinity Cache); may be absent"},
      enumerator{tier::global, "global", "device DRAM (GDDR or HBM)"}};
};

/// Every tier, fastest first.
inline constexpr auto all_tiers = enum_values<tier>;

/// Tier from its name. Throws not_found naming the input.
inline tier parse_tier(std::string_view text) { return parse<tier>(text); }

/// A value per memory tier, indexed by the tier.
template <class T>
using per_tier = enum_array<tier, T>;

/// What a device reports about one tier. Capacity and bandwidth are whole-device totals (summed
/// over SMs for the per-SM tiers); latency is the load-to-use time of one access.
struct tier_spec {
  byte_count capacity;    ///< bytes the tier holds on the whole device
  bandwidth throughput;   ///< bytes per second the tier delivers to the SMs, whole device
  double latency_cycles;  ///< load-to-use latency in SM clock cycles
  duration latency;       ///< the same latency in seconds at the clock the device runs
};

/// A tier as a type: an empty tag convertible to the run-time `tier`.
template <tier T>
struct memory_tier {
  static constexpr tier id = T;  ///< identity
  /// Implicit on purpose: a tag is usable wherever a run-time `tier` is.
  constexpr operator tier() const { return T; }  // NOLINT(google-explicit-constructor)
};

using registers_tier = memory_tier<tier::registers>;  ///< register file
using shared_tier = memory_tier<tier::shared>;        ///< shared memory / L1 of each SM
using l2_tier = memory_tier<tier::l2>;                ///< L2 cache
using llc_tier = memory_tier<tier::llc>;              ///< last-level cache behind L2
using global_tier = memory_tier<tier::global>;        ///< device DRAM (GDDR or HBM)

inline constexpr registers_tier register_file{};  ///< register file tag
inline constexpr shared_tier shared_memory{};     ///< shared memory / L1 tag
inline constexpr l2_tier l2_cache{};              ///< L2 cache tag
inline constexpr llc_tier last_level_cache{};     ///< last-level cache tag
inline constexpr global_tier global_memory{};     ///< DRAM tag

}  // namespace dlperf
