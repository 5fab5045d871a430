/// @file
/// What limits an estimate: the arithmetic, one memory tier, or fixed latency.
#pragma once

#include <cstdint>
#include <string_view>

#include <dlperf/core/error.hpp>

namespace dlperf {

/// What limits a workload's time: the arithmetic or one memory tier.
enum class bound : std::uint8_t {
  compute,    ///< arithmetic
  registers,  ///< register-file bandwidth
  shared,     ///< shared-memory bandwidth
  l2,         ///< L2 bandwidth
  global,     ///< DRAM bandwidth
  latency     ///< pipeline fill and launch (tile estimators only: too little work to hide them)
};

/// Stable name of a bound ("compute", "global", ...).
constexpr std::string_view name(bound b) {
  switch (b) {
    case bound::compute:
      return "compute";
    case bound::registers:
      return "registers";
    case bound::shared:
      return "shared";
    case bound::l2:
      return "l2";
    case bound::global:
      return "global";
    case bound::latency:
      return "latency";
  }
  detail::throw_invalid_argument("dlperf: invalid bound enumerator");
}

}  // namespace dlperf
