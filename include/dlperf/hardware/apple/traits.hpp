/// @file
/// Apple's vendor traits: the words Apple's Metal documentation uses for its GPU's units, its
/// GPU-family naming (`MTLGPUFamilyApple7` for M1, 8 for M2, 9 for M3 and M4) and its math
/// library.
#pragma once

#include <string_view>

#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/vendor.hpp>

namespace dlperf {

/// Apple: GPU cores, 32-thread SIMD-groups, `simdgroup_matrix` on the ALUs (no matrix unit of
/// its own before M5), threadgroup memory, Metal Performance Shaders.
template <>
struct vendor_traits<vendor::apple> {
  static constexpr std::string_view compute_unit = "GPU core";             ///< 128 ALUs each
  static constexpr std::string_view simd_group = "SIMD-group";             ///< 32 threads
  static constexpr std::string_view matrix_unit = "simdgroup matrix";      ///< 8x8 on the ALUs
  static constexpr std::string_view shared_memory = "threadgroup memory";  ///< per core
  static constexpr std::string_view isa_prefix = "apple";                  ///< MTLGPUFamilyApple<N>
  static constexpr std::string_view blas = "Metal Performance Shaders";    ///< the GEMM library
};

static_assert(vendor_traits_type<vendor_traits<vendor::apple>>);

}  // namespace dlperf
