// Vendor-published figures the catalog's derived values are checked against. Kept apart from the
// library on purpose: the library derives, the tests compare. Each row names its source.
#pragma once

#include <array>
#include <dlperf/dlperf.hpp>
#include <string_view>

namespace dlperf::test {

struct published_peak {
  std::string_view gpu;
  dtype type;
  accumulator acc;
  sparsity sparse;
  double tflops;
  std::string_view source;
};

constexpr accumulator f16 = accumulator::fp16;
constexpr accumulator f32 = accumulator::fp32;
constexpr accumulator i32 = accumulator::int32;
constexpr sparsity dn = sparsity::dense;
constexpr sparsity sp = sparsity::sparse_2_4;

// Abbreviations: TWP = NVIDIA Turing GPU Architecture whitepaper (2018); GA102 = NVIDIA Ampere
// GA102 GPU Architecture whitepaper (2020); A100WP = NVIDIA A100 Tensor Core GPU Architecture
// whitepaper (2020); ADA = NVIDIA Ada GPU Architecture whitepaper v2.02 (2023); H100WP = NVIDIA
// H100 Tensor Core GPU Architecture whitepaper v1.04 (2023); RTXBW = NVIDIA RTX Blackwell GPU
// Architecture whitepaper v1.1 (2025); MI250XDS, MI300XDS, MI325XDS = AMD Instinct MI250X, MI300X,
// MI325X datasheets; XTX = AMD Radeon RX 7900 XTX product specifications.
inline constexpr std::array published_peaks{
    published_peak{"gtx_1070", dtype::fp32, f32, dn, 6.5, "GTX 1070 product page"},
    published_peak{"gtx_1080", dtype::fp32, f32, dn, 8.873, "GTX 1080 whitepaper"},
    published_peak{"gtx_1080_ti", dtype::fp32, f32, dn, 11.3, "TWP Table 1"},
    published_peak{"titan_xp", dtype::fp32, f32, dn, 12.0, "TITAN Xp product page"},
    published_peak{"p100_sxm2", dtype::fp32, f32, dn, 10.6, "A100WP Table 3"},
    published_peak{"p100_sxm2", dtype::fp16, f16, dn, 21.2, "A100WP Table 3"},
    published_peak{"v100_sxm2", dtype::fp32, f32, dn, 15.7, "A100WP Table 3"},
    published_peak{"v100_sxm2", dtype::fp16, f16, dn, 125.0, "A100WP Table 3"},
    published_peak{"v100_sxm2", dtype::fp16, f32, dn, 125.0, "A100WP Table 3"},
    published_peak{"rtx_2060", dtype::fp32, f32, dn, 6.5, "RTX 2060 product page"},
    published_peak{"rtx_2070", dtype::fp32, f32, dn, 7.5, "TWP Appendix A"},
    published_peak{"rtx_2070", dtype::fp16, f16, dn, 59.7, "TWP Appendix A"},
    published_peak{"rtx_2070", dtype::fp16, f32, dn, 29.9, "TWP Appendix A"},
    published_peak{"rtx_2080", dtype::fp32, f32, dn, 10.1, "TWP Appendix A"},
    published_peak{"rtx_2080", dtype::fp16, f16, dn, 80.5, "TWP Appendix A"},
    published_peak{"rtx_2080", dtype::fp16, f32, dn, 40.3, "TWP Appendix A"},
    published_peak{"rtx_2080_ti", dtype::fp32, f32, dn, 13.4, "TWP Table 1"},
    published_peak{"rtx_2080_ti", dtype::fp16, f16, dn, 107.6, "TWP Table 1"},
    published_peak{"rtx_2080_ti", dtype::fp16, f32, dn, 53.8, "TWP Table 1"},
    published_peak{"rtx_2080_ti", dtype::int8, i32, dn, 215.2, "TWP Table 1"},
    published_peak{"rtx_2080_ti", dtype::int4, i32, dn, 430.3, "TWP Table 1"},
    published_peak{"titan_rtx", dtype::fp32, f32, dn, 16.3, "TITAN RTX product page"},
    published_peak{"titan_rtx", dtype::fp16, f32, dn, 130.0, "TITAN RTX product page"},
    published_peak{"t4", dtype::fp32, f32, dn, 8.1, "T4 datasheet"},
    published_peak{"t4", dtype::fp16, f32, dn, 65.0, "T4 datasheet"},
    published_peak{"t4", dtype::int8, i32, dn, 130.0, "T4 datasheet"},
    published_peak{"t4", dtype::int4, i32, dn, 260.0, "T4 datasheet"},
    published_peak{"rtx_3070", dtype::fp32, f32, dn, 20.3, "GA102 Appendix A"},
    published_peak{"rtx_3070", dtype::fp16, f16, dn, 81.3, "GA102 Appendix A"},
    published_peak{"rtx_3070", dtype::fp16, f32, dn, 40.6, "GA102 Appendix A"},
    published_peak{"rtx_3080", dtype::fp32, f32, dn, 29.8, "GA102 Table 9"},
    published_peak{"rtx_3080", dtype::fp16, f16, dn, 119.0, "GA102 Table 9"},
    published_peak{"rtx_3080", dtype::fp16, f32, dn, 59.5, "GA102 Table 9"},
    published_peak{"rtx_3080", dtype::tf32, f32, dn, 29.8, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::fp32, f32, dn, 35.6, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::fp16, f16, dn, 142.0, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::fp16, f16, sp, 284.0, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::fp16, f32, dn, 71.0, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::bf16, f32, dn, 71.0, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::tf32, f32, dn, 35.6, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::int8, i32, dn, 284.0, "GA102 Table 9"},
    published_peak{"rtx_3090", dtype::int4, i32, dn, 568.0, "GA102 Table 9"},
    published_peak{"a10", dtype::fp32, f32, dn, 31.2, "A10 datasheet"},
    published_peak{"a10", dtype::tf32, f32, dn, 62.5, "A10 datasheet"},
    published_peak{"a10", dtype::fp16, f32, dn, 125.0, "A10 datasheet"},
    published_peak{"a10", dtype::bf16, f32, sp, 250.0, "A10 datasheet"},
    published_peak{"a10", dtype::int8, i32, dn, 250.0, "A10 datasheet"},
    published_peak{"a10", dtype::int4, i32, dn, 500.0, "A10 datasheet"},
    published_peak{"rtx_a6000", dtype::fp32, f32, dn, 38.7, "RTX A6000 datasheet"},
    published_peak{"rtx_a6000", dtype::fp16, f32, sp, 309.7, "RTX A6000 datasheet"},
    published_peak{"a100_sxm4_40gb", dtype::fp32, f32, dn, 19.5, "A100WP Table 1"},
    published_peak{"a100_sxm4_40gb", dtype::tf32, f32, dn, 156.0, "A100WP Table 1"},
    published_peak{"a100_sxm4_40gb", dtype::fp16, f32, dn, 312.0, "A100WP Table 1"},
    published_peak{"a100_sxm4_40gb", dtype::bf16, f32, dn, 312.0, "A100WP Table 1"},
    published_peak{"a100_sxm4_40gb", dtype::fp16, f32, sp, 624.0, "A100WP Table 1"},
    published_peak{"a100_sxm4_40gb", dtype::int8, i32, dn, 624.0, "A100WP Table 1"},
    published_peak{"a100_sxm4_40gb", dtype::int4, i32, dn, 1248.0, "A100WP Table 1"},
    published_peak{"a100_sxm4_80gb", dtype::fp32, f32, dn, 19.5, "A100 80GB datasheet"},
    published_peak{"a100_sxm4_80gb", dtype::fp16, f32, dn, 312.0, "A100 80GB datasheet"},
    published_peak{"rtx_4070_ti", dtype::fp32, f32, dn, 40.1, "RTX 4070 Ti product page"},
    published_peak{"rtx_4070_ti", dtype::fp8_e4m3, f16, sp, 641.0, "RTX 4070 Ti, 641 AI TOPS"},
    published_peak{"rtx_4080", dtype::fp32, f32, dn, 48.7, "ADA Appendix A"},
    published_peak{"rtx_4080", dtype::fp8_e4m3, f16, sp, 780.0, "RTX 4080, 780 AI TOPS"},
    published_peak{"rtx_4090", dtype::fp32, f32, dn, 82.6, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::fp16, f16, dn, 330.3, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::fp16, f32, dn, 165.2, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::bf16, f32, dn, 165.2, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::tf32, f32, dn, 82.6, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::fp8_e4m3, f16, dn, 660.6, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::fp8_e4m3, f32, dn, 330.3, "ADA Table 2 (v2.02)"},
    published_peak{"rtx_4090", dtype::fp8_e4m3, f16, sp, 1321.2, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::int8, i32, dn, 660.6, "ADA Table 2"},
    published_peak{"rtx_4090", dtype::int4, i32, dn, 1321.2, "ADA Table 2"},
    published_peak{"l4", dtype::fp32, f32, dn, 30.3, "L4 datasheet"},
    published_peak{"l4", dtype::tf32, f32, sp, 120.0, "L4 datasheet"},
    published_peak{"l4", dtype::fp16, f32, sp, 242.0, "L4 datasheet"},
    published_peak{"l4", dtype::fp8_e4m3, f32, sp, 485.0, "L4 datasheet"},
    published_peak{"l4", dtype::int8, i32, sp, 485.0, "L4 datasheet"},
    published_peak{"l40s", dtype::fp32, f32, dn, 91.6, "L40S datasheet"},
    published_peak{"l40s", dtype::tf32, f32, dn, 183.0, "L40S datasheet"},
    published_peak{"l40s", dtype::fp16, f32, dn, 362.05, "L40S datasheet"},
    published_peak{"l40s", dtype::fp8_e4m3, f32, dn, 733.0, "L40S datasheet"},
    published_peak{"l40s", dtype::int8, i32, dn, 733.0, "L40S datasheet"},
    published_peak{"rtx_6000_ada", dtype::fp32, f32, dn, 91.1, "RTX 6000 Ada datasheet"},
    published_peak{"rtx_6000_ada", dtype::fp8_e4m3, f32, sp, 1457.0, "RTX 6000 Ada datasheet"},
    published_peak{"h100_pcie", dtype::fp32, f32, dn, 51.0, "H100WP Table 3"},
    published_peak{"h100_pcie", dtype::tf32, f32, dn, 378.0, "H100WP Table 3"},
    published_peak{"h100_pcie", dtype::fp16, f32, dn, 756.0, "H100WP Table 3"},
    published_peak{"h100_pcie", dtype::fp8_e4m3, f32, dn, 1513.0, "H100WP Table 3"},
    published_peak{"h100_pcie", dtype::int8, i32, dn, 1513.0, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::fp32, f32, dn, 66.9, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::tf32, f32, dn, 494.7, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::fp16, f32, dn, 989.4, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::bf16, f32, dn, 989.4, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::fp8_e4m3, f32, dn, 1978.9, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::fp8_e4m3, f32, sp, 3957.8, "H100WP Table 3"},
    published_peak{"h100_sxm", dtype::int8, i32, dn, 1978.9, "H100WP Table 3"},
    published_peak{"h200_sxm", dtype::fp32, f32, dn, 67.0, "H200 datasheet"},
    published_peak{"h200_sxm", dtype::fp16, f32, sp, 1979.0, "H200 datasheet"},
    published_peak{"h200_sxm", dtype::fp8_e4m3, f32, sp, 3958.0, "H200 datasheet"},
    published_peak{"b200", dtype::fp32, f32, dn, 75.0, "HGX B200 datasheet"},
    published_peak{"b200", dtype::fp16, f32, dn, 2250.0, "HGX B200 datasheet"},
    published_peak{"b200", dtype::fp8_e4m3, f32, dn, 4500.0, "HGX B200 datasheet"},
    published_peak{"b200", dtype::fp4_e2m1, f32, dn, 9000.0, "HGX B200 datasheet"},
    published_peak{"rtx_5090", dtype::fp32, f32, dn, 104.8, "RTXBW Table 3"},
    published_peak{"rtx_5090", dtype::fp16, f16, dn, 419.0, "RTXBW Table 3"},
    published_peak{"rtx_5090", dtype::fp16, f32, dn, 209.5, "RTXBW Table 3"},
    published_peak{"rtx_5090", dtype::fp8_e4m3, f16, dn, 838.0, "RTXBW Table 3"},
    published_peak{"rtx_5090", dtype::fp8_e4m3, f32, dn, 419.0, "RTXBW Table 3"},
    published_peak{"rtx_5090", dtype::fp4_e2m1, f32, dn, 1676.0, "RTXBW Table 3"},
    published_peak{"rtx_5090", dtype::fp4_e2m1, f32, sp, 3352.0, "RTXBW Table 3"},
    published_peak{"mi250x", dtype::fp32, f32, dn, 95.7, "MI250XDS (FP32 matrix)"},
    published_peak{"mi250x", dtype::fp16, f32, dn, 383.0, "MI250XDS"},
    published_peak{"mi250x", dtype::bf16, f32, dn, 383.0, "MI250XDS"},
    published_peak{"mi250x", dtype::int8, i32, dn, 383.0, "MI250XDS"},
    published_peak{"mi300x", dtype::fp32, f32, dn, 163.4, "MI300XDS (FP32 matrix)"},
    published_peak{"mi300x", dtype::tf32, f32, dn, 653.7, "MI300XDS (TF32)"},
    published_peak{"mi300x", dtype::fp16, f32, dn, 1307.4, "MI300XDS"},
    published_peak{"mi300x", dtype::bf16, f32, dn, 1307.4, "MI300XDS"},
    published_peak{"mi300x", dtype::fp8_e4m3_fnuz, f32, dn, 2614.9, "MI300XDS"},
    published_peak{"mi300x", dtype::fp8_e5m2_fnuz, f32, dn, 2614.9, "MI300XDS"},
    published_peak{"mi300x", dtype::int8, i32, dn, 2614.9, "MI300XDS"},
    published_peak{"mi300x", dtype::fp8_e4m3_fnuz, f32, sp, 5229.8, "MI300XDS (sparsity)"},
    published_peak{"mi325x", dtype::bf16, f32, dn, 1307.4, "MI325XDS"},
    published_peak{"mi325x", dtype::fp8_e4m3_fnuz, f32, dn, 2614.9, "MI325XDS"},
    published_peak{"rx_7900_xtx", dtype::fp32, f32, dn, 61.4, "XTX"},
    published_peak{"rx_7900_xtx", dtype::fp16, f32, dn, 122.8, "XTX"},
};

struct published_bandwidth {
  std::string_view gpu;
  double gbps;  // GB/s as printed by the vendor
};

// Memory bandwidth as printed on each board's datasheet, product page or whitepaper table (the
// same source as the catalog entry).
inline constexpr std::array published_bandwidths{
    published_bandwidth{"gtx_1070", 256},
    published_bandwidth{"gtx_1080", 320},
    published_bandwidth{"gtx_1080_ti", 484},
    published_bandwidth{"titan_xp", 547.7},
    published_bandwidth{"p100_sxm2", 720},
    published_bandwidth{"v100_sxm2", 900},
    published_bandwidth{"titan_v", 652.8},
    published_bandwidth{"gtx_1650_super", 192},
    published_bandwidth{"rtx_2060", 336},
    published_bandwidth{"rtx_2070", 448},
    published_bandwidth{"rtx_2080", 448},
    published_bandwidth{"rtx_2080_ti", 616},
    published_bandwidth{"titan_rtx", 672},
    published_bandwidth{"t4", 320},
    published_bandwidth{"rtx_3070", 448},
    published_bandwidth{"rtx_3080", 760},
    published_bandwidth{"rtx_3090", 936},
    published_bandwidth{"a10", 600},
    published_bandwidth{"rtx_a6000", 768},
    published_bandwidth{"a100_sxm4_40gb", 1555},
    published_bandwidth{"a100_sxm4_80gb", 2039},
    published_bandwidth{"rtx_4070_ti", 504},
    published_bandwidth{"rtx_4080", 716.8},
    published_bandwidth{"rtx_4090", 1008},
    published_bandwidth{"l4", 300},
    published_bandwidth{"l40s", 864},
    published_bandwidth{"rtx_6000_ada", 960},
    published_bandwidth{"h100_pcie", 2039},
    published_bandwidth{"h100_sxm", 3352},
    published_bandwidth{"h200_sxm", 4800},
    published_bandwidth{"b200", 7700},
    published_bandwidth{"rtx_5090", 1792},
    published_bandwidth{"mi250x", 3276.8},
    published_bandwidth{"mi300x", 5300},
    published_bandwidth{"mi325x", 6000},
    published_bandwidth{"rx_7900_xtx", 960},
};

}  // namespace dlperf::test
