/// @file
/// dlperf's version.
#pragma once

#define DLPERF_VERSION_MAJOR 0  ///< major version
#define DLPERF_VERSION_MINOR 1  ///< minor version
#define DLPERF_VERSION_PATCH 0  ///< patch version

namespace dlperf {
/// Version as "major.minor.patch".
inline constexpr const char* version = "0.1.0";
}  // namespace dlperf
