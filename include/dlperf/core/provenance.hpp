/// @file
/// Provenance of a figure: whether it is the datasheet's or was measured, and a measured value
/// with the method that produced it (what device files record).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>

namespace dlperf {

/// Whether a figure is the datasheet's or was measured.
enum class provenance : std::uint8_t { nominal, measured };

/// The provenances and their stable names.
template <>
struct enum_list<provenance> {
  static constexpr std::string_view kind = "provenance";  ///< what the enum names
  /// Every provenance.
  static constexpr std::array values{enumerator{provenance::nominal, "nominal"},
                                     enumerator{provenance::measured, "measured"}};
};

/// One measured figure and how it was obtained: what a device file records for provenance.
struct measured_value {
  double value = 0;    ///< the figure, in the unit its field names
  std::string method;  ///< how it was measured ("STREAM triad, 1 GiB, median of 15")
  double spread = 0;   ///< (max - min) / median of the samples (0 when unknown)
};

namespace calibrate {
using dlperf::measured_value;  ///< measured values were first declared with the calibration layer
}  // namespace calibrate

}  // namespace dlperf
