/// @file
/// Catalog: CDNA 3 GPUs (Instinct MI300X, MI325X, MI300A).
#pragma once

#include <dlperf/hardware/amd/arch/cdna3.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// AMD Instinct MI300X OAM (8 XCDs, 304 CUs). Source: AMD Instinct MI300X datasheet
/// (https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/
/// amd-instinct-mi300x-data-sheet.pdf): peak engine clock 2100 MHz, 192 GB HBM3, 8192-bit at
/// 5.2 Gbit/s per pin, 5.3 TB/s, 750 W, PCIe 5 x16, 7 Infinity Fabric links of 128 GB/s (896 GB/s
/// peak aggregate); L2 4 MB per XCD (32 MB) and 256 MB Infinity Cache with 17.2 TB/s peak
/// bandwidth (AMD CDNA 3 white paper). AMD publishes no list price. Launch price: "between
/// $10,000 and 15,000" per card (Citi, C. Danely, February 2024, two months after the launch;
/// https://www.svethardware.cz/ai-akceleratory-nvidia-h100-pry-stoji-2krat-mozna-az-6krat-vice-nez-amd-mi300/60384),
/// midpoint $12,500 (`launch_reported`). Street price about $15,000 (Hugging Face hardware page
/// https://huggingface.co/hardware/mi300, 2024).
inline constexpr gpu<cdna3> mi300x{
    {.id = "mi300x",
     .name = "AMD Instinct MI300X",
     .segment = segment::datacenter,
     .year = 2023,
     .sms = 304,
     .base_clock = {},
     .boost_clock = megahertz(2100),
     .memory = gibibytes(192),
     .memory_type = memory_kind::hbm3,
     .bus_width_bits = 8192,
     .data_rate_gbps = 5.2,
     .l2 = mebibytes(32),
     .llc = mebibytes(256),
     .llc_bandwidth = gigabytes_per_second(17200),
     .tdp = watts(750),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::infinity_fabric, 4, gigabytes_per_second(896)},
     .price = {dollars(12500), 2024, 2, price_kind::launch_reported},
     .street_price = {dollars(15000), 2024, 6, price_kind::street},
     .source = "AMD Instinct MI300X datasheet; CDNA 3 white paper",
     .form = form_factor::mezzanine}};

/// AMD Instinct MI325X OAM (MI300X compute with HBM3e). Source: AMD Instinct MI325X datasheet
/// (https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/product-briefs/
/// instinct-mi325x-datasheet.pdf): peak engine clock 2100 MHz, 304 CUs, 256 GB HBM3e, 6 TB/s
/// peak memory bandwidth over 8192 bits (5.86 Gbit/s per pin), 1000 W, PCIe 5 x16, Infinity
/// Fabric 896 GB/s; same compute peaks as MI300X (FP16/BF16 1307.4 TFLOPS, FP8 2614.9); L2 and
/// Infinity Cache as MI300X. No public price: no launch or market figure with a
/// source was found (docs/catalog.md, "Prices").
inline constexpr gpu<cdna3> mi325x{
    {.id = "mi325x",
     .name = "AMD Instinct MI325X",
     .segment = segment::datacenter,
     .year = 2024,
     .sms = 304,
     .base_clock = {},
     .boost_clock = megahertz(2100),
     .memory = gibibytes(256),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 8192,
     .data_rate_gbps = 5.86,
     .l2 = mebibytes(32),
     .llc = mebibytes(256),
     .llc_bandwidth = gigabytes_per_second(17200),
     .tdp = watts(1000),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::infinity_fabric, 4, gigabytes_per_second(896)},
     .source = "AMD Instinct MI325X datasheet",
     // At 1000 W the MI325X holds a higher clock under dense MFMA load than the 750 W MI300X
     // (median 1447 against 1207 MHz for BF16 in AMD's "Measuring Max-Achievable FLOPs - Part 2",
     // ROCm blogs, 2025): torch.mm BF16 13312x10240x8192 at 784.9 TFLOPS, 0.600 of 1307.4
     // (ml-engineering MAMF v2 table, torch 2.6.0 + ROCm 6.2.4, TunableOp), for every type.
     .gemm_efficiency = 0.600,
     .form = form_factor::mezzanine}};

/// AMD Instinct MI300A APU (6 XCDs, 228 CUs, with 24 Zen 4 cores on the same package). Source: AMD
/// Instinct MI300A data sheet (December 2023), as quoted by vengineer.hatenablog.com (11 December
/// 2023): peak engine clock 2100 MHz, FP16/BF16 980.6 TFLOPS, FP32 matrix 122.6 TFLOPS, INT8
/// 1.96 POPS; 128 GB HBM3 in 8 stacks (8192-bit at 5.2 Gbit/s, 5.3 TB/s; Tom's Hardware, December
/// 2023), shared with the CPU cores; 550 W (air-cooled rating); L2 4 MB per XCD (24 MB) and the
/// MI300 family's 256 MB Infinity Cache with 17.2 TB/s peak (CDNA 3 white paper). Infinity Fabric
/// peer links are not modelled (no per-link figure in the sources). No public price: AMD published
/// none and no dated figure was found.
inline constexpr gpu<cdna3> mi300a{{.id = "mi300a",
                                    .name = "AMD Instinct MI300A",
                                    .segment = segment::datacenter,
                                    .year = 2023,
                                    .sms = 228,
                                    .base_clock = {},
                                    .boost_clock = megahertz(2100),
                                    .memory = gibibytes(128),
                                    .memory_type = memory_kind::hbm3,
                                    .bus_width_bits = 8192,
                                    .data_rate_gbps = 5.2,
                                    .l2 = mebibytes(24),
                                    .llc = mebibytes(256),
                                    .llc_bandwidth = gigabytes_per_second(17200),
                                    .tdp = watts(550),
                                    .host_link = pcie_link(5, 16),
                                    .source = "AMD Instinct MI300A data sheet (2023)",
                                    .form = form_factor::mezzanine}};

}  // namespace dlperf::catalog
