// Small helpers the model tests share (one definition: the unity build puts several test sources
// in one translation unit, where two copies of a helper would collide).
#pragma once

#include <dlperf/dlperf.hpp>

namespace dlperf::test {

// The half-precision type a GPU runs with FP32 accumulation, FP32 where it has none.
inline dtype widest_half(const gpu_spec& g) {
  return g.supports(dtype::fp16, accumulator::fp32) ? dtype::fp16 : dtype::fp32;
}

}  // namespace dlperf::test
