// Small helpers the model tests share (one definition: the unity build puts several test sources
// in one translation unit, where two copies of a helper would collide).
#pragma once

#include <dlperf/dlperf.hpp>

namespace dlperf::test {

// The half-precision type a GPU runs with FP32 accumulation, FP32 where it has none.
inline dtype widest_half(const gpu_spec& g) {
  return g.supports(dtype::fp16, accumulator::fp32) ? dtype::fp16 : dtype::fp32;
}

// Batch-1 decode in FP16: a one-token prompt, then 128 tokens, under stack @p stack on @p gpus
// GPUs, with weights @p w; attention unfused under llama.cpp's builds, as their rows ran it.
inline run_config decode_run(stack_id stack, weight_format w, long long gpus) {
  run_config r;
  r.mode = run_mode::infer;
  r.type = dtype::fp16;
  r.weights = w;
  r.prompt = 1;
  r.generate = 128;
  r.stack = stack;
  r.gpus = gpus;
  r.flash_attention = stack != stack_id::llama_cpp && stack != stack_id::llama_cpp_rocm &&
                      stack != stack_id::llama_cpp_metal;
  return r;
}

}  // namespace dlperf::test
