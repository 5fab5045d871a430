// DeepSeek's layers in the step (docs/models.md, "A training step and inference"): multi-head
// latent attention's projections, decode over the cached latent with the up projections
// absorbed, the shared expert and the leading dense layers, each against the model's own
// parameter count (DeepSeek-V3: 671 B parameters, 37 B activated per token).
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string_view>

using namespace dlperf;

namespace mla_moe_test {

// FLOP of the weight GEMMs of phase @p p (attention's products are attention operators when
// fused).
double gemm_work(const model_estimate& m, step_phase p) {
  double w = 0;
  for (const op_estimate& op : m.phase(p))
    if (op.kind == op_kind::gemm) w += static_cast<double>(op.repeats) * op.work.value();
  return w;
}

// Runs of the operator named @p name in phase @p p (0 when absent).
long long runs_of(const model_estimate& m, step_phase p, std::string_view name) {
  long long n = 0;
  for (const op_estimate& op : m.phase(p))
    if (op.name == name) n += op.repeats;
  return n;
}

// The weights one token passes through in DeepSeek-V3's blocks and head: every layer's
// attention, the routed experts it reaches, the shared expert, the router, the dense layers'
// FFN and the LM head.
double active_weights(const transformer_config& t) {
  const double moe = static_cast<double>(t.moe_layers()),
               dense = static_cast<double>(t.dense_layers);
  const double k = static_cast<double>(t.experts_per_token);
  return static_cast<double>(t.layers) * t.attention_parameters() +
         moe * (k * t.ffn_parameters() + t.ffn_parameters(t.shared_expert_ffn) +
                static_cast<double>(t.hidden * t.experts)) +
         dense * t.ffn_parameters(t.ffn_width()) + static_cast<double>(t.vocab * t.hidden);
}

}  // namespace mla_moe_test

using namespace mla_moe_test;

TEST_CASE("DeepSeek-V3's forward GEMMs do 2 FLOP per active weight and token",
          "[model][moe][mla]") {
  const transformer_config& t = presets::deepseek_v3.transformer;
  // 4096 tokens route 8 of 256 experts each: 128 tokens an expert, no rounding.
  run_config r;
  r.batch = 1;
  r.seq = 4096;
  const model_estimate m = estimate_model(catalog::find("h100_sxm"), presets::deepseek_v3, r);
  CHECK(gemm_work(m, step_phase::forward) ==
        Approx(2.0 * 4096.0 * active_weights(t)).epsilon(1e-5));
  // The published 37 B activated parameters are these weights plus the embedding.
  CHECK((active_weights(t) + static_cast<double>(t.vocab * t.hidden)) / 1e9 ==
        Approx(37.0).epsilon(0.02));
  // 58 layers route to experts and their shared expert, the first 3 keep a dense FFN.
  CHECK(runs_of(m, step_phase::forward, "expert FFN down") == 58);
  CHECK(runs_of(m, step_phase::forward, "shared expert down") == 58);
  CHECK(runs_of(m, step_phase::forward, "FFN down") == 3);
  CHECK(runs_of(m, step_phase::forward, "KV up projection") == 61);
  CHECK(runs_of(m, step_phase::forward, "QKV projection") == 0);
}

TEST_CASE("DeepSeek decode reads the active weights and the cached latent, once",
          "[model][moe][mla]") {
  const transformer_config& t = presets::deepseek_v3.transformer;
  run_config r;
  r.mode = run_mode::infer;
  r.prompt = 1024;
  r.generate = 2;  // the decode step attends to 1024 + 1 positions
  const model_estimate m = estimate_model(catalog::find("h200_sxm"), presets::deepseek_v3, r);
  // Absorbed: no KV up projection over the context; per head products into the latent's space.
  CHECK(runs_of(m, step_phase::decode, "KV up projection") == 0);
  CHECK(runs_of(m, step_phase::decode, "K up absorbed into Q") == 61);
  CHECK(runs_of(m, step_phase::decode, "V up on the output") == 61);
  // One token reaches 8 experts: the step reads the active weights in BF16 and, per layer, the
  // 1025 cached latents and rotary keys (512 + 64 elements each), activations aside.
  double dram = 0, attention_dram = 0;
  for (const op_estimate& op : m.decode) {
    dram += static_cast<double>(op.repeats) * op.dram.value();
    if (op.kind == op_kind::attention) attention_dram = op.dram.value();
  }
  const double weights = 2.0 * active_weights(t);
  CHECK(dram > weights);
  CHECK(dram < 1.01 * weights);
  // The attention kernel reads the latent cache and writes its output: 1025 x 576 x 2 bytes of
  // cache, and the 128 heads' query and output of 544 elements (the kernel's mean head width).
  CHECK(attention_dram == Approx(1025.0 * 576.0 * 2.0 + 2.0 * 128.0 * 544.0 * 2.0));
}

TEST_CASE("DeepSeek's batch-1 decode GEMMs are not compute-bound, the step faster than prefill",
          "[model][moe][mla][properties]") {
  for (const char* id : {"h100_sxm", "h200_sxm", "mi300x", "b200"}) {
    INFO(id);
    run_config r;
    r.mode = run_mode::infer;
    r.prompt = 2048;
    r.generate = 128;
    r.gpus = 8;
    r.tp = 8;
    const model_estimate m = estimate_model(catalog::find(id), presets::deepseek_v3, r);
    CHECK(std::isfinite(m.decode_per_token.value()));
    CHECK(m.decode_per_token.value() > 0);
    CHECK(m.decode_per_token.value() < m.prefill_time.value());
    CHECK(m.mfu() <= 1.0);
    // Batch 1: no weight GEMM of a decode step is compute-bound (the large ones stream their
    // weights from DRAM, the small ones are latency-bound).
    for (const op_estimate& op : m.decode)
      if (op.kind == op_kind::gemm) CHECK(op.bound != bound::compute);
  }
}

TEST_CASE("LoRA on DeepSeek's latent attention is rejected, MoE adapters take the experts' width",
          "[lora][moe][mla][errors]") {
  run_config r;
  r.seq = 512;
  r.lora.rank = 8;
  CHECK_THROWS_WITH(estimate_model(catalog::find("h100_sxm"), presets::deepseek_v3, r),
                    Catch::Contains("lora on multi-head latent attention"));
  CHECK_THROWS_WITH(memory_need(presets::deepseek_v3, r),
                    Catch::Contains("lora on multi-head latent attention"));
  // Qwen3-30B-A3B: each of 128 experts is 768 wide (its dense `ffn` field is not an expert's).
  const transformer_config& q = presets::qwen3_30b_a3b.transformer;
  r.lora.targets = lora_targets{}.with(lora_target::down);
  CHECK(lora_parameters(q, r) ==
        8.0 * static_cast<double>(768 + q.hidden) * 128.0 * static_cast<double>(q.layers));
}
