/// @file
/// Catalog: Pascal GPUs (GTX 1070, GTX 1080, GTX 1080 Ti, TITAN Xp, Tesla P40, Tesla P100 SXM2).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/pascal.hpp>

namespace dlperf::catalog {

/// GeForce GTX 1070 (GP104-200). Source: NVIDIA GTX 1070 product page (2016): 1920 cores,
/// 1506/1683 MHz, 8 GB GDDR5 8 Gbps 256-bit, 150 W, $379 ($449 Founders Edition).
inline constexpr gpu<pascal_gp10x> gtx_1070{
    {.id = "gtx_1070",
     .name = "NVIDIA GeForce GTX 1070",
     .segment = segment::geforce,
     .year = 2016,
     .sms = 15,
     .base_clock = megahertz(1506),
     .boost_clock = megahertz(1683),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr5,
     .bus_width_bits = 256,
     .data_rate_gbps = 8.0,
     .l2 = mebibytes(2),
     .tdp = watts(150),
     .host_link = pcie_link(3, 16),
     .price = {dollars(379), 2016, 6, price_kind::launch_msrp},
     .source = "NVIDIA GeForce GTX 1070 product page (2016)"}};

/// GeForce GTX 1080 (GP104-400). Source: NVIDIA GTX 1080 product page and GP104 whitepaper
/// (2016): 2560 cores, 1607/1733 MHz, 8 GB GDDR5X 10 Gbps 256-bit, 320 GB/s, 180 W, $599.
inline constexpr gpu<pascal_gp10x> gtx_1080{
    {.id = "gtx_1080",
     .name = "NVIDIA GeForce GTX 1080",
     .segment = segment::geforce,
     .year = 2016,
     .sms = 20,
     .base_clock = megahertz(1607),
     .boost_clock = megahertz(1733),
     .memory = gibibytes(8),
     .memory_type = memory_kind::gddr5x,
     .bus_width_bits = 256,
     .data_rate_gbps = 10.0,
     .l2 = mebibytes(2),
     .tdp = watts(180),
     .host_link = pcie_link(3, 16),
     .price = {dollars(599), 2016, 5, price_kind::launch_msrp},
     .source = "NVIDIA GeForce GTX 1080 whitepaper (2016)"}};

/// GeForce GTX 1080 Ti (GP102-350). Source: NVIDIA Turing GPU Architecture whitepaper (2018),
/// Table 1, GTX 1080 Ti column: 28 SMs, 1480/1582 MHz, 11 GB GDDR5X 11 Gbps 352-bit, 484 GB/s,
/// 2816 KB L2, 250 W; launch price $699 (March 2017).
inline constexpr gpu<pascal_gp10x> gtx_1080_ti{
    {.id = "gtx_1080_ti",
     .name = "NVIDIA GeForce GTX 1080 Ti",
     .segment = segment::geforce,
     .year = 2017,
     .sms = 28,
     .base_clock = megahertz(1480),
     .boost_clock = megahertz(1582),
     .memory = gibibytes(11),
     .memory_type = memory_kind::gddr5x,
     .bus_width_bits = 352,
     .data_rate_gbps = 11.0,
     .l2 = kibibytes(2816),
     .tdp = watts(250),
     .host_link = pcie_link(3, 16),
     .price = {dollars(699), 2017, 3, price_kind::launch_msrp},
     .source = "NVIDIA Turing GPU Architecture whitepaper (2018), Table 1"}};

/// NVIDIA TITAN Xp (GP102-450, all 30 SMs). Source: NVIDIA TITAN Xp product page (April 2017):
/// 3840 cores, 1582 MHz boost, 12 GB GDDR5X 11.4 Gbps 384-bit, 547.7 GB/s, 250 W, $1,199; base
/// clock 1405 MHz from the TechPowerUp GPU database (NVIDIA lists only the boost clock).
inline constexpr gpu<pascal_gp10x> titan_xp{
    {.id = "titan_xp",
     .name = "NVIDIA TITAN Xp",
     .segment = segment::titan,
     .year = 2017,
     .sms = 30,
     .base_clock = megahertz(1405),
     .boost_clock = megahertz(1582),
     .memory = gibibytes(12),
     .memory_type = memory_kind::gddr5x,
     .bus_width_bits = 384,
     .data_rate_gbps = 11.4,
     .l2 = mebibytes(3),
     .tdp = watts(250),
     .host_link = pcie_link(3, 16),
     .price = {dollars(1199), 2017, 4, price_kind::launch_msrp},
     .source = "NVIDIA TITAN Xp product page (2017)"}};

/// NVIDIA Tesla P40 (GP102, all 30 SMs; no tensor cores, FP16 at 1/64 rate). Source: NVIDIA Tesla
/// P40 datasheet and product brief PB-08338-001 (November 2016,
/// https://images.nvidia.com/content/pdf/tesla/184427-Tesla-P40-Datasheet-NV-Final-Letter-Web.pdf):
/// 3840 cores, 24 GB GDDR5, 346 GB/s, 250 W passive, PCIe 3 x16, FP32 12 TFLOPS "with boost
/// clock", INT8 47 TOPS; 1303/1531 MHz, 384-bit at 7.2 Gbps, 3 MB L2 and the $5,699 launch price
/// (September 2016) from the TechPowerUp GPU database (NVIDIA published no price).
inline constexpr gpu<pascal_gp10x> tesla_p40{
    {.id = "tesla_p40",
     .name = "NVIDIA Tesla P40",
     .segment = segment::datacenter,
     .year = 2016,
     .sms = 30,
     .base_clock = megahertz(1303),
     .boost_clock = megahertz(1531),
     .memory = gibibytes(24),
     .memory_type = memory_kind::gddr5,
     .bus_width_bits = 384,
     .data_rate_gbps = 7.2,
     .l2 = mebibytes(3),
     .tdp = watts(250),
     .host_link = pcie_link(3, 16),
     .price = {dollars(5699), 2016, 9, price_kind::launch_reported},
     // Resale: https://localaimaster.com/blog/tesla-p40-local-llm: "often around $260-$330 as of
     // June 2026" (the midpoint)
     .street_price = {dollars(295), 2026, 6, price_kind::used},
     .source = "NVIDIA Tesla P40 datasheet (2016); TechPowerUp GPU database"}};

/// Tesla P100 SXM2 16 GB (GP100). Source: NVIDIA A100 Tensor Core GPU Architecture whitepaper
/// (2020), Table 3, P100 column: 56 SMs, 1480 MHz boost, 16 GB HBM2 4096-bit at 703 MHz DDR,
/// 720 GB/s, 4096 KB L2, 300 W; base 1328 MHz and NVLink 1 (4 links, 160 GB/s): NVIDIA Tesla
/// P100 whitepaper (2016). NVIDIA published no per-card price (at launch the P100 shipped only in
/// the DGX-1, $129,000 for eight:
/// https://www.treddi.com/cms/news/gtc-2016-nvidia-tesla-p100-150-miliardi-di-transistor-per-il-gpu-rendering/2947/,
/// April 2016), so the launch price is that system's per GPU, $129,000 / 8 = $16,125
/// (`system_share`: it includes the DGX-1's host). Street price: the used price of an SXM2
/// module, $100-150 (midpoint $125), from
/// https://gpudojo-v2.pages.dev/articles/tesla-p100-16gb-ai-review (February 2026).
inline constexpr gpu<pascal_gp100> p100_sxm2{
    {.id = "p100_sxm2",
     .name = "NVIDIA Tesla P100 SXM2 16 GB",
     .segment = segment::datacenter,
     .year = 2016,
     .sms = 56,
     .base_clock = megahertz(1328),
     .boost_clock = megahertz(1480),
     .memory = gibibytes(16),
     .memory_type = memory_kind::hbm2,
     .bus_width_bits = 4096,
     .data_rate_gbps = 1.406,
     .l2 = mebibytes(4),
     .tdp = watts(300),
     .host_link = pcie_link(3, 16),
     .peer_link = {interconnect_kind::nvlink, 1, gigabytes_per_second(160)},
     .price = {dollars(129000.0 / 8), 2016, 4, price_kind::system_share},
     .street_price = {dollars(125), 2026, 2, price_kind::used},
     .source = "NVIDIA A100 whitepaper (2020), Table 3; Tesla P100 whitepaper (2016)",
     .form = form_factor::mezzanine}};

}  // namespace dlperf::catalog
