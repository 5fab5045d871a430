/// @file
/// Memory tiers as types (registers, shared memory/L1, L2, global DRAM) and the per-tier facts a
/// device reports: capacity, bandwidth and latency.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// Run-time identity of a tier, fastest first.
enum class tier : std::uint8_t { registers, shared, l2, global };

/// Every tier, fastest first.
inline constexpr std::array<tier, 4> all_tiers{tier::registers, tier::shared, tier::l2,
                                               tier::global};

/// Stable name of a tier ("registers", "shared", "l2", "global").
constexpr std::string_view name(tier t) {
  switch (t) {
    case tier::registers:
      return "registers";
    case tier::shared:
      return "shared";
    case tier::l2:
      return "l2";
    case tier::global:
      return "global";
  }
  detail::throw_invalid_argument("dlperf: invalid tier enumerator");
}

/// Tier from its name. Throws not_found naming the input.
inline tier parse_tier(std::string_view text) {
  for (tier t : all_tiers)
    if (name(t) == text) return t;
  detail::throw_unknown("memory tier", text, all_tiers, [](tier t) { return name(t); });
}

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
using global_tier = memory_tier<tier::global>;        ///< device DRAM (GDDR or HBM)

inline constexpr registers_tier register_file{};  ///< register file tag
inline constexpr shared_tier shared_memory{};     ///< shared memory / L1 tag
inline constexpr l2_tier l2_cache{};              ///< L2 cache tag
inline constexpr global_tier global_memory{};     ///< DRAM tag

}  // namespace dlperf
