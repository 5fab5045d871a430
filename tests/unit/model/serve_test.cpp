// Serving with continuous batching and a paged KV cache (model/serve.hpp, docs/models.md
// "Serving"): the concurrency the KV memory allows, the saturation throughput, TTFT and TPOT at a
// request rate, the rejections, the published TensorRT-LLM and vLLM rows and the CLI's --serve.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evidence_csv.hpp"
#include "serving_run.hpp"

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#endif

using namespace dlperf;

using dlperf_test::serving_run;

TEST_CASE("KV bytes per token are the layers' keys and values in the KV-cache dtype", "[serve]") {
  // Llama 3.1 8B (config.json): 32 layers, 8 key/value heads of 128: 2 x 32 x 8 x 128 = 65536
  // elements per token, 1 byte each in FP8 and 2 in BF16.
  const gpu_spec& h100 = catalog::find("h100_sxm");
  run_config r = serving_run(128, 128, dtype::fp8_e4m3);
  r.weights = weight_format::fp8;
  CHECK(estimate_serving(h100, presets::llama3_1_8b, r, stacks::ceiling).kv_per_token.value() ==
        Approx(65536.0));
  run_config wide = serving_run(128, 128);
  CHECK(estimate_serving(h100, presets::llama3_1_8b, wide, stacks::ceiling).kv_per_token.value() ==
        Approx(131072.0));
  wide.kv_cache = kv_cache_type::float8;
  CHECK(estimate_serving(h100, presets::llama3_1_8b, wide, stacks::ceiling).kv_per_token.value() ==
        Approx(65536.0));
}

TEST_CASE("Concurrency never exceeds what the KV memory holds, and fills it", "[serve]") {
  const gpu_spec& gpu = catalog::find("a100_sxm4_80gb");
  for (const auto& [p, g] : {std::pair{128LL, 128LL}, {1000LL, 1000LL}, {3000LL, 1000LL}}) {
    for (long long block : {1LL, 16LL, 64LL}) {
      serve_config c;
      c.block_tokens = block;
      c.max_sequences = 0;  // no cap: the KV memory alone bounds the batch
      const serve_estimate e =
          estimate_serving(gpu, presets::llama3_1_8b, serving_run(p, g), stacks::vllm, c);
      INFO("prompt " << p << " generate " << g << " block " << block);
      const double per_sequence =
          static_cast<double>(e.blocks_per_sequence * block) * e.kv_per_token.value();
      // vLLM takes blocks as tokens come: a sequence holds its prompt and half its output on
      // average, and paging wastes less than one block of it.
      CHECK(e.reservation == kv_reservation::as_generated);
      CHECK(static_cast<double>(e.blocks_per_sequence * block) <
            static_cast<double>(p) + 0.5 * static_cast<double>(g) + static_cast<double>(block));
      CHECK(static_cast<double>(e.blocks_per_sequence * block) >=
            static_cast<double>(p) + 0.5 * static_cast<double>(g));
      CHECK(static_cast<double>(e.concurrency) * per_sequence <= e.kv_budget.value());
      CHECK(static_cast<double>(e.concurrency + 1) * per_sequence > e.kv_budget.value());
      // The KV budget is what the weights, activations and overhead leave, times the fraction.
      CHECK(e.kv_budget.value() < 0.9 * gpu.memory(tier::global).capacity.value());
    }
  }
  serve_config capped;
  capped.max_sequences = 7;
  const serve_estimate e =
      estimate_serving(gpu, presets::llama3_1_8b, serving_run(128, 128), stacks::vllm, capped);
  CHECK(e.concurrency == 7);
  CHECK(e.kv_limited > 7);
}

TEST_CASE("Each engine schedules with its own defaults unless the run sets them", "[serve]") {
  // vLLM's get_batch_defaults (stack/shared_figures.hpp, vllm_scheduler): 1024 sequences and
  // 16384 tokens on an 80 GB H100, 256 and 8192 on the 80 GB A100 it excepts and on a 24 GB L4.
  const auto limits = [](const char* id, const software_stack& s) {
    const gpu_spec& g = catalog::find(id);
    return serve_config{}.under(s, g);
  };
  CHECK(limits("h100_sxm", stacks::vllm).max_sequences == 1024);
  CHECK(limits("h100_sxm", stacks::vllm).step_tokens == 16384);
  CHECK(limits("mi300x", stacks::vllm).max_sequences == 1024);
  CHECK(limits("a100_sxm4_80gb", stacks::vllm).max_sequences == 256);
  CHECK(limits("a100_sxm4_80gb", stacks::vllm).step_tokens == 8192);
  CHECK(limits("l4", stacks::vllm).max_sequences == 256);
  CHECK(limits("h100_sxm", stacks::vllm).reservation == kv_reservation::as_generated);
  CHECK(stacks::vllm.serving.chunked_prefill);
  // vLLM's V0 engine: 256 everywhere, whole prompts.
  CHECK(limits("h100_sxm", stacks::vllm_eager).max_sequences == 256);
  CHECK_FALSE(stacks::vllm_eager.serving.chunked_prefill);
  // TensorRT-LLM as trtllm-bench sets it: 4096 sequences, a budget sized from the run (left open
  // until the run is known), the whole context.
  CHECK(limits("h100_sxm", stacks::tensorrt_llm).max_sequences == 4096);
  CHECK(limits("h100_sxm", stacks::tensorrt_llm).step_tokens == serve_config::engine_default);
  CHECK(limits("h100_sxm", stacks::tensorrt_llm).shaped_step.least == 2048);
  CHECK(limits("h100_sxm", stacks::tensorrt_llm).shaped_step.most == 32768);
  CHECK(limits("h100_sxm", stacks::tensorrt_llm).reservation == kv_reservation::whole_context);
  // SGLang's server_args and model_runner (stack/cuda_stacks.hpp, sglang_scheduler): 2048
  // requests, 8192-token chunks below 160 GiB (the 80 GB H100, the 141 GB H200), 16384 from it
  // (the 180 GB B200); slots as tokens arrive; chunked prefill.
  CHECK(limits("h100_sxm", stacks::sglang).max_sequences == 2048);
  CHECK(limits("h100_sxm", stacks::sglang).step_tokens == 8192);
  CHECK(limits("h200_sxm", stacks::sglang).step_tokens == 8192);
  CHECK(limits("b200", stacks::sglang).step_tokens == 16384);
  CHECK(limits("b200", stacks::sglang).max_sequences == 2048);
  CHECK(limits("a100_sxm4_40gb", stacks::sglang).step_tokens == 8192);
  CHECK(limits("h100_sxm", stacks::sglang).reservation == kv_reservation::as_generated);
  CHECK(stacks::sglang.serving.chunked_prefill);
  // Every other stack keeps the model's earlier defaults: no cap, 8192 tokens.
  CHECK(limits("h100_sxm", stacks::ceiling).max_sequences == 0);
  CHECK(limits("h100_sxm", stacks::ceiling).step_tokens == 8192);
  // A run's own settings win.
  serve_config own;
  own.max_sequences = 0;
  own.step_tokens = 2048;
  own.reservation = kv_reservation::whole_context;
  const gpu_spec& h100 = catalog::find("h100_sxm");
  const serve_config k = own.under(stacks::vllm, h100);
  CHECK(k.max_sequences == 0);
  CHECK(k.step_tokens == 2048);
  CHECK(k.reservation == kv_reservation::whole_context);
  // The cap binds: a 70B model on 8 H100s holds more sequences than vLLM runs by default.
  run_config r = serving_run(1000, 1000, dtype::fp8_e4m3);
  r.weights = weight_format::fp8;
  r.gpus = r.tp = 8;
  const serve_estimate capped = estimate_serving(h100, presets::llama3_1_70b, r, stacks::vllm);
  CHECK(capped.concurrency == 1024);
  CHECK(capped.kv_limited > 1024);
  serve_config none;
  none.max_sequences = 0;
  const serve_estimate free = estimate_serving(h100, presets::llama3_1_70b, r, stacks::vllm, none);
  CHECK(free.concurrency == free.kv_limited);
  CHECK(free.output_tokens_per_second > capped.output_tokens_per_second);
}

TEST_CASE("TensorRT-LLM sizes its step from the run as trtllm-bench does", "[serve]") {
  // tensorrt_llm/bench/build/tuning.py, finetune_setting: max_num_tokens = min(KV-limited
  // sequences, 4096) x (1 + ISL/OSL), within 2048 and 32768; max_batch_size capped at 4096.
  const gpu_spec& h100 = catalog::find("h100_sxm");
  const auto serve = [&](const gpu_spec& g, const model_spec& m, long long p, long long out,
                         int gpus) {
    run_config r = serving_run(p, out, dtype::fp8_e4m3);
    r.weights = weight_format::fp8;
    r.gpus = r.tp = gpus;
    return estimate_serving(g, m, r, stacks::tensorrt_llm);
  };
  // Prompt-heavy: thousands of sequences times 1 + 2048/128 = 17 passes the ceiling, and the
  // KV memory of 8 GPUs holds more than the cap.
  const serve_estimate heavy = serve(h100, presets::llama3_1_8b, 2048, 128, 8);
  CHECK(heavy.step_tokens_shaped);
  CHECK(heavy.step_tokens == 32768);
  CHECK(heavy.prefill_batch == 16);
  CHECK(heavy.concurrency == 4096);
  // Output-heavy on one GPU: hundreds of sequences times 1 + 128/2048 stays under the floor.
  const serve_estimate light = serve(h100, presets::llama3_1_8b, 128, 2048, 1);
  CHECK(light.kv_limited < 2048);
  CHECK(light.step_tokens == 2048);
  // Between the two: the budget is the sequences expected at the floor's activations times 2,
  // no fewer than twice those the final activations leave.
  const serve_estimate mid = serve(h100, presets::llama3_1_8b, 128, 128, 1);
  CHECK(mid.kv_limited < 4096);
  CHECK(mid.step_tokens > 2048);
  CHECK(mid.step_tokens < 32768);
  CHECK(mid.step_tokens >= 2 * mid.kv_limited);
  CHECK(mid.prefill_batch == mid.step_tokens / 128);
  // The cap binds where the KV memory holds more than 4096 short sequences (8 B200s, NVFP4 70B)
  // and the budget is then the cap's: 4096 x 2.
  run_config r = serving_run(128, 128, dtype::fp4_e2m1);
  r.weights = weight_format::nvfp4;
  r.gpus = r.tp = 8;
  const serve_estimate wide =
      estimate_serving(catalog::find("b200"), presets::llama3_3_70b, r, stacks::tensorrt_llm);
  CHECK(wide.kv_limited > 4096);
  CHECK(wide.concurrency == 4096);
  CHECK(wide.step_tokens == 8192);
  // A run's own budget is taken as it is.
  serve_config own;
  own.step_tokens = 4096;
  const serve_estimate fixed = estimate_serving(h100, presets::llama3_1_8b, serving_run(1000, 1000),
                                                stacks::tensorrt_llm, own);
  CHECK_FALSE(fixed.step_tokens_shaped);
  CHECK(fixed.step_tokens == 4096);
}

TEST_CASE("A saturated serving job runs at the clock the board holds under its power limit",
          "[serve]") {
  // estimate/sustained_clock.hpp: the H100 SXM5 holds 1470 MHz under dense tensor work alone and
  // its boost clock under none (hopper.hpp); a serving job mixes both, so its fraction of the
  // 1830 MHz tensor clock lies between 1470 / 1830 and 1.
  const gpu_spec& h100 = catalog::find("h100_sxm");
  const auto serve = [&](const gpu_spec& g, long long p, long long out) {
    run_config r = serving_run(p, out, dtype::fp8_e4m3);
    r.weights = weight_format::fp8;
    return estimate_serving(g, presets::llama3_1_8b, r, stacks::tensorrt_llm);
  };
  const serve_estimate balanced = serve(h100, 1000, 1000);
  CHECK(balanced.clock_fraction < 1.0);
  CHECK(balanced.clock_fraction > 1470.0 / 1830.0);
  // Prompt-heavy work is more tensor-bound than output-heavy: the clock drops further.
  CHECK(serve(h100, 5000, 500).clock_fraction < serve(h100, 128, 2048).clock_fraction);
  // A board with no measured sustained clock keeps its quoted one.
  CHECK(serve(catalog::find("l40s"), 1000, 1000).clock_fraction == 1.0);
  // The clock only ever slows a step: the same job at full clock is at least as fast.
  const gpu_spec full = at_clock_fraction(h100, 1.0);
  CHECK(serve(full, 1000, 1000).clock_fraction == 1.0);
  CHECK(serve(full, 1000, 1000).output_tokens_per_second >= balanced.output_tokens_per_second);
  CHECK(balanced.decode_step >= serve(full, 1000, 1000).decode_step);
}

TEST_CASE("Serving throughput does not fall as the KV memory grows", "[serve]") {
  const gpu_spec& gpu = catalog::find("h100_sxm");
  for (const auto& [p, g] : {std::pair{128LL, 2048LL}, {2048LL, 128LL}}) {
    double last_rate = 0;
    long long last_n = 0;
    for (double f : {0.05, 0.1, 0.2, 0.4, 0.7, 1.0}) {
      serve_config c;
      c.kv_memory_fraction = f;
      const serve_estimate e =
          estimate_serving(gpu, presets::llama3_1_8b, serving_run(p, g), stacks::tensorrt_llm, c);
      INFO("prompt " << p << " generate " << g << " fraction " << f);
      CHECK(std::isfinite(e.output_tokens_per_second));
      CHECK(e.concurrency >= last_n);
      CHECK(e.output_tokens_per_second >= last_rate);
      last_rate = e.output_tokens_per_second;
      last_n = e.concurrency;
    }
  }
}

TEST_CASE("Serving is never faster under a stack than at the ceiling", "[serve]") {
  const gpu_spec& gpu = catalog::find("l40s");
  const run_config r = serving_run(500, 500);
  const double ceiling =
      estimate_serving(gpu, presets::llama3_1_8b, r, stacks::ceiling).output_tokens_per_second;
  for (const software_stack* s : stacks::all)
    if (s->vendors.has(gpu.arch().vendor))  // the ROCm stacks do not run on an L40S
      CHECK(estimate_serving(gpu, presets::llama3_1_8b, r, *s).output_tokens_per_second <=
            ceiling * (1.0 + 1e-9));
}

TEST_CASE("TTFT rises with the request rate, TPOT does not fall", "[serve]") {
  const gpu_spec& gpu = catalog::find("h100_sxm");
  const run_config r = serving_run(512, 256);
  const serve_estimate sat = estimate_serving(gpu, presets::llama3_1_8b, r, stacks::vllm);
  double ttft = 0, tpot = 0;
  for (double share : {0.05, 0.3, 0.6, 0.9, 0.99}) {
    const serve_load l = serve_at_rate(gpu, presets::llama3_1_8b, r, stacks::vllm, sat,
                                       share * sat.requests_per_second);
    INFO("share of saturation " << share);
    CHECK(l.ttft.value() > ttft);
    CHECK(l.tpot.value() >= tpot);
    CHECK(l.ttft >= sat.prefill_alone);
    CHECK(l.concurrency <= static_cast<double>(sat.concurrency));
    CHECK(l.utilisation == Approx(share));
    CHECK(l.latency.value() == Approx(l.ttft.value() + 255.0 * l.tpot.value()));
    ttft = l.ttft.value();
    tpot = l.tpot.value();
  }
}

TEST_CASE("Serving rejects rates at or above saturation, and bad inputs, by name", "[serve]") {
  const gpu_spec& gpu = catalog::find("h100_sxm");
  const run_config r = serving_run(512, 256);
  const serve_estimate sat = estimate_serving(gpu, presets::llama3_1_8b, r, stacks::ceiling);
  const auto at = [&](double rate) {
    return serve_at_rate(gpu, presets::llama3_1_8b, r, stacks::ceiling, sat, rate);
  };
  CHECK_THROWS_WITH(at(sat.requests_per_second), Catch::Contains("saturation rate"));
  CHECK_THROWS_WITH(at(2.0 * sat.requests_per_second), Catch::Contains("at or above"));
  CHECK_THROWS_AS(at(0.0), invalid_argument);
  CHECK_THROWS_AS(at(-1.0), invalid_argument);
  CHECK_THROWS_AS(at(std::numeric_limits<double>::quiet_NaN()), invalid_argument);
  CHECK_THROWS_AS(at(std::numeric_limits<double>::infinity()), invalid_argument);

  const auto with = [&](serve_config c) {
    return estimate_serving(gpu, presets::llama3_1_8b, r, stacks::ceiling, c);
  };
  serve_config c;
  c.block_tokens = 0;
  CHECK_THROWS_WITH(with(c), Catch::Contains("block_tokens"));
  for (long long bad : {0LL, -2LL}) {
    c = {};
    c.step_tokens = bad;
    CHECK_THROWS_WITH(with(c), Catch::Contains("step_tokens"));
  }
  c = {};
  c.shaped_step = {4096, 2048};  // a floor above its ceiling
  CHECK_THROWS_WITH(with(c), Catch::Contains("shaped_step"));
  c.shaped_step = {-1, 2048};
  CHECK_THROWS_WITH(with(c), Catch::Contains("shaped_step"));
  c = {};
  c.max_sequences = -2;  // -1 is serve_config::engine_default
  CHECK_THROWS_WITH(with(c), Catch::Contains("max_sequences"));
  for (double f : {0.0, -0.5, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
    c = {};
    c.kv_memory_fraction = f;
    CHECK_THROWS_WITH(with(c), Catch::Contains("kv_memory_fraction"));
  }
  // Not a decoder, not inference, nothing generated, no room for one sequence.
  CHECK_THROWS_WITH(estimate_serving(gpu, presets::bert_large, r, stacks::ceiling),
                    Catch::Contains("decoder-only"));
  run_config train = r;
  train.mode = run_mode::train;
  CHECK_THROWS_WITH(estimate_serving(gpu, presets::llama3_1_8b, train, stacks::ceiling),
                    Catch::Contains("inference"));
  run_config none = r;
  none.generate = 0;
  CHECK_THROWS_WITH(estimate_serving(gpu, presets::llama3_1_8b, none, stacks::ceiling),
                    Catch::Contains("generate"));
  run_config big = serving_run(1000, 1000);
  CHECK_THROWS_WITH(
      estimate_serving(catalog::find("rtx_4090"), presets::llama3_70b, big, stacks::ceiling),
      Catch::Contains("holds no sequence"));
}

TEST_CASE("Published TensorRT-LLM maximum throughput on H100 within 20 percent", "[serve]") {
  // Llama 3.1 8B FP8 on H100 SXM, TensorRT-LLM perf-overview (tests/data/evidence/rows.csv,
  // source TRTLLM-PERF-V1): the serve model under the tensorrt-llm stack, nothing fitted to
  // these rows (docs/evidence.md, "Serving"). Measured: within 16.4 % on all ten (+16.4 % at
  // 128/128, where the engine batches fewer sequences than the KV memory holds); 20.2 % before
  // decode attention read each K/V group once (ops/attention.hpp).
  int rows = 0;
  for (const evidence::row& row : evidence::rows()) {
    if (!evidence::is_serving(row) || evidence::field(row, "source") != "TRTLLM-PERF-V1" ||
        evidence::field(row, "gpu") != "h100_sxm")
      continue;
    const evidence::row_run x = evidence::serving_run(row);
    const double predicted = evidence::serving_prediction(x, stacks::of(x.stack));
    INFO(evidence::field(row, "id") << ": predicted " << predicted << ", measured " << x.measured);
    CHECK(std::abs(predicted / x.measured - 1.0) <= 0.20);
    ++rows;
  }
  CHECK(rows == 10);
}

TEST_CASE("Every serving evidence row runs, finite, positive, its stack below the ceiling",
          "[serve]") {
  // Properties only, for every engine's rows (TensorRT-LLM and vLLM, docs/evidence.md,
  // "Serving"): no accuracy bound beyond the H100 case above.
  int rows = 0;
  for (const evidence::row& row : evidence::rows()) {
    if (!evidence::is_serving(row)) continue;
    const evidence::row_run x = evidence::serving_run(row);
    const double ceiling = evidence::serving_prediction(x, stacks::ceiling);
    const double stack = evidence::serving_prediction(x, stacks::of(x.stack));
    INFO(evidence::field(row, "id") << ": ceiling " << ceiling << ", stack " << stack);
    CHECK(std::isfinite(ceiling));
    CHECK(stack > 0.0);
    CHECK(stack <= ceiling);
    ++rows;
  }
  CHECK(rows >= 28);
}

TEST_CASE("Serving evidence report", "[.][serve_evidence]") {
  std::vector<double> all, by_ceiling;
  std::string table =
      "| id | GPU | model | prompt/output | measured tokens/s | ceiling | error | stack | error "
      "|\n|---|---|---|---|---:|---:|---:|---:|---:|\n";
  for (const evidence::row& row : evidence::rows()) {
    if (!evidence::is_serving(row)) continue;
    const evidence::row_run x = evidence::serving_run(row);
    const double ceiling = evidence::serving_prediction(x, stacks::ceiling);
    const double stack = evidence::serving_prediction(x, stacks::of(x.stack));
    const double e_ceiling = ceiling / x.measured - 1.0, e_stack = stack / x.measured - 1.0;
    by_ceiling.push_back(std::abs(e_ceiling));
    all.push_back(std::abs(e_stack));
    std::array<char, 256> line{};
    std::snprintf(line.data(), line.size(),
                  "| %s | %s | %s | %lld/%lld | %.0f | %.0f | %+.1f %% | %.0f | %+.1f %% |\n",
                  evidence::field(row, "id").c_str(), evidence::field(row, "gpu").c_str(),
                  evidence::field(row, "model").c_str(), x.seq, x.run.generate, x.measured, ceiling,
                  100.0 * e_ceiling, stack, 100.0 * e_stack);
    table += line.data();
  }
  REQUIRE(!all.empty());
  std::sort(all.begin(), all.end());
  std::sort(by_ceiling.begin(), by_ceiling.end());
  std::printf(
      "%s\n%zu rows: median |error| ceiling %.1f %%, worst %.1f %%; under the stack %.1f %%, "
      "worst %.1f %%\n",
      table.c_str(), all.size(), 100.0 * evidence::median(by_ceiling), 100.0 * by_ceiling.back(),
      100.0 * evidence::median(all), 100.0 * all.back());
}

namespace {

// Every serving row's group (model/error_bands.hpp, serving_band: stack, vendor, class of board)
// and its figures, recomputed from the evidence.
std::vector<serving_band> serving_bands_of_evidence() {
  std::map<evidence::serving_key, std::vector<double>> errors;
  for (const evidence::row& row : evidence::rows()) {
    if (!evidence::is_serving(row)) continue;
    const evidence::row_run x = evidence::serving_run(row);
    const double predicted = evidence::serving_prediction(x, stacks::of(x.stack));
    errors[{x.stack, x.gpu->arch().vendor, board_class_of(*x.gpu)}].push_back(
        predicted / x.measured - 1.0);
  }
  return evidence::serving_bands_of(errors, false);
}

}  // namespace

TEST_CASE("every serving band is its error on the evidence", "[serve]") {
  evidence::check_serving_bands(serving_bands_of_evidence(), false);
  // No serving group on another engine, vendor or class sneaks a band in.
  CHECK_FALSE(serving_band_of(stack_id::vllm, vendor::nvidia, board_class::hbm, false));
  CHECK_FALSE(
      serving_band_of(stack_id::tensorrt_llm, vendor::nvidia, board_class::consumer, false));
}

// Prints the groups as model/error_bands.hpp lists them and docs/evidence.md's table of them.
// Hidden: `dlperf_tests "[serve_bands]"`.
TEST_CASE("serving bands as listed", "[.][serve_bands]") {
  const std::vector<serving_band> groups = serving_bands_of_evidence();
  evidence::print_serving_bands(groups);
  std::printf(
      "\n| stack | vendor | boards | rows | median | bias | measured / predicted, 10th-90th "
      "percentile |\n|---|---|---|---:|---:|---:|---|\n");
  for (const serving_band& b : groups)
    std::printf("| %s | %s | %s | %d | %.1f %% | %+.1f %% | %.2f-%.2f%s |\n",
                std::string(name(b.stack)).c_str(), std::string(name(b.vendor)).c_str(),
                std::string(name(b.boards)).c_str(), b.rows, 100 * b.median, 100 * b.bias, b.low,
                b.high, b.banded() ? "" : " (too few rows: no band)");
  CHECK(!groups.empty());
}

#ifdef DLPERF_CLI_PATH

TEST_CASE("dlperf model --serve --json answers with the documented keys", "[serve][cli]") {
  const auto r = dlperf_test::run_dlperf(
      "model --preset llama3_1_8b --gpu h100_sxm --dtype fp8_e4m3 --weights fp8 --prompt 512 "
      "--generate 256 --serve --rate 5 --stack vllm --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* key : {"model",
                          "gpu",
                          "dtype",
                          "weights",
                          "kv_dtype",
                          "stack",
                          "prompt",
                          "generate",
                          "gpus",
                          "tp",
                          "block_tokens",
                          "kv_memory_fraction",
                          "step_tokens",
                          "step_tokens_shaped",
                          "max_sequences",
                          "kv_budget_bytes",
                          "kv_bytes_per_token",
                          "blocks_per_sequence",
                          "concurrency",
                          "kv_limited_concurrency",
                          "kv_reservation",
                          "chunked_prefill",
                          "clock_fraction",
                          "prefill_batch",
                          "decode_step_s",
                          "prefill_per_request_s",
                          "prefill_alone_s",
                          "requests_per_second",
                          "output_tokens_per_second",
                          "total_tokens_per_second",
                          "at_rate",
                          "at_concurrency",
                          "ceiling",
                          "prompt_least",
                          "generate_least",
                          "prompt_mean",
                          "generate_mean"})
    CHECK(j.contains(key));
  // Every request of the run's lengths: the least and the mean are the run's.
  CHECK(j["prompt_least"] == 512);
  CHECK(j["generate_mean"].get<double>() == 256.0);
  CHECK(j["stack"] == "vllm");
  CHECK(j["kv_reservation"] == "as-generated");
  CHECK(j["chunked_prefill"] == true);
  // vLLM's own limits on an 80 GB H100 (docs/stacks.md, "Serving schedulers").
  CHECK(j["max_sequences"] == 1024);
  CHECK(j["step_tokens"] == 16384);
  CHECK(j["step_tokens_shaped"] == false);
  CHECK(j["clock_fraction"].get<double>() < 1.0);
  CHECK(j["clock_fraction"].get<double>() > 1470.0 / 1830.0);
  CHECK(j["kv_bytes_per_token"].get<double>() == Approx(65536.0));
  CHECK(j["output_tokens_per_second"].get<double>() <=
        j["ceiling"]["output_tokens_per_second"].get<double>());
  for (const char* key : {"requests_per_second", "utilisation", "concurrency", "ttft_s", "tpot_s",
                          "request_latency_s", "output_tokens_per_second"})
    CHECK(j["at_rate"].contains(key));
  CHECK(j["at_rate"]["requests_per_second"].get<double>() == Approx(5.0));
  CHECK(j["at_rate"]["output_tokens_per_second"].get<double>() == Approx(5.0 * 256));
  const auto text = dlperf_test::run_dlperf(
      "model --preset llama3_1_8b --gpu h100_sxm --prompt 512 --generate 256 --serve");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("maximum throughput") != std::string::npos);
  CHECK(text.out.find("of its tensor clock") != std::string::npos);
}

TEST_CASE("dlperf model --serve --concurrency answers a closed loop's throughput and latencies",
          "[serve][cli][concurrency]") {
  // Llama 3.3 70B in FP8 over two H100s under TensorRT-LLM, 5000-token prompts and 500 output
  // tokens: the first table of NVIDIA's NIM benchmarking page (docs/evidence.md, "Serving at a
  // concurrency"). The tool gives what serve_at_concurrency gives, per job and in SI units.
  const std::string args =
      "model --preset llama3_3_70b --gpu h100_sxm --gpus 2 --tp 2 --dtype fp8_e4m3 --weights fp8 "
      "--prompt 5000 --generate 500 --serve --stack tensorrt-llm";
  run_config r = serving_run(5000, 500, dtype::fp8_e4m3);
  r.weights = weight_format::fp8;
  r.gpus = r.tp = 2;
  const gpu_spec& h100 = catalog::find("h100_sxm");
  const serve_config engine = serve_config{}.under(stacks::tensorrt_llm, h100);
  const serve_estimate sat =
      estimate_serving(h100, presets::llama3_3_70b, r, stacks::tensorrt_llm, engine);
  for (long long users : {1LL, 25LL, 250LL}) {
    INFO(users << " requests in flight");
    const auto run =
        dlperf_test::run_dlperf(args + " --concurrency " + std::to_string(users) + " --json");
    REQUIRE(run.exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(run.out)["at_concurrency"];
    const serve_load l = serve_at_concurrency(h100, presets::llama3_3_70b, r, stacks::tensorrt_llm,
                                              engine, sat, users);
    for (const char* key :
         {"concurrency", "sequences_decoding", "waiting", "requests_per_second", "utilisation",
          "ttft_s", "tpot_s", "request_latency_s", "output_tokens_per_second"})
      CHECK(j.contains(key));
    CHECK(j["concurrency"].get<double>() == Approx(static_cast<double>(users)));
    CHECK(j["output_tokens_per_second"].get<double>() == Approx(l.rate * 500.0));
    CHECK(j["ttft_s"].get<double>() == Approx(l.ttft.value()));
    CHECK(j["tpot_s"].get<double>() == Approx(l.tpot.value()));
    CHECK(j["waiting"].get<double>() == Approx(l.waiting));
    // NIM's nine closed-loop runs of this very setup are its group's band, applied to this load.
    const std::optional<serving_band> listed =
        closed_loop_band_of(stack_id::tensorrt_llm, vendor::nvidia, board_class::hbm, true);
    REQUIRE(listed);
    CHECK(j["serving_band"]["rows"] == listed->rows);
    CHECK(j["serving_band"]["banded"] == true);
    CHECK(j["serving_band"]["output_tokens_per_s"][0].get<double>() ==
          Approx(listed->low * l.rate * 500.0));
  }
  // Without --concurrency the key is there, and null.
  const auto plain = dlperf_test::run_dlperf(args + " --json");
  REQUIRE(plain.exit_code == 0);
  CHECK(nlohmann::json::parse(plain.out)["at_concurrency"].is_null());
  const auto text = dlperf_test::run_dlperf(args + " --concurrency 250");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("at 250 requests in flight") != std::string::npos);
  CHECK(text.out.find("waiting for a free sequence") != std::string::npos);
  CHECK(
      text.out.find("accuracy at this load: published tensorrt-llm runs at a fixed concurrency") !=
      std::string::npos);
  // A group of one run says what that run measured, in the singular.
  const auto single = dlperf_test::run_dlperf(
      "model --preset llama3_1_8b --gpu a100_sxm4_80gb --prompt 1024 --generate 1024 --serve "
      "--stack vllm --concurrency 64");
  REQUIRE(single.exit_code == 0);
  CHECK(single.out.find("only 1 published vllm run at a fixed concurrency") != std::string::npos);
  CHECK(single.out.find("it ran at") != std::string::npos);
}

TEST_CASE("dlperf model --serve says what its throughput is worth, and its prefill batch",
          "[serve][cli]") {
  const std::string trt =
      "model --preset llama3_1_8b --gpu h100_sxm --dtype fp8_e4m3 --weights fp8 --prompt 1000 "
      "--generate 1000 --serve --stack tensorrt-llm";
  const auto json = dlperf_test::run_dlperf(trt + " --json");
  REQUIRE(json.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  // The published TensorRT-LLM runs on NVIDIA data-centre boards: a band, applied to this rate.
  const nlohmann::json& band = j["serving_band"];
  REQUIRE(band.is_object());
  const std::optional<serving_band> listed =
      serving_band_of(stack_id::tensorrt_llm, vendor::nvidia, board_class::hbm, false);
  REQUIRE(listed);
  CHECK(band["banded"] == true);
  CHECK(band["rows"] == listed->rows);
  CHECK(band["vendor"] == "nvidia");
  CHECK(band["boards"] == "hbm");
  CHECK(band["gpus_per_row"] == 1);
  const double rate = j["output_tokens_per_second"].get<double>();
  CHECK(band["output_tokens_per_s"][0].get<double>() == Approx(listed->low * rate));
  CHECK(band["output_tokens_per_s"][1].get<double>() == Approx(listed->high * rate));
  CHECK(band["measured_over_predicted"][0].get<double>() <=
        band["measured_over_predicted"][1].get<double>());

  const auto text = dlperf_test::run_dlperf(trt);
  REQUIRE(text.exit_code == 0);
  const long long prefill_batch = j["prefill_batch"].get<long long>();
  CHECK_THAT(text.out, Catch::Contains("prefill batches of " + std::to_string(prefill_batch) +
                                       (prefill_batch == 1 ? " prompt (" : " prompts (")));
  // trtllm-bench sizes the step from the run, and the text says so with the figure in force.
  CHECK(j["step_tokens_shaped"] == true);
  CHECK_THAT(text.out, Catch::Contains(std::to_string(j["step_tokens"].get<long long>()) +
                                       " tokens a step: tensorrt-llm sizes it from the run"));
  CHECK_THAT(dlperf_test::run_dlperf(trt + " --step-tokens 4096").out,
             Catch::Contains("4096 tokens a step, --step-tokens"));
  CHECK_THAT(text.out, Catch::Contains("accuracy: published tensorrt-llm serving runs on NVIDIA "
                                       "HBM boards, one GPU measured"));
  CHECK(band["several_gpus"] == false);

  // A tensor split of one model copy has its own group: the 171 TensorRT-LLM runs on 2-8 GPUs
  // (tests/data/evidence/serving_multi_gpu.csv), and the text names it.
  const std::string split =
      "model --preset llama3_3_70b --gpu h100_sxm --gpus 8 --tp 8 --dtype fp8_e4m3 --weights fp8 "
      "--prompt 1000 --generate 1000 --serve --stack tensorrt-llm";
  const auto split_json = dlperf_test::run_dlperf(split + " --json");
  REQUIRE(split_json.exit_code == 0);
  const nlohmann::json split_band = nlohmann::json::parse(split_json.out)["serving_band"];
  const std::optional<serving_band> several =
      serving_band_of(stack_id::tensorrt_llm, vendor::nvidia, board_class::hbm, true);
  REQUIRE(several);
  CHECK(split_band["several_gpus"] == true);
  CHECK(split_band["gpus_per_row"].is_null());
  CHECK(split_band["rows"] == several->rows);
  CHECK_THAT(dlperf_test::run_dlperf(split).out,
             Catch::Contains("boards, one model copy over several GPUs measured"));

  // vLLM's only rows ran its ROCm build: a run of its CUDA build has none, and says so.
  const std::string vllm =
      "model --preset llama3_1_8b --prompt 1000 --generate 1000 --serve --stack vllm ";
  const auto none = dlperf_test::run_dlperf(vllm + "--gpu h100_sxm --json");
  REQUIRE(none.exit_code == 0);
  CHECK(nlohmann::json::parse(none.out)["serving_band"].is_null());
  CHECK_THAT(dlperf_test::run_dlperf(vllm + "--gpu h100_sxm").out,
             Catch::Contains("no published vllm serving runs on NVIDIA HBM boards"));
  // Its ROCm build's single-GPU rows, three, are too few for a band, but what they measured is
  // said.
  const std::string vllm_rocm =
      "model --preset llama3_1_8b --prompt 1000 --generate 1000 --serve --stack vllm-rocm ";
  const auto few = dlperf_test::run_dlperf(vllm_rocm + "--gpu mi300x --json");
  REQUIRE(few.exit_code == 0);
  CHECK(nlohmann::json::parse(few.out)["serving_band"]["banded"] == false);
  CHECK_THAT(dlperf_test::run_dlperf(vllm_rocm + "--gpu mi300x").out,
             Catch::Contains("too few for a band; they ran at"));
  // The ceiling is no engine: no band.
  const auto ceiling = dlperf_test::run_dlperf(
      "model --preset llama3_1_8b --gpu h100_sxm --prompt 1000 --generate 1000 --serve --stack "
      "ceiling --json");
  REQUIRE(ceiling.exit_code == 0);
  CHECK(nlohmann::json::parse(ceiling.out)["serving_band"].is_null());
}

TEST_CASE("dlperf model --serve rejects each bad input with exit code 2 and one line",
          "[serve][cli][errors]") {
  const std::string base = "model --preset llama3_1_8b --gpu h100_sxm --prompt 512 --generate 256 ";
  // Each bad input with the words its one-line message must hold.
  const std::pair<std::string, std::string> cases[] = {
      {base + "--serve --rate 1e6", "saturation rate"},
      {base + "--serve --rate 0", "--rate"},
      {base + "--serve --rate -3", "--rate"},
      {base + "--serve --rate nan", "--rate"},
      {base + "--serve --block-size 0", "--block-size"},
      {base + "--serve --kv-fraction 0", "--kv-fraction"},
      {base + "--serve --kv-fraction 1.5", "--kv-fraction"},
      {base + "--serve --step-tokens 0", "--step-tokens"},
      {base + "--serve --max-seqs 2.5", "--max-seqs"},
      {base + "--serve --batch 8", "--batch"},
      {base + "--serve --train", "--infer"},
      {base + "--rate 3", "--rate needs --serve"},
      {base + "--serve --concurrency 0", "--concurrency"},
      {base + "--serve --concurrency -8", "--concurrency"},
      {base + "--serve --concurrency 2.5", "--concurrency"},
      {base + "--serve --concurrency 1e9", "--concurrency"},
      {base + "--serve --gpus 2 --concurrency 3", "multiple of 2"},
      {base + "--concurrency 16", "--concurrency needs --serve"},
      {base + "--prompt-min 16", "--prompt-min needs --serve"},
      {base + "--generate-min 16", "--generate-min needs --serve"},
      {base + "--serve --prompt-min 0", "--prompt-min"},
      {base + "--serve --prompt-min 2.5", "--prompt-min"},
      {base + "--serve --generate-min -1", "--generate-min"},
      {base + "--serve --prompt-min 513", "--prompt-min 513 is longer than --prompt 512"},
      {base + "--serve --generate-min 300", "--generate-min 300 is longer than --generate 256"},
      {"model --preset llama3_1_8b --gpu h100_sxm --prompt 512 --serve", "--generate"},
      {"model --preset bert_large --gpu h100_sxm --generate 4 --serve", "decoder-only"}};
  for (const auto& [args, message] : cases) dlperf_test::require_usage_error(args, message);
}

#endif
