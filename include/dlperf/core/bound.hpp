/// @file
/// What limits an estimate: the arithmetic, one memory tier (named explicitly), or fixed latency.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>

namespace dlperf {

/// What limits a workload's time: the arithmetic, one memory tier, latency, or a link between
/// GPUs.
enum class bound : std::uint8_t {
  compute,      ///< arithmetic
  registers,    ///< register-file bandwidth
  shared,       ///< shared-memory bandwidth
  l2,           ///< L2 bandwidth
  llc,          ///< last-level cache (Infinity Cache) bandwidth
  global,       ///< DRAM bandwidth
  latency,      ///< pipeline fill and launch (tile estimators only: too little work to hide them)
  interconnect  ///< a link between GPUs (a collective or a hand-off of activations)
};

/// The bounds, their stable names and the tier each memory bound names (compute and latency
/// name none). The tier is part of the list, not a position: nothing relies on the two enums
/// being in the same order.
template <>
struct enum_list<bound> {
  static constexpr std::string_view kind = "bound";  ///< what the enum names
  /// Every bound.
  static constexpr std::array values{enumerator{bound::compute, "compute", "compute-bound"},
                                     enumerator{bound::registers, "registers", "register-bound"},
                                     enumerator{bound::shared, "shared", "shared-memory-bound"},
                                     enumerator{bound::l2, "l2", "L2-bound"},
                                     enumerator{bound::llc, "llc", "Infinity-Cache-bound"},
                                     enumerator{bound::global, "global", "DRAM-bound"},
                                     enumerator{bound::latency, "latency", "latency-bound"},
                                     enumerator{bound::interconnect, "interconnect", "link-bound"}};
};

/// Which bound is a memory tier's, and which tier a memory bound names.
inline constexpr std::array<std::pair<tier, bound>, 5> tier_bounds{
    {{tier::registers, bound::registers},
     {tier::shared, bound::shared},
     {tier::l2, bound::l2},
     {tier::llc, bound::llc},
     {tier::global, bound::global}}};
static_assert(tier_bounds.size() == enum_count<tier>, "dlperf: every tier needs its bound");

/// The bound of memory tier @p t ("DRAM-bound" for tier::global).
constexpr bound bound_of(tier t) {
  for (const auto& [tr, b] : tier_bounds)
    if (tr == t) return b;
  detail::throw_invalid_argument("dlperf: invalid tier enumerator");
}

/// The tier a memory bound names; empty for compute, latency and interconnect.
constexpr std::optional<tier> tier_of(bound b) {
  for (const auto& [tr, bd] : tier_bounds)
    if (bd == b) return tr;
  return std::nullopt;
}

/// How a person reads the bound: "compute-bound", "DRAM-bound", "L2-bound", ...
constexpr std::string_view describe(bound b) { return description(b); }

}  // namespace dlperf
