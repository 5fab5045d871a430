/// @file
/// Everything AMD: its traits, architectures (CDNA 2, 3 and 4, RDNA 3 and 4) and catalog GPUs.
#pragma once

#include <dlperf/hardware/amd/arch/cdna2.hpp>
#include <dlperf/hardware/amd/arch/cdna3.hpp>
#include <dlperf/hardware/amd/arch/cdna4.hpp>
#include <dlperf/hardware/amd/arch/rdna3.hpp>
#include <dlperf/hardware/amd/arch/rdna4.hpp>
#include <dlperf/hardware/amd/catalog/cdna2.hpp>
#include <dlperf/hardware/amd/catalog/cdna3.hpp>
#include <dlperf/hardware/amd/catalog/cdna4.hpp>
#include <dlperf/hardware/amd/catalog/rdna3.hpp>
#include <dlperf/hardware/amd/catalog/rdna4.hpp>
#include <dlperf/hardware/amd/traits.hpp>
