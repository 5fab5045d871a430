/// @file
/// Apple M2 family GPUs (2022-2023): Metal GPU family Apple 8 (G14). The core is M1's with
/// higher clocks (philipturner/metal-benchmarks: 1398 MHz against 1278-1296).
#pragma once

#include <dlperf/hardware/apple/arch/gpu_core.hpp>

namespace dlperf {

/// The M2 family's GPU core (apple::gpu_core has the figures and their sources).
struct apple_m2 {
  /// Architecture facts.
  static constexpr architecture_spec spec =
      apple::gpu_core("apple_m2", family::apple_m2, "M2, M2 Pro, M2 Max, M2 Ultra (G14)", "apple8");
};

}  // namespace dlperf
