/// @file
/// Catalog: Apple M1, M1 Pro, M1 Max and M1 Ultra (2020-2022), one entry per GPU-core count and
/// unified-memory size the evidence or a sourced price has. An Apple GPU's memory is the GPU's
/// working set of the machine's unified memory (apple/unified_memory.hpp); its price and power are
/// the machine's (docs/catalog.md, "Apple silicon").
///
/// GPU clocks: 1278 MHz (M1) and 1296 MHz (M1 Pro, Max and Ultra), and L2 sizes (768 KiB M1, 256
/// KiB M1 Pro, 512 KiB M1 Max, 1 MiB M1 Ultra): philipturner/metal-benchmarks README at dc2adc6
/// (2024), whose FP32 rates (2617 GFLOPS for 8 cores, 10617 for 32) are Apple's published 2.6
/// and 10.4 TFLOPS within 2.1 % (MacRumors, 2020-11-10; Wccftech, 2021-10-18). Memory: M1
/// LPDDR4X-4266 on 128 bits (68.25 GB/s), M1 Pro, Max and Ultra LPDDR5-6400 on 256, 512 and 1024
/// bits (Apple: 200, 400 and 800 GB/s, which are 204.8, 409.6 and 819.2 rounded down).
#pragma once

#include <dlperf/hardware/apple/arch/m1.hpp>
#include <dlperf/hardware/apple/mac.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// Apple M1 (7-core GPU, 8 GB). Price: MacBook Air (M1, 2020), the base configuration: $999
/// (MacRumors and CNET, 2020-11-10). Power: 39 W, Mac mini (M1) maximum draw, Apple's support page
/// as Daring Fireball quotes it (2021-01).
inline constexpr gpu<apple_m1> m1_7c_8gb{apple::mac(
    {.id = "m1_7c_8gb",
     .name = "Apple M1 (7-core GPU, 8 GB)",
     .segment = segment::apple,
     .year = 2020,
     .sms = 7,
     .base_clock = {},
     .boost_clock = megahertz(1278),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr4x,
     .bus_width_bits = 128,
     .data_rate_gbps = 4.266,
     .l2 = kibibytes(768),
     .tdp = watts(39),
     .host_link = {},
     .price = {dollars(999), 2020, 11, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(8)})};

/// Apple M1 (8-core GPU, 8 GB). Price: Mac mini (M1, 2020), the base configuration: $699 (iPhone
/// Life; iDrop News, 2020-11). Power: 39 W, Mac mini (M1) maximum draw, Apple's support page as
/// Daring Fireball quotes it (2021-01).
inline constexpr gpu<apple_m1> m1_8c_8gb{apple::mac(
    {.id = "m1_8c_8gb",
     .name = "Apple M1 (8-core GPU, 8 GB)",
     .segment = segment::apple,
     .year = 2020,
     .sms = 8,
     .base_clock = {},
     .boost_clock = megahertz(1278),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr4x,
     .bus_width_bits = 128,
     .data_rate_gbps = 4.266,
     .l2 = kibibytes(768),
     .tdp = watts(39),
     .host_link = {},
     .price = {dollars(699), 2020, 11, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(8)})};

/// Apple M1 Pro (14-core GPU, 32 GB). Price: $2,399: the 14-inch MacBook Pro (2021), whose $1,999
/// base has this chip (MacRumors, 2021-10-19), with 32 GB for Apple's $400 step from 16 GB
/// (mutepc.com). Power: 115 W, none published; the M1 Max Mac Studio's maximum draw
/// (support.apple.com 102027), an upper bound.
inline constexpr gpu<apple_m1> m1_pro_14c_32gb{apple::mac(
    {.id = "m1_pro_14c_32gb",
     .name = "Apple M1 Pro (14-core GPU, 32 GB)",
     .segment = segment::apple,
     .year = 2021,
     .sms = 14,
     .base_clock = {},
     .boost_clock = megahertz(1296),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 256,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(256),
     .tdp = watts(115),
     .host_link = {},
     .price = {dollars(2399), 2021, 10, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(32)})};

/// Apple M1 Pro (16-core GPU, 32 GB). Price: $2,899: the 16-inch MacBook Pro (2021), whose $2,499
/// base has this chip (MacRumors, 2021-10-19), with 32 GB for Apple's $400 step from 16 GB
/// (mutepc.com); no US price for the 14-inch's chip upgrade was found. Power: 115 W, none
/// published; the M1 Max Mac Studio's maximum draw (support.apple.com 102027), an upper bound.
inline constexpr gpu<apple_m1> m1_pro_16c_32gb{apple::mac(
    {.id = "m1_pro_16c_32gb",
     .name = "Apple M1 Pro (16-core GPU, 32 GB)",
     .segment = segment::apple,
     .year = 2021,
     .sms = 16,
     .base_clock = {},
     .boost_clock = megahertz(1296),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 256,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(256),
     .tdp = watts(115),
     .host_link = {},
     .price = {dollars(2899), 2021, 10, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(32)})};

/// Apple M1 Max (24-core GPU, 32 GB). Price: Mac Studio (2022), the base configuration (10-core
/// CPU, 24-core GPU, 32 GB): $1,999 (MacRumors Mac Studio roundup; Boing Boing, 2022-03-09). Power:
/// 115 W, Mac Studio M1 Max maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m1> m1_max_24c_32gb{apple::mac(
    {.id = "m1_max_24c_32gb",
     .name = "Apple M1 Max (24-core GPU, 32 GB)",
     .segment = segment::apple,
     .year = 2021,
     .sms = 24,
     .base_clock = {},
     .boost_clock = megahertz(1296),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 512,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(512),
     .tdp = watts(115),
     .host_link = {},
     .price = {dollars(1999), 2022, 3, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(32)})};

/// Apple M1 Max (32-core GPU, 64 GB). Price: no US price sourced for the 32-core, 64 GB options.
/// Power: 115 W, Mac Studio M1 Max maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m1> m1_max_32c_64gb{apple::mac(
    {.id = "m1_max_32c_64gb",
     .name = "Apple M1 Max (32-core GPU, 64 GB)",
     .segment = segment::apple,
     .year = 2021,
     .sms = 32,
     .base_clock = {},
     .boost_clock = megahertz(1296),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 512,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(512),
     .tdp = watts(115),
     .host_link = {},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(64)})};

/// Apple M1 Ultra (48-core GPU, 64 GB). Price: Mac Studio (2022) with M1 Ultra, the base
/// configuration (48-core GPU, 64 GB): $3,999 (Engadget's review). Power: 215 W, Mac Studio M1
/// Ultra maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m1> m1_ultra_48c_64gb{apple::mac(
    {.id = "m1_ultra_48c_64gb",
     .name = "Apple M1 Ultra (48-core GPU, 64 GB)",
     .segment = segment::apple,
     .year = 2022,
     .sms = 48,
     .base_clock = {},
     .boost_clock = megahertz(1296),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 1024,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(1024),
     .tdp = watts(215),
     .host_link = {},
     .price = {dollars(3999), 2022, 3, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(64)})};

/// Apple M1 Ultra (64-core GPU, 128 GB). Price: $5,799: the Mac Studio (2022) at its top price,
/// $7,999 with the 64-core GPU, 128 GB and an 8 TB SSD, less the $2,200 the 8 TB SSD adds over the
/// 1 TB base (TechRadar, March 2022). Power: 215 W, Mac Studio M1 Ultra maximum draw
/// (support.apple.com 102027).
inline constexpr gpu<apple_m1> m1_ultra_64c_128gb{apple::mac(
    {.id = "m1_ultra_64c_128gb",
     .name = "Apple M1 Ultra (64-core GPU, 128 GB)",
     .segment = segment::apple,
     .year = 2022,
     .sms = 64,
     .base_clock = {},
     .boost_clock = megahertz(1296),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 1024,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(1024),
     .tdp = watts(215),
     .host_link = {},
     .price = {dollars(5799), 2022, 3, price_kind::launch_msrp},
     .source = "Apple M1 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(128)})};

}  // namespace dlperf::catalog
