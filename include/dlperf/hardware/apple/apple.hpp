/// @file
/// Everything Apple: its traits, GPU-core generations (M1 to M4) and catalog Macs.
#pragma once

#include <dlperf/hardware/apple/arch/m1.hpp>
#include <dlperf/hardware/apple/arch/m2.hpp>
#include <dlperf/hardware/apple/arch/m3.hpp>
#include <dlperf/hardware/apple/arch/m4.hpp>
#include <dlperf/hardware/apple/catalog/m1.hpp>
#include <dlperf/hardware/apple/catalog/m2.hpp>
#include <dlperf/hardware/apple/catalog/m3.hpp>
#include <dlperf/hardware/apple/catalog/m4.hpp>
#include <dlperf/hardware/apple/mac.hpp>
#include <dlperf/hardware/apple/traits.hpp>
#include <dlperf/hardware/apple/unified_memory.hpp>
