/// @file
/// GPU vendors, and the per-vendor traits that shared code asks for instead of testing which
/// vendor it is (the words a vendor uses for its units, its ISA naming, its math library).
/// Each vendor's folder (`hardware/nvidia/`, `hardware/amd/`, `hardware/apple/`) specialises
/// `vendor_traits`.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>

namespace dlperf {

/// Who designs the chip.
enum class vendor : std::uint8_t { nvidia, amd, apple };

/// The vendors and their stable names.
template <>
struct enum_list<vendor> {
  static constexpr std::string_view kind = "vendor";  ///< what the enum names
  /// Every vendor.
  static constexpr std::array values{enumerator{vendor::nvidia, "nvidia", "NVIDIA"},
                                     enumerator{vendor::amd, "amd", "AMD"},
                                     enumerator{vendor::apple, "apple", "Apple"}};
};

/// What only one vendor has, specialised in the vendor's folder.
template <vendor V>
struct vendor_traits;

/// Satisfied by a complete `vendor_traits` specialisation: the vocabulary every vendor supplies.
template <class T>
concept vendor_traits_type = requires {
  { T::compute_unit } -> std::convertible_to<std::string_view>;   // "SM", "CU", "GPU core"
  { T::simd_group } -> std::convertible_to<std::string_view>;     // "warp", "wavefront"
  { T::matrix_unit } -> std::convertible_to<std::string_view>;    // "tensor core", "matrix core"
  { T::shared_memory } -> std::convertible_to<std::string_view>;  // "shared memory", "LDS"
  { T::isa_prefix } -> std::convertible_to<std::string_view>;     // "sm_", "gfx"
  { T::blas } -> std::convertible_to<std::string_view>;           // "cuBLAS", "hipBLASLt"
};

}  // namespace dlperf
