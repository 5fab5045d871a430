/// @file
/// Software stacks and whole models on top of the kernel layer: transformer and CNN descriptions,
/// presets, run configuration, the training step and inference op by op, the memory a run needs
/// and serving with continuous batching (docs/layers.md, "Which header to include").
#pragma once

#include <dlperf/kernel.hpp>
#include <dlperf/model/adapters.hpp>
#include <dlperf/model/cnn.hpp>
#include <dlperf/model/cnn_shapes.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/model/lora.hpp>
#include <dlperf/model/memory.hpp>
#include <dlperf/model/offload.hpp>
#include <dlperf/model/parallel.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/serve.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/model/transformer.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/model/weight_file.hpp>
#include <dlperf/stack/multi_gpu.hpp>
#include <dlperf/stack/nccl.hpp>
#include <dlperf/stack/nccl_staged.hpp>
#include <dlperf/stack/optimizer_kernels.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <dlperf/stack/stacks.hpp>
