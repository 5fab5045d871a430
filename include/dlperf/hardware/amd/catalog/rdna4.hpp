/// @file
/// Catalog: RDNA 4 GPUs (Radeon RX 9070 XT, RX 9070).
#pragma once

#include <dlperf/hardware/amd/arch/rdna4.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// AMD Radeon RX 9070 XT (Navi 48, all 64 CUs). Source: AMD product specifications
/// (https://www.amd.com/en/products/graphics/desktops/radeon/9000-series/amd-radeon-rx-9070xt.html,
/// March 2025) and the launch reports (purepc.pl, multiplayer.it, February 2025): boost up to 2970
/// MHz, FP32 48.7 TFLOPS, INT8 779 and INT4 1557 TOPS (sparse), 16 GB GDDR6 256-bit at 20 Gbit/s
/// (640 GB/s), 64 MB third-generation Infinity Cache, 8 MB L2, 304 W total board power, PCIe 5 x16;
/// $599 launch MSRP, on sale 6 March 2025. The Infinity Cache is not modelled (capacity 0): AMD
/// publishes no bandwidth for RDNA 4's, so its traffic is costed at DRAM speed.
inline constexpr gpu<rdna4> rx_9070_xt{
    {.id = "rx_9070_xt",
     .name = "AMD Radeon RX 9070 XT",
     .segment = segment::radeon,
     .year = 2025,
     .sms = 64,
     .base_clock = {},
     .boost_clock = megahertz(2970),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 20.0,
     .l2 = mebibytes(8),
     .tdp = watts(304),
     .host_link = pcie_link(5, 16),
     .price = {dollars(599), 2025, 3, price_kind::launch_msrp},
     // Resale: GPU Poet's July 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "The RX 9070 XT ($607) sits right at its $599 MSRP"
     // (June)
     .street_price = {dollars(607), 2026, 6, price_kind::used},
     .source = "AMD Radeon RX 9070 XT specifications (2025)"}};

/// AMD Radeon RX 9070 (Navi 48, 56 CUs). Source: AMD product specifications
/// (https://www.amd.com/en/products/graphics/desktops/radeon/9000-series/amd-radeon-rx-9070.html,
/// March 2025): boost up to 2520 MHz, FP32 36.1 TFLOPS, 16 GB GDDR6 256-bit at 20 Gbit/s (640
/// GB/s), 64 MB Infinity Cache, 8 MB L2, 220 W total board power, PCIe 5 x16; $549 launch MSRP
/// (purepc.pl, February 2025), on sale 6 March 2025.
inline constexpr gpu<rdna4> rx_9070{{.id = "rx_9070",
                                     .name = "AMD Radeon RX 9070",
                                     .segment = segment::radeon,
                                     .year = 2025,
                                     .sms = 56,
                                     .base_clock = {},
                                     .boost_clock = megahertz(2520),
                                     .memory = gibibytes(16),
                                     .memory_type = memory_kind::gddr6,
                                     .bus_width_bits = 256,
                                     .data_rate_gbps = 20.0,
                                     .l2 = mebibytes(8),
                                     .tdp = watts(220),
                                     .host_link = pcie_link(5, 16),
                                     .price = {dollars(549), 2025, 3, price_kind::launch_msrp},
                                     // Resale: GPU Poet's July 2026 market report (gpupoet.com;
                                     // best deal, the average of the 3 cheapest eBay and Amazon
                                     // listings): "The RX 9070 fell 18% MoM to $465" (June)
                                     .street_price = {dollars(465), 2026, 6, price_kind::used},
                                     .source = "AMD Radeon RX 9070 specifications (2025)"}};

}  // namespace dlperf::catalog
