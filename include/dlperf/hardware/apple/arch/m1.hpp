/// @file
/// Apple M1 family GPUs (2020-2022): Metal GPU family Apple 7 (G13). M1, M1 Pro, M1 Max and
/// M1 Ultra share the core; they differ in core count, clock and memory bus.
#pragma once

#include <dlperf/hardware/apple/arch/gpu_core.hpp>

namespace dlperf {

/// The M1 family's GPU core (apple::gpu_core has the figures and their sources).
struct apple_m1 {
  /// Architecture facts.
  static constexpr architecture_spec spec =
      apple::gpu_core("apple_m1", family::apple_m1, "M1, M1 Pro, M1 Max, M1 Ultra (G13)", "apple7");
};

}  // namespace dlperf
