/// @file
/// Catalog: RDNA 3 GPUs (Radeon RX 7900 XTX).
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
                                         .source = "AMD Radeon RX 7900 XTX specifications"}};

}  // namespace dlperf::catalog
