/// @file
/// Catalog: Blackwell GPUs (B200, RTX 5090).
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
/// CNBC, March 2024, at the launch; midpoint $35,000, `launch_reported`).
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
     .source = "NVIDIA HGX B200 datasheet (2024); SM count and clocks inferred"}};

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
     .source = "NVIDIA RTX Blackwell GPU Architecture whitepaper v1.1 (2025), Appendix A"}};

}  // namespace dlperf::catalog
