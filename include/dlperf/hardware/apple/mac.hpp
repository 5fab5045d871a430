/// @file
/// A Mac's GPU as the catalog states it: the facts of its chip and machine, with what every Mac
/// shares filled in once, so that an entry states its unified memory once.
#pragma once

#include <dlperf/hardware/apple/unified_memory.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::apple {

/// The GPU facts @p f of a Mac, completed: a system-on-chip's GPU (form_factor::integrated, one
/// to a machine), and as its memory (left empty in @p f) the GPU's working set of the machine's
/// unified memory, `gpu_working_set(f.unified_memory)`.
constexpr gpu_facts mac(gpu_facts f) {
  f.form = form_factor::integrated;
  f.memory = gpu_working_set(f.unified_memory);
  return f;
}

}  // namespace dlperf::apple
