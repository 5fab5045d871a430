/// @file
/// Everything NVIDIA: its traits, architectures (Pascal to Blackwell) and catalog GPUs.
#pragma once

#include <dlperf/hardware/nvidia/arch/ada.hpp>
#include <dlperf/hardware/nvidia/arch/ampere.hpp>
#include <dlperf/hardware/nvidia/arch/blackwell.hpp>
#include <dlperf/hardware/nvidia/arch/hopper.hpp>
#include <dlperf/hardware/nvidia/arch/pascal.hpp>
#include <dlperf/hardware/nvidia/arch/turing.hpp>
#include <dlperf/hardware/nvidia/arch/volta.hpp>
#include <dlperf/hardware/nvidia/catalog/ada.hpp>
#include <dlperf/hardware/nvidia/catalog/ampere.hpp>
#include <dlperf/hardware/nvidia/catalog/blackwell.hpp>
#include <dlperf/hardware/nvidia/catalog/hopper.hpp>
#include <dlperf/hardware/nvidia/catalog/pascal.hpp>
#include <dlperf/hardware/nvidia/catalog/turing.hpp>
#include <dlperf/hardware/nvidia/catalog/volta.hpp>
#include <dlperf/hardware/nvidia/traits.hpp>
