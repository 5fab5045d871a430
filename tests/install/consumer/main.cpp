// Consumer of an installed dlperf: one compile-time and one run-time answer.
#include <dlperf/dlperf.hpp>
#include <iostream>

using namespace dlperf::literals;

static_assert(dlperf::peak(dlperf::catalog::a100_sxm4_40gb, dlperf::bf16) > 300_TFLOPS);

int main() {
  const auto& g = dlperf::catalog::find("h100_sxm");
  std::cout << g.name() << " " << dlperf::in_teraflops(g.peak(dlperf::dtype::fp16)) << "\n";
  return g.facts().sms == 132 ? 0 : 1;
}
