/// @file
/// Links between a GPU and its host, its peers or other machines, as `{kind, generation,
/// bandwidth}`. PCI Express bandwidth is derived from the generation's transfer rate, line
/// encoding and lane count; vendor fabrics (NVLink, Infinity Fabric) carry the datasheet's
/// per-GPU total; network links (InfiniBand, Ethernet) their signalling rate in both directions.
/// The named catalog of links with their latencies is hardware/links.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// Kind of link.
enum class interconnect_kind : std::uint8_t { none, pcie, nvlink, infinity_fabric, ib, ethernet };

/// The link kinds and their stable names.
template <>
struct enum_list<interconnect_kind> {
  static constexpr std::string_view kind = "interconnect";  ///< what the enum names
  /// Every link kind.
  static constexpr std::array values{
      enumerator{interconnect_kind::none, "none", "no such link"},
      enumerator{interconnect_kind::pcie, "pcie", "PCI Express"},
      enumerator{interconnect_kind::nvlink, "nvlink", "NVIDIA NVLink"},
      enumerator{interconnect_kind::infinity_fabric, "infinity_fabric", "AMD Infinity Fabric"},
      enumerator{interconnect_kind::ib, "ib", "InfiniBand (between machines)"},
      enumerator{interconnect_kind::ethernet, "ethernet", "Ethernet (between machines)"}};
};

/// A link: its kind, generation and bandwidth per GPU, both directions together (how NVIDIA
/// and AMD quote NVLink and Infinity Fabric). A default link is `none`.
struct interconnect {
  interconnect_kind kind = interconnect_kind::none;  ///< what the link is
  int generation = 0;                                ///< generation of the link standard
  bandwidth throughput{};                            ///< bytes per second, both directions

  /// Bytes per second in one direction: half the two-way figure (every link here is full
  /// duplex with the same rate each way).
  [[nodiscard]] constexpr bandwidth per_direction() const { return throughput / 2.0; }
};

/// Transfer rate per lane of PCI Express generation @p gen in GT/s, times its line-encoding
/// efficiency: 8b/10b for 1.0 and 2.0, 128b/130b for 3.0-5.0 (PCI-SIG base specifications
/// 3.0, 4.0 and 5.0). Throws invalid_argument for another generation.
constexpr double pcie_lane_gbps(int gen) {
  switch (gen) {
    case 1:
      return 2.5 * 8.0 / 10.0;
    case 2:
      return 5.0 * 8.0 / 10.0;
    case 3:
      return 8.0 * 128.0 / 130.0;
    case 4:
      return 16.0 * 128.0 / 130.0;
    case 5:
      return 32.0 * 128.0 / 130.0;
    default:
      detail::throw_invalid_argument("PCIe generation must be 1-5, got " + std::to_string(gen));
  }
}

/// A PCI Express link of generation @p gen and @p lanes lanes: lane rate x lanes / 8 bits, both
/// directions (PCIe 4.0 x16: 31.5 GB/s each way, 63 GB/s together).
constexpr interconnect pcie_link(int gen, int lanes) {
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16)
    detail::throw_invalid_argument("PCIe lanes must be 1, 2, 4, 8 or 16, got " +
                                   std::to_string(lanes));
  return {interconnect_kind::pcie, gen,
          gigabytes_per_second(2.0 * pcie_lane_gbps(gen) * lanes / 8.0)};
}

}  // namespace dlperf
