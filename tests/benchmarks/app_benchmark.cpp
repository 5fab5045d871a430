// Google Benchmark of the application layer (dlperf/app/): one typed model request (inference;
// and a sharded training job), the same with its JSON (what the tool and the page pay), and a
// sweep's grid per point on one thread and on every core. The grid is
// python/benchmarks/sweep_grid.py's, which times dlperf.sweep against this binary in the same run
// (docs/python.md, "Sweeps").
#include <benchmark/benchmark.h>

#include <dlperf/app/model_report.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/app/sweep.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace dlperf;

app::model_request llama2_7b_inference() {
  app::run_options o;
  o.infer = true;
  o.prompt = "512";
  o.generate = "128";
  app::model_request q;
  q.model = presets::llama2_7b;
  q.device = &catalog::find("a100_sxm4_80gb");
  q.run = app::make_run(o);
  return q;
}

// python/benchmarks/model_loop.py's training case: batch 4 x 2048 on 8 GPUs, ZeRO 3.
app::model_request llama2_7b_training() {
  app::run_options o;
  for (const auto& [keyword, value] :
       {std::pair{"train", "true"}, std::pair{"batch", "4"}, std::pair{"seq", "2048"},
        std::pair{"gpus", "8"}, std::pair{"zero", "3"}})
    app::run_field_of(keyword).set(o, value);
  app::model_request q;
  q.model = presets::llama2_7b;
  q.device = &catalog::find("a100_sxm4_80gb");
  q.run = app::make_run(o);
  return q;
}

void app_estimate_training(benchmark::State& state) {
  const app::model_request q = llama2_7b_training();
  for (auto _ : state) benchmark::DoNotOptimize(app::estimate(q));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(app_estimate_training);

void app_estimate(benchmark::State& state) {
  const app::model_request q = llama2_7b_inference();
  for (auto _ : state) benchmark::DoNotOptimize(app::estimate(q));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(app_estimate);

void app_estimate_json(benchmark::State& state) {
  const app::model_request q = llama2_7b_inference();
  for (auto _ : state) benchmark::DoNotOptimize(app::to_json(app::estimate(q)));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(app_estimate_json);

std::vector<std::string> counting(int from, int to, int step) {
  std::vector<std::string> out;
  for (int i = from; i <= to; i += step) out.push_back(std::to_string(i));
  return out;
}

// 10 GPUs x 5 models x 50 batches x 10 sequence lengths x 2 modes x 2 stacks = 100,000 points.
const std::vector<app::sweep_axis>& sweep_grid() {
  static const std::vector<app::sweep_axis> grid{
      {"gpu",
       {"rtx_3090", "rtx_4090", "a100_sxm4_80gb", "h100_sxm", "l40s", "mi300x", "t4", "a10g",
        "rtx_a6000", "v100_sxm2"}},
      {"preset", {"gpt2", "llama2_7b", "llama3_8b", "mistral_7b", "qwen2_5_14b"}},
      {"batch", counting(1, 50, 1)},
      {"seq", counting(100, 1000, 100)},
      {"mode", {"train", "infer"}},
      {"stack", {"ceiling", "pytorch-eager"}}};
  return grid;
}

void app_sweep(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  std::size_t points = 0;
  for (auto _ : state) {
    const std::vector<app::sweep_point> rows = app::sweep(sweep_grid(), threads);
    points += rows.size();
    benchmark::DoNotOptimize(rows.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(points));
}
// Arg: threads (0: one per core).
BENCHMARK(app_sweep)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
