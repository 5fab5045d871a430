/// @file
/// NVIDIA's vendor traits: the words NVIDIA uses for its units, its ISA naming (compute
/// capability as `sm_XY`) and its math library.
#pragma once

#include <string>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/vendor.hpp>

namespace dlperf {

/// NVIDIA: streaming multiprocessors, 32-thread warps, tensor cores, cuBLAS.
template <>
struct vendor_traits<vendor::nvidia> {
  static constexpr std::string_view compute_unit = "SM";              ///< streaming multiprocessor
  static constexpr std::string_view simd_group = "warp";              ///< 32 threads in lock-step
  static constexpr std::string_view matrix_unit = "tensor core";      ///< matrix-multiply unit
  static constexpr std::string_view shared_memory = "shared memory";  ///< per-SM scratchpad
  static constexpr std::string_view isa_prefix = "sm_";               ///< sm_<compute capability>
  static constexpr std::string_view blas = "cuBLAS";                  ///< the vendor's GEMM library
};

static_assert(vendor_traits_type<vendor_traits<vendor::nvidia>>);

/// CUDA compute capability, what NVIDIA alone numbers its architectures by.
struct compute_capability {
  int major;  ///< e.g. 9 for Hopper
  int minor;  ///< e.g. 0 for Hopper
};

/// Compute capability of NVIDIA architecture @p a, read from its ISA target ("sm_90" -> 9.0,
/// "sm_100" -> 10.0). Throws invalid_argument for another vendor's architecture.
constexpr compute_capability compute_capability_of(const architecture_spec& a) {
  constexpr std::string_view prefix = vendor_traits<vendor::nvidia>::isa_prefix;
  if (a.vendor != vendor::nvidia || a.isa.size() < prefix.size() + 2 ||
      a.isa.substr(0, prefix.size()) != prefix)
    detail::throw_invalid_argument(std::string(a.name) + " has no CUDA compute capability");
  int digits = 0;
  for (char c : a.isa.substr(prefix.size())) {
    if (c < '0' || c > '9')
      detail::throw_invalid_argument(std::string(a.name) + ": malformed ISA " + std::string(a.isa));
    digits = digits * 10 + (c - '0');
  }
  return {digits / 10, digits % 10};
}

}  // namespace dlperf
