/// @file
/// Catalog: RDNA 3 GPUs (Radeon RX 7900 XTX, RX 7900 XT, Radeon PRO W7900).
#pragma once

#include <dlperf/hardware/amd/arch/rdna3.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// AMD Radeon RX 7900 XTX (Navi 31, 96 CUs). Source: AMD product specifications
/// (https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7900xtx.html):
/// boost clock up to 2500 MHz (game clock 2300 MHz), 24 GB GDDR6 384-bit at 20 Gbit/s (960 GB/s),
/// 96 MB Infinity Cache (second generation, up to 5.3 TB/s peak bandwidth), 6 MB L2, 355 W
/// total board power, PCIe 4 x16. Launch price $999, on sale 13 December 2022 (AMD press release,
/// 3 November 2022).
inline constexpr gpu<rdna3> rx_7900_xtx{{.id = "rx_7900_xtx",
                                         .name = "AMD Radeon RX 7900 XTX",
                                         .segment = segment::radeon,
                                         .year = 2022,
                                         .sms = 96,
                                         .base_clock = {},
                                         .boost_clock = megahertz(2500),
                                         .memory = gibibytes(24),
                                         .memory_type = memory_kind::gddr6,
                                         .bus_width_bits = 384,
                                         .data_rate_gbps = 20.0,
                                         .l2 = mebibytes(6),
                                         .llc = mebibytes(96),
                                         .llc_bandwidth = gigabytes_per_second(5300),
                                         .tdp = watts(355),
                                         .host_link = pcie_link(4, 16),
                                         .price = {dollars(999), 2022, 12, price_kind::launch_msrp},
                                         // Resale: GPU Poet's August 2026 market report
                                         // (gpupoet.com; best deal, the average of the 3 cheapest
                                         // eBay and Amazon listings): "the RX 7900 XTX at $2.92/FPS
                                         // ($781 ...)" (July)
                                         .street_price = {dollars(781), 2026, 7, price_kind::used},
                                         .source = "AMD Radeon RX 7900 XTX specifications"}};

/// AMD Radeon RX 7900 XT (Navi 31 XT, 84 CUs, five of six MCDs). Source: AMD specifications as
/// tabulated by Guru3D (Radeon RX 7900 XT and XTX specifications,
/// https://guru3d.com/review/xfx-radeon-rx-7900-xtx-magair-review/page-4) and the launch report
/// (voonze.com, 8 December 2022): boost up to 2400 MHz, 51.6 TFLOPS FP32, 20 GB GDDR6 320-bit at
/// 20 Gbit/s (800 GB/s), 80 MB Infinity Cache, 6 MB L2, 315 W total board power (AMD), PCIe 4 x16;
/// $899 launch MSRP, on sale 13 December 2022. Infinity Cache bandwidth: AMD gives 5.3 TB/s for the
/// six-MCD XTX; with five MCDs at the same fabric clock (an assumption, no XT figure is published)
/// the XT has five sixths of it.
inline constexpr gpu<rdna3> rx_7900_xt{{.id = "rx_7900_xt",
                                        .name = "AMD Radeon RX 7900 XT",
                                        .segment = segment::radeon,
                                        .year = 2022,
                                        .sms = 84,
                                        .base_clock = {},
                                        .boost_clock = megahertz(2400),
                                        .memory = gibibytes(20),
                                        .memory_type = memory_kind::gddr6,
                                        .bus_width_bits = 320,
                                        .data_rate_gbps = 20.0,
                                        .l2 = mebibytes(6),
                                        .llc = mebibytes(80),
                                        .llc_bandwidth = gigabytes_per_second(5300.0 * 5 / 6),
                                        .tdp = watts(315),
                                        .host_link = pcie_link(4, 16),
                                        .price = {dollars(899), 2022, 12, price_kind::launch_msrp},
                                        // Resale: GPU Poet's August 2026 market report
                                        // (gpupoet.com; best deal, the average of the 3 cheapest
                                        // eBay and Amazon listings): "the RX 7900 XT at $2.40/FPS
                                        // ($542 ...)" (July)
                                        .street_price = {dollars(542), 2026, 7, price_kind::used},
                                        .source = "AMD Radeon RX 7900 XT specifications (2022)"}};

/// AMD Radeon PRO W7900 (Navi 31, 96 CUs, workstation). Source: AMD Radeon PRO W7900
/// specifications (https://www.amd.com/en/products/graphics/workstations/radeon-pro/w7900.html,
/// 2023): boost 2495 MHz, FP32 61.3 TFLOPS, 48 GB GDDR6 ECC 384-bit, 864 GB/s (18 Gbit/s), 96 MB
/// Infinity Cache, 6 MB L2, 295 W total board power, PCIe 4 x16; $3,999 launch MSRP (AMD
/// announcement, April 2023). Infinity Cache bandwidth: the XTX's 5.3 TB/s (same six-MCD Navi 31;
/// AMD prints no W7900 figure).
inline constexpr gpu<rdna3> radeon_pro_w7900{
    {.id = "radeon_pro_w7900",
     .name = "AMD Radeon PRO W7900",
     .segment = segment::workstation,
     .year = 2023,
     .sms = 96,
     .base_clock = {},
     .boost_clock = megahertz(2495),
     .memory = gibibytes(48),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 18.0,
     .l2 = mebibytes(6),
     .llc = mebibytes(96),
     .llc_bandwidth = gigabytes_per_second(5300),
     .tdp = watts(295),
     .host_link = pcie_link(4, 16),
     .price = {dollars(3999), 2023, 4, price_kind::launch_msrp},
     .source = "AMD Radeon PRO W7900 specifications (2023)"}};

}  // namespace dlperf::catalog
