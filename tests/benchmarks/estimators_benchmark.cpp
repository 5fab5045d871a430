// Speed of dlperf's estimators, for autotuners that call them millions of times. Run:
//   build/tests/benchmarks/dlperf_benchmarks --benchmark_min_time=0.5 --benchmark_repetitions=3
// Figures go in docs/gemm.md; no unit test asserts a wall-clock threshold.
#include <benchmark/benchmark.h>

#include <dlperf/dlperf.hpp>

namespace {

using namespace dlperf;

// One GEMM estimate with a given tiling: what an autotuner's cost model evaluates per candidate.
void estimate_gemm_fixed_tile(benchmark::State& state) {
  const tile_config t{128, 256, 32, 64, 64, 3};
  long long m = 4096;
  for (auto _ : state) {
    m = m == 8192 ? 4096 : m + 64;  // vary the problem so nothing is hoisted out of the loop
    benchmark::DoNotOptimize(estimate_gemm(catalog::a100_sxm4_40gb, {m, 4096, 4096}, t));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(estimate_gemm_fixed_tile);

// An autotuner's inner loop: one prepared GEMM, many tilings (check + model per candidate).
void gemm_evaluator_per_tile(benchmark::State& state) {
  const gemm_evaluator model(catalog::a100_sxm4_40gb, {8192, 8192, 8192});
  const auto shapes = tile_candidates(16);
  std::size_t i = 0;
  for (auto _ : state) {
    tile_config t = shapes[i++ % shapes.size()];
    t.stages = 3;
    const tile_check c = model.check(t);
    if (c.ok()) benchmark::DoNotOptimize(model.estimate(t, c));
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(gemm_evaluator_per_tile);

// The best tiling (72 shapes x up to 3 pipeline depths, plus split-K where tiles leave SMs idle)
// of m x nk x nk GEMMs on H100 BF16, m stepping from m_low to m_high: large square-ish ones; a
// mid-sized one; decode-shaped ones (m = 1..64 tokens), whose few output tiles make every
// tiling try split-K 2, 4 and 8.
void best_gemm_search(benchmark::State& state, long long m_low, long long m_high, long long step,
                      long long nk) {
  long long m = m_low;
  for (auto _ : state) {
    m = m == m_high ? m_low : m + step;
    benchmark::DoNotOptimize(best_gemm(catalog::h100_sxm, {m, nk, nk, 1, dtype::bf16}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(best_gemm_search, large, 4096, 8192, 64, 4096);
BENCHMARK_CAPTURE(best_gemm_search, mid, 512, 1024, 16, 512);
BENCHMARK_CAPTURE(best_gemm_search, decode, 1, 64, 1, 4096);

// A roofline answer.
void roofline_estimate(benchmark::State& state) {
  double work = 1e12;
  for (auto _ : state) {
    work += 1.0;
    const auto w = workload{}.compute(dtype::fp16, flops(work)).move(tier::global, bytes(1e9));
    benchmark::DoNotOptimize(roofline(catalog::rtx_4090, w));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(roofline_estimate);

// A whole transformer layer, op by op (7 operators, 4 best-tile searches).
void transformer_layer_estimate(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(
        estimate_transformer_layer(catalog::h100_sxm, {8, 2048, 4096, 32}, true));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(transformer_layer_estimate);

}  // namespace

BENCHMARK_MAIN();
