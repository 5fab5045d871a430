// Speed of dlperf's estimators, for autotuners that call them millions of times. Run:
//   build/tests/benchmarks/dlperf_benchmarks --benchmark_min_time=0.5
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

// The best tiling of one GEMM (72 shapes x up to 3 pipeline depths, plus split-K when needed).
void best_gemm_search(benchmark::State& state) {
  long long m = 4096;
  for (auto _ : state) {
    m = m == 8192 ? 4096 : m + 64;
    benchmark::DoNotOptimize(best_gemm(catalog::h100_sxm, {m, 4096, 4096, 1, dtype::bf16}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(best_gemm_search);

// The best tiling of a decode-shaped GEMM (m = 1..64 tokens, n = k = 4096 on H100 BF16): few
// output tiles, so every tiling also tries split-K 2, 4 and 8.
void best_gemm_search_decode(benchmark::State& state) {
  long long m = 1;
  for (auto _ : state) {
    m = m == 64 ? 1 : m + 1;
    benchmark::DoNotOptimize(best_gemm(catalog::h100_sxm, {m, 4096, 4096, 1, dtype::bf16}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(best_gemm_search_decode);

// The best tiling of a mid-sized GEMM (512..1024 x 512 x 512 on H100 BF16).
void best_gemm_search_mid(benchmark::State& state) {
  long long m = 512;
  for (auto _ : state) {
    m = m == 1024 ? 512 : m + 16;
    benchmark::DoNotOptimize(best_gemm(catalog::h100_sxm, {m, 512, 512, 1, dtype::bf16}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(best_gemm_search_mid);

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
