// Speed of dlperf's estimators, for autotuners that call them millions of times. Run:
//   build/tests/benchmarks/dlperf_benchmarks --benchmark_min_time=0.5 --benchmark_repetitions=3
// Figures go in docs/gemm.md; no unit test asserts a wall-clock threshold.
#include <benchmark/benchmark.h>

#include <dlperf/dlperf.hpp>
#include <optional>

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
// tiling try split-K 2, 4 and 8. @p memoised: with a best_gemm_memo on the thread, so that after
// the first pass over the shapes every call is answered from the memo (what a sweep's repeated
// shapes cost).
void best_gemm_search(benchmark::State& state, long long m_low, long long m_high, long long step,
                      long long nk, bool memoised) {
  std::optional<best_gemm_memo> memo;
  if (memoised) memo.emplace();
  long long m = m_low;
  for (auto _ : state) {
    m = m == m_high ? m_low : m + step;
    benchmark::DoNotOptimize(best_gemm(catalog::h100_sxm, {m, nk, nk, 1, dtype::bf16}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(best_gemm_search, large, 4096, 8192, 64, 4096, false);
BENCHMARK_CAPTURE(best_gemm_search, mid, 512, 1024, 16, 512, false);
BENCHMARK_CAPTURE(best_gemm_search, decode, 1, 64, 1, 4096, false);
BENCHMARK_CAPTURE(best_gemm_search, memoised_large, 4096, 8192, 64, 4096, true);
BENCHMARK_CAPTURE(best_gemm_search, memoised_decode, 1, 64, 1, 4096, true);

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

// Fused attention, forward: one kernel's estimate (no search).
void attention_fused_estimate(benchmark::State& state) {
  long long seq = 1024;
  for (auto _ : state) {
    seq = seq == 8192 ? 1024 : seq + 128;
    benchmark::DoNotOptimize(
        estimate_attention_fused(catalog::h100_sxm, {8, 32, seq, seq, 128, dtype::bf16, true}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(attention_fused_estimate);

// A 3x3 convolution: the best tiling of its implicit GEMM.
void convolution_estimate(benchmark::State& state) {
  long long batch = 64;
  for (auto _ : state) {
    batch = batch == 256 ? 64 : batch + 8;
    benchmark::DoNotOptimize(
        estimate_conv2d(catalog::a100_sxm4_80gb, "conv", {batch, 256, 14, 14, 256, 3, 3, 1, 1}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(convolution_estimate);

// The run of a model benchmark at @p batch: decoders generate 128 tokens after a prompt of @p seq.
run_config bench_run(const model_spec* m, run_mode mode, long long seq, long long batch) {
  run_config r{.mode = mode, .batch = batch, .seq = seq};
  if (mode == run_mode::infer && m->kind == model_kind::transformer) {
    r.prompt = seq;
    r.generate = 128;
  }
  return r;
}

// A whole model's step, op by op: every layer's forward and gradient GEMMs searched (layers
// repeated are estimated once), attention, streaming kernels, the optimizer. The batch varies
// so that nothing is hoisted out of the loop.
void model_estimate_bench(benchmark::State& state, const model_spec* m, run_mode mode,
                          long long seq) {
  long long batch = 1;
  for (auto _ : state) {
    batch = batch == 16 ? 1 : batch + 1;
    benchmark::DoNotOptimize(estimate_model(catalog::h100_sxm, *m, bench_run(m, mode, seq, batch)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(model_estimate_bench, bert_large_train, &presets::bert_large, run_mode::train,
                  512);
BENCHMARK_CAPTURE(model_estimate_bench, gpt2_xl_train, &presets::gpt2_xl, run_mode::train, 1024);
BENCHMARK_CAPTURE(model_estimate_bench, llama2_7b_train, &presets::llama2_7b, run_mode::train,
                  4096);
BENCHMARK_CAPTURE(model_estimate_bench, llama2_7b_generate, &presets::llama2_7b, run_mode::infer,
                  1024);
BENCHMARK_CAPTURE(model_estimate_bench, resnet50_train, &presets::resnet50, run_mode::train, 0);

// The same under a software stack (docs/stacks.md): the ceiling estimate of the stack's kernel
// sequence, then every operator through the stack's efficiencies and host time.
void model_stack_bench(benchmark::State& state, const model_spec* m, run_mode mode, long long seq,
                       const software_stack* stack) {
  long long batch = 1;
  for (auto _ : state) {
    batch = batch == 16 ? 1 : batch + 1;
    benchmark::DoNotOptimize(
        estimate_model(catalog::h100_sxm, *m, bench_run(m, mode, seq, batch), *stack));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(model_stack_bench, llama2_7b_generate_vllm, &presets::llama2_7b, run_mode::infer,
                  1024, &stacks::vllm);
BENCHMARK_CAPTURE(model_stack_bench, resnet50_train_pytorch_eager, &presets::resnet50,
                  run_mode::train, 0, &stacks::pytorch_eager);

// One model over several GPUs (docs/parallel.md): the estimate of one GPU's share under the
// stack, then the split's communication (NCCL's ring or the engine's all-reduce per layer, the
// hand-offs of a layer split) on the ceiling and the stack's figures.
void model_split_bench(benchmark::State& state, const model_spec* m, const char* gpu,
                       const software_stack* stack, long long tp, long long pp) {
  const gpu_spec& g = catalog::find(gpu);
  long long batch = 1;
  for (auto _ : state) {
    batch = batch == 16 ? 1 : batch + 1;
    run_config r = bench_run(m, run_mode::infer, 1024, batch);
    r.gpus = tp * pp;
    r.tp = tp;
    r.pp = pp;
    benchmark::DoNotOptimize(estimate_model(g, *m, r, *stack));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(model_split_bench, llama3_70b_tp8_vllm_h100, &presets::llama3_70b, "h100_sxm",
                  &stacks::vllm, 8, 1);
BENCHMARK_CAPTURE(model_split_bench, llama3_70b_layers2_llama_cpp_3090, &presets::llama3_70b,
                  "rtx_3090", &stacks::llama_cpp, 1, 2);

// A training job on many GPUs (buying/cluster.hpp, docs/parallel.md): one GPU's step under the
// stack, then every collective of the layout (FSDP's per-unit all-gathers and reduce-scatters,
// the tensor split's all-reduces, a pipeline's bubble and hand-offs, a context-parallel ring,
// expert parallelism's exchanges and expert gradients) across servers, 4096 tokens of each
// sequence a GPU. The target: under 50 us an estimate.
void cluster_bench(benchmark::State& state, const model_spec* m, const char* gpu, long long gpus,
                   long long tp, long long pp, int zero, double power_limit_w, long long cp,
                   long long ep, stack_id stack = stack_id::pytorch_eager, bool async_tp = false) {
  const gpu_spec& g = catalog::find(gpu);
  const measured_device limited =
      under_power_limit(g, watts(power_limit_w > 0 ? power_limit_w : g.facts().tdp.value()));
  long long batch = 1;
  for (auto _ : state) {
    batch = batch == 4 ? 1 : batch + 1;
    run_config r = bench_run(m, run_mode::train, 4096 * cp, batch);
    r.stack = stack;
    r.async_tp = async_tp;
    r.cp = cp;
    r.ep = ep;
    r.gpus = gpus;
    r.tp = tp;
    r.pp = pp;
    r.zero = zero;
    r.grad_accumulation = pp > 1 ? 8 : 1;
    if (power_limit_w > 0)
      benchmark::DoNotOptimize(estimate_cluster_on(limited, gpus, *m, r, system_link(g)));
    else
      benchmark::DoNotOptimize(estimate_cluster(g, gpus, *m, r, system_link(g)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(cluster_bench, llama3_1_8b_fsdp_64_h100, &presets::llama3_1_8b, "h100_sxm", 64, 1,
                  1, 3, 0.0, 1, 1);
BENCHMARK_CAPTURE(cluster_bench, llama3_1_8b_fsdp_64_h100_500w, &presets::llama3_1_8b, "h100_sxm",
                  64, 1, 1, 3, 500.0, 1, 1);
BENCHMARK_CAPTURE(cluster_bench, llama3_70b_tp4_pp8_64_h100, &presets::llama3_70b, "h100_sxm", 64,
                  4, 8, 1, 0.0, 1, 1);
BENCHMARK_CAPTURE(cluster_bench, llama3_1_8b_fsdp_cp8_64_h100, &presets::llama3_1_8b, "h100_sxm",
                  64, 1, 1, 3, 0.0, 8, 1);
BENCHMARK_CAPTURE(cluster_bench, qwen3_30b_a3b_ep16_16_h100, &presets::qwen3_30b_a3b, "h100_sxm",
                  16, 1, 1, 1, 0.0, 1, 16);
BENCHMARK_CAPTURE(cluster_bench, deepseek_v3_pp8_ep32_256_b200, &presets::deepseek_v3, "b200", 256,
                  1, 8, 1, 0.0, 1, 32);
// Megatron's tensor split: its default backward overlap (the dgrad and wgrad pairs), and under
// --async-tp every pass's collectives beside their GEMMs (buying/tensor_parallel_collectives.hpp).
BENCHMARK_CAPTURE(cluster_bench, llama3_70b_tp8_pp4_64_h100_megatron, &presets::llama3_70b,
                  "h100_sxm", 64, 8, 4, 1, 0.0, 1, 1, stack_id::megatron, false);
BENCHMARK_CAPTURE(cluster_bench, llama3_70b_tp8_pp4_64_h100_megatron_async, &presets::llama3_70b,
                  "h100_sxm", 64, 8, 4, 1, 0.0, 1, 1, stack_id::megatron, true);

// The memory need and fit of a model (no estimator: closed-form).
void model_fit(benchmark::State& state) {
  long long batch = 1;
  for (auto _ : state) {
    batch = batch == 16 ? 1 : batch + 1;
    benchmark::DoNotOptimize(
        check_fit(catalog::rtx_4090, presets::llama2_7b, run_config{.batch = batch, .seq = 512}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(model_fit);

}  // namespace

BENCHMARK_MAIN();
