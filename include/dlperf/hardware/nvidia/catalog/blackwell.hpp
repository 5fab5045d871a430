/// @file
/// Catalog: Blackwell GPUs (B200, GB200, RTX 5060 Ti to 5090, RTX PRO 6000).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/blackwell.hpp>

namespace dlperf::catalog {

/// NVIDIA B200 (two GB100 dies, HGX/DGX B200 board). Source: NVIDIA HGX B200 datasheet (2024):
/// 180 GB HBM3e, 7.7 TB/s, up to 1000 W, NVLink 5 (1.8 TB/s), PCIe 5; dense FP16 2.25 PFLOPS,
/// FP8 4.5, FP4 9, FP32 75 TFLOPS. NVIDIA publishes neither SM count nor clocks: 148 SMs is what
/// CUDA reports (Chips and Cheese, 2025), and the 1980 MHz boost / 1856 MHz tensor clocks are
/// those the published FP32 and FP16 peaks imply (the H100 pattern), so B200's peak check is a
/// consistency check, not an independent one. 8 HBM3e stacks (8192-bit) at 7.52 Gbit/s per pin
/// give the 7.7 TB/s. L2 126.5 MiB as CUDA reports it. Launch price $30,000-40,000 (Jensen Huang,
/// CNBC, March 2024, at the launch; midpoint $35,000, `launch_reported`). Under sustained dense
/// tensor work it settles at 1339 MHz (BF16, 9472x8192x20480 at about 994 W; FP8 1331 MHz at
/// about 990 W), of 1965 MHz in short bursts: Stas Bekman's ml-engineering MSMF table (mamf-finder,
/// branch fast-mamf at 082816f, compute/accelerator/README.md, 2026-08), the source of the
/// H200's figure (hopper.hpp). Over three runs alone it held 1330-1460 MHz.
inline constexpr gpu<blackwell_gb100> b200{
    {.id = "b200",
     .name = "NVIDIA B200",
     .segment = segment::datacenter,
     .year = 2024,
     .sms = 148,
     .base_clock = {},
     .boost_clock = megahertz(1980),
     .tensor_clock = megahertz(1856),
     .memory = gibibytes(180),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 8192,
     .data_rate_gbps = 7.52,
     .l2 = kibibytes(129536),
     .tdp = watts(1000),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 5, gigabytes_per_second(1800)},
     .price = {dollars(35000), 2024, 3, price_kind::launch_reported},
     .source = "NVIDIA HGX B200 datasheet (2024); SM count and clocks inferred; sustained clock: "
               "ml-engineering MSMF (fast-mamf 082816f)",
     .sustained_tensor_clock = megahertz(1339),
     // FP8 (E4M3): 9472x8192x16384 at 2795.7 TFLOP/s, about 990 W, 1331 MHz (the same table).
     .sustained_fp8_tensor_clock = megahertz(1331),
     .form = form_factor::mezzanine}};

/// GeForce RTX 5090 (GB202). Source: NVIDIA RTX Blackwell GPU Architecture whitepaper v1.1
/// (2025), Appendix A Table 3: 170 SMs, 2017/2407 MHz, 32 GB GDDR7 28 Gbps 512-bit, 1792 GB/s,
/// 96 MB L2, 575 W, PCIe 5; $1,999 (January 2025).
inline constexpr gpu<blackwell_gb20x> rtx_5090{
    {.id = "rtx_5090",
     .name = "NVIDIA GeForce RTX 5090",
     .segment = segment::geforce,
     .year = 2025,
     .sms = 170,
     .base_clock = megahertz(2017),
     .boost_clock = megahertz(2407),
     .memory = gibibytes(32),
     .memory_type = memory_kind::gddr7,
     .bus_width_bits = 512,
     .data_rate_gbps = 28.0,
     .l2 = mebibytes(96),
     .tdp = watts(575),
     .host_link = pcie_link(5, 16),
     .price = {dollars(1999), 2025, 1, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): best resale deal (Aug) $3,254; new on Amazon $4,262
     .street_price = {dollars(3254), 2026, 8, price_kind::used},
     .source = "NVIDIA RTX Blackwell GPU Architecture whitepaper v1.1 (2025), Appendix A"}};

/// GeForce RTX 5080 (GB203-400, all 84 SMs). Source: NVIDIA GeForce RTX 5080 page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5080/, 2025) and the CES 2025
/// specification table (TweakTown, 7 January 2025): 10752 cores, 2295/2617 MHz, 16 GB GDDR7
/// 30 Gbps 256-bit, 960 GB/s, 360 W, PCIe 5, "1801 AI TOPS" (FP4, sparse), 56.3 shader TFLOPS;
/// 64 MB L2 (TechPowerUp); $999 launch MSRP (January 2025).
inline constexpr gpu<blackwell_gb20x> rtx_5080{
    {.id = "rtx_5080",
     .name = "NVIDIA GeForce RTX 5080",
     .segment = segment::geforce,
     .year = 2025,
     .sms = 84,
     .base_clock = megahertz(2295),
     .boost_clock = megahertz(2617),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr7,
     .bus_width_bits = 256,
     .data_rate_gbps = 30.0,
     .l2 = mebibytes(64),
     .tdp = watts(360),
     .host_link = pcie_link(5, 16),
     .price = {dollars(999), 2025, 1, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): best resale deal (Aug) $1,039; new on Amazon $1,245
     .street_price = {dollars(1039), 2026, 8, price_kind::used},
     .source = "NVIDIA GeForce RTX 5080 page (2025)"}};

/// GeForce RTX 5070 Ti (GB203-300, 70 SMs). Source: NVIDIA GeForce RTX 5070 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5070/, 2025) and the CES 2025
/// specification table (TweakTown, 7 January 2025): 8960 cores, 2295/2452 MHz, 16 GB GDDR7 28 Gbps
/// 256-bit, 896 GB/s, 300 W, PCIe 5, "1406 AI TOPS" (FP4, sparse), 44 shader TFLOPS; 48 MB L2
/// (TechPowerUp); $749 launch MSRP (February 2025).
inline constexpr gpu<blackwell_gb20x> rtx_5070_ti{
    {.id = "rtx_5070_ti",
     .name = "NVIDIA GeForce RTX 5070 Ti",
     .segment = segment::geforce,
     .year = 2025,
     .sms = 70,
     .base_clock = megahertz(2295),
     .boost_clock = megahertz(2452),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr7,
     .bus_width_bits = 256,
     .data_rate_gbps = 28.0,
     .l2 = mebibytes(48),
     .tdp = watts(300),
     .host_link = pcie_link(5, 16),
     .price = {dollars(749), 2025, 2, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): best resale deal (Aug) $849; new on Amazon $914
     .street_price = {dollars(849), 2026, 8, price_kind::used},
     .source = "NVIDIA GeForce RTX 5070 family page (2025)"}};

/// GeForce RTX 5070 (GB205-300, 48 SMs). Source: NVIDIA GeForce RTX 5070 family page (2025) and
/// the CES 2025 specification table (TweakTown, 7 January 2025): 6144 cores, 2160/2512 MHz, 12 GB
/// GDDR7 28 Gbps 192-bit, 672 GB/s, 250 W, PCIe 5, "988 AI TOPS" (FP4, sparse), 31 shader TFLOPS;
/// 48 MB L2 (TechPowerUp); $549 launch MSRP (March 2025).
inline constexpr gpu<blackwell_gb20x> rtx_5070{
    {.id = "rtx_5070",
     .name = "NVIDIA GeForce RTX 5070",
     .segment = segment::geforce,
     .year = 2025,
     .sms = 48,
     .base_clock = megahertz(2160),
     .boost_clock = megahertz(2512),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr7,
     .bus_width_bits = 192,
     .data_rate_gbps = 28.0,
     .l2 = mebibytes(48),
     .tdp = watts(250),
     .host_link = pcie_link(5, 16),
     .price = {dollars(549), 2025, 3, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): best resale deal (Aug) $539; new on Amazon $735
     .street_price = {dollars(539), 2026, 8, price_kind::used},
     .source = "NVIDIA GeForce RTX 5070 family page (2025)"}};

/// NVIDIA RTX PRO 6000 Blackwell Workstation Edition (GB202, 188 of 192 SMs, workstation: full-rate
/// FP32 accumulation). Source: NVIDIA RTX PRO 6000 Blackwell datasheet (2025,
/// https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/):
/// 24064 cores, 96 GB GDDR7 ECC 512-bit, 1792 GB/s, 600 W, PCIe 5 x16, FP32 125 TFLOPS, 4000 AI
/// TOPS (FP4, sparse); 2617 MHz boost and 128 MB L2 from the TechPowerUp GPU database (NVIDIA
/// prints no clock; its peaks imply 2597 MHz, 0.8 % lower). Price $8,565, reported as its MSRP at
/// the April 2025 launch (NewGearHub, "Nvidia GTC 2026: What Blackwell GPUs Mean for Pro
/// Workstations", 6 April 2026): `launch_reported`, NVIDIA published no list price.
inline constexpr gpu<blackwell_gb20x> rtx_pro_6000{
    {.id = "rtx_pro_6000",
     .name = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
     .segment = segment::workstation,
     .year = 2025,
     .sms = 188,
     .base_clock = {},
     .boost_clock = megahertz(2617),
     .memory = gibibytes(96),
     .memory_type = memory_kind::gddr7,
     .bus_width_bits = 512,
     .data_rate_gbps = 28.0,
     .l2 = mebibytes(128),
     .tdp = watts(600),
     .host_link = pcie_link(5, 16),
     .price = {dollars(8565), 2025, 4, price_kind::launch_reported},
     // Street: https://www.newgearhub.com/review/nvidia-gtc-2026-blackwell-gpus-pro-workstations:
     // "retailing between $8,000 and $9,200 as of April 2026" (the midpoint)
     .street_price = {dollars(8600), 2026, 4, price_kind::street},
     .source = "NVIDIA RTX PRO 6000 Blackwell datasheet (2025)"}};

/// NVIDIA GB200, one of the two Blackwell GPUs (two GB100 dies, 148 SMs) of a GB200 Grace
/// Blackwell Superchip, as in the GB200 NVL72 rack. Source: NVIDIA GB200 NVL72 datasheet (2024,
/// https://www.nvidia.com/en-us/data-center/gb200-nvl72/), per superchip of two GPUs and with
/// 2:4 sparsity: FP4 40 PFLOPS, FP8 20, FP16/BF16 10, TF32 5; up to 372 GB HBM3e at 16 TB/s;
/// NVLink 5 at 1.8 TB/s per GPU; NVLink-C2C to the Grace CPU at 900 GB/s. Per GPU: 186 GB at
/// 8 TB/s (8192-bit at 7.8 Gbit/s per pin). NVIDIA publishes neither SMs nor clocks: 148 SMs as
/// B200, and the 2062 MHz clock is the one the dense FP16 and FP4 peaks imply (2.5 and 10 PFLOPS
/// per GPU), so the peak check is a consistency check, as B200's. L2 as B200. Power 1200 W per GPU
/// (reported rack budget of the NVL72; the superchip's 2700 W includes the CPU). No price: NVIDIA
/// sells it in racks only.
inline constexpr gpu<blackwell_gb100> gb200{
    {.id = "gb200",
     .name = "NVIDIA GB200 (one Blackwell GPU of the superchip)",
     .segment = segment::datacenter,
     .year = 2024,
     .sms = 148,
     .base_clock = {},
     .boost_clock = megahertz(2062),
     .memory = gibibytes(186),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 8192,
     .data_rate_gbps = 7.8,
     .l2 = kibibytes(129536),
     .tdp = watts(1200),
     .host_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .peer_link = {interconnect_kind::nvlink, 5, gigabytes_per_second(1800)},
     .source = "NVIDIA GB200 NVL72 datasheet (2024); SM count and clock inferred",
     .form = form_factor::mezzanine}};

/// GeForce RTX 5060 Ti 16 GB (GB206, 36 SMs). Source: NVIDIA GeForce RTX 5060 family page
/// (https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5060-family/, April 2025):
/// 4608 cores, 2407/2572 MHz, 16 GB GDDR7 28 Gbps 128-bit, 448 GB/s, 180 W, PCIe 5 x8, "759 AI
/// TOPS" (FP4, sparse), 23.7 TFLOPS FP32; 32 MB L2 from the TechPowerUp GPU database; $429 launch
/// MSRP (April 2025).
inline constexpr gpu<blackwell_gb20x> rtx_5060_ti_16gb{
    {.id = "rtx_5060_ti_16gb",
     .name = "NVIDIA GeForce RTX 5060 Ti 16 GB",
     .segment = segment::geforce,
     .year = 2025,
     .sms = 36,
     .base_clock = megahertz(2407),
     .boost_clock = megahertz(2572),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr7,
     .bus_width_bits = 128,
     .data_rate_gbps = 28.0,
     .l2 = mebibytes(32),
     .tdp = watts(180),
     .host_link = pcie_link(5, 8),
     .price = {dollars(429), 2025, 4, price_kind::launch_msrp},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): best resale deal (Aug) $507; new on Amazon $584
     .street_price = {dollars(507), 2026, 8, price_kind::used},
     .source = "NVIDIA GeForce RTX 5060 family page (2025)"}};

}  // namespace dlperf::catalog
