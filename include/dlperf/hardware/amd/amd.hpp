/// @file
/// Everything AMD: its traits, architectures (CDNA 2, CDNA 3, RDNA 3) and catalog GPUs.
#pragma once

#include <dlperf/hardware/amd/arch/cdna2.hpp>
#include <dlperf/hardware/amd/arch/cdna3.hpp>
#include <dlperf/hardware/amd/arch/rdna3.hpp>
#include <dlperf/hardware/amd/catalog/cdna2.hpp>
#include <dlperf/hardware/amd/catalog/cdna3.hpp>
#include <dlperf/hardware/amd/catalog/rdna3.hpp>
#include <dlperf/hardware/amd/traits.hpp>
