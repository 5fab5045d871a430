/// @file
/// Catalog: Ampere GPUs (RTX 3060 to 3090 Ti, A10, A40, RTX A4000, A5000 and A6000, A100 SXM4
/// 40 GB and 80 GB, A100 PCIe 80 GB, A800 SXM4 80 GB).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>

namespace dlperf::catalog {

/// GeForce RTX 3070 (GA104-300). Source: NVIDIA Ampere GA102 GPU Architecture whitepaper (2020),
/// Appendix A, and product page: 46 SMs, 1500/1725 MHz, 8 GB GDDR6 14 Gbps 256-bit, 448 GB/s,
/// 4 MB L2, 220 W; $499 (October 2020).
inline constexpr gpu<ampere_ga10x> rtx_3070{
    {.id = "rtx_3070",
     .name = "NVIDIA GeForce RTX 3070",
     .segment = segment::geforce,
     .year = 2020,
     .sms = 46,
     .base_clock = megahertz(1500),
     .boost_clock = megahertz(1725),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(4),
     .tdp = watts(220),
     .host_link = pcie_link(4, 16),
     .price = {dollars(499), 2020, 10, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): "the RTX 3070 is 65% below at $177" (August)
     .street_price = {dollars(177), 2026, 8, price_kind::used},
     .source = "NVIDIA Ampere GA102 whitepaper (2020), Appendix A"}};

/// GeForce RTX 3080 10 GB (GA102-200). Source: NVIDIA Ampere GA102 GPU Architecture whitepaper
/// (2020), Appendix A Table 9: 68 SMs, 1440/1710 MHz, 10 GB GDDR6X 19 Gbps 320-bit, 760 GB/s,
/// 5 MB L2, 320 W; $699 (September 2020).
inline constexpr gpu<ampere_ga10x> rtx_3080{
    {.id = "rtx_3080",
     .name = "NVIDIA GeForce RTX 3080",
     .segment = segment::geforce,
     .year = 2020,
     .sms = 68,
     .base_clock = megahertz(1440),
     .boost_clock = megahertz(1710),
     .memory = gibibytes(10),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 320,
     .data_rate_gbps = 19.0,
     .l2 = mebibytes(5),
     .tdp = watts(320),
     .host_link = pcie_link(4, 16),
     .price = {dollars(699), 2020, 9, price_kind::launch_msrp},
     // Resale: GPU Poet's August 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the RTX 3080 ($305 ...)" (July)
     .street_price = {dollars(305), 2026, 7, price_kind::used},
     .source = "NVIDIA Ampere GA102 whitepaper (2020), Appendix A"}};

/// GeForce RTX 3090 (GA102-300). Source: NVIDIA Ampere GA102 GPU Architecture whitepaper (2020),
/// Appendix A Table 9: 82 SMs, 1395/1695 MHz, 24 GB GDDR6X 19.5 Gbps 384-bit, 936 GB/s, 6 MB L2,
/// 350 W, NVLink 3 (4 x4 links, 112.5 GB/s); $1,499 (September 2020).
inline constexpr gpu<ampere_ga10x> rtx_3090{
    {.id = "rtx_3090",
     .name = "NVIDIA GeForce RTX 3090",
     .segment = segment::geforce,
     .year = 2020,
     .sms = 82,
     .base_clock = megahertz(1395),
     .boost_clock = megahertz(1695),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 384,
     .data_rate_gbps = 19.5,
     .l2 = mebibytes(6),
     .tdp = watts(350),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(112.5)},
     .price = {dollars(1499), 2020, 9, price_kind::launch_msrp},
     // Resale: GPU Poet's August 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "Its best deal landed at $990 (34% under its $1,499
     // MSRP)" (July)
     .street_price = {dollars(990), 2026, 7, price_kind::used},
     .source = "NVIDIA Ampere GA102 whitepaper (2020), Appendix A"}};

/// GeForce RTX 3060 12 GB (GA106-300). Source: NVIDIA GeForce RTX 3060 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/, 2021) and the
/// RTX 30 series comparison: 3584 cores (28 SMs), 1320/1777 MHz, 12 GB GDDR6 15 Gbps 192-bit,
/// 360 GB/s, 170 W, "101 Tensor-TFLOPS" (FP16, sparse); 3 MB L2 from the TechPowerUp GPU
/// database; $329 launch MSRP (NVIDIA, January 2021; on sale February 2021).
inline constexpr gpu<ampere_ga10x> rtx_3060{
    {.id = "rtx_3060",
     .name = "NVIDIA GeForce RTX 3060 12 GB",
     .segment = segment::geforce,
     .year = 2021,
     .sms = 28,
     .base_clock = megahertz(1320),
     .boost_clock = megahertz(1777),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 192,
     .data_rate_gbps = 15.0,
     .l2 = mebibytes(3),
     .tdp = watts(170),
     .host_link = pcie_link(4, 16),
     .price = {dollars(329), 2021, 2, price_kind::launch_msrp},
     // Resale: the midpoint of "Used Price (Feb 2026) $180-230" (insiderllm.com, "RTX 3060 vs
     // 3060 Ti vs 3070 for local AI")
     .street_price = {dollars(205), 2026, 2, price_kind::used},
     .source = "NVIDIA GeForce RTX 3060 family page (2021)"}};

/// GeForce RTX 3060 Ti (GA104-200). Source: NVIDIA GeForce RTX 3060 family page (2020) and
/// the RTX 30 series comparison: 4864 cores (38 SMs), 1410/1665 MHz, 8 GB GDDR6 14 Gbps 256-bit,
/// 448 GB/s, 200 W, "16 Shader-TFLOPS", "130 Tensor-TFLOPS" (FP16, sparse); 4 MB L2 (GA104); $399
/// launch MSRP (December 2020; Scan TekSpek RTX 3060 Ti,
/// https://www.scan.co.uk/tekspek/gpu-graphics/nvidia-geforce-rtx-3060ti).
inline constexpr gpu<ampere_ga10x> rtx_3060_ti{
    {.id = "rtx_3060_ti",
     .name = "NVIDIA GeForce RTX 3060 Ti",
     .segment = segment::geforce,
     .year = 2020,
     .sms = 38,
     .base_clock = megahertz(1410),
     .boost_clock = megahertz(1665),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(4),
     .tdp = watts(200),
     .host_link = pcie_link(4, 16),
     .price = {dollars(399), 2020, 12, price_kind::launch_msrp},
     // Resale: GPU Poet's August 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "$200 best deal, 177 FPS, 8GB" (July)
     .street_price = {dollars(200), 2026, 7, price_kind::used},
     .source = "NVIDIA GeForce RTX 3060 family page (2020)"}};

/// GeForce RTX 3070 Ti (GA104-400, all 48 SMs). Source: NVIDIA GeForce RTX 3070 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3070-3070ti/, 2021): 6144
/// cores, 1575/1770 MHz, 8 GB GDDR6X 19 Gbps 256-bit, 608 GB/s, 290 W, "22 Shader-TFLOPS",
/// "174 Tensor-TFLOPS" (FP16, sparse); 4 MB L2; $599 launch MSRP (June 2021).
inline constexpr gpu<ampere_ga10x> rtx_3070_ti{
    {.id = "rtx_3070_ti",
     .name = "NVIDIA GeForce RTX 3070 Ti",
     .segment = segment::geforce,
     .year = 2021,
     .sms = 48,
     .base_clock = megahertz(1575),
     .boost_clock = megahertz(1770),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 256,
     .data_rate_gbps = 19.0,
     .l2 = mebibytes(4),
     .tdp = watts(290),
     .host_link = pcie_link(4, 16),
     .price = {dollars(599), 2021, 6, price_kind::launch_msrp},
     .source = "NVIDIA GeForce RTX 3070 family page (2021)"}};

/// GeForce RTX 3080 Ti (GA102-225). Source: NVIDIA GeForce RTX 3080 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3080-3080ti/, 2021): 10240
/// cores (80 SMs), 1365/1665 MHz, 12 GB GDDR6X 19 Gbps 384-bit, 912 GB/s, 350 W, "34
/// Shader-TFLOPS", "273 Tensor-TFLOPS" (FP16, sparse); 6 MB L2; $1,199 launch MSRP (June 2021).
inline constexpr gpu<ampere_ga10x> rtx_3080_ti{
    {.id = "rtx_3080_ti",
     .name = "NVIDIA GeForce RTX 3080 Ti",
     .segment = segment::geforce,
     .year = 2021,
     .sms = 80,
     .base_clock = megahertz(1365),
     .boost_clock = megahertz(1665),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 384,
     .data_rate_gbps = 19.0,
     .l2 = mebibytes(6),
     .tdp = watts(350),
     .host_link = pcie_link(4, 16),
     .price = {dollars(1199), 2021, 6, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): "the RTX 3080 Ti is 64% below at $432" (August)
     .street_price = {dollars(432), 2026, 8, price_kind::used},
     .source = "NVIDIA GeForce RTX 3080 family page (2021)"}};

/// GeForce RTX 3090 Ti (GA102-350, all 84 SMs). Source: NVIDIA GeForce RTX 3090 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/, 2022): 10752
/// cores, 1560/1860 MHz, 24 GB GDDR6X 21 Gbps 384-bit, 1008 GB/s, 450 W, NVLink 3 (112.5 GB/s),
/// "40 Shader-TFLOPS", "320 Tensor-TFLOPS" (FP16, sparse); 6 MB L2; $1,999 launch MSRP (March
/// 2022).
inline constexpr gpu<ampere_ga10x> rtx_3090_ti{
    {.id = "rtx_3090_ti",
     .name = "NVIDIA GeForce RTX 3090 Ti",
     .segment = segment::geforce,
     .year = 2022,
     .sms = 84,
     .base_clock = megahertz(1560),
     .boost_clock = megahertz(1860),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 384,
     .data_rate_gbps = 21.0,
     .l2 = mebibytes(6),
     .tdp = watts(450),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(112.5)},
     .price = {dollars(1999), 2022, 3, price_kind::launch_msrp},
     // Resale: the midpoint of "the RTX 3090 Ti (used, $680-$850)" (bestllmfor.com, "Best LLM
     // for 24 GB VRAM", 2026-05-16)
     .street_price = {dollars(765), 2026, 5, price_kind::used},
     .source = "NVIDIA GeForce RTX 3090 family page (2022)"}};

/// NVIDIA A10 (GA102, data-centre board, full-rate FP32 accumulation). Source: NVIDIA A10
/// datasheet (2021): 72 SMs, 1695 MHz boost, 24 GB GDDR6 384-bit, 600 GB/s, 150 W; FP32 31.2,
/// TF32 62.5, FP16/BF16 125, INT8 250 TOPS (dense); base clock 885 MHz from the TechPowerUp GPU
/// database. Street price about $3,000-3,500 (2021-23 reseller listings; no list price).
inline constexpr gpu<ampere_ga10x> a10{{.id = "a10",
                                        .name = "NVIDIA A10",
                                        .segment = segment::datacenter,
                                        .year = 2021,
                                        .sms = 72,
                                        .base_clock = megahertz(885),
                                        .boost_clock = megahertz(1695),
                                        .memory = gibibytes(24),
                                        .memory_type = memory_kind::gddr6,
                                        .bus_width_bits = 384,
                                        .data_rate_gbps = 12.5,
                                        .l2 = mebibytes(6),
                                        .tdp = watts(150),
                                        .host_link = pcie_link(4, 16),
                                        .price = {dollars(3250), 2022, 1, price_kind::street},
                                        .source = "NVIDIA A10 datasheet (2021)"}};

/// NVIDIA A40 (GA102, all 84 SMs, data-centre board: full-rate FP32 accumulation). Source: NVIDIA
/// A40 datasheet (2020, https://www.nvidia.com/en-us/data-center/a40/) and product brief
/// PB-09976-001_v04 (January 2021): 10752 cores, 1740 MHz boost, 48 GB GDDR6 ECC 384-bit at
/// 14.5 Gbps, 696 GB/s, 300 W, PCIe 4 x16, NVLink 3 (112.5 GB/s); FP32 37.4, TF32 74.8, FP16/BF16
/// 149.7, INT8 299.3, INT4 598.7 TOPS (dense); 1305 MHz base and 6 MB L2 from the TechPowerUp GPU
/// database. NVIDIA published no list price; the earliest dated market price found is $5,098,
/// Amazon's listing of the A40 PCIe on 20 April 2022 as United-Compute's price tracker recorded
/// it (https://github.com/United-Compute/gpu-price-tracker, data/NVIDIA_A40_PCIe.json; the same
/// listing stood at $4,099 from September 2022 to September 2023) (`street`).
inline constexpr gpu<ampere_ga10x> a40{
    {.id = "a40",
     .name = "NVIDIA A40",
     .segment = segment::datacenter,
     .year = 2020,
     .sms = 84,
     .base_clock = megahertz(1305),
     .boost_clock = megahertz(1740),
     .memory = gibibytes(48),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 14.5,
     .l2 = mebibytes(6),
     .tdp = watts(300),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(112.5)},
     .price = {dollars(5098), 2022, 4, price_kind::street},
     .source = "NVIDIA A40 datasheet (2020); United-Compute price tracker (Amazon, 2022)",
     // At 300 W the A40 cannot hold its boost clock under tensor load: torch.mm BF16 8192^3 runs
     // at 110.64 TFLOPS, 0.739 of 149.7 (FP16 108.47; zzc0721/torch-performance-test-data issue
     // 185, 2026-07).
     .gemm_efficiency = 0.739}};

/// NVIDIA RTX A6000 (GA102, all 84 SMs, workstation: full-rate FP32 accumulation). Source:
/// NVIDIA RTX A6000 datasheet (2020): 10752 cores, 48 GB GDDR6 16 Gbps 384-bit, 768 GB/s, 300 W,
/// FP32 38.7 TFLOPS, tensor 309.7 TFLOPS (sparse), NVLink 3 (112.5 GB/s); 1410/1800 MHz and
/// $4,650 launch price from the TechPowerUp GPU database.
inline constexpr gpu<ampere_ga10x> rtx_a6000{
    {.id = "rtx_a6000",
     .name = "NVIDIA RTX A6000",
     .segment = segment::workstation,
     .year = 2020,
     .sms = 84,
     .base_clock = megahertz(1410),
     .boost_clock = megahertz(1800),
     .memory = gibibytes(48),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 16.0,
     .l2 = mebibytes(6),
     .tdp = watts(300),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(112.5)},
     .price = {dollars(4650), 2020, 12, price_kind::launch_msrp},
     .source = "NVIDIA RTX A6000 datasheet (2020)",
     // At 300 W: torch.mm BF16 reaches 123.34 TFLOPS at best over 1024^3 to 10240^3, 0.797 of
     // 154.8 (FP16 120.49; zzc0721/torch-performance-test-data issue 46 and database.md, 2025-10).
     .gemm_efficiency = 0.797}};

/// NVIDIA RTX A5000 (GA102, 64 SMs, workstation: full-rate FP32 accumulation). Source: NVIDIA
/// RTX A5000 datasheet (April 2021,
/// https://www.nvidia.com/content/dam/en-zz/Solutions/gtcs21/rtx-a5000/nvidia-rtx-a5000-datasheet.pdf)
/// as tabled at launch (Hardwareluxx, April 2021): 8192 cores, 24 GB GDDR6 384-bit, 768 GB/s
/// (16 Gbps), 230 W, FP32 27.8 TFLOPS, tensor 222.2 TFLOPS (sparse), NVLink 3 bridge for two
/// boards (112.5 GB/s); 1170/1695 MHz, 6 MB L2 and the $2,250 launch price from the TechPowerUp
/// GPU database.
inline constexpr gpu<ampere_ga10x> rtx_a5000{
    {.id = "rtx_a5000",
     .name = "NVIDIA RTX A5000",
     .segment = segment::workstation,
     .year = 2021,
     .sms = 64,
     .base_clock = megahertz(1170),
     .boost_clock = megahertz(1695),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 16.0,
     .l2 = mebibytes(6),
     .tdp = watts(230),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(112.5)},
     .price = {dollars(2250), 2021, 4, price_kind::launch_msrp},
     .source = "NVIDIA RTX A5000 datasheet (2021); TechPowerUp GPU database"}};

/// NVIDIA RTX A4000 (GA104, all 48 SMs, single slot, workstation). Source: NVIDIA RTX A4000
/// datasheet (April 2021,
/// https://www.nvidia.com/content/dam/en-zz/Solutions/gtcs21/rtx-a4000/nvidia-rtx-a4000-datasheet.pdf):
/// 6144 cores, 16 GB GDDR6 256-bit, 448 GB/s (14 Gbps), 140 W, PCIe 4 x16, no NVLink, FP32 19.2
/// TFLOPS, tensor 153.4 TFLOPS (sparse); 735/1560 MHz, 4 MB L2 and the $1,000 launch price from
/// the TechPowerUp GPU database.
inline constexpr gpu<ampere_ga10x> rtx_a4000{
    {.id = "rtx_a4000",
     .name = "NVIDIA RTX A4000",
     .segment = segment::workstation,
     .year = 2021,
     .sms = 48,
     .base_clock = megahertz(735),
     .boost_clock = megahertz(1560),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(4),
     .tdp = watts(140),
     .host_link = pcie_link(4, 16),
     .price = {dollars(1000), 2021, 4, price_kind::launch_msrp},
     .source = "NVIDIA RTX A4000 datasheet (2021); TechPowerUp GPU database"}};

/// NVIDIA A100 SXM4 40 GB (GA100). Source: NVIDIA A100 Tensor Core GPU Architecture whitepaper
/// (2020), Tables 1 and 3: 108 SMs, 1410 MHz boost, 40 GB HBM2 5120-bit at 1215 MHz DDR,
/// 1555 GB/s, 40 MB L2, 400 W, NVLink 3 (12 links, 600 GB/s); base 1095 MHz from the TechPowerUp
/// GPU database. No per-GPU list price: the DGX A100, 8 GPUs, launched at $199,000 (AnandTech,
/// 14 May 2020, read through https://pipedot.org/53G36), so the launch price is $199,000 / 8 =
/// $24,875 (`system_share`). Street price
/// "roughly $10,000": CNBC, 23 February 2023,
/// https://www.cnbc.com/2023/02/23/nvidias-a100-the-10000-chip-powering-the-race-for-ai-.html
/// (read through the copy at
/// https://sgline.org/nvidias-a100-is-the-10000-chip-driving-the-ai-race/).
inline constexpr gpu<ampere_ga100> a100_sxm4_40gb{
    {.id = "a100_sxm4_40gb",
     .name = "NVIDIA A100 SXM4 40 GB",
     .segment = segment::datacenter,
     .year = 2020,
     .sms = 108,
     .base_clock = megahertz(1095),
     .boost_clock = megahertz(1410),
     .memory = gibibytes(40),
     .memory_type = memory_kind::hbm2,
     .bus_width_bits = 5120,
     .data_rate_gbps = 2.43,
     .l2 = mebibytes(40),
     .tdp = watts(400),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(600)},
     .price = {dollars(199000.0 / 8), 2020, 5, price_kind::system_share},
     .street_price = {dollars(10000), 2023, 2, price_kind::street},
     .source = "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)",
     .form = form_factor::mezzanine}};

/// NVIDIA A100 SXM4 80 GB (GA100). Source: NVIDIA A100 80GB datasheet (2020): as the 40 GB
/// board with 80 GB HBM2e at 1593 MHz DDR, 2039 GB/s, 400 W. Street price about $15,000-20,000
/// (2021-23 reseller listings).
inline constexpr gpu<ampere_ga100> a100_sxm4_80gb{
    {.id = "a100_sxm4_80gb",
     .name = "NVIDIA A100 SXM4 80 GB",
     .segment = segment::datacenter,
     .year = 2020,
     .sms = 108,
     .base_clock = megahertz(1275),
     .boost_clock = megahertz(1410),
     .memory = gibibytes(80),
     .memory_type = memory_kind::hbm2e,
     .bus_width_bits = 5120,
     .data_rate_gbps = 3.186,
     .l2 = mebibytes(40),
     .tdp = watts(400),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(600)},
     .price = {dollars(17500), 2022, 1, price_kind::street},
     .source = "NVIDIA A100 80GB datasheet (2020)",
     .form = form_factor::mezzanine}};

/// NVIDIA A800 SXM4 80 GB (GA100; the A100 80 GB for the Chinese market, November 2022). Its only
/// change is NVLink, 400 GB/s instead of 600: "A800 主要是将 NVLink 的传输速率由 A100 的 600GB/s
/// 降至了 400GB/s，其他参数与 A100 基本一致" (China Telecom Cloud,
/// ctyun.cn/developer/article/437601152262213, which also tables 80 GB HBM2e, 2,039 GB/s, 400 W,
/// PCIe 4); NVIDIA's HGX A800 8-GPU with NVSwitch (data-center driver release notes). NVIDIA has
/// withdrawn its A800 pages and published no price.
inline constexpr gpu<ampere_ga100> a800_sxm4_80gb{
    {.id = "a800_sxm4_80gb",
     .name = "NVIDIA A800 SXM4 80 GB",
     .segment = segment::datacenter,
     .year = 2022,
     .sms = a100_sxm4_80gb.facts().sms,
     .base_clock = a100_sxm4_80gb.facts().base_clock,
     .boost_clock = a100_sxm4_80gb.facts().boost_clock,
     .memory = a100_sxm4_80gb.facts().memory,
     .memory_type = a100_sxm4_80gb.facts().memory_type,
     .bus_width_bits = a100_sxm4_80gb.facts().bus_width_bits,
     .data_rate_gbps = a100_sxm4_80gb.facts().data_rate_gbps,
     .l2 = a100_sxm4_80gb.facts().l2,
     .tdp = a100_sxm4_80gb.facts().tdp,
     .host_link = a100_sxm4_80gb.facts().host_link,
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(400)},
     .source = "China Telecom Cloud A800 article (2023): the A100 80 GB with 400 GB/s NVLink",
     .form = form_factor::mezzanine}};

/// NVIDIA A100 80 GB PCIe (GA100, 108 SMs). Source: NVIDIA A100 datasheet (2021,
/// https://www.nvidia.com/en-us/data-center/a100/), PCIe column: 80 GB HBM2e, 1935 GB/s, 300 W,
/// NVLink bridge for two GPUs (600 GB/s), PCIe 4; FP32 19.5, TF32 156, FP16/BF16 312, INT8 624
/// TOPS (dense), the SXM board's figures at the same 1410 MHz boost; 5120-bit bus (five stacks), so
/// 3.024 Gbit/s per pin gives the 1935 GB/s; 40 MB L2. No price: NVIDIA published none and no
/// dated per-card figure was found.
inline constexpr gpu<ampere_ga100> a100_pcie_80gb{
    {.id = "a100_pcie_80gb",
     .name = "NVIDIA A100 PCIe 80 GB",
     .segment = segment::datacenter,
     .year = 2021,
     .sms = 108,
     .base_clock = {},
     .boost_clock = megahertz(1410),
     .memory = gibibytes(80),
     .memory_type = memory_kind::hbm2e,
     .bus_width_bits = 5120,
     .data_rate_gbps = 3.024,
     .l2 = mebibytes(40),
     .tdp = watts(300),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::nvlink, 3, gigabytes_per_second(600)},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of
     // the 3 cheapest eBay and Amazon listings; its "A100 PCIe" is the 80 GB card): "the A100
     // PCIe rose 12% to $12.6K" (August)
     .street_price = {dollars(12600), 2026, 8, price_kind::used},
     .source = "NVIDIA A100 datasheet (2021), PCIe column"}};

/// NVIDIA A10G (GA102, 80 SMs, AWS G5 instances; half-rate tensor cores: see
/// ampere_ga10x_half_tensor). Source: Baseten, "NVIDIA A10 vs A10G for ML model inference" (2023,
/// https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/): 24 GB GDDR6, 600 GB/s,
/// FP32 35 TFLOPS, FP16/BF16 tensor 70 TFLOPS; 80 SMs, 1710 MHz boost, 384-bit at 12.5 Gbps, 6 MB
/// L2 and 300 W from the TechPowerUp GPU database. Sold only inside AWS instances: no price.
inline constexpr gpu<ampere_ga10x_half_tensor> a10g{
    {.id = "a10g",
     .name = "NVIDIA A10G",
     .segment = segment::datacenter,
     .year = 2021,
     .sms = 80,
     .base_clock = {},
     .boost_clock = megahertz(1710),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 12.5,
     .l2 = mebibytes(6),
     .tdp = watts(300),
     .host_link = pcie_link(4, 16),
     .source = "Baseten, NVIDIA A10 vs A10G (2023); TechPowerUp GPU database"}};

}  // namespace dlperf::catalog
