// Selective activation checkpointing as torchtitan runs it (model/run.hpp,
// selective_checkpointing; torchtitan/models/llama3/parallelize_llama.py): its per-op policy
// recomputes a layer's forward but the outputs of every other matrix product and of the fused
// attention; its layer policy recomputes every second layer whole.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>

#ifdef DLPERF_CLI_PATH
#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace {

run_config selective_run(selective_checkpointing p) {
  run_config r{.batch = 1, .seq = 4096};
  r.selective = p;
  return r;
}

double gemm_work(const op_sequence& ops) {
  double w = 0;
  for (const op_estimate& op : ops)
    if (op.kind == op_kind::gemm) w += op.work.value() * static_cast<double>(op.repeats);
  return w;
}

}  // namespace

TEST_CASE("torchtitan's per-op policy recomputes wk, wo and w3 of every layer and no attention",
          "[selective_checkpointing]") {
  // Llama 3 8B: h 4096, 8 key/value heads of 128 (kv 1024), FFN 14336, 32 layers; a layer's
  // products run wq, wk, wv, wo, w1, w3, w2 and the second, fourth and sixth are recomputed.
  const model_estimate e = estimate_model(catalog::h100_sxm, presets::llama3_8b,
                                          selective_run(selective_checkpointing::ops));
  const double T = 4096, h = 4096, kv = 1024, q = 4096, f = 14336, layers = 32;
  CHECK(gemm_work(e.recompute) == Approx(2.0 * T * (h * kv + q * h + h * f) * layers));
  for (const op_estimate& op : e.recompute) {
    INFO(op.name);
    CHECK(op.kind != op_kind::attention);
    CHECK(op.repeats == 32);
  }
  // Every norm and the SwiGLU run again.
  const auto has = [&](std::string_view name) {
    for (const op_estimate& op : e.recompute)
      if (op.name == name) return true;
    return false;
  };
  CHECK(has("norm 1"));
  CHECK(has("norm 2"));
  CHECK(has("SwiGLU"));
  CHECK_FALSE(has("FFN down"));
}

TEST_CASE("torchtitan's layer policy recomputes every second layer whole",
          "[selective_checkpointing]") {
  const model_estimate full =
      estimate_model(catalog::a100_sxm4_80gb, presets::llama2_7b,
                     run_config{.batch = 1, .seq = 4096, .checkpointing = true});
  const model_estimate half = estimate_model(catalog::a100_sxm4_80gb, presets::llama2_7b,
                                             selective_run(selective_checkpointing::layers));
  CHECK(half.recompute.work().value() == Approx(full.recompute.work().value() / 2.0));
  // GPT-2's 12 layers: 6 of them.
  run_config r = selective_run(selective_checkpointing::layers);
  r.seq = 1024;
  const model_estimate gpt2 = estimate_model(catalog::a100_sxm4_80gb, presets::gpt2, r);
  for (const op_estimate& op : gpt2.recompute) CHECK(op.repeats == 6);
}

TEST_CASE("selective checkpointing sits between none and full, in time and in memory",
          "[selective_checkpointing]") {
  for (const model_spec* m : {&presets::llama3_8b, &presets::llama2_13b, &presets::mistral_7b,
                              &presets::gpt2, &presets::qwen2_5_7b}) {
    for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
             &catalog::h100_sxm, &catalog::a100_sxm4_80gb, &catalog::mi300x}) {
      INFO(m->name << " on " << g->id());
      const run_config none{.batch = 2, .seq = 1024};
      run_config full = none;
      full.checkpointing = true;
      run_config ops = none, layers = none;
      ops.selective = selective_checkpointing::ops;
      layers.selective = selective_checkpointing::layers;
      const double t_none = estimate_model(*g, *m, none).time.value();
      const double t_full = estimate_model(*g, *m, full).time.value();
      const double t_ops = estimate_model(*g, *m, ops).time.value();
      const double t_layers = estimate_model(*g, *m, layers).time.value();
      CHECK(t_none < t_ops);
      CHECK(t_ops < t_full);
      CHECK(t_none < t_layers);
      CHECK(t_layers < t_full);
      const double m_none = memory_need(*m, none).activations.value();
      const double m_full = memory_need(*m, full).activations.value();
      const double m_ops = memory_need(*m, ops).activations.value();
      const double m_layers = memory_need(*m, layers).activations.value();
      CHECK(m_full < m_ops);
      CHECK(m_ops < m_none);
      CHECK(m_full < m_layers);
      CHECK(m_layers < m_none);
    }
  }
}

TEST_CASE("selective checkpointing a model or run cannot take is refused with the reason",
          "[selective_checkpointing]") {
  const gpu_spec& g = catalog::h100_sxm;
  const run_config ops = selective_run(selective_checkpointing::ops);
  CHECK_THROWS_WITH(estimate_model(g, presets::mixtral_8x7b, ops),
                    Catch::Contains("a mixture of experts, latent attention or LoRA"));
  CHECK_THROWS_WITH(estimate_model(g, presets::deepseek_v3, ops),
                    Catch::Contains("a mixture of experts, latent attention or LoRA"));
  CHECK_THROWS_WITH(
      estimate_model(g, presets::resnet50,
                     run_config{.batch = 32, .selective = selective_checkpointing::layers}),
      Catch::Contains("a CNN takes none or full"));
  CHECK_THROWS_WITH(
      estimate_model(g, presets::transformer_big, selective_run(selective_checkpointing::layers)),
      Catch::Contains("an encoder-decoder takes none or full"));
  run_config both = ops;
  both.checkpointing = true;
  CHECK_THROWS_WITH(both.validate(), Catch::Contains("give one"));
  run_config infer = ops;
  infer.mode = run_mode::infer;
  CHECK_THROWS_WITH(infer.validate(), Catch::Contains("is for training"));
  // Mixtral takes the layer policy.
  CHECK(std::isfinite(
      estimate_model(g, presets::mixtral_8x7b, selective_run(selective_checkpointing::layers))
          .time.value()));
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model --selective-checkpointing ops recomputes and says so in JSON",
          "[selective_checkpointing][cli]") {
  const std::string run = "model --preset llama3_8b --gpu h100_sxm --batch 1 --seq 4096 --json";
  const nlohmann::json none = dlperf_test::json_of(run);
  const nlohmann::json ops = dlperf_test::json_of(run + " --selective-checkpointing ops");
  CHECK(none.at("selective_checkpointing") == "none");
  CHECK(ops.at("selective_checkpointing") == "ops");
  CHECK(ops.at("step_time_s").get<double>() > none.at("step_time_s").get<double>());
  CHECK(ops.at("memory").at("activations_bytes").get<double>() <
        none.at("memory").at("activations_bytes").get<double>());
  dlperf_test::require_usage_error(
      "model --preset llama3_8b --gpu h100_sxm --checkpointing --selective-checkpointing ops",
      "give one");
  dlperf_test::require_usage_error(
      "model --preset llama3_8b --gpu h100_sxm --infer --selective-checkpointing layers",
      "--selective-checkpointing is for --train");
  dlperf_test::require_usage_error(
      "model --preset llama3_8b --gpu h100_sxm --selective-checkpointing some",
      "--selective-checkpointing");
}
#endif
