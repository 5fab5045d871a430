/// @file
/// Catalog: Apple M2, M2 Pro, M2 Max and M2 Ultra (2022-2023), one entry per GPU-core count and
/// unified-memory size the evidence or a sourced price has. An Apple GPU's memory is the GPU's
/// working set of the machine's unified memory (apple/unified_memory.hpp); its price and power are
/// the machine's (docs/catalog.md, "Apple silicon").
///
/// GPU clock 1398 MHz and L2 sizes (about 1.5 MiB M2, 512 KiB M2 Pro, 1 MiB M2 Max):
/// philipturner/metal-benchmarks README at dc2adc6; the M2 Ultra's L2 is taken as twice the M2
/// Max's, as the M1 Ultra's is twice the M1 Max's (not measured). Apple states 27.2 TFLOPS for the
/// 76-core M2 Ultra (Mac Pro product page, 2023), which 76 cores x 256 FLOP x 1398 MHz give.
/// Memory: LPDDR5-6400 on 128, 256, 512 and 1024 bits (Apple: 100, 200, 400 and 800 GB/s).
#pragma once

#include <dlperf/hardware/apple/arch/m2.hpp>
#include <dlperf/hardware/apple/mac.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// Apple M2 (8-core GPU, 8 GB). Price: MacBook Air (M2, 2022), the base configuration (8-core GPU,
/// 8 GB): $1,199 (Gadgets 360, 2022-06-06; on sale 2022-07-15). Power: 50 W, Mac mini (M2) under
/// full load, Apple's figure as macgadget.de reports it (2023-01-27).
inline constexpr gpu<apple_m2> m2_8c_8gb{apple::mac(
    {.id = "m2_8c_8gb",
     .name = "Apple M2 (8-core GPU, 8 GB)",
     .segment = segment::apple,
     .year = 2022,
     .sms = 8,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 128,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(1536),
     .tdp = watts(50),
     .host_link = {},
     .price = {dollars(1199), 2022, 7, price_kind::launch_msrp},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(8)})};

/// Apple M2 (10-core GPU, 24 GB). Price: $1,699: the 13-inch MacBook Pro (M2, 2022), whose $1,299
/// base has the 10-core GPU (SlashGear, 2022-06-14), with 24 GB for Apple's $400 step from 8 GB
/// (mutepc.com). Power: 50 W, Mac mini (M2) under full load, Apple's figure as macgadget.de reports
/// it (2023-01-27).
inline constexpr gpu<apple_m2> m2_10c_24gb{apple::mac(
    {.id = "m2_10c_24gb",
     .name = "Apple M2 (10-core GPU, 24 GB)",
     .segment = segment::apple,
     .year = 2022,
     .sms = 10,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 128,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(1536),
     .tdp = watts(50),
     .host_link = {},
     .price = {dollars(1699), 2022, 6, price_kind::launch_msrp},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(24)})};

/// Apple M2 Pro (16-core GPU, 32 GB). Price: $1,699: the Mac mini (M2 Pro, 2023), whose $1,299 base
/// has this chip (Trusted Reviews and Pocketnow, 2023-01-17), with 32 GB for Apple's $400 step from
/// 16 GB (mutepc.com). Power: 100 W, Mac mini (M2 Pro): macgadget.de (2023-01-27) reports Apple's
/// figures double the M2's 50 W.
inline constexpr gpu<apple_m2> m2_pro_16c_32gb{apple::mac(
    {.id = "m2_pro_16c_32gb",
     .name = "Apple M2 Pro (16-core GPU, 32 GB)",
     .segment = segment::apple,
     .year = 2023,
     .sms = 16,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 256,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(512),
     .tdp = watts(100),
     .host_link = {},
     .price = {dollars(1699), 2023, 1, price_kind::launch_msrp},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(32)})};

/// Apple M2 Pro (19-core GPU, 32 GB). Price: no price sourced for this configuration. Power: 100 W,
/// Mac mini (M2 Pro): macgadget.de (2023-01-27) reports Apple's figures double the M2's 50 W.
inline constexpr gpu<apple_m2> m2_pro_19c_32gb{apple::mac(
    {.id = "m2_pro_19c_32gb",
     .name = "Apple M2 Pro (19-core GPU, 32 GB)",
     .segment = segment::apple,
     .year = 2023,
     .sms = 19,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 256,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(512),
     .tdp = watts(100),
     .host_link = {},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(32)})};

/// Apple M2 Max (30-core GPU, 32 GB). Price: Mac Studio (2023), the base configuration (12-core
/// CPU, 30-core GPU, 32 GB): $1,999 (iMore; The Verge, 2023-06-05). Power: 145 W, Mac Studio M2 Max
/// maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m2> m2_max_30c_32gb{apple::mac(
    {.id = "m2_max_30c_32gb",
     .name = "Apple M2 Max (30-core GPU, 32 GB)",
     .segment = segment::apple,
     .year = 2023,
     .sms = 30,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 512,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(1024),
     .tdp = watts(145),
     .host_link = {},
     .price = {dollars(1999), 2023, 6, price_kind::launch_msrp},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(32)})};

/// Apple M2 Max (38-core GPU, 96 GB). Price: no US price sourced for the 38-core, 96 GB options.
/// Power: 145 W, Mac Studio M2 Max maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m2> m2_max_38c_96gb{apple::mac(
    {.id = "m2_max_38c_96gb",
     .name = "Apple M2 Max (38-core GPU, 96 GB)",
     .segment = segment::apple,
     .year = 2023,
     .sms = 38,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 512,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(1024),
     .tdp = watts(145),
     .host_link = {},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(96)})};

/// Apple M2 Ultra (60-core GPU, 64 GB). Price: Mac Studio (2023) with M2 Ultra, the base
/// configuration (60-core GPU, 64 GB): $3,999 (iMore, 2023-06). Power: 295 W, Mac Studio M2 Ultra
/// maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m2> m2_ultra_60c_64gb{apple::mac(
    {.id = "m2_ultra_60c_64gb",
     .name = "Apple M2 Ultra (60-core GPU, 64 GB)",
     .segment = segment::apple,
     .year = 2023,
     .sms = 60,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 1024,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(2048),
     .tdp = watts(295),
     .host_link = {},
     .price = {dollars(3999), 2023, 6, price_kind::launch_msrp},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(64)})};

/// Apple M2 Ultra (76-core GPU, 192 GB). Price: $6,599: the Mac Studio (2023)'s $3,999 M2 Ultra
/// base with the 76-core GPU (+$1,000) and 192 GB (+$1,600); the steps are theinfiniteloop.co.uk's
/// (2023-06-07, in pounds), and they agree with Android Authority's $8,799 top price (the same with
/// the $2,200 8 TB SSD) and Ars Technica's $6,999 with a 2 TB SSD. Power: 295 W, Mac Studio M2
/// Ultra maximum draw (support.apple.com 102027).
inline constexpr gpu<apple_m2> m2_ultra_76c_192gb{apple::mac(
    {.id = "m2_ultra_76c_192gb",
     .name = "Apple M2 Ultra (76-core GPU, 192 GB)",
     .segment = segment::apple,
     .year = 2023,
     .sms = 76,
     .base_clock = {},
     .boost_clock = megahertz(1398),
     .memory = {},  // apple::mac: the working set of unified_memory
     .memory_type = memory_kind::lpddr5,
     .bus_width_bits = 1024,
     .data_rate_gbps = 6.4,
     .l2 = kibibytes(2048),
     .tdp = watts(295),
     .host_link = {},
     .price = {dollars(6599), 2023, 6, price_kind::launch_msrp},
     .source = "Apple M2 family specifications; philipturner/metal-benchmarks (clocks, L2)",
     .unified_memory = gibibytes(192)})};

}  // namespace dlperf::catalog
