/// @file
/// Catalog: Apple M4, M4 Pro and M4 Max (2024-2025), one entry per GPU-core count and
/// unified-memory size the evidence or a sourced price has. An Apple GPU's memory is the GPU's
/// working set of the machine's unified memory (apple/unified_memory.hpp); its price and power are
/// the machine's (docs/catalog.md, "Apple silicon").
///
/// Apple publishes neither the M4 GPU's clock nor its FP32 rate; 1678 MHz is the figure of
/// hmc-tech.com's GPU database (32-core M4 Max at 13.74 TFLOPS), not Apple's or a measurement, and
/// the L2 sizes are the M2 family's (not measured). Memory: LPDDR5X-7500 on 128 bits (M4, Apple's
/// 120 GB/s) and LPDDR5X-8533 on 256 (M4 Pro, 273 GB/s), 384 (32-core M4 Max, 410 GB/s) and 512
/// bits (40-core M4 Max, 546 GB/s) (Ars Technica's M4 comparison, 2024-11; MacRumors,
/// 2024-10-30).
#pragma once

#include <dlperf/hardware/apple/arch/m4.hpp>
#include <dlperf/hardware/apple/mac.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// Apple M4 (10-core GPU, 24 GB). Price: $799: the Mac mini (M4, 2024), whose $599 base has this
/// chip with 16 GB (MacRumors, 2024-10-29), with 24 GB for the $200 step a retailer lists
/// (scartek.co.ke). Power: 65 W, Mac mini (M4) as ServeTheHome reports Apple's figure ("should be
/// able to hit 65W", 2024-11).
inline constexpr gpu<apple_m4> m4_10c_24gb{
    apple::mac({.id = "m4_10c_24gb",
                .name = "Apple M4 (10-core GPU, 24 GB)",
                .segment = segment::apple,
                .year = 2024,
                .sms = 10,
                .base_clock = {},
                .boost_clock = megahertz(1678),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5x,
                .bus_width_bits = 128,
                .data_rate_gbps = 7.5,
                .l2 = kibibytes(1536),
                .tdp = watts(65),
                .host_link = {},
                .price = {dollars(799), 2024, 10, price_kind::launch_msrp},
                .source = "Apple M4 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(24)})};

/// Apple M4 Pro (16-core GPU, 24 GB). Price: Mac mini (M4 Pro, 2024), the base configuration
/// (12-core CPU, 16-core GPU, 24 GB): $1,399 (The Verge; Apple's tech specs, 2024-10-29). Power:
/// 100 W, none published; the M2 Pro Mac mini's 100 W assumed.
inline constexpr gpu<apple_m4> m4_pro_16c_24gb{
    apple::mac({.id = "m4_pro_16c_24gb",
                .name = "Apple M4 Pro (16-core GPU, 24 GB)",
                .segment = segment::apple,
                .year = 2024,
                .sms = 16,
                .base_clock = {},
                .boost_clock = megahertz(1678),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5x,
                .bus_width_bits = 256,
                .data_rate_gbps = 8.533,
                .l2 = kibibytes(512),
                .tdp = watts(100),
                .host_link = {},
                .price = {dollars(1399), 2024, 11, price_kind::launch_msrp},
                .source = "Apple M4 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(24)})};

/// Apple M4 Pro (20-core GPU, 24 GB). Price: Mac mini (M4 Pro, 2024) with the 14-core CPU, 20-core
/// GPU option: $1,399 + $200 (9to5Mac, 2024-10-29). Power: 100 W, none published; the M2 Pro Mac
/// mini's 100 W assumed.
inline constexpr gpu<apple_m4> m4_pro_20c_24gb{
    apple::mac({.id = "m4_pro_20c_24gb",
                .name = "Apple M4 Pro (20-core GPU, 24 GB)",
                .segment = segment::apple,
                .year = 2024,
                .sms = 20,
                .base_clock = {},
                .boost_clock = megahertz(1678),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5x,
                .bus_width_bits = 256,
                .data_rate_gbps = 8.533,
                .l2 = kibibytes(512),
                .tdp = watts(100),
                .host_link = {},
                .price = {dollars(1599), 2024, 11, price_kind::launch_msrp},
                .source = "Apple M4 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(24)})};

/// Apple M4 Max (32-core GPU, 36 GB). Price: Mac Studio (2025), the base configuration (14-core
/// CPU, 32-core GPU, 36 GB): $1,999 (Macworld, 2025-03-05). Power: 145 W, none published; the M2
/// Max Mac Studio's 145 W assumed.
inline constexpr gpu<apple_m4> m4_max_32c_36gb{
    apple::mac({.id = "m4_max_32c_36gb",
                .name = "Apple M4 Max (32-core GPU, 36 GB)",
                .segment = segment::apple,
                .year = 2024,
                .sms = 32,
                .base_clock = {},
                .boost_clock = megahertz(1678),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5x,
                .bus_width_bits = 384,
                .data_rate_gbps = 8.533,
                .l2 = kibibytes(1024),
                .tdp = watts(145),
                .host_link = {},
                .price = {dollars(1999), 2025, 3, price_kind::launch_msrp},
                .source = "Apple M4 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(36)})};

/// Apple M4 Max (40-core GPU, 128 GB). Price: no US price sourced for the 40-core, 128 GB options.
/// Power: 145 W, none published; the M2 Max Mac Studio's 145 W assumed.
inline constexpr gpu<apple_m4> m4_max_40c_128gb{
    apple::mac({.id = "m4_max_40c_128gb",
                .name = "Apple M4 Max (40-core GPU, 128 GB)",
                .segment = segment::apple,
                .year = 2024,
                .sms = 40,
                .base_clock = {},
                .boost_clock = megahertz(1678),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5x,
                .bus_width_bits = 512,
                .data_rate_gbps = 8.533,
                .l2 = kibibytes(1024),
                .tdp = watts(145),
                .host_link = {},
                .source = "Apple M4 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(128)})};

}  // namespace dlperf::catalog
