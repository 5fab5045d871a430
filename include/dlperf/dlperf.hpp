/// @file
/// Umbrella header: everything in dlperf's core (units, datatypes, memory tiers, architectures,
/// GPUs, the device concept, the catalog, the roofline and tile-reuse estimators, the cycle model
/// and the operator models).
#pragma once

#include <dlperf/arch/all.hpp>
#include <dlperf/architecture.hpp>
#include <dlperf/bound.hpp>
#include <dlperf/catalog.hpp>
#include <dlperf/cycle_model.hpp>
#include <dlperf/datatype.hpp>
#include <dlperf/device.hpp>
#include <dlperf/error.hpp>
#include <dlperf/gemm.hpp>
#include <dlperf/gpu.hpp>
#include <dlperf/memory_tier.hpp>
#include <dlperf/ops/attention.hpp>
#include <dlperf/ops/convolution.hpp>
#include <dlperf/ops/elementwise.hpp>
#include <dlperf/ops/layers.hpp>
#include <dlperf/ops/op_estimate.hpp>
#include <dlperf/roofline.hpp>
#include <dlperf/tile.hpp>
#include <dlperf/tile_search.hpp>
#include <dlperf/units.hpp>
#include <dlperf/version.hpp>
