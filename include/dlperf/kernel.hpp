/// @file
/// The kernel engineer's header: quantities and vocabulary (core), hardware (architectures, GPUs
/// per vendor, measured and host devices, links), estimators (roofline, tiles, GEMM, tile search,
/// cycle model) and operators. Everything a roofline, a tile check or an operator estimate needs,
/// without whole models or the buying layer (docs/layers.md, "Which header to include").
#pragma once

#include <dlperf/core/bound.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/core/weight_format.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/estimate/cycle_model.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/power_limit.hpp>
#include <dlperf/estimate/roofline.hpp>
#include <dlperf/estimate/sustained_clock.hpp>
#include <dlperf/estimate/tile.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/amd/amd.hpp>
#include <dlperf/hardware/apple/apple.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/architectures.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/host_device.hpp>
#include <dlperf/hardware/host_memory.hpp>
#include <dlperf/hardware/interconnect.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/hardware/nvidia/nvidia.hpp>
#include <dlperf/hardware/vendor.hpp>
#include <dlperf/ops/attention.hpp>
#include <dlperf/ops/convolution.hpp>
#include <dlperf/ops/elementwise.hpp>
#include <dlperf/ops/layers.hpp>
#include <dlperf/version.hpp>
