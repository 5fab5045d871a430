/// @file
/// Umbrella header: every public header of dlperf but the optional ones, layer by layer (see
/// docs/layers.md): the kernel layer (`dlperf/kernel.hpp`: quantities, hardware, estimators,
/// operators), whole models (`dlperf/model.hpp`) and the buying layer (`dlperf/buying.hpp`).
/// Include the narrowest of the three that serves you: each costs compile time the one below does
/// not (docs/layers.md gives the figures). Optional headers are not included: those in
/// `dlperf/io/` (they need nlohmann_json) and the calibration in `dlperf/calibrate/`. Every other
/// header is reached from here (the CTest layers.umbrella_includes_all checks it).
#pragma once

#include <dlperf/buying.hpp>
#include <dlperf/kernel.hpp>
#include <dlperf/model.hpp>
