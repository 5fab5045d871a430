/// @file
/// Umbrella header: every public header of dlperf's core, layer by layer (see docs/layers.md):
/// quantities and vocabulary, hardware (architectures, GPUs per vendor, measured and host
/// devices), estimators (roofline, tiles, GEMM, tile search, cycle model) and operators.
/// Optional headers are not included: those in `dlperf/io/` (they need nlohmann_json) and the
/// calibration in `dlperf/calibrate/`. Every other header is reached from here (the CTest
/// layers.umbrella_includes_all checks it).
#pragma once

#include <dlperf/buying/advice.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/debias.hpp>
#include <dlperf/buying/power.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/buying/speedup.hpp>
#include <dlperf/buying/tco.hpp>
#include <dlperf/core/bound.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/cycle_model.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/roofline.hpp>
#include <dlperf/estimate/tile.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/amd/amd.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/architectures.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/host_device.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/hardware/nvidia/nvidia.hpp>
#include <dlperf/model/cnn.hpp>
#include <dlperf/model/cnn_shapes.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/model/transformer.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/ops/attention.hpp>
#include <dlperf/ops/convolution.hpp>
#include <dlperf/ops/elementwise.hpp>
#include <dlperf/ops/layers.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stacks.hpp>
#include <dlperf/version.hpp>
