/// @file
/// Apple M4 family GPUs (2024-2025): Metal GPU family Apple 9, as M3 (G16). No measurement of its
/// per-core resources is published; the core keeps M1's figures and 128 ALUs.
#pragma once

#include <dlperf/hardware/apple/arch/gpu_core.hpp>

namespace dlperf {

/// The M4 family's GPU core (apple::gpu_core has the figures and their sources).
struct apple_m4 {
  /// Architecture facts.
  static constexpr architecture_spec spec =
      apple::gpu_core("apple_m4", family::apple_m4, "M4, M4 Pro, M4 Max (G16)", "apple9");
};

}  // namespace dlperf
