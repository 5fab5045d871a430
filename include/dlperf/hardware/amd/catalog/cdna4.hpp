/// @file
/// Catalog: CDNA 4 GPUs (Instinct MI355X, MI350X).
#pragma once

#include <dlperf/hardware/amd/arch/cdna4.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// AMD Instinct MI355X OAM (8 XCDs, 256 CUs, liquid-cooled). Source: AMD Instinct MI355X datasheet
/// (https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html, June 2025): peak
/// engine clock 2400 MHz, 288 GB HBM3E in 8 stacks (8192-bit), 8 TB/s, 1400 W, PCIe 5 x16, 7
/// Infinity Fabric links of 153.6 GB/s (1075 GB/s); FP16/BF16 2.5 PFLOPS, FP8 5.0, FP32 157.3
/// TFLOPS; L2 4 MB per XCD (32 MB) and a 256 MB Infinity Cache (AMD CDNA 4 white paper, 2025).
/// The Infinity Cache is not modelled (capacity 0): AMD publishes no peak bandwidth for it, so
/// traffic that would hit it is costed at DRAM speed. 7.8 Gbit/s per pin over 8192 bits gives the
/// 8 TB/s. AMD publishes no list price. Launch price: HSBC's estimate of the MI350 series'
/// average selling price, $25,000 per GPU (July 2025, reported by ainvest.com,
/// https://www.ainvest.com/news/amd-ai-chip-momentum-catalyst-driven-bull-case-200-2507)
/// (`launch_reported`). HSBC lowered its MI355 figure to $23,000 on 9 September 2025 (reported by
/// parameter.io, https://parameter.io/advanced-micro-devices-amd-stock-why-analysts-stay-bullish-
/// despite-price-cut) (`street`).
inline constexpr gpu<cdna4> mi355x{
    {.id = "mi355x",
     .name = "AMD Instinct MI355X",
     .segment = segment::datacenter,
     .year = 2025,
     .sms = 256,
     .base_clock = {},
     .boost_clock = megahertz(2400),
     .memory = gibibytes(288),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 8192,
     .data_rate_gbps = 7.8,
     .l2 = mebibytes(32),
     .tdp = watts(1400),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::infinity_fabric, 4, gigabytes_per_second(1075.2)},
     .price = {dollars(25000), 2025, 7, price_kind::launch_reported},
     .street_price = {dollars(23000), 2025, 9, price_kind::street},
     .source = "AMD Instinct MI355X datasheet (2025); CDNA 4 white paper; HSBC via ainvest.com "
               "and parameter.io (2025)",
     .form = form_factor::mezzanine}};

/// AMD Instinct MI350X OAM (the MI355X's silicon, air-cooled at a lower clock). Source: AMD
/// Instinct MI350X datasheet (https://www.amd.com/en/products/accelerators/instinct/mi350/
/// mi350x.html, June 2025): 256 CUs, peak engine clock 2200 MHz, 288 GB HBM3E, 8 TB/s, 1000 W;
/// FP16/BF16 2.3 PFLOPS, FP8 4.6, FP32 144.2 TFLOPS. Caches and links as MI355X. Launch price:
/// HSBC's MI350-series estimate as for the MI355X, $25,000 (July 2025; `launch_reported`).
inline constexpr gpu<cdna4> mi350x{
    {.id = "mi350x",
     .name = "AMD Instinct MI350X",
     .segment = segment::datacenter,
     .year = 2025,
     .sms = 256,
     .base_clock = {},
     .boost_clock = megahertz(2200),
     .memory = gibibytes(288),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 8192,
     .data_rate_gbps = 7.8,
     .l2 = mebibytes(32),
     .tdp = watts(1000),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::infinity_fabric, 4, gigabytes_per_second(1075.2)},
     .price = {dollars(25000), 2025, 7, price_kind::launch_reported},
     .source = "AMD Instinct MI350X datasheet (2025); CDNA 4 white paper; HSBC via ainvest.com "
               "(2025)",
     .form = form_factor::mezzanine}};

}  // namespace dlperf::catalog
