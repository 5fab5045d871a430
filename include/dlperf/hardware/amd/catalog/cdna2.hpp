/// @file
/// Catalog: CDNA 2 GPUs (Instinct MI250X, MI210).
#pragma once

#include <dlperf/hardware/amd/arch/cdna2.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::catalog {

/// AMD Instinct MI250X OAM (two GCDs, 220 CUs, seen here as one device). Source: AMD Instinct
/// MI250X datasheet (https://www.amd.com/content/dam/amd/en/documents/instinct-business-docs/
/// product-briefs/instinct-mi250x-data-sheet.pdf): peak engine clock 1700 MHz, 128 GB HBM2e,
/// 8192-bit at 1.6 GHz (3.2 Gbit/s per pin), 3.2768 TB/s, 560 W peak board power, PCIe 4 x16,
/// up to 8 Infinity Fabric links with 800 GB/s peak aggregate; L2 8 MB per GCD (ROCm GPU
/// hardware specifications); no Infinity Cache. No public price: no launch or market
/// figure with a source was found (docs/catalog.md, "Prices").
inline constexpr gpu<cdna2> mi250x{
    {.id = "mi250x",
     .name = "AMD Instinct MI250X",
     .segment = segment::datacenter,
     .year = 2021,
     .sms = 220,
     .base_clock = {},
     .boost_clock = megahertz(1700),
     .memory = gibibytes(128),
     .memory_type = memory_kind::hbm2e,
     .bus_width_bits = 8192,
     .data_rate_gbps = 3.2,
     .l2 = mebibytes(16),
     .tdp = watts(560),
     .host_link = pcie_link(4, 16),
     .peer_link = {interconnect_kind::infinity_fabric, 3, gigabytes_per_second(800)},
     .source = "AMD Instinct MI250X datasheet",
     .form = form_factor::mezzanine}};

/// AMD Instinct MI210 (one CDNA 2 GCD, 104 CUs, PCIe card). Source: AMD launch specifications as
/// tabulated by AnandTech ("AMD Releases Instinct MI210 Accelerator: CDNA 2 On a PCIe Card",
/// R. Smith, 22 March 2022, https://www.anandtech.com/show/17326): 1700 MHz boost, 64 GB HBM2e
/// 4096-bit at 3.2 Gbit/s (1.6 TB/s), 300 W, PCIe 4, 3 Infinity Fabric links; FP16/BF16 matrix
/// 181 TFLOPS, INT8 181 TOPS, FP32 matrix 45.3 TFLOPS; L2 8 MB (one GCD, ROCm GPU hardware
/// specifications). Its Infinity Fabric bridge bandwidth is not modelled (no per-link figure in
/// the source). No public price: AMD published none and no dated figure was found.
inline constexpr gpu<cdna2> mi210{
    {.id = "mi210",
     .name = "AMD Instinct MI210",
     .segment = segment::datacenter,
     .year = 2022,
     .sms = 104,
     .base_clock = {},
     .boost_clock = megahertz(1700),
     .memory = gibibytes(64),
     .memory_type = memory_kind::hbm2e,
     .bus_width_bits = 4096,
     .data_rate_gbps = 3.2,
     .l2 = mebibytes(8),
     .tdp = watts(300),
     .host_link = pcie_link(4, 16),
     .source = "AMD MI210 launch specifications (AnandTech, March 2022)"}};

}  // namespace dlperf::catalog
