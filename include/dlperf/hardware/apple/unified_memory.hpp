/// @file
/// How much of an Apple silicon Mac's unified memory its GPU may use: Metal's
/// `recommendedMaxWorkingSetSize`, which llama.cpp and MLX treat as the GPU's memory (beyond it
/// allocations still succeed, but the system pages and runs slow).
#pragma once

#include <dlperf/core/units.hpp>

namespace dlperf::apple {

/// The GPU's working set of @p unified bytes of unified memory, as macOS 13 and 14 (the
/// evidence's) set it: two thirds up to 32 GiB, three quarters above. Apple publishes no rule;
/// these are the values llama.cpp's Metal backend logs: 10922.67 MiB of 16 GiB
/// (abetlen/llama-cpp-python issue 687, 2023-09), 21845.34 MiB of 32 GiB (ollama/ollama issue
/// 434, 2023-08; ggml-org/llama.cpp pull 2011, 2023-07), 73728 MiB of 96 GiB
/// (ggml-org/llama.cpp issue 3213, 2023-09). Later macOS gives more (0.74 of 16-24 GiB on
/// macOS 15-26, 0.84 of 128 GiB on macOS 26: AlexsJones/llmfit pull 754, antirez/ds4 pull 893),
/// and `sysctl iogpu.wired_limit_mb` overrides it; a device file carries a measured figure.
constexpr byte_count gpu_working_set(byte_count unified) {
  return unified <= gibibytes(32) ? unified * (2.0 / 3.0) : unified * 0.75;
}

}  // namespace dlperf::apple
