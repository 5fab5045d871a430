/// @file
/// Catalog: Turing GPUs (GTX 1650 SUPER, RTX 2060/2070/2080/2080 Ti, TITAN RTX, Tesla T4).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/turing.hpp>

namespace dlperf::catalog {

/// GeForce GTX 1650 SUPER (TU116-250, no tensor cores). Source: NVIDIA product page (November
/// 2019): 1280 cores, 1530/1725 MHz, 4 GB GDDR6 12 Gbps 128-bit, 100 W, $159; 1 MB L2 from the
/// TechPowerUp GPU database.
inline constexpr gpu<turing_tu11x> gtx_1650_super{
    {.id = "gtx_1650_super",
     .name = "NVIDIA GeForce GTX 1650 SUPER",
     .segment = segment::geforce,
     .year = 2019,
     .sms = 20,
     .base_clock = megahertz(1530),
     .boost_clock = megahertz(1725),
     .memory = gibibytes(4),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 128,
     .data_rate_gbps = 12.0,
     .l2 = mebibytes(1),
     .tdp = watts(100),
     .host_link = pcie_link(3, 16),
     .price = {dollars(159), 2019, 11, price_kind::launch_msrp},
     .source = "NVIDIA GeForce GTX 1650 SUPER product page (2019)"}};

/// GeForce RTX 2060 (TU106-200). Source: NVIDIA product page (January 2019): 1920 cores,
/// 240 tensor cores, 1365/1680 MHz, 6 GB GDDR6 14 Gbps 192-bit, 336 GB/s, 160 W, $349; 3 MB L2
/// from the TechPowerUp GPU database.
inline constexpr gpu<turing_tu10x> rtx_2060{
    {.id = "rtx_2060",
     .name = "NVIDIA GeForce RTX 2060",
     .segment = segment::geforce,
     .year = 2019,
     .sms = 30,
     .base_clock = megahertz(1365),
     .boost_clock = megahertz(1680),
     .memory = gibibytes(6),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 192,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(3),
     .tdp = watts(160),
     .host_link = pcie_link(3, 16),
     .price = {dollars(349), 2019, 1, price_kind::launch_msrp},
     .source = "NVIDIA GeForce RTX 2060 product page (2019)"}};

/// GeForce RTX 2070 (TU106-400), reference clocks. Source: NVIDIA Turing GPU Architecture
/// whitepaper (2018), Appendix A: 36 SMs, 1410/1620 MHz (Founders Edition 1710), 8 GB GDDR6
/// 14 Gbps 256-bit, 4 MB L2, 175 W; $499 (October 2018).
inline constexpr gpu<turing_tu10x> rtx_2070{
    {.id = "rtx_2070",
     .name = "NVIDIA GeForce RTX 2070",
     .segment = segment::geforce,
     .year = 2018,
     .sms = 36,
     .base_clock = megahertz(1410),
     .boost_clock = megahertz(1620),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(4),
     .tdp = watts(175),
     .host_link = pcie_link(3, 16),
     .price = {dollars(499), 2018, 10, price_kind::launch_msrp},
     .source = "NVIDIA Turing GPU Architecture whitepaper (2018), Appendix A"}};

/// GeForce RTX 2080 (TU104-400), reference clocks. Source: NVIDIA Turing GPU Architecture
/// whitepaper (2018), Appendix A: 46 SMs, 1515/1710 MHz (FE 1800), 8 GB GDDR6 14 Gbps 256-bit,
/// 4 MB L2, 215 W, NVLink 2 x8 (one link, 50 GB/s); $699 (September 2018).
inline constexpr gpu<turing_tu10x> rtx_2080{
    {.id = "rtx_2080",
     .name = "NVIDIA GeForce RTX 2080",
     .segment = segment::geforce,
     .year = 2018,
     .sms = 46,
     .base_clock = megahertz(1515),
     .boost_clock = megahertz(1710),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(4),
     .tdp = watts(215),
     .host_link = pcie_link(3, 16),
     .peer_link = {interconnect_kind::nvlink, 2, gigabytes_per_second(50)},
     .price = {dollars(699), 2018, 9, price_kind::launch_msrp},
     .source = "NVIDIA Turing GPU Architecture whitepaper (2018), Appendix A"}};

/// GeForce RTX 2080 Ti (TU102-300), reference clocks. Source: NVIDIA Turing GPU Architecture
/// whitepaper (2018), Table 1: 68 SMs, 1350/1545 MHz (FE 1635), 11 GB GDDR6 14 Gbps 352-bit,
/// 616 GB/s, 5632 KB L2, 250 W, NVLink 2 (two links, 100 GB/s); $999 (September 2018).
inline constexpr gpu<turing_tu10x> rtx_2080_ti{
    {.id = "rtx_2080_ti",
     .name = "NVIDIA GeForce RTX 2080 Ti",
     .segment = segment::geforce,
     .year = 2018,
     .sms = 68,
     .base_clock = megahertz(1350),
     .boost_clock = megahertz(1545),
     .memory = gibibytes(11),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 352,
     .data_rate_gbps = 14.0,
     .l2 = kibibytes(5632),
     .tdp = watts(250),
     .host_link = pcie_link(3, 16),
     .peer_link = {interconnect_kind::nvlink, 2, gigabytes_per_second(100)},
     .price = {dollars(999), 2018, 9, price_kind::launch_msrp},
     .source = "NVIDIA Turing GPU Architecture whitepaper (2018), Table 1"}};

/// NVIDIA TITAN RTX (TU102-400, full-rate FP32 accumulation). Source: NVIDIA TITAN RTX product
/// page (December 2018): 72 SMs, 576 tensor cores, 1350/1770 MHz, 24 GB GDDR6 14 Gbps 384-bit,
/// 672 GB/s, 6 MB L2, 280 W, NVLink 2 (100 GB/s), "130 Tensor TFLOPS", $2,499.
inline constexpr gpu<turing_tu10x> titan_rtx{
    {.id = "titan_rtx",
     .name = "NVIDIA TITAN RTX",
     .segment = segment::titan,
     .year = 2018,
     .sms = 72,
     .base_clock = megahertz(1350),
     .boost_clock = megahertz(1770),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 384,
     .data_rate_gbps = 14.0,
     .l2 = mebibytes(6),
     .tdp = watts(280),
     .host_link = pcie_link(3, 16),
     .peer_link = {interconnect_kind::nvlink, 2, gigabytes_per_second(100)},
     .price = {dollars(2499), 2018, 12, price_kind::launch_msrp},
     .source = "NVIDIA TITAN RTX product page (2018)"}};

/// Tesla T4 (TU104-895). Source: NVIDIA T4 datasheet (2018): 40 SMs, 320 tensor cores,
/// 585/1590 MHz, 16 GB GDDR6 10 Gbps 256-bit, 320 GB/s, 4 MB L2, 70 W; FP16 65 TFLOPS,
/// INT8 130 TOPS, INT4 260 TOPS, FP32 8.1 TFLOPS. NVIDIA published no list price; $2,200 at its
/// September 2018 release is the price third-party guides report
/// (https://www.rightnowai.co/guides/gpu-comparison/t4), so it is recorded as a price reported at
/// launch.
inline constexpr gpu<turing_tu10x> t4{
    {.id = "t4",
     .name = "NVIDIA Tesla T4",
     .segment = segment::datacenter,
     .year = 2018,
     .sms = 40,
     .base_clock = megahertz(585),
     .boost_clock = megahertz(1590),
     .memory = gibibytes(16),
     .memory_type = memory_kind::gddr6,
     .bus_width_bits = 256,
     .data_rate_gbps = 10.0,
     .l2 = mebibytes(4),
     .tdp = watts(70),
     .host_link = pcie_link(3, 16),
     .price = {dollars(2200), 2018, 9, price_kind::launch_reported},
     // Resale: GPU Poet's April 2026 market report (gpupoet.com; best deal, the average of the 3
     // cheapest eBay and Amazon listings): "the T4 ($202, 130 TOPS, 16GB)" (March)
     .street_price = {dollars(202), 2026, 3, price_kind::used},
     .source = "NVIDIA T4 datasheet (2018)",
     // At 70 W the T4 cannot hold its boost clock under tensor load: best square torch.mm FP16
     // 41.91 TFLOPS, 0.644 of 65.1 (zzc0721/torch-performance-test-data database, 2025).
     .gemm_efficiency = 0.644}};

}  // namespace dlperf::catalog
