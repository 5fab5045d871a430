/// @file
/// A host's main memory as the layers a GPU does not hold read it (llama.cpp's partial offload,
/// model/offload.hpp): common desktop, workstation and server configurations, each a JEDEC speed
/// grade over a number of 64-bit channels. The peak is derived (transfers per second x 8 bytes x
/// channels) and tested against the platform vendors' published figures.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// One configuration of host memory: a speed grade over some 64-bit channels.
struct host_memory_spec {
  std::string_view id;      ///< stable id, e.g. "ddr5_6000_2ch"
  std::string_view name;    ///< what it is, e.g. "DDR5-6000, 2 channels (a current desktop)"
  double transfers_mts;     ///< data rate, million transfers per second (the speed grade)
  int channels;             ///< 64-bit channels populated (a DDR5 DIMM's two 32-bit halves: one)
  std::string_view source;  ///< the speed grade's and the platform's channel count's sources

  /// Peak bandwidth: data rate x 8 bytes x channels.
  [[nodiscard]] constexpr bandwidth peak() const {
    return gigabytes_per_second(transfers_mts * 8.0 * static_cast<double>(channels) / 1000.0);
  }
};

namespace host_memories {
/// The source of a DDR4 speed grade: JEDEC JESD79-4C (1600-3200 MT/s); a channel carries 64
/// data bits.
inline constexpr std::string_view jedec_ddr4 = "JEDEC JESD79-4C (DDR4 speed grades)";
/// The source of a DDR5 speed grade: JEDEC JESD79-5B (4800-6400 MT/s and beyond); a DIMM's two
/// 32-bit sub-channels make one 64-bit channel.
inline constexpr std::string_view jedec_ddr5 = "JEDEC JESD79-5B (DDR5 speed grades)";

/// Dual-channel DDR4-2400 (e.g. Intel's 8th-generation Core desktops with their memory).
inline constexpr host_memory_spec ddr4_2400_2ch{
    "ddr4_2400_2ch", "DDR4-2400, 2 channels (an older desktop)", 2400, 2, jedec_ddr4};
/// Dual-channel DDR4-2666: Intel Core i7-8700 (ark.intel.com: "Max Memory Bandwidth 41.6 GB/s").
inline constexpr host_memory_spec ddr4_2666_2ch{
    "ddr4_2666_2ch", "DDR4-2666, 2 channels (Intel Core 8th/9th generation)", 2666, 2,
    "JEDEC JESD79-4C; Intel Core i7-8700 specifications, ark.intel.com (2 channels, 41.6 GB/s)"};
/// Dual-channel DDR4-3200 (AMD Ryzen 3000/5000 desktops).
inline constexpr host_memory_spec ddr4_3200_2ch{
    "ddr4_3200_2ch", "DDR4-3200, 2 channels (a Ryzen 5000 desktop)", 3200, 2, jedec_ddr4};
/// Dual-channel DDR5-4800 (a desktop at JEDEC's base DDR5 grade).
inline constexpr host_memory_spec ddr5_4800_2ch{
    "ddr5_4800_2ch", "DDR5-4800, 2 channels (a desktop, four DIMMs)", 4800, 2, jedec_ddr5};
/// Dual-channel DDR5-5600 (Intel Core 14th generation's rated speed).
inline constexpr host_memory_spec ddr5_5600_2ch{
    "ddr5_5600_2ch", "DDR5-5600, 2 channels (Intel Core 14th generation)", 5600, 2, jedec_ddr5};
/// Dual-channel DDR5-6000 (an AM5 Ryzen desktop with EXPO memory).
inline constexpr host_memory_spec ddr5_6000_2ch{
    "ddr5_6000_2ch", "DDR5-6000, 2 channels (a current desktop)", 6000, 2, jedec_ddr5};
/// Eight-channel DDR4-3200 (AMD Threadripper PRO 5000WX, EPYC 7003).
inline constexpr host_memory_spec ddr4_3200_8ch{
    "ddr4_3200_8ch", "DDR4-3200, 8 channels (Threadripper PRO 5000WX, EPYC 7003)", 3200, 8,
    jedec_ddr4};
/// Eight-channel DDR5-5200 (AMD Threadripper PRO 7000WX).
inline constexpr host_memory_spec ddr5_5200_8ch{
    "ddr5_5200_8ch", "DDR5-5200, 8 channels (Threadripper PRO 7000WX)", 5200, 8, jedec_ddr5};
/// Twelve-channel DDR5-4800: one AMD EPYC 9004 socket (amd.com: "up to 460.8 GB/s" per socket).
inline constexpr host_memory_spec ddr5_4800_12ch{
    "ddr5_4800_12ch", "DDR5-4800, 12 channels (one EPYC 9004 socket)", 4800, 12,
    "JEDEC JESD79-5B; AMD EPYC 9004 Series Processors product brief (12 channels, 460.8 GB/s)"};

/// Every configuration, in the order of the help.
inline constexpr std::array all{&ddr4_2400_2ch, &ddr4_2666_2ch, &ddr4_3200_2ch,
                                &ddr5_4800_2ch, &ddr5_5600_2ch, &ddr5_6000_2ch,
                                &ddr4_3200_8ch, &ddr5_5200_8ch, &ddr5_4800_12ch};

/// The configuration a run takes when it names none: a current desktop's.
inline constexpr const host_memory_spec& typical = ddr5_6000_2ch;

/// The configuration @p id names. Throws not_found listing the ids for an unknown one.
inline const host_memory_spec& find(std::string_view id) {
  for (const host_memory_spec* h : all)
    if (h->id == id) return *h;
  detail::throw_unknown("host memory", id, all, [](const host_memory_spec* h) { return h->id; });
}
}  // namespace host_memories

}  // namespace dlperf
