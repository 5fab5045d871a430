/// @file
/// Catalog: Apple M3, M3 Pro, M3 Max and M3 Ultra (2023-2025), one entry per GPU-core count and
/// unified-memory size the evidence or a sourced price has. An Apple GPU's memory is the GPU's
/// working set of the machine's unified memory (apple/unified_memory.hpp); its price and power are
/// the machine's (docs/catalog.md, "Apple silicon").
///
/// Apple publishes neither the M3 GPU's clock nor its FP32 rate; 1398 MHz is the figure of
/// hmc-tech.com's GPU database (M3, M3 Pro and M3 Max), not Apple's or a measurement, and the L2
/// sizes are the M2 family's (not measured). Memory: LPDDR5-6400 on 128 (M3), 192 (M3 Pro), 384
/// (30-core M3 Max), 512 (40-core M3 Max) and 1024 bits (M3 Ultra): Apple's 100, 150, 300, 400 and
/// "over 800" GB/s (MacRumors, 2023-10-31; Apple Newsroom, 2025-03-05).
#pragma once

#include <dlperf/hardware/apple/arch/m3.hpp>
#include <dlperf/hardware/apple/mac.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// Apple M3 (10-core GPU, 16 GB). Price: $1,799: the 14-inch MacBook Pro (M3, 2023), whose $1,599
/// base has this chip with 8 GB (meterpreter.org), with 16 GB for Apple's $200 step (mutepc.com).
/// Power: 50 W, none published; the M2 Mac mini's 50 W assumed.
inline constexpr gpu<apple_m3> m3_10c_16gb{
    apple::mac({.id = "m3_10c_16gb",
                .name = "Apple M3 (10-core GPU, 16 GB)",
                .segment = segment::apple,
                .year = 2023,
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
                .price = {dollars(1799), 2023, 11, price_kind::launch_msrp},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(16)})};

/// Apple M3 Pro (14-core GPU, 18 GB). Price: 14-inch MacBook Pro (M3 Pro, 2023), the base
/// configuration (11-core CPU, 14-core GPU, 18 GB): $1,999 (MacRumors buyer's guide; Daring
/// Fireball, 2023-11). Power: 100 W, none published; the M2 Pro Mac mini's 100 W assumed.
inline constexpr gpu<apple_m3> m3_pro_14c_18gb{
    apple::mac({.id = "m3_pro_14c_18gb",
                .name = "Apple M3 Pro (14-core GPU, 18 GB)",
                .segment = segment::apple,
                .year = 2023,
                .sms = 14,
                .base_clock = {},
                .boost_clock = megahertz(1398),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5,
                .bus_width_bits = 192,
                .data_rate_gbps = 6.4,
                .l2 = kibibytes(512),
                .tdp = watts(100),
                .host_link = {},
                .price = {dollars(1999), 2023, 11, price_kind::launch_msrp},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(18)})};

/// Apple M3 Pro (18-core GPU, 36 GB). Price: no price sourced for this configuration. Power: 100 W,
/// none published; the M2 Pro Mac mini's 100 W assumed.
inline constexpr gpu<apple_m3> m3_pro_18c_36gb{
    apple::mac({.id = "m3_pro_18c_36gb",
                .name = "Apple M3 Pro (18-core GPU, 36 GB)",
                .segment = segment::apple,
                .year = 2023,
                .sms = 18,
                .base_clock = {},
                .boost_clock = megahertz(1398),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5,
                .bus_width_bits = 192,
                .data_rate_gbps = 6.4,
                .l2 = kibibytes(512),
                .tdp = watts(100),
                .host_link = {},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(36)})};

/// Apple M3 Max (30-core GPU, 36 GB). Price: $3,200: the 14-inch MacBook Pro's M3 Max base as
/// Daring Fireball gives it (rounded, November 2023). Power: 145 W, none published; the M2 Max Mac
/// Studio's 145 W assumed.
inline constexpr gpu<apple_m3> m3_max_30c_36gb{
    apple::mac({.id = "m3_max_30c_36gb",
                .name = "Apple M3 Max (30-core GPU, 36 GB)",
                .segment = segment::apple,
                .year = 2023,
                .sms = 30,
                .base_clock = {},
                .boost_clock = megahertz(1398),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5,
                .bus_width_bits = 384,
                .data_rate_gbps = 6.4,
                .l2 = kibibytes(1024),
                .tdp = watts(145),
                .host_link = {},
                .price = {dollars(3200), 2023, 11, price_kind::launch_reported},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(36)})};

/// Apple M3 Max (40-core GPU, 48 GB), the machine of XDAI-LLAMA2's M3 Max rows (which publish no
/// prompt or generated length, so are not run). Price: no price sourced for this configuration.
/// Power: 145 W, none published; the M2 Max Mac Studio's 145 W assumed.
inline constexpr gpu<apple_m3> m3_max_40c_48gb{
    apple::mac({.id = "m3_max_40c_48gb",
                .name = "Apple M3 Max (40-core GPU, 48 GB)",
                .segment = segment::apple,
                .year = 2023,
                .sms = 40,
                .base_clock = {},
                .boost_clock = megahertz(1398),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5,
                .bus_width_bits = 512,
                .data_rate_gbps = 6.4,
                .l2 = kibibytes(1024),
                .tdp = watts(145),
                .host_link = {},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(48)})};

/// Apple M3 Max (40-core GPU, 64 GB). Price: no price sourced for this configuration. Power: 145 W,
/// none published; the M2 Max Mac Studio's 145 W assumed.
inline constexpr gpu<apple_m3> m3_max_40c_64gb{
    apple::mac({.id = "m3_max_40c_64gb",
                .name = "Apple M3 Max (40-core GPU, 64 GB)",
                .segment = segment::apple,
                .year = 2023,
                .sms = 40,
                .base_clock = {},
                .boost_clock = megahertz(1398),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5,
                .bus_width_bits = 512,
                .data_rate_gbps = 6.4,
                .l2 = kibibytes(1024),
                .tdp = watts(145),
                .host_link = {},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(64)})};

/// Apple M3 Ultra (60-core GPU, 96 GB). Price: Mac Studio (2025) with M3 Ultra, the base
/// configuration (28-core CPU, 60-core GPU, 96 GB): $3,999 (Macworld; Six Colors, 2025-03-05).
/// Power: 295 W, none published; the M2 Ultra Mac Studio's 295 W assumed (Jeff Geerling measured
/// 260 W at the wall running llama-bench on an M3 Ultra, geerlingguy/beowulf-ai-cluster issue 17).
inline constexpr gpu<apple_m3> m3_ultra_60c_96gb{
    apple::mac({.id = "m3_ultra_60c_96gb",
                .name = "Apple M3 Ultra (60-core GPU, 96 GB)",
                .segment = segment::apple,
                .year = 2025,
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
                .price = {dollars(3999), 2025, 3, price_kind::launch_msrp},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(96)})};

/// Apple M3 Ultra (80-core GPU, 512 GB). Price: $9,499: the Mac Studio (2025) as Jeff Geerling
/// tested it, $11,699 with an 8 TB SSD (geerlingguy/sbc-reviews issue 95), less $2,200 for the 8 TB
/// SSD, the step TechRadar gave for the 2022 Mac Studio, assumed unchanged. Power: 295 W, none
/// published; the M2 Ultra Mac Studio's 295 W assumed (Jeff Geerling measured 260 W at the wall
/// running llama-bench on an M3 Ultra, geerlingguy/beowulf-ai-cluster issue 17).
inline constexpr gpu<apple_m3> m3_ultra_80c_512gb{
    apple::mac({.id = "m3_ultra_80c_512gb",
                .name = "Apple M3 Ultra (80-core GPU, 512 GB)",
                .segment = segment::apple,
                .year = 2025,
                .sms = 80,
                .base_clock = {},
                .boost_clock = megahertz(1398),
                .memory = {},  // apple::mac: the working set of unified_memory
                .memory_type = memory_kind::lpddr5,
                .bus_width_bits = 1024,
                .data_rate_gbps = 6.4,
                .l2 = kibibytes(2048),
                .tdp = watts(295),
                .host_link = {},
                .price = {dollars(9499), 2025, 3, price_kind::launch_msrp},
                .source = "Apple M3 family specifications; hmc-tech.com (clock, not Apple's)",
                .unified_memory = gibibytes(512)})};

}  // namespace dlperf::catalog
