// The inference run the serving tests serve: prompt, output tokens and datatype; the engine's
// KV memory sets the batch (model/serve.hpp).
#pragma once

#include <dlperf/dlperf.hpp>

namespace dlperf_test {

inline dlperf::run_config serving_run(long long prompt, long long generate,
                                      dlperf::dtype t = dlperf::dtype::bf16) {
  dlperf::run_config r;
  r.mode = dlperf::run_mode::infer;
  r.type = t;
  r.prompt = prompt;
  r.generate = generate;
  return r;
}

}  // namespace dlperf_test
