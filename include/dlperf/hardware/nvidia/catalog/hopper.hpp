/// @file
/// Catalog: Hopper GPUs (H100 PCIe, H100 SXM5, H800 SXM5, H20, H100 NVL, H200 SXM, H200 NVL).
#pragma once

#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/nvidia/arch/hopper.hpp>

namespace dlperf::catalog {

/// NVIDIA H100 PCIe 80 GB (GH100, 114 SMs). Source: NVIDIA H100 Tensor Core GPU Architecture
/// whitepaper v1.04 (2023), Table 3: boost 1755 MHz for FP32/FP64 and 1620 MHz for FP8/FP16/
/// BF16/TF32 tensor operations (confirmed by NVIDIA on the developer forum), 80 GB HBM2e 5120-bit
/// at 1593 MHz DDR, 2039 GB/s, 50 MB L2, 350 W, PCIe 5, NVLink 4 bridge (600 GB/s). Street price
/// about $25,000-30,000 (2023 reports); base clock not published by NVIDIA.
inline constexpr gpu<hopper_gh100> h100_pcie{
    {.id = "h100_pcie",
     .name = "NVIDIA H100 PCIe 80 GB",
     .segment = segment::datacenter,
     .year = 2022,
     .sms = 114,
     .base_clock = {},
     .boost_clock = megahertz(1755),
     .tensor_clock = megahertz(1620),
     .memory = gibibytes(80),
     .memory_type = memory_kind::hbm2e,
     .bus_width_bits = 5120,
     .data_rate_gbps = 3.186,
     .l2 = mebibytes(50),
     .tdp = watts(350),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(600)},
     .price = {dollars(27500), 2023, 6, price_kind::street},
     // Resale: GPU Poet's September 2026 market report (gpupoet.com; best deal, the average of the
     // 3 cheapest eBay and Amazon listings): "the H100 PCIe eased 6% to about $26.0K" (August)
     .street_price = {dollars(26000), 2026, 8, price_kind::used},
     .source = "NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04 (2023), Table 3",
     // At 350 W the PCIe board cannot hold its tensor clock: torch.mm BF16 8192^3 runs at
     // 492.84 TFLOPS, 0.652 of 756.4 (zzc0721/torch-performance-test-data issue 95, 2025).
     .gemm_efficiency = 0.652}};

/// The SM clock a GH100 board of 700 W holds under minutes of back-to-back dense BF16 GEMMs at
/// that default limit (NVML: "SW Power Cap" active, 690-693 W drawn), where its tensor peak is
/// quoted at 1830 MHz. Measured on a lent H200 SXM on 2026-11-28 (tools/measure/
/// sustained_clocks.py, tests/data/measured/h200_sxm_sustained_2026-11-28.json,
/// docs/calibration.md "Clocks under sustained load"): 8192^3 products settle within 0.2 s at
/// 1470 MHz (2048^3 to 16384^3: 1440-1755; FP16 1425, TF32 1515, FP8 1350), a SwiGLU MLP's
/// training steps at 1500. Stas Bekman's ml-engineering MSMF table (mamf-finder, branch
/// fast-mamf at 082816f, compute/accelerator/README.md, 2026-08) measured 1465 MHz (BF16) and 1374
/// (FP8) on another H200 SXM. No H100 SXM5 figure is published; the H100 SXM5 boards take the
/// H200's, the same die at the same clocks and limit (their HBM3 draws somewhat less than HBM3e,
/// so they may hold a little more).
inline constexpr frequency gh100_700w_sustained_tensor_clock = megahertz(1470);
/// The same under FP8 products (torch._scaled_mm 8192^3 on the lent H200: 1350 MHz at 693 W;
/// MSMF 1374 on Stas Bekman's).
inline constexpr frequency gh100_700w_sustained_fp8_tensor_clock = megahertz(1350);

/// NVIDIA H100 SXM5 80 GB (GH100, 132 SMs). Source: NVIDIA H100 Tensor Core GPU Architecture
/// whitepaper v1.04 (2023), Tables 1 and 3: boost 1980 MHz for FP32/FP64 and 1830 MHz for tensor
/// operations, 80 GB HBM3 5120-bit at 2619 MHz DDR, 3352 GB/s, 50 MB L2, 700 W, PCIe 5, NVLink 4
/// (18 links, 900 GB/s). Street price about $25,000-30,000 (2023 reports).
inline constexpr gpu<hopper_gh100> h100_sxm{
    {.id = "h100_sxm",
     .name = "NVIDIA H100 SXM5 80 GB",
     .segment = segment::datacenter,
     .year = 2022,
     .sms = 132,
     .base_clock = {},
     .boost_clock = megahertz(1980),
     .tensor_clock = megahertz(1830),
     .memory = gibibytes(80),
     .memory_type = memory_kind::hbm3,
     .bus_width_bits = 5120,
     .data_rate_gbps = 5.238,
     .l2 = mebibytes(50),
     .tdp = watts(700),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .price = {dollars(27500), 2023, 6, price_kind::street},
     .source = "NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04 (2023), Tables 1, 3",
     .sustained_tensor_clock = gh100_700w_sustained_tensor_clock,
     .sustained_fp8_tensor_clock = gh100_700w_sustained_fp8_tensor_clock,
     .form = form_factor::mezzanine}};

/// NVIDIA H800 SXM5 80 GB (GH100; the H100 SXM5 for the Chinese market, March 2023). It keeps the
/// H100 SXM5's SMs, clocks, HBM3 and 700 W; NVLink is cut to 400 GB/s (from 900) and FP64 to about
/// 1 TFLOPS (not a datatype dlperf models). NVIDIA's H800 page is withdrawn; the cuts are as
/// reported at launch (aiwiki.ai/wiki/nvidia_h800; philisun.com's H800 comparison). No price was
/// published.
inline constexpr gpu<hopper_gh100> h800_sxm{
    {.id = "h800_sxm",
     .name = "NVIDIA H800 SXM5 80 GB",
     .segment = segment::datacenter,
     .year = 2023,
     .sms = h100_sxm.facts().sms,
     .base_clock = h100_sxm.facts().base_clock,
     .boost_clock = h100_sxm.facts().boost_clock,
     .tensor_clock = h100_sxm.facts().tensor_clock,
     .memory = h100_sxm.facts().memory,
     .memory_type = h100_sxm.facts().memory_type,
     .bus_width_bits = h100_sxm.facts().bus_width_bits,
     .data_rate_gbps = h100_sxm.facts().data_rate_gbps,
     .l2 = h100_sxm.facts().l2,
     .tdp = h100_sxm.facts().tdp,
     .host_link = h100_sxm.facts().host_link,
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(400)},
     .source = "H800 launch reports (2023): the H100 SXM5 with 400 GB/s NVLink",
     .sustained_tensor_clock = h100_sxm.facts().sustained_tensor_clock,
     .sustained_fp8_tensor_clock = h100_sxm.facts().sustained_fp8_tensor_clock,
     .form = form_factor::mezzanine}};

/// NVIDIA H100 SXM 96 GB HBM2e: the custom H100 of Meta's Grand Teton servers, on which torchtitan
/// published its benchmarks (github.com/pytorch/torchtitan, docs/performance.md and
/// benchmarks/llama3_h100_202412_torchtitan.md, 2024-12: "Each H100 GPU is equipped with 96GB
/// HBM2e with 2.4 TB/sec peak memory bandwidth", run at "the default 500W power limit, although
/// tuning it up to 700W TDP can potentially provide further speedups"; eight a host, fully
/// connected with NVLink). The TorchTitan paper (arXiv 2410.06511) adds that the boards are
/// "limited to a lower TDP" and that their peak "should be between SXM and NVL": no clock is
/// published, so the SMs and clocks are the H100 SXM5's (the upper end of that range: the
/// model stays a ceiling). Six HBM2e stacks of 16 GB (6144-bit), as 96 GB implies, at 3.125
/// Gbit/s per pin give the 2.4 TB/s. Not sold: no price.
inline constexpr gpu<hopper_gh100> h100_sxm_96gb{
    {.id = "h100_sxm_96gb",
     .name = "NVIDIA H100 SXM 96 GB HBM2e (Meta Grand Teton)",
     .segment = segment::datacenter,
     .year = 2023,
     .sms = h100_sxm.facts().sms,
     .base_clock = h100_sxm.facts().base_clock,
     .boost_clock = h100_sxm.facts().boost_clock,
     .tensor_clock = h100_sxm.facts().tensor_clock,
     .memory = gibibytes(96),
     .memory_type = memory_kind::hbm2e,
     .bus_width_bits = 6144,
     .data_rate_gbps = 3.125,
     .l2 = h100_sxm.facts().l2,
     .tdp = watts(700),
     .host_link = h100_sxm.facts().host_link,
     .peer_link = h100_sxm.facts().peer_link,
     .source = "torchtitan docs/performance.md (2024-12) and arXiv 2410.06511: 96 GB HBM2e at "
               "2.4 TB/s, 700 W TDP, NVLink; SMs and clocks the H100 SXM5's (none published)",
     .sustained_tensor_clock = h100_sxm.facts().sustained_tensor_clock,
     .sustained_fp8_tensor_clock = h100_sxm.facts().sustained_fp8_tensor_clock,
     .form = form_factor::mezzanine}};

/// NVIDIA H200 SXM 141 GB (GH100 with HBM3e). Source: NVIDIA H200 datasheet (2024): compute as
/// H100 SXM (989 TFLOPS FP16 dense), 141 GB HBM3e, 4.8 TB/s, up to 700 W, NVLink 4 (900 GB/s),
/// PCIe 5; six stacks (6144-bit), so 6.25 Gbit/s per pin gives the 4.8 TB/s. Street price about
/// $30,000-40,000 (2024 reports). L2: 60 MiB, the full GH100's (the H100 SXM enables 50): the CUDA
/// runtime reports l2CacheSize 62914560 on an H200 SXM (dlperf calibrate on a lent H200,
/// 2026-11-27, docs/calibration.md), which the datasheet does not state.
inline constexpr gpu<hopper_gh100> h200_sxm{
    {.id = "h200_sxm",
     .name = "NVIDIA H200 SXM 141 GB",
     .segment = segment::datacenter,
     .year = 2024,
     .sms = 132,
     .base_clock = {},
     .boost_clock = megahertz(1980),
     .tensor_clock = megahertz(1830),
     .memory = gibibytes(141),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 6144,
     .data_rate_gbps = 6.25,
     .l2 = mebibytes(60),
     .tdp = watts(700),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .price = {dollars(35000), 2024, 6, price_kind::street},
     .source = "NVIDIA H200 Tensor Core GPU datasheet (2024); L2 as the CUDA runtime reports it; "
               "sustained tensor clock measured (2026-11-28)",
     .sustained_tensor_clock = gh100_700w_sustained_tensor_clock,
     .sustained_fp8_tensor_clock = gh100_700w_sustained_fp8_tensor_clock,
     .form = form_factor::mezzanine}};

/// NVIDIA H20 96 GB (GH100 with 78 SMs at a quarter of the tensor rate per SM, HGX board for the
/// Chinese market, 2024; see hopper_gh100_quarter_tensor). No NVIDIA datasheet is public. Sources:
/// NVIDIA's spec table as Tom's Hardware printed it from Chinese retailers' listings ("New Nvidia
/// AI GPUs designed to get around US export bans come to China: H20, L20 and L2", 2024-02): 96 GB
/// HBM3 at 4.0 TB/s, 60 MB L2, FP16/BF16 148, FP8 296, INT8 296, TF32 74 TFLOPS (dense); 400 W,
/// NVLink 900 GB/s (TweakTown, 2024-01; The Register, 2023-11-27); FP32 40 TFLOPS and the tensor
/// figures again in NVIDIA's TensorRT-LLM (`tensorrt_llm/_torch/auto_deploy/utils/
/// hardware_specs.py` at 85d40f56; the retailers' sheet says 44, which 78 SMs cannot reach at
/// any Hopper clock); 78 SMs and 60 MiB of L2 as the CUDA runtime reports them
/// (RightNow-AI/AutoMegaKernel pull request 3). Clocks are not published: the H100 SXM5's are
/// taken (the same die), which give the tensor figures within 1.2 %. Six HBM3 stacks (6144-bit)
/// at 5.21 Gbit/s per pin give the 4.0 TB/s. Large GEMMs reach almost the capped peak, where the
/// power never binds at a quarter of the rate: torch.mm BF16 142.25 TFLOPS, 0.973 of 146.2 (TF32
/// 71.8; FP32 32.0, 0.81 of the CUDA cores' 39.5, which the board figure over-states)
/// (zzc0721/torch-performance-test-data issue 77, 2025-10). Price: NVIDIA priced distributor
/// orders at $12,000-15,000 a card (Reuters, 2024-02); the middle is stored.
inline constexpr gpu<hopper_gh100_quarter_tensor> h20{
    {.id = "h20",
     .name = "NVIDIA H20 96 GB",
     .segment = segment::datacenter,
     .year = 2024,
     .sms = 78,
     .base_clock = {},
     .boost_clock = h100_sxm.facts().boost_clock,
     .tensor_clock = h100_sxm.facts().tensor_clock,
     .memory = gibibytes(96),
     .memory_type = memory_kind::hbm3,
     .bus_width_bits = 6144,
     .data_rate_gbps = 5.208,
     .l2 = mebibytes(60),
     .tdp = watts(400),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .price = {dollars(13500), 2024, 2, price_kind::launch_reported},
     .source = "NVIDIA's H20 spec table via Tom's Hardware (2024-02); NVIDIA TensorRT-LLM "
               "hardware_specs.py; clocks the H100 SXM5's (none published)",
     .gemm_efficiency = 0.973,
     .form = form_factor::mezzanine}};

/// NVIDIA H100 NVL (GH100, 132 SMs, PCIe card for NVLink-bridged pairs). Source: NVIDIA H100
/// datasheet (2023, https://www.nvidia.com/en-us/data-center/h100/), NVL column: 94 GB HBM3,
/// 3.9 TB/s, 350-400 W (400 W stored), NVLink 600 GB/s, PCIe 5; FP32 60 TFLOPS, TF32 835, FP16/BF16
/// 1671, FP8 3341, INT8 3341 (sparse). NVIDIA prints no clock: 1776 MHz boost and 1545 MHz tensor
/// clock are those the published FP32 and tensor peaks imply (the B200 pattern), so its peak rows
/// are a consistency check. Six HBM3 stacks (6144-bit) at 5.08 Gbit/s per pin give the 3.9 TB/s;
/// 50 MB L2 (GH100). No price: NVIDIA published none and no dated per-card figure was found.
inline constexpr gpu<hopper_gh100> h100_nvl{
    {.id = "h100_nvl",
     .name = "NVIDIA H100 NVL",
     .segment = segment::datacenter,
     .year = 2023,
     .sms = 132,
     .base_clock = {},
     .boost_clock = megahertz(1776),
     .tensor_clock = megahertz(1545),
     .memory = gibibytes(94),
     .memory_type = memory_kind::hbm3,
     .bus_width_bits = 6144,
     .data_rate_gbps = 5.08,
     .l2 = mebibytes(50),
     .tdp = watts(400),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(600)},
     .source = "NVIDIA H100 datasheet (2023), NVL column; clocks inferred"}};

/// NVIDIA H200 NVL (GH100, 132 SMs, PCIe card for 2- or 4-way NVLink bridges). Source: NVIDIA
/// H200 datasheet (2024, https://www.nvidia.com/en-us/data-center/h200/), NVL column: 141 GB
/// HBM3e, 4.8 TB/s, up to 600 W, NVLink 900 GB/s, PCIe 5; FP32 60 TFLOPS, FP16/BF16 1671, FP8
/// 3341 (sparse), the H100 NVL's figures, hence its implied 1776 MHz boost and 1545 MHz tensor
/// clock. Six HBM3e stacks (6144-bit) at 6.25 Gbit/s per pin as the H200 SXM; 50 MB L2. No price:
/// NVIDIA published none and no dated per-card figure was found.
inline constexpr gpu<hopper_gh100> h200_nvl{
    {.id = "h200_nvl",
     .name = "NVIDIA H200 NVL",
     .segment = segment::datacenter,
     .year = 2024,
     .sms = 132,
     .base_clock = {},
     .boost_clock = megahertz(1776),
     .tensor_clock = megahertz(1545),
     .memory = gibibytes(141),
     .memory_type = memory_kind::hbm3e,
     .bus_width_bits = 6144,
     .data_rate_gbps = 6.25,
     .l2 = mebibytes(50),
     .tdp = watts(600),
     .host_link = pcie_link(5, 16),
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .source = "NVIDIA H200 datasheet (2024), NVL column; clocks inferred"}};

/// NVIDIA GH200 Grace Hopper Superchip, its GPU (GH100, 132 SMs) with 96 GB HBM3. Source: NVIDIA
/// GH200 Grace Hopper Superchip datasheet (2023,
/// https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/): compute as H100 SXM (FP32
/// 67 TFLOPS, FP16/BF16 1979 and FP8 3958 TFLOPS with sparsity), 96 GB HBM3 at 4 TB/s, NVLink-C2C
/// to the Grace CPU at 900 GB/s (the host link), NVLink 4 at 900 GB/s, module power 450-1000 W
/// (CPU, GPU and memory together; the upper bound is used); six stacks (6144-bit) at 5.2 Gbit/s
/// per pin give the 4 TB/s. Clocks and L2 as H100 SXM. No price: NVIDIA sells it in systems only.
inline constexpr gpu<hopper_gh100> gh200{
    {.id = "gh200",
     .name = "NVIDIA GH200 96 GB (GPU of the Grace Hopper Superchip)",
     .segment = segment::datacenter,
     .year = 2023,
     .sms = 132,
     .base_clock = {},
     .boost_clock = megahertz(1980),
     .tensor_clock = megahertz(1830),
     .memory = gibibytes(96),
     .memory_type = memory_kind::hbm3,
     .bus_width_bits = 6144,
     .data_rate_gbps = 5.2,
     .l2 = mebibytes(50),
     .tdp = watts(1000),
     .host_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .peer_link = {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
     .source = "NVIDIA GH200 Grace Hopper Superchip datasheet (2023)",
     .form = form_factor::mezzanine}};

}  // namespace dlperf::catalog
