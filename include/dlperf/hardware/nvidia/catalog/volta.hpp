/// @file
/// Catalog: Volta GPUs (Tesla V100 SXM2, TITAN V).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/volta.hpp>

namespace dlperf::catalog {

/// Tesla V100 SXM2 16 GB (GV100; the 32 GB board of 2018 has the same compute and bandwidth).
/// Source: NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 3, V100 column:
/// 80 SMs, 1530 MHz boost, 16 GB HBM2 4096-bit at 877.5 MHz DDR, 900 GB/s, 6144 KB L2, 300 W;
/// NVLink 2 (6 links, 300 GB/s): Tesla V100 whitepaper (2017). Base clock not published by
/// NVIDIA. NVIDIA published no per-card price (the DGX-1 with eight V100s launched at $149,000:
/// https://www.tweaktown.com/news/57488/nvidia-tesla-v100-single-slot-150w-dual-300w/index.html,
/// May 2017), so the launch price is that system's per GPU, $149,000 / 8 = $18,625
/// (`system_share`). Street price: the used price of a 16 GB SXM2 module after Summit's
/// decommissioning, "as low as around 400 RMB (~56 USD)" in China, r/LocalLLaMA post 1nokzcf
/// (September 2025, read through https://redlib.deleted.directory/, a Reddit mirror).
inline constexpr gpu<volta_gv100> v100_sxm2{
    {.id = "v100_sxm2",
     .name = "NVIDIA Tesla V100 SXM2 16 GB",
     .segment = segment::datacenter,
     .year = 2017,
     .sms = 80,
     .base_clock = {},
     .boost_clock = megahertz(1530),
     .memory = gibibytes(16),
     .memory_type = memory_kind::hbm2,
     .bus_width_bits = 4096,
     .data_rate_gbps = 1.755,
     .l2 = mebibytes(6),
     .tdp = watts(300),
     .host_link = pcie_link(3, 16),
     .peer_link = {interconnect_kind::nvlink, 2, gigabytes_per_second(300)},
     .price = {dollars(149000.0 / 8), 2017, 5, price_kind::system_share},
     .street_price = {dollars(56), 2025, 9, price_kind::used},
     .source = "NVIDIA A100 whitepaper (2020), Table 3; Tesla V100 whitepaper (2017)",
     .form = form_factor::mezzanine}};

/// NVIDIA TITAN V (GV100-400). Source: NVIDIA TITAN V product page (December 2017): 5120 cores
/// (80 SMs), 640 tensor cores, 1200/1455 MHz, 12 GB HBM2 3072-bit at 1.7 Gbps (652.8 GB/s),
/// 4.5 MB L2, 250 W, $2,999. NVIDIA's "110 TFLOPS" deep-learning figure implies about 1343 MHz,
/// not the 1455 MHz boost clock (see tests/unit/hardware/catalog_test.cpp).
inline constexpr gpu<volta_gv100> titan_v{
    {.id = "titan_v",
     .name = "NVIDIA TITAN V",
     .segment = segment::titan,
     .year = 2017,
     .sms = 80,
     .base_clock = megahertz(1200),
     .boost_clock = megahertz(1455),
     .memory = gibibytes(12),
     .memory_type = memory_kind::hbm2,
     .bus_width_bits = 3072,
     .data_rate_gbps = 1.7,
     .l2 = kibibytes(4608),
     .tdp = watts(250),
     .host_link = pcie_link(3, 16),
     .price = {dollars(2999), 2017, 12, price_kind::launch_msrp},
     .source = "NVIDIA TITAN V product page (2017)"}};

}  // namespace dlperf::catalog
