/// @file
/// Every architecture tag, and look-up of an architecture_spec by name at run time.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include <dlperf/hardware/amd/arch/cdna2.hpp>
#include <dlperf/hardware/amd/arch/cdna3.hpp>
#include <dlperf/hardware/amd/arch/cdna4.hpp>
#include <dlperf/hardware/amd/arch/rdna3.hpp>
#include <dlperf/hardware/amd/arch/rdna4.hpp>
#include <dlperf/hardware/apple/arch/m1.hpp>
#include <dlperf/hardware/apple/arch/m2.hpp>
#include <dlperf/hardware/apple/arch/m3.hpp>
#include <dlperf/hardware/apple/arch/m4.hpp>
#include <dlperf/hardware/nvidia/arch/ada.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>
#include <dlperf/hardware/nvidia/arch/blackwell.hpp>
#include <dlperf/hardware/nvidia/arch/hopper.hpp>
#include <dlperf/hardware/nvidia/arch/pascal.hpp>
#include <dlperf/hardware/nvidia/arch/turing.hpp>
#include <dlperf/hardware/nvidia/arch/volta.hpp>

namespace dlperf {

/// Every architecture: NVIDIA's oldest first, then AMD's, then Apple's (the count follows the
/// list).
inline constexpr std::array all_architectures{
    pascal_gp100::spec,    pascal_gp10x::spec,
    volta_gv100::spec,     turing_tu10x::spec,
    turing_tu11x::spec,    ampere_ga100::spec,
    ampere_ga10x::spec,    ampere_ga10x_half_tensor::spec,
    ada_ad10x::spec,       ada_ad10x_half_tensor::spec,
    hopper_gh100::spec,    hopper_gh100_quarter_tensor::spec,
    blackwell_gb100::spec, blackwell_gb20x::spec,
    cdna2::spec,           cdna3::spec,
    cdna4::spec,           rdna3::spec,
    rdna4::spec,           apple_m1::spec,
    apple_m2::spec,        apple_m3::spec,
    apple_m4::spec};

/// Architecture by name ("ampere_ga100", ...). Throws not_found naming the input.
constexpr const architecture_spec& find_architecture(std::string_view arch_name) {
  for (const architecture_spec& a : all_architectures)
    if (a.name == arch_name) return a;
  detail::throw_unknown("architecture", arch_name, all_architectures,
                        [](const architecture_spec& a) { return a.name; });
}

}  // namespace dlperf
