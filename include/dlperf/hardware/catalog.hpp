/// @file
/// The built-in GPU catalog: every entry as a constexpr `gpu<Arch>` in `dlperf::catalog`, the list
/// of all of them, and look-up by stable id.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/hardware/amd/catalog/cdna2.hpp>
#include <dlperf/hardware/amd/catalog/cdna3.hpp>
#include <dlperf/hardware/amd/catalog/cdna4.hpp>
#include <dlperf/hardware/amd/catalog/rdna3.hpp>
#include <dlperf/hardware/amd/catalog/rdna4.hpp>
#include <dlperf/hardware/apple/catalog/m1.hpp>
#include <dlperf/hardware/apple/catalog/m2.hpp>
#include <dlperf/hardware/apple/catalog/m3.hpp>
#include <dlperf/hardware/apple/catalog/m4.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/catalog/ada.hpp>
#include <dlperf/hardware/nvidia/catalog/ampere.hpp>
#include <dlperf/hardware/nvidia/catalog/blackwell.hpp>
#include <dlperf/hardware/nvidia/catalog/hopper.hpp>
#include <dlperf/hardware/nvidia/catalog/pascal.hpp>
#include <dlperf/hardware/nvidia/catalog/turing.hpp>
#include <dlperf/hardware/nvidia/catalog/volta.hpp>

namespace dlperf::catalog {

/// Every catalog GPU: NVIDIA's, then AMD's, then Apple's, by architecture generation and then by
/// launch.
/// (`std::to_array`: the count follows the list.)
inline constexpr auto all = std::to_array<const gpu_spec*>({&gtx_1070,
                                                            &gtx_1080,
                                                            &gtx_1080_ti,
                                                            &titan_xp,
                                                            &tesla_p40,
                                                            &p100_sxm2,
                                                            &v100_sxm2,
                                                            &titan_v,
                                                            &gtx_1650_super,
                                                            &rtx_2060,
                                                            &rtx_2070,
                                                            &rtx_2080,
                                                            &rtx_2080_ti,
                                                            &titan_rtx,
                                                            &t4,
                                                            &rtx_3060_ti,
                                                            &rtx_3070,
                                                            &rtx_3080,
                                                            &rtx_3090,
                                                            &rtx_3060,
                                                            &rtx_3070_ti,
                                                            &rtx_3080_ti,
                                                            &rtx_3090_ti,
                                                            &a10,
                                                            &a10g,
                                                            &a40,
                                                            &rtx_a6000,
                                                            &rtx_a5000,
                                                            &rtx_a4000,
                                                            &a100_sxm4_40gb,
                                                            &a100_sxm4_80gb,
                                                            &a800_sxm4_80gb,
                                                            &a100_pcie_80gb,
                                                            &rtx_4070_ti,
                                                            &rtx_4080,
                                                            &rtx_4090,
                                                            &rtx_4070,
                                                            &rtx_4060,
                                                            &rtx_4060_ti_16gb,
                                                            &rtx_4070_super,
                                                            &rtx_4070_ti_super,
                                                            &rtx_4080_super,
                                                            &l4,
                                                            &l40s,
                                                            &l40,
                                                            &l20,
                                                            &rtx_6000_ada,
                                                            &rtx_4000_ada,
                                                            &rtx_5000_ada,
                                                            &h100_pcie,
                                                            &h100_sxm,
                                                            &h800_sxm,
                                                            &h100_sxm_96gb,
                                                            &h100_nvl,
                                                            &h200_sxm,
                                                            &h200_nvl,
                                                            &h20,
                                                            &gh200,
                                                            &b200,
                                                            &gb200,
                                                            &rtx_5090,
                                                            &rtx_5080,
                                                            &rtx_5070_ti,
                                                            &rtx_5070,
                                                            &rtx_5060_ti_16gb,
                                                            &rtx_pro_6000,
                                                            &mi250x,
                                                            &mi210,
                                                            &mi300x,
                                                            &mi325x,
                                                            &mi300a,
                                                            &mi355x,
                                                            &mi350x,
                                                            &rx_7900_xtx,
                                                            &rx_7900_xt,
                                                            &radeon_pro_w7900,
                                                            &rx_9070_xt,
                                                            &rx_9070,
                                                            &m1_7c_8gb,
                                                            &m1_8c_8gb,
                                                            &m1_pro_14c_32gb,
                                                            &m1_pro_16c_32gb,
                                                            &m1_max_24c_32gb,
                                                            &m1_max_32c_64gb,
                                                            &m1_ultra_48c_64gb,
                                                            &m1_ultra_64c_128gb,
                                                            &m2_8c_8gb,
                                                            &m2_10c_24gb,
                                                            &m2_pro_16c_32gb,
                                                            &m2_pro_19c_32gb,
                                                            &m2_max_30c_32gb,
                                                            &m2_max_38c_96gb,
                                                            &m2_ultra_60c_64gb,
                                                            &m2_ultra_76c_192gb,
                                                            &m3_10c_16gb,
                                                            &m3_pro_14c_18gb,
                                                            &m3_pro_18c_36gb,
                                                            &m3_max_30c_36gb,
                                                            &m3_max_40c_48gb,
                                                            &m3_max_40c_64gb,
                                                            &m3_ultra_60c_96gb,
                                                            &m3_ultra_80c_512gb,
                                                            &m4_10c_24gb,
                                                            &m4_pro_16c_24gb,
                                                            &m4_pro_20c_24gb,
                                                            &m4_max_32c_36gb,
                                                            &m4_max_40c_128gb});

/// Position of the GPU with stable id @p id in `all`, or none for an id the catalog lacks.
constexpr std::optional<std::size_t> index_of(std::string_view id) {
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i]->id() == id) return i;
  return std::nullopt;
}

/// GPU by stable id ("rtx_4090"). Throws not_found naming the id and listing the valid ones.
constexpr const gpu_spec& find(std::string_view id) {
  if (const std::optional<std::size_t> i = index_of(id)) return *all[*i];
  detail::throw_unknown("GPU id", id, all, [](const gpu_spec* g) { return g->id(); });
}

}  // namespace dlperf::catalog
