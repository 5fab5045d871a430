/// @file
/// Built-in cloud prices: dated on-demand hourly prices of the GPUs people rent, each with its
/// provider, offering and source (docs/buying.md, "Cloud prices"). Market data, not hardware
/// facts: they live in the buying layer, beside the host costs, and a price file's
/// `cloud_hourly` overrides them.
///
/// Prices are USD, Linux, on-demand, US regions, as listed on the date given; an instance of
/// several GPUs listed whole is stored whole and divided by its GPU count. Hyperscaler prices
/// include the instance's CPUs and memory. Sources, in order of preference: the providers' price
/// APIs as dumped by open tools (Cyclenerd/google-cloud-pricing-cost-calculator's pricing.yml,
/// SkyPilot's `sky show-gpus` and dstack's `dstack offer` pasted into dated issues), then datasets
/// that record each row's source page and check date (datareceipts/data-receipts 109-gpu-pricing,
/// tgarg01/silybench-data gpu_prices.csv, lantern-works and tokenwatt on Hugging Face), then
/// cloud-gpus.com's cloud_gpu.json (the cheapest listing per provider, dated by its commit).
/// Cloud prices move: AWS cut its P4 and P5 prices by up to 45 % in June 2025, and RunPod's H100
/// went from $3.29 to $3.99 between August and November 2026. Each figure is a dated sample.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include <dlperf/core/units.hpp>

namespace dlperf {

/// One provider's on-demand price for one catalog GPU, as listed on a date.
struct cloud_offer {
  std::string_view gpu;       ///< catalog id
  std::string_view provider;  ///< "AWS", "RunPod", ...
  std::string_view offering;  ///< the instance or product as listed
  double usd_per_hour = 0;    ///< the price per hour as listed
  int gpus = 1;               ///< GPUs that price covers (an instance's, or 1 if listed per GPU)
  int year = 0;               ///< when the price was listed
  int month = 0;              ///< 1-12
  std::string_view source;    ///< where it was read

  /// The price of one of its GPUs per hour.
  [[nodiscard]] constexpr hourly_price per_gpu() const {
    return dollars_per_hour(usd_per_hour / static_cast<double>(gpus));
  }
  /// Months since year 0, to compare dates.
  [[nodiscard]] constexpr int months() const { return year * 12 + month - 1; }
};

namespace detail {
inline constexpr std::string_view hyperscalers_2026 =
    "datareceipts/data-receipts 109-gpu-pricing/hyperscalers.json (retrieved 2026-11-09)";
inline constexpr std::string_view gcp_2026 =
    "Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml @ fd66b26 (generated 2026-07-30, "
    "Google Cloud Billing Catalog)";
inline constexpr std::string_view silybench_2026 =
    "tgarg01/silybench-data derived/csv/gpu_prices.csv @ 045df3b (provider pages checked "
    "2026-09-25)";
inline constexpr std::string_view cloud_gpus_2025 =
    "cloud-gpus/cloud-gpus.github.io cloud_gpu.json @ b0b08c2 (cheapest listing per provider)";
inline constexpr std::string_view skypilot_2024 =
    "skypilot-org/skypilot issue 4019 (`sky show-gpus`, September 2024)";
}  // namespace detail

/// The built-in offers, by GPU in catalog order.
inline constexpr std::array cloud_offers{
    cloud_offer{"v100_sxm2", "AWS", "p3.2xlarge", 3.06, 1, 2022, 3,
                "skypilot-org/skypilot pull 472 (`sky show-gpus`, March 2022)"},
    cloud_offer{"t4", "AWS", "T4 instance, per GPU", 0.53, 1, 2023, 10, detail::cloud_gpus_2025},
    cloud_offer{"t4", "Google Cloud", "T4 attached to a VM (GPU only)", 0.35, 1, 2023, 10,
                detail::cloud_gpus_2025},
    cloud_offer{"rtx_3090", "RunPod", "RTX 3090", 0.22, 1, 2025, 5, detail::cloud_gpus_2025},
    cloud_offer{"rtx_3090", "Vast.ai", "RTX 3090 (cheapest listing)", 0.20, 1, 2025, 5,
                detail::cloud_gpus_2025},
    cloud_offer{"a10", "Lambda", "1x A10", 1.29, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"a10g", "AWS", "g5.xlarge", 1.006, 1, 2024, 9, detail::skypilot_2024},
    cloud_offer{"rtx_a6000", "Verda (ex-DataCrunch)", "RTX A6000 on-demand", 0.82, 1, 2026, 10,
                "lantern-works/gpu-cloud-prices on Hugging Face (2026-10-29, verda.com/pricing)"},
    cloud_offer{"rtx_a6000", "RunPod", "RTX A6000", 0.33, 1, 2025, 5, detail::cloud_gpus_2025},
    cloud_offer{"a100_sxm4_40gb", "AWS", "p4d.24xlarge", 21.957642, 8, 2026, 11,
                detail::hyperscalers_2026},
    cloud_offer{"a100_sxm4_40gb", "Google Cloud", "a2-highgpu-1g", 3.673385, 1, 2026, 7,
                detail::gcp_2026},
    cloud_offer{"a100_sxm4_40gb", "Lambda", "1x A100 SXM 40GB", 1.99, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"a100_sxm4_80gb", "AWS", "p4de.24xlarge", 27.44705, 8, 2026, 11,
                detail::hyperscalers_2026},
    cloud_offer{"a100_sxm4_80gb", "RunPod", "A100 SXM, Secure Cloud", 1.59, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"a100_sxm4_80gb", "Lambda", "8x A100 SXM 80GB, per GPU", 2.79, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"a100_pcie_80gb", "Azure", "Standard_NC24ads_A100_v4", 3.673, 1, 2026, 11,
                detail::hyperscalers_2026},
    cloud_offer{"a100_pcie_80gb", "RunPod", "A100 PCIe, Secure Cloud", 1.59, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"rtx_4090", "RunPod", "RTX 4090, Community Cloud", 0.34, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"rtx_4090", "RunPod", "RTX 4090, Secure Cloud", 0.74, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"l4", "Google Cloud", "g2-standard-4", 0.706832255, 1, 2026, 7, detail::gcp_2026},
    cloud_offer{"l40s", "RunPod", "L40S, Secure Cloud", 1.09, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"l40s", "Nebius", "L40S (Intel)", 1.55, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"l40", "RunPod", "2x_L40_SECURE", 2.28, 2, 2025, 9,
                "skypilot-org/skypilot issue 7311 (`sky show-gpus`, September 2025)"},
    cloud_offer{"l40", "CoreWeave", "L40", 1.25, 1, 2025, 5, detail::cloud_gpus_2025},
    cloud_offer{"rtx_6000_ada", "RunPod", "RTX 6000 Ada", 0.74, 1, 2025, 5,
                detail::cloud_gpus_2025},
    cloud_offer{"h100_pcie", "RunPod", "H100 PCIe, Secure Cloud", 2.89, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"h100_pcie", "Lambda", "1x H100 PCIe", 3.29, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"h100_sxm", "AWS", "p5.48xlarge", 55.04, 8, 2026, 11, detail::hyperscalers_2026},
    cloud_offer{"h100_sxm", "RunPod", "H100 SXM, Secure Cloud", 3.49, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"h100_sxm", "Lambda", "8x H100 SXM, per GPU", 3.99, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"h200_sxm", "AWS", "p5en.48xlarge", 63.296, 8, 2026, 8,
                "dstackai/dstack pull 4110 (`dstack offer`, August 2026)"},
    cloud_offer{"h200_sxm", "RunPod", "H200, Secure Cloud", 4.59, 1, 2026, 9,
                detail::silybench_2026},
    cloud_offer{"h200_sxm", "Nebius", "HGX H200", 4.50, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"b200", "RunPod", "B200, Secure Cloud", 6.79, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"b200", "Lambda", "1x B200 SXM6", 6.99, 1, 2026, 9, detail::silybench_2026},
    cloud_offer{"rtx_5090", "RunPod", "RTX 5090", 0.69, 1, 2025, 5, detail::cloud_gpus_2025},
    cloud_offer{"mi300x", "DigitalOcean", "gpu-mi300x1-192gb", 2.59, 1, 2026, 10,
                "tokenwatt/gpu-cloud-prices on Hugging Face (DigitalOcean API list price, "
                "2026-10-07)"},
    cloud_offer{"mi300x", "RunPod", "1x_MI300X_SECURE", 2.49, 1, 2025, 9,
                "skypilot-org/skypilot issue 7311 (`sky show-gpus`, September 2025)"},
};

/// The offer dlperf prices renting GPU @p id at when no price file names one: the cheapest of its
/// offers listed within 12 months of its newest (an older listing is a price the market has left;
/// the cheapest current one is what a renter pays). None for a GPU no offer lists.
constexpr std::optional<cloud_offer> reference_cloud_offer(std::string_view id) {
  int newest = -1;
  for (const cloud_offer& o : cloud_offers)
    if (o.gpu == id && o.months() > newest) newest = o.months();
  std::optional<cloud_offer> best;
  for (const cloud_offer& o : cloud_offers)
    if (o.gpu == id && o.months() >= newest - 12 && (!best || o.per_gpu() < best->per_gpu()))
      best = o;
  return best;
}

}  // namespace dlperf
