/// @file
/// Catalog: Ada GPUs (RTX 4060 to RTX 4090, L4, L20, L40, L40S, RTX 4000, 5000 and 6000 Ada).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/ada.hpp>

namespace dlperf::catalog {

/// GeForce RTX 4070 Ti (AD104-400). Source: NVIDIA product page (January 2023): 7680 cores
/// (60 SMs), 2310/2610 MHz, 12 GB GDDR6X 21 Gbps 192-bit, 504 GB/s, 48 MB L2, 285 W, $799.
inline constexpr gpu<ada_ad10x> rtx_4070_ti{
    {.id = "rtx_4070_ti",
     .name = "NVIDIA GeForce RTX 4070 Ti",
     .segment = segment::geforce,
     .year = 2023,
     .sms = 60,
     .base_clock = megahertz(2310),
     .boost_clock = megahertz(2610),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 192,
     .data_rate_gbps = 21.0,
     .l2 = mebibytes(48),
     .tdp = watts(285),
     .host_link = pcie_link(4, 16),
     .price = {dollars(799), 2023, 1, price_kind::launch_msrp},
     // Resale: GPU Poet's August 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): "RTX 4070 Ti ($535, 321 TOPS, 12GB)" (July)
     .street_price = {dollars(535), 2026, 7, price_kind::used},
     .source = "NVIDIA GeForce RTX 4070 Ti product page (2023)"}};

/// GeForce RTX 4080 16 GB (AD103-300). Source: NVIDIA Ada GPU Architecture whitepaper v2.02
/// (2023), Appendix A: 76 SMs, 2205/2505 MHz, 16 GB GDDR6X 22.4 Gbps 256-bit, 716.8 GB/s,
/// 64 MB L2, 320 W; $1,199 (November 2022).
inline constexpr gpu<ada_ad10x> rtx_4080{
    {.id = "rtx_4080",
     .name = "NVIDIA GeForce RTX 4080",
     .segment = segment::geforce,
     .year = 2022,
     .sms = 76,
     .base_clock = megahertz(2205),
     .boost_clock = megahertz(2505),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 256,
     .data_rate_gbps = 22.4,
     .l2 = mebibytes(64),
     .tdp = watts(320),
     .host_link = pcie_link(4, 16),
     .price = {dollars(1199), 2022, 11, price_kind::launch_msrp},
     // Resale: GPU Poet's August 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the RTX 4080 fell 13% to $730" (July)
     .street_price = {dollars(730), 2026, 7, price_kind::used},
     .source = "NVIDIA Ada GPU Architecture whitepaper v2.02 (2023), Appendix A"}};

/// GeForce RTX 4090 (AD102-300). Source: NVIDIA Ada GPU Architecture whitepaper v2.02 (2023),
/// Appendix A Table 2: 128 SMs, 2235/2520 MHz, 24 GB GDDR6X 21 Gbps 384-bit, 1008 GB/s, 72 MB
/// L2, 450 W; $1,599 (October 2022).
inline constexpr gpu<ada_ad10x> rtx_4090{
    {.id = "rtx_4090",
     .name = "NVIDIA GeForce RTX 4090",
     .segment = segment::geforce,
     .year = 2022,
     .sms = 128,
     .base_clock = megahertz(2235),
     .boost_clock = megahertz(2520),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 384,
     .data_rate_gbps = 21.0,
     .l2 = mebibytes(72),
     .tdp = watts(450),
     .host_link = pcie_link(4, 16),
     .price = {dollars(1599), 2022, 10, price_kind::launch_msrp},
     // Resale: GPU Poet's May 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the RTX 4090 jumped 33% to $2,470" (April)
     .street_price = {dollars(2470), 2026, 4, price_kind::used},
     .source = "NVIDIA Ada GPU Architecture whitepaper v2.02 (2023), Appendix A"}};

/// GeForce RTX 4060 (AD107-400, 24 SMs). Source: NVIDIA GeForce RTX 4060 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/, 2023): 3072
/// cores, 1830/2460 MHz, 8 GB GDDR6 17 Gbps 128-bit, 272 GB/s, 115 W, PCIe 4 x8, "15 Shader
/// TFLOPS", "242 AI TOPS" (FP8, sparse); 24 MB L2 from the TechPowerUp GPU database; $299 launch
/// MSRP (June 2023).
inline constexpr gpu<ada_ad10x> rtx_4060{
    {.id = "rtx_4060",
     .name = "NVIDIA GeForce RTX 4060",
     .segment = segment::geforce,
     .year = 2023,
     .sms = 24,
     .base_clock = megahertz(1830),
     .boost_clock = megahertz(2460),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 128,
     .data_rate_gbps = 17.0,
     .l2 = mebibytes(24),
     .tdp = watts(115),
     .host_link = pcie_link(4, 8),
     .price = {dollars(299), 2023, 6, price_kind::launch_msrp},
     // Resale: GPU Poet's June 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "RTX 4060 ($207, 91 FPS, 8GB)" (May)
     .street_price = {dollars(207), 2026, 5, price_kind::used},
     .source = "NVIDIA GeForce RTX 4060 family page (2023)"}};

/// GeForce RTX 4060 Ti 16 GB (AD106-351, 34 SMs). Source: NVIDIA GeForce RTX 4060 family page
/// (2023): 4352 cores, 2310/2535 MHz, 16 GB GDDR6 18 Gbps 128-bit, 288 GB/s, 165 W, PCIe 4 x8, "22
/// Shader TFLOPS", "353 AI TOPS" (FP8, sparse); 32 MB L2 (TechPowerUp); $499 launch MSRP (July
/// 2023).
inline constexpr gpu<ada_ad10x> rtx_4060_ti_16gb{
    {.id = "rtx_4060_ti_16gb",
     .name = "NVIDIA GeForce RTX 4060 Ti 16 GB",
     .segment = segment::geforce,
     .year = 2023,
     .sms = 34,
     .base_clock = megahertz(2310),
     .boost_clock = megahertz(2535),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 128,
     .data_rate_gbps = 18.0,
     .l2 = mebibytes(32),
     .tdp = watts(165),
     .host_link = pcie_link(4, 8),
     .price = {dollars(499), 2023, 7, price_kind::launch_msrp},
     // Street: new, the midpoint of "RTX 4060 Ti 16 GB — $400-450 new" (runlocalai.co, "Best GPU
     // for local AI 2026", May 2026)
     .street_price = {dollars(425), 2026, 5, price_kind::street},
     .source = "NVIDIA GeForce RTX 4060 family page (2023)"}};

/// GeForce RTX 4070 (AD104-250, 46 SMs). Source: NVIDIA GeForce RTX 4070 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/, 2023): 5888
/// cores, 1920/2475 MHz, 12 GB GDDR6X 21 Gbps 192-bit, 504 GB/s, 200 W, "29 Shader TFLOPS", "466
/// AI TOPS" (FP8, sparse); 36 MB L2 (TechPowerUp review, 2024); $599 launch MSRP (April 2023;
/// cut to $549 in January 2024, svethardware.cz, January 2024).
inline constexpr gpu<ada_ad10x> rtx_4070{
    {.id = "rtx_4070",
     .name = "NVIDIA GeForce RTX 4070",
     .segment = segment::geforce,
     .year = 2023,
     .sms = 46,
     .base_clock = megahertz(1920),
     .boost_clock = megahertz(2475),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 192,
     .data_rate_gbps = 21.0,
     .l2 = mebibytes(36),
     .tdp = watts(200),
     .host_link = pcie_link(4, 16),
     .price = {dollars(599), 2023, 4, price_kind::launch_msrp},
     // Resale: GPU Poet's July 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the RTX 4070 from $525 to $419" (June)
     .street_price = {dollars(419), 2026, 6, price_kind::used},
     .source = "NVIDIA GeForce RTX 4070 family page (2023)"}};

/// GeForce RTX 4070 SUPER (AD104-350, 56 SMs). Source: NVIDIA GeForce RTX 4070 family page
/// (2024) and TechPowerUp's Founders Edition review (January 2024,
/// https://www.techpowerup.com/review/nvidia-geforce-rtx-4070-super-founders-edition/): 7168
/// cores, 1980/2475 MHz, 12 GB GDDR6X 21 Gbps 192-bit, 504 GB/s, 48 MB L2, 220 W, "35.5 Shader
/// TFLOPS", "568 AI TOPS" (FP8, sparse); $599 launch MSRP (January 2024).
inline constexpr gpu<ada_ad10x> rtx_4070_super{
    {.id = "rtx_4070_super",
     .name = "NVIDIA GeForce RTX 4070 SUPER",
     .segment = segment::geforce,
     .year = 2024,
     .sms = 56,
     .base_clock = megahertz(1980),
     .boost_clock = megahertz(2475),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 192,
     .data_rate_gbps = 21.0,
     .l2 = mebibytes(48),
     .tdp = watts(220),
     .host_link = pcie_link(4, 16),
     .price = {dollars(599), 2024, 1, price_kind::launch_msrp},
     // Resale: GPU Poet's June 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "The RTX 4070 Super also dropped 18% to $735" (May)
     .street_price = {dollars(735), 2026, 5, price_kind::used},
     .source = "NVIDIA GeForce RTX 4070 family page (2024)"}};

/// GeForce RTX 4070 Ti SUPER (AD103-275, 66 SMs). Source: NVIDIA GeForce RTX 4070 family
/// page (2024); svethardware.cz table of the RTX 40 SUPER launch (January 2024): 8448 cores,
/// 2340/2610 MHz, 16 GB GDDR6X 21 Gbps 256-bit, 672 GB/s, 285 W, "44.1 TFLOPS" FP32, "706 AI TOPS"
/// (FP8, sparse); 48 MB L2 (TechPowerUp); $799 launch MSRP (January 2024).
inline constexpr gpu<ada_ad10x> rtx_4070_ti_super{
    {.id = "rtx_4070_ti_super",
     .name = "NVIDIA GeForce RTX 4070 Ti SUPER",
     .segment = segment::geforce,
     .year = 2024,
     .sms = 66,
     .base_clock = megahertz(2340),
     .boost_clock = megahertz(2610),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 256,
     .data_rate_gbps = 21.0,
     .l2 = mebibytes(48),
     .tdp = watts(285),
     .host_link = pcie_link(4, 16),
     .price = {dollars(799), 2024, 1, price_kind::launch_msrp},
     // Resale: GPU Poet's July 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the RTX 4070 Ti Super ($698 ...)" (June)
     .street_price = {dollars(698), 2026, 6, price_kind::used},
     .source = "NVIDIA GeForce RTX 4070 family page (2024)"}};

/// GeForce RTX 4080 SUPER (AD103-400, all 80 SMs). Source: NVIDIA GeForce RTX 4080 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family/, 2024): 10240
/// cores, 2295/2550 MHz, 16 GB GDDR6X 23 Gbps 256-bit, 736 GB/s, 64 MB L2, 320 W, "52 Shader
/// TFLOPS", "836 AI TOPS" (FP8, sparse); $999 launch MSRP (January 2024).
inline constexpr gpu<ada_ad10x> rtx_4080_super{
    {.id = "rtx_4080_super",
     .name = "NVIDIA GeForce RTX 4080 SUPER",
     .segment = segment::geforce,
     .year = 2024,
     .sms = 80,
     .base_clock = megahertz(2295),
     .boost_clock = megahertz(2550),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6x,
     .bus_width_bits = 256,
     .data_rate_gbps = 23.0,
     .l2 = mebibytes(64),
     .tdp = watts(320),
     .host_link = pcie_link(4, 16),
     .price = {dollars(999), 2024, 1, price_kind::launch_msrp},
     // Resale: GPU Poet's August 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the RTX 4080 Super ($882 ...)" (July)
     .street_price = {dollars(882), 2026, 7, price_kind::used},
     .source = "NVIDIA GeForce RTX 4080 family page (2024)"}};

/// NVIDIA L4 (AD104, data-centre board). Source: NVIDIA L4 datasheet (2023): 24 GB GDDR6
/// 192-bit, 300 GB/s, 72 W; sparse figures only (FP16 242, FP8 485 TFLOPS); 58 SMs and
/// 795/2040 MHz from the TechPowerUp GPU database and a device query. Street price about
/// $2,500-3,000 (2023-24 reseller listings).
inline constexpr gpu<ada_ad10x> l4{
    {.id = "l4",
     .name = "NVIDIA L4",
     .segment = segment::datacenter,
     .year = 2023,
     .sms = 58,
     .base_clock = megahertz(795),
     .boost_clock = megahertz(2040),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 192,
     .data_rate_gbps = 12.5,
     .l2 = mebibytes(48),
     .tdp = watts(72),
     .host_link = pcie_link(4, 16),
     .price = {dollars(2750), 2024, 1, price_kind::street},
     .source = "NVIDIA L4 datasheet (2023)",
     // At 72 W the L4 cannot hold its boost clock under tensor load: torch.mm FP16 8192^3 runs
     // at 53.8 TFLOPS, 0.444 of 121.2 (zzc0721/torch-performance-test-data issue 120, 2026).
     .gemm_efficiency = 0.444}};

/// NVIDIA L40S (AD102, 142 SMs, data-centre board). Source: NVIDIA L40S datasheet (2023): 48 GB
/// GDDR6 384-bit, 864 GB/s, 350 W, FP32 91.6, TF32 183, FP16 "362.05", FP8 733 TFLOPS (dense);
/// 1110/2520 MHz and 96 MB L2 from the TechPowerUp GPU database. Street price about
/// $7,500-10,000 (2024 reseller listings).
inline constexpr gpu<ada_ad10x> l40s{{.id = "l40s",
                                      .name = "NVIDIA L40S",
                                      .segment = segment::datacenter,
                                      .year = 2023,
                                      .sms = 142,
                                      .base_clock = megahertz(1110),
                                      .boost_clock = megahertz(2520),
                                      .memory = gibibytes(48),
                                      .memory_type = memory_kind::gddr6,
                                      .bus_width_bits = 384,
                                      .data_rate_gbps = 18.0,
                                      .l2 = mebibytes(96),
                                      .tdp = watts(350),
                                      .host_link = pcie_link(4, 16),
                                      .price = {dollars(8750), 2024, 1, price_kind::street},
                                      // Resale: GPU Poet's April 2026 market report (gpupoet.com;
                                      // best deal, the average of the 3 cheapest eBay and Amazon
                                      // listings): "the L40S fell 21% in March ($7,858 to $6,216,
                                      // 48GB)"
                                      .street_price = {dollars(6216), 2026, 3, price_kind::used},
                                      .source = "NVIDIA L40S datasheet (2023)",
                                      // At 350 W: torch.mm BF16 reaches 269.15 TFLOPS at best over
                                      // 1024^3 to 10240^3, 0.735 of 366.4 (FP16 264.02;
                                      // zzc0721/torch-performance-test-data issue 43 and
                                      // database.md, 2025-10).
                                      .gemm_efficiency = 0.735}};

/// NVIDIA RTX 5000 Ada Generation (AD102, 100 SMs, workstation: full-rate FP32 accumulation).
/// Source: NVIDIA RTX 5000 Ada datasheet (2023,
/// https://www.nvidia.com/en-us/design-visualization/rtx-5000/): 12800 cores, 32 GB GDDR6 ECC
/// 256-bit, 576 GB/s, 250 W, PCIe 4 x16, FP32 65.3 TFLOPS, tensor 1044.4 TFLOPS (FP8, sparse);
/// 2550 MHz boost and 64 MB L2 from the TechPowerUp GPU database (base clock not used); $4,000
/// launch price (NVIDIA SIGGRAPH announcement, August 2023).
inline constexpr gpu<ada_ad10x> rtx_5000_ada{
    {.id = "rtx_5000_ada",
     .name = "NVIDIA RTX 5000 Ada Generation",
     .segment = segment::workstation,
     .year = 2023,
     .sms = 100,
     .base_clock = {},
     .boost_clock = megahertz(2550),
     .memory = gibibytes(32),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 18.0,
     .l2 = mebibytes(64),
     .tdp = watts(250),
     .host_link = pcie_link(4, 16),
     .price = {dollars(4000), 2023, 8, price_kind::launch_msrp},
     .source = "NVIDIA RTX 5000 Ada datasheet (2023)"}};

/// NVIDIA RTX 6000 Ada Generation (AD102, 142 SMs, workstation: full-rate FP32 accumulation).
/// Source: NVIDIA RTX 6000 Ada datasheet (2022): 18176 cores, 48 GB GDDR6 384-bit, 960 GB/s,
/// 300 W, FP32 91.1 TFLOPS, tensor 1457 TFLOPS (FP8 sparse), no NVLink; 2505 MHz boost, 96 MB L2
/// from NVIDIA's Ada professional GPU whitepaper; launch price $6,800 (December 2022).
inline constexpr gpu<ada_ad10x> rtx_6000_ada{
    {.id = "rtx_6000_ada",
     .name = "NVIDIA RTX 6000 Ada Generation",
     .segment = segment::workstation,
     .year = 2022,
     .sms = 142,
     .base_clock = megahertz(915),
     .boost_clock = megahertz(2505),
     .memory = gibibytes(48),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 20.0,
     .l2 = mebibytes(96),
     .tdp = watts(300),
     .host_link = pcie_link(4, 16),
     .price = {dollars(6800), 2022, 12, price_kind::launch_msrp},
     .source = "NVIDIA RTX 6000 Ada datasheet (2022)"}};

/// NVIDIA L40 (AD102, 142 SMs, data-centre board with half-rate tensor cores: see
/// ada_ad10x_half_tensor). Source: NVIDIA L40 datasheet (2022,
/// https://www.nvidia.com/en-us/data-center/l40/; table reproduced by mullet.se): 48 GB GDDR6 ECC
/// 384-bit, 864 GB/s, 300 W, PCIe 4 x16, FP32 90.5, TF32 90.5, FP16/BF16 181.05, FP8 362, INT8
/// 362, INT4 724 TOPS (dense); 735/2490 MHz, 18 Gbps and 96 MB L2 from the TechPowerUp GPU
/// database (hmc-tech.com comparison, 2490 MHz). No price: NVIDIA published none and no dated
/// per-card figure was found.
inline constexpr gpu<ada_ad10x_half_tensor> l40{{.id = "l40",
                                                 .name = "NVIDIA L40",
                                                 .segment = segment::datacenter,
                                                 .year = 2022,
                                                 .sms = 142,
                                                 .base_clock = megahertz(735),
                                                 .boost_clock = megahertz(2490),
                                                 .memory = gibibytes(48),
                                                 .memory_type = memory_kind::gddr6,
                                                 .bus_width_bits = 384,
                                                 .data_rate_gbps = 18.0,
                                                 .l2 = mebibytes(96),
                                                 .tdp = watts(300),
                                                 .host_link = pcie_link(4, 16),
                                                 .source = "NVIDIA L40 datasheet (2022)"}};

/// NVIDIA L20 (AD102, 92 SMs, PCIe board for the Chinese market with half-rate tensor cores, as
/// the L40: ada_ad10x_half_tensor). No NVIDIA datasheet is public. Sources: NVIDIA's spec table as
/// Tom's Hardware printed it from Chinese retailers' listings (2024-02): 48 GB GDDR6 with ECC,
/// 864 GB/s, 96 MB L2, FP32 59.8, TF32 59.8, FP16/BF16 119.5, FP8 239, INT8 239 TFLOPS (dense),
/// the FP32 figure again in NVIDIA's TensorRT-LLM (`hardware_specs.py` at 85d40f56); 92 SMs,
/// 1440/2520 MHz, 384-bit at 18 Gbps and 275 W from the TechPowerUp GPU database (as mirrored by
/// topcpu.net and technical.city), which NVIDIA has not confirmed; 92 SMs at 2520 MHz and the
/// L40's per-SM rates give every published figure within 0.8 %. torch.mm reached BF16 114.1,
/// FP16 113.3 and TF32 58.2 TFLOPS (zzc0721/torch-performance-test-data issue 107, 2026-01),
/// 0.96-0.98 of the derived peaks, as Ada's 0.970 says. No price: no dated per-card figure was
/// found.
inline constexpr gpu<ada_ad10x_half_tensor> l20{{.id = "l20",
                                                 .name = "NVIDIA L20",
                                                 .segment = segment::datacenter,
                                                 .year = 2024,
                                                 .sms = 92,
                                                 .base_clock = megahertz(1440),
                                                 .boost_clock = megahertz(2520),
                                                 .memory = gibibytes(48),
                                                 .memory_type = memory_kind::gddr6,
                                                 .bus_width_bits = 384,
                                                 .data_rate_gbps = 18.0,
                                                 .l2 = mebibytes(96),
                                                 .tdp = watts(275),
                                                 .host_link = pcie_link(4, 16),
                                                 .source = "NVIDIA's L20 spec table via Tom's "
                                                           "Hardware (2024-02); SMs, clocks and "
                                                           "TDP from TechPowerUp"}};

/// NVIDIA RTX 4000 Ada Generation (AD104, 48 SMs, single-slot workstation board: full-rate FP32
/// accumulation). Source: NVIDIA RTX 4000 Ada datasheet (2023,
/// https://www.nvidia.com/en-us/design-visualization/rtx-4000/): 6144 cores, 192 tensor cores, 20
/// GB GDDR6 ECC 160-bit, 360 GB/s, 130 W, PCIe 4 x16, FP32 26.7 TFLOPS; 1500/2175 MHz and 48 MB L2
/// from the TechPowerUp GPU database (siliconcat.net). Its "327.6 TFLOPS" tensor figure (FP8,
/// sparse) implies a 1666 MHz clock, not the 2175 MHz boost of the FP32 figure, so only the FP32
/// peak is checked. $1,250 launch price (NVIDIA SIGGRAPH announcement, August 2023).
inline constexpr gpu<ada_ad10x> rtx_4000_ada{
    {.id = "rtx_4000_ada",
     .name = "NVIDIA RTX 4000 Ada Generation",
     .segment = segment::workstation,
     .year = 2023,
     .sms = 48,
     .base_clock = megahertz(1500),
     .boost_clock = megahertz(2175),
     .memory = gibibytes(20),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 160,
     .data_rate_gbps = 18.0,
     .l2 = mebibytes(48),
     .tdp = watts(130),
     .host_link = pcie_link(4, 16),
     .price = {dollars(1250), 2023, 8, price_kind::launch_msrp},
     .source = "NVIDIA RTX 4000 Ada datasheet (2023)"}};

}  // namespace dlperf::catalog
