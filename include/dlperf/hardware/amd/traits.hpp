/// @file
/// AMD's vendor traits: the words AMD uses for its units, its ISA naming (`gfx` plus the GFX IP
/// version) and its math library.
#pragma once

#include <string_view>

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/vendor.hpp>

namespace dlperf {

/// AMD: compute units, 64-thread wavefronts (32 on RDNA), matrix cores, hipBLASLt.
template <>
struct vendor_traits<vendor::amd> {
  static constexpr std::string_view compute_unit = "CU";          ///< compute unit
  static constexpr std::string_view simd_group = "wavefront";     ///< 64 (CDNA) or 32 (RDNA) lanes
  static constexpr std::string_view matrix_unit = "matrix core";  ///< MFMA / WMMA unit
  static constexpr std::string_view shared_memory = "LDS";        ///< local data share per CU
  static constexpr std::string_view isa_prefix = "gfx";           ///< gfx<GFX IP>, e.g. gfx942
  static constexpr std::string_view blas = "hipBLASLt";           ///< the vendor's GEMM library
};

static_assert(vendor_traits_type<vendor_traits<vendor::amd>>);

}  // namespace dlperf
