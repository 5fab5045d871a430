/// @file
/// Apple M3 family GPUs (2023-2025): Metal GPU family Apple 9 (G15). Apple's "Dynamic Caching"
/// allocates registers and threadgroup memory from one on-core store at run time; no
/// measurement of the per-core resources it leaves is published, so the core keeps M1's figures
/// and 128 ALUs (Apple's M3 presentations, 2023-10, do not change the ALU count).
#pragma once

#include <dlperf/hardware/apple/arch/gpu_core.hpp>

namespace dlperf {

/// The M3 family's GPU core (apple::gpu_core has the figures and their sources).
struct apple_m3 {
  /// Architecture facts.
  static constexpr architecture_spec spec =
      apple::gpu_core("apple_m3", family::apple_m3, "M3, M3 Pro, M3 Max, M3 Ultra (G15)", "apple9");
};

}  // namespace dlperf
