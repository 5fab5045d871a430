/// @file
/// Umbrella header: everything in dlperf's core (units, datatypes, memory tiers, architectures,
/// GPUs, the device concept, the catalog and the roofline estimator).
#pragma once

#include <dlperf/arch/all.hpp>
#include <dlperf/architecture.hpp>
#include <dlperf/catalog.hpp>
#include <dlperf/datatype.hpp>
#include <dlperf/device.hpp>
#include <dlperf/error.hpp>
#include <dlperf/gpu.hpp>
#include <dlperf/memory_tier.hpp>
#include <dlperf/roofline.hpp>
#include <dlperf/units.hpp>
#include <dlperf/version.hpp>
