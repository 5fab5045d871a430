// Whole models: parameter counts against the published ones, memory against published figures,
// properties of the step estimates over the catalog, and every rejection.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/model_json.hpp>
#include <string>
#include <string_view>
#include <vector>

using namespace dlperf;

namespace {

bool finite_positive(double v) { return v > 0 && std::isfinite(v); }

}  // namespace

TEST_CASE("every preset's computed parameter count matches its published count", "[model]") {
  for (const model_spec& m : presets::all) {
    INFO(m.name << ": computed " << m.parameters() << ", published " << m.published_parameters);
    // Published counts are rounded to three digits (BERT-large's "340M" is 335.1M with the
    // pooler; the Transformer's "213M" depends on a vocabulary given as "about 37000").
    CHECK(m.parameters() == Approx(m.published_parameters).epsilon(0.015));
  }
  // The exact counts the reference implementations print (HF, torchvision, imgclsmob).
  CHECK(presets::bert_base.parameters() == 109482240);
  CHECK(presets::bert_large.parameters() == 335141888);
  CHECK(presets::gpt2.parameters() == 124439808);
  CHECK(presets::gpt2_xl.parameters() == 1557611200);
  CHECK(presets::llama2_7b.parameters() == 6738415616);
  CHECK(presets::llama2_13b.parameters() == 13015864320);
  CHECK(presets::llama2_70b.parameters() == 68976648192);
  CHECK(presets::llama3_8b.parameters() == 8030261248);
  CHECK(presets::llama3_70b.parameters() == 70553706496);
  CHECK(presets::mistral_7b.parameters() == 7241732096);
  CHECK(presets::mixtral_8x7b.parameters() == 46702792704);
  CHECK(presets::resnet50.parameters() == 25557032);
  CHECK(presets::resnet101.parameters() == 44549160);
  CHECK(presets::se_resnext101_32x4d.parameters() == 48955416);
}

TEST_CASE("Mixtral's active parameters are the published 12.9B", "[model]") {
  // mistral.ai/news/mixtral-of-experts: "12.9B active parameters per token".
  CHECK(presets::mixtral_8x7b.transformer.active_parameters() == 12879925248);
  CHECK(presets::llama2_7b.transformer.active_parameters() == presets::llama2_7b.parameters());
}

TEST_CASE("presets are found by name, and an unknown one lists the valid names", "[model]") {
  CHECK(presets::find("llama3_8b").name == "llama3_8b");
  CHECK_THROWS_AS(presets::find("llama5"), not_found);
  CHECK_THROWS_WITH(presets::find("llama5"),
                    Catch::Contains("unknown model preset 'llama5'") && Catch::Contains("gpt2_xl"));
}

TEST_CASE("mixed-precision Adam holds 16 bytes per parameter (ZeRO)", "[model][memory]") {
  // Rajbhandari et al. 2019 (ZeRO), section 3.1: 2 + 2 + 12 bytes per parameter; their
  // 7.5B-parameter example needs 120 GB before activations.
  const transformer_config t = presets::llama2_7b.transformer;
  const model_spec m = as_model(t);
  run_config r{.batch = 1, .seq = 128, .type = dtype::fp16, .overhead_bytes = 0};
  const memory_breakdown b = memory_need(m, r);
  const double p = m.parameters();
  CHECK((b.weights + b.gradients + b.optimizer).value() == Approx(16.0 * p));
  CHECK(b.weights.value() == Approx(2.0 * p));
  CHECK(b.optimizer.value() == Approx(12.0 * p));
  // ZeRO's stages over 64 data-parallel GPUs (their Figure 1: 7.5B, Nd = 64): 120 GB, then
  // 31.4 GB (stage 1), 16.6 GB (stage 2), 1.88 GB (stage 3) per GPU for 7.5B parameters.
  const double per_billion_7_5 = 7.5e9 / p;
  r.gpus = 64;
  const double expected[] = {120e9, 31.4e9, 16.6e9, 1.88e9};
  for (int stage = 0; stage <= 3; ++stage) {
    r.zero = stage;
    const memory_breakdown z = memory_need(m, r);
    INFO("ZeRO stage " << stage);
    CHECK((z.weights + z.gradients + z.optimizer).value() * per_billion_7_5 ==
          Approx(expected[stage]).epsilon(0.01));
  }
  // FP32 Adam: 4 + 4 + 8; SGD with momentum in FP32: 4 + 4 + 4; 8-bit Adam mixed: 2 + 2 + 6.
  r = run_config{.type = dtype::fp32, .overhead_bytes = 0};
  r.seq = 128;
  const memory_breakdown f = memory_need(m, r);
  CHECK((f.weights + f.gradients + f.optimizer).value() == Approx(16.0 * p));
  r.optimizer = optimizer_kind::sgd;
  const memory_breakdown s = memory_need(m, r);
  CHECK((s.weights + s.gradients + s.optimizer).value() == Approx(12.0 * p));
  r = run_config{.type = dtype::bf16, .optimizer = optimizer_kind::adam8bit};
  r.seq = 128;
  const memory_breakdown a8 = memory_need(m, r);
  CHECK(a8.optimizer.value() == Approx(6.0 * p));
}

TEST_CASE("KV cache sizes of Llama-2-7B and Llama-3-8B are the published per-token figures",
          "[model][memory]") {
  // 2 (K and V) x layers x kv heads x head dim x 2 bytes: 512 KiB per token for Llama-2-7B
  // (32 full heads), 128 KiB for Llama-3-8B (8 key/value heads, grouped-query attention).
  run_config r{.mode = run_mode::infer, .batch = 1, .type = dtype::fp16};
  r.prompt = 1000;
  r.generate = 24;
  CHECK(memory_need(presets::llama2_7b, r).kv_cache.value() == 1024.0 * 524288.0);
  CHECK(memory_need(presets::llama3_8b, r).kv_cache.value() == 1024.0 * 131072.0);
  r.batch = 8;
  CHECK(memory_need(presets::llama3_8b, r).kv_cache.value() == 8.0 * 1024.0 * 131072.0);
}

TEST_CASE("activations follow Korthikanti et al.'s 34 + 5 a s / h for GPT-shaped layers",
          "[model][memory]") {
  // Reducing Activation Recomputation in Large Transformer Models (2022), section 4.1: per layer
  // s b h (34 + 5 a s / h) bytes in 16-bit with dropout and no flash attention; 34 s b h with
  // the score matrix not kept.
  const transformer_config t = presets::gpt2_xl.transformer;
  run_config r{.batch = 4, .seq = 1024, .type = dtype::fp16, .flash_attention = false};
  const double s = 1024, b = 4, h = 1600, a = 25, L = 48, V = 50257;
  const double per_layer = s * b * h * (34.0 + 5.0 * a * s / h);
  const double ends = s * b * h * 2.0 + s * b * V * 4.0;  // final norm input, FP32 logits
  CHECK(memory_need(as_model(t), r).activations.value() == Approx(L * per_layer + ends));
  r.flash_attention = true;
  const double flash = L * (s * b * h * 34.0 + 4.0 * a * s * b) + ends;
  CHECK(memory_need(as_model(t), r).activations.value() == Approx(flash));
  // Checkpointing keeps each layer's input and one layer's full set.
  r.checkpointing = true;
  CHECK(memory_need(as_model(t), r).activations.value() ==
        Approx(L * s * b * h * 2.0 + s * b * h * 34.0 + 4.0 * a * s * b + ends));
}

TEST_CASE("the README's fit questions", "[model][memory]") {
  const gpu_spec& card = catalog::rtx_4090;  // 24 GB
  run_config fine_tune{.batch = 1, .seq = 512, .type = dtype::bf16};
  CHECK_FALSE(check_fit(card, presets::llama2_7b, fine_tune).fits);
  run_config int4_weights{.mode = run_mode::infer,
                          .batch = 1,
                          .type = dtype::fp16,
                          .weights = weight_format::int4_weights};
  int4_weights.prompt = 1024;
  int4_weights.generate = 256;
  const fit_verdict v = check_fit(card, presets::llama2_7b, int4_weights);
  CHECK(v.fits);
  CHECK(v.margin.value() > 15e9);
  // 4-bit weights with a 16-bit scale per 128: 0.515625 bytes per weight; the 65 RMSNorms of
  // 4096 (32 layers x 2 + the final one) stay in 16 bits (model/weight_file.hpp).
  const double norms = 65.0 * 4096.0;
  CHECK(v.need.weights.value() ==
        Approx((presets::llama2_7b.parameters() - norms) * 0.515625 + norms * 2.0));
}

TEST_CASE("the largest batch that fits is the boundary of fitting", "[model][memory]") {
  for (const model_spec* m : {&presets::bert_large, &presets::gpt2_xl, &presets::resnet50}) {
    run_config r{
        .batch = 1, .seq = m->kind == model_kind::transformer ? 512 : 0, .type = dtype::fp16};
    const fit_verdict v = check_fit(catalog::a100_sxm4_40gb, *m, r);
    INFO(m->name << " max batch " << v.max_batch);
    REQUIRE(v.max_batch >= 1);
    r.batch = v.max_batch;
    CHECK(memory_need(*m, r).total() <= v.capacity);
    r.batch = v.max_batch + 1;
    CHECK(memory_need(*m, r).total() > v.capacity);
  }
}

TEST_CASE("step estimates are finite, below peak and grow with the batch over the catalog",
          "[model][properties]") {
  for (const gpu_spec* g : catalog::all) {
    const dtype t = g->supports(dtype::bf16, accumulator::fp32)   ? dtype::bf16
                    : g->supports(dtype::fp16, accumulator::fp32) ? dtype::fp16
                                                                  : dtype::fp32;
    for (const model_spec* m : {&presets::gpt2, &presets::resnet50}) {
      double previous = 0;
      for (long long batch : {1, 4, 16}) {
        const run_config r{.batch = batch, .seq = 256, .type = t};
        const model_estimate e = estimate_model(*g, *m, r);
        INFO(g->id() << " " << m->name << " batch " << batch);
        CHECK(finite_positive(e.time.value()));
        CHECK(finite_positive(e.samples_per_second()));
        CHECK(e.achieved() <= e.peak);
        CHECK(e.mfu() <= 1.0);
        CHECK(e.time.value() >= previous);
        previous = e.time.value();
      }
    }
  }
}

TEST_CASE("a training step costs about three forward passes, plus the optimizer", "[model]") {
  const run_config r{.batch = 8, .seq = 512, .type = dtype::bf16};
  const model_estimate e = estimate_model(catalog::h100_sxm, presets::bert_large, r);
  CHECK(e.backward.work().value() == Approx(2.0 * e.forward.work().value()).epsilon(0.05));
  CHECK(e.backward.time() > e.forward.time());
  CHECK(e.optimizer.size() == 1);
  // Repeated layers are held once: 24 layers, not 24 copies.
  CHECK(e.forward.size() < 20);
  // Checkpointing adds one more forward of every layer.
  run_config ck = r;
  ck.checkpointing = true;
  const model_estimate c = estimate_model(catalog::h100_sxm, presets::bert_large, ck);
  CHECK(c.recompute.work().value() > 0.9 * e.forward.work().value());
  CHECK(c.time > e.time);
  CHECK(c.model_work == e.model_work);
}

TEST_CASE("BERT-large training on H100 is compute-bound in its GEMMs", "[model]") {
  const model_estimate e =
      estimate_model(catalog::h100_sxm, presets::bert_large, run_config{.batch = 32, .seq = 512});
  CHECK(e.bound_share(op_kind::gemm, bound::compute) > 0.9);
  CHECK(e.mfu() > 0.3);
  CHECK(e.mfu() < 0.9);
}

TEST_CASE("decoding at batch 1 is DRAM-bound and reads the weights once per token", "[model]") {
  run_config r{.mode = run_mode::infer, .batch = 1, .type = dtype::fp16};
  r.prompt = 512;
  r.generate = 128;
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  const model_estimate e = estimate_model(g, presets::llama2_7b, r);
  const double weights = presets::llama2_7b.parameters() * 2.0;
  const double floor = weights / g.memory(tier::global).throughput.value();
  CHECK(e.decode_per_token.value() > floor);
  CHECK(e.decode_per_token.value() < 1.4 * floor);
  CHECK(e.bound_share(op_kind::gemm, bound::global) > 0.9);
  CHECK(e.time.value() == Approx(e.prefill_time.value() + 128 * e.decode_per_token.value()));
  CHECK(e.tokens_per_second() == Approx(128.0 / e.time.value()));
  // 4-bit weights move about a quarter of the bytes. The tile search's narrowest tile is 64
  // wide, so a one-token GEMM pays 64 columns of tensor work and 4-bit decode turns
  // compute-bound at about 1.6x (docs/models.md, "Known limits"; GEMV kernels reach 3-4x).
  r.weights = weight_format::int4_weights;
  const model_estimate q = estimate_model(g, presets::llama2_7b, r);
  CHECK(q.decode_per_token.value() < 0.7 * e.decode_per_token.value());
  CHECK(q.decode_per_token.value() > 0.25 * e.decode_per_token.value());
  // A longer context reads more KV cache.
  r.weights = weight_format::native;
  r.prompt = 3000;
  CHECK(estimate_model(g, presets::llama2_7b, r).decode_per_token > e.decode_per_token);
}

TEST_CASE("grouped-query attention reads fewer key/value bytes", "[model][ops]") {
  attention_problem mha{1, 32, 1, 4096, 128, dtype::fp16, true};
  attention_problem gqa = mha;
  gqa.kv_heads = 8;
  const gpu_spec& g = catalog::h100_sxm;
  CHECK(estimate_attention_fused(g, gqa).dram.value() ==
        Approx(2.0 * 32 * 128 * 2 + 0.25 * 2.0 * 32 * 4096 * 128 * 2));
  CHECK(estimate_attention_fused(g, gqa).time < estimate_attention_fused(g, mha).time);
  gqa.kv_heads = 5;
  CHECK_THROWS_WITH(estimate_attention_fused(g, gqa), Catch::Contains("kv_heads (5) must divide"));
  // The backward pass does 2.5 x the forward's tensor FLOP.
  const attention_problem p{4, 16, 2048, 2048, 64, dtype::bf16, true};
  CHECK(estimate_attention_fused_backward(g, p).work.value() ==
        Approx(2.5 * estimate_attention_fused(g, p).work.value()));
}

TEST_CASE("a grouped convolution is a batched GEMM over its groups", "[ops]") {
  conv2d_problem c{32, 256, 28, 28, 256, 3, 3, 1, 1};
  c.groups = 32;
  const gemm_problem g = c.as_gemm();
  CHECK(g.batch == 32);
  CHECK(g.n == 8);
  CHECK(g.k == 8 * 9);
  CHECK(g.work().value() == Approx(2.0 * 32 * 28 * 28 * 256 * 256 * 9 / 32));
  c.groups = 3;
  CHECK_THROWS_WITH(c.as_gemm(), Catch::Contains("groups (3)"));
}

TEST_CASE("bad models and runs are rejected naming the field", "[model][errors]") {
  transformer_config t = presets::gpt2.transformer;
  t.heads = 7;
  CHECK_THROWS_WITH(t.parameters(), Catch::Contains("heads (7) must divide hidden (768)"));
  t = presets::llama3_8b.transformer;
  t.kv_heads = 3;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("kv_heads (3) must divide heads (32)"));
  t = presets::gpt2.transformer;
  t.layers = 0;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("layers must be positive, got 0"));
  t = presets::mixtral_8x7b.transformer;
  t.experts_per_token = 9;
  CHECK_THROWS_WITH(t.validate(), Catch::Contains("experts_per_token"));
  cnn_config c = presets::resnet50.cnn;
  c.stages[1].planes = 0;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("stage 2"));
  c = presets::se_resnext101_32x4d.cnn;
  c.groups = 0;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("groups must be positive, got 0"));
  c = presets::se_resnext101_32x4d.cnn;
  c.se_reduction = 4096;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("se_reduction exceeds"));
  c = presets::se_resnext101_32x4d.cnn;
  c.stages[0].planes = 8;  // 8 x 4 / 64 channels per group: none
  CHECK_THROWS_WITH(c.validate(),
                    Catch::Contains("stage 1: planes x base_width must be at least 64"));

  const gpu_spec& g = catalog::a100_sxm4_80gb;
  CHECK_THROWS_WITH(estimate_model(g, presets::gpt2, run_config{.seq = 2048}),
                    Catch::Contains("seq (2048) exceeds the model's context (1024)"));
  CHECK_THROWS_WITH(estimate_model(g, presets::gpt2, run_config{.batch = 0}),
                    Catch::Contains("batch must be positive"));
  CHECK_THROWS_AS(estimate_model(g, presets::gpt2, run_config{.type = dtype::fp8_e4m3}),
                  unsupported);
  CHECK_THROWS_WITH(memory_need(presets::gpt2, run_config{.gpus = 4, .zero = 4}),
                    Catch::Contains("zero must be 0, 1, 2 or 3"));
  CHECK_THROWS_WITH(memory_need(presets::gpt2, run_config{.gpus = 6, .tp = 4}),
                    Catch::Contains("tp (4) must divide gpus (6)"));
  CHECK_THROWS_WITH(estimate_model(g, presets::gpt2, run_config{.gpus = 5, .tp = 5}),
                    Catch::Contains("tp (5) must divide heads (12)"));
  CHECK_THROWS_WITH(memory_need(presets::gpt2, run_config{.weights = weight_format::int4_weights}),
                    Catch::Contains("for inference"));
  run_config gen{.mode = run_mode::infer};
  gen.prompt = 1000;
  gen.generate = 100;
  CHECK_THROWS_WITH(estimate_model(g, presets::gpt2, gen),
                    Catch::Contains("prompt + generate (1100) exceeds"));
  CHECK_THROWS_WITH(estimate_model(g, presets::resnet50, run_config{.image = 5}),
                    Catch::Contains("smaller than the stem filter"));
}

TEST_CASE("model files round-trip through the field tables and name bad fields", "[model][io]") {
  io::string_store strings;
  for (const model_spec& m : presets::all) {
    const model_spec back = io::parse_model(io::model_to_json(m).dump(), strings);
    INFO(m.name);
    CHECK(back.parameters() == m.parameters());
    CHECK(back.name == m.name);
  }
  CHECK_THROWS_WITH(io::parse_model(R"({"transformer": {"layers": 2}})", strings),
                    Catch::Contains("model file: transformer.hidden: missing"));
  CHECK_THROWS_WITH(
      io::parse_model(
          R"({"transformer": {"kind": "decoder", "layers": 2, "hidden": 100, "heads": 3, "vocab": 10, "max_seq": 8}})",
          strings),
      Catch::Contains("model file: transformer: heads (3) must divide hidden (100)"));
  CHECK_THROWS_WITH(io::parse_model(R"({"cnn": {"stages": []}, "transformer": {}})", strings),
                    Catch::Contains("exactly one of"));
  CHECK_THROWS_WITH(io::parse_model("{not json", strings),
                    Catch::Contains("model file: (text): malformed JSON"));
  CHECK_THROWS_WITH(
      io::parse_model(
          R"({"transformer": {"layers": 2, "hidden": 64, "heads": 2, "vocab": 10, "max_seq": 8, "ffn_kind": "geglu"}})",
          strings),
      Catch::Contains("unknown FFN kind 'geglu'"));
  CHECK_THROWS_AS(io::read_model_file("/nonexistent/model.json", strings), invalid_argument);
}

TEST_CASE("every GPU in the catalog runs a model, AMD included", "[model][amd]") {
  for (const gpu_spec* g : catalog::all) {
    const dtype t = g->supports(dtype::fp16, accumulator::fp32) ? dtype::fp16 : dtype::fp32;
    run_config r{.mode = run_mode::infer, .batch = 1, .type = t};
    r.prompt = 128;
    r.generate = 16;
    INFO(g->id());
    const model_estimate e = estimate_model(*g, presets::gpt2, r);
    CHECK(finite_positive(e.tokens_per_second()));
  }
  CHECK(check_fit(catalog::mi300x, presets::llama2_70b,
                  run_config{.mode = run_mode::infer, .batch = 1, .type = dtype::fp16})
            .fits);
}

TEST_CASE("eager execution adds the element-wise kernels a fused stack folds away", "[model]") {
  const gpu_spec& g = catalog::v100_sxm2;
  run_config fused{.mode = run_mode::infer, .batch = 64, .type = dtype::fp16};
  run_config eager = fused;
  eager.eager = true;
  const model_estimate f = estimate_model(g, presets::resnet50, fused);
  const model_estimate e = estimate_model(g, presets::resnet50, eager);
  // The same convolutions (a little faster: their epilogues no longer read the residual), more
  // streaming kernels: batch norm and ReLU after each convolution, the residual add and ReLU
  // after each block.
  CHECK(e.time_of(op_kind::gemm) <= f.time_of(op_kind::gemm));
  CHECK(e.time_of(op_kind::gemm).value() > 0.9 * f.time_of(op_kind::gemm).value());
  CHECK(e.time_of(op_kind::streaming) > 3.0 * f.time_of(op_kind::streaming));
  // A transformer's training step gains dropout, activation and residual kernels.
  run_config t{.batch = 8, .seq = 512, .type = dtype::bf16};
  const model_estimate tf = estimate_model(catalog::a100_sxm4_80gb, presets::bert_large, t);
  t.eager = true;
  const model_estimate te = estimate_model(catalog::a100_sxm4_80gb, presets::bert_large, t);
  CHECK(te.time > tf.time);
  CHECK(te.forward.size() > tf.forward.size());
}

TEST_CASE("eager training counts the kernels eager code runs beyond the element-wise ones",
          "[model]") {
  // BERT-base (biases, LayerNorm, dropout) fine-tuned on 8 x 128 tokens in FP16, unfused
  // attention: the step's operators named @p name in phase @p seq.
  const auto named = [](const op_sequence& seq, std::string_view name) {
    std::vector<op_estimate> found;
    for (const op_estimate& op : seq)
      if (op.name == name) found.push_back(op);
    return found;
  };
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  run_config r{.batch = 8, .seq = 128, .type = dtype::fp16};
  r.flash_attention = false;
  r.eager = true;
  const model_estimate e = estimate_model(g, presets::bert_base, r);
  const double tokens = 8.0 * 128.0, h = 768.0, scores = 8.0 * 12.0 * 128.0 * 128.0;
  // The score scaling and the mask read and write the 16-bit scores; the scaling has a backward
  // kernel, the mask none.
  REQUIRE(named(e.forward, "attention scale").size() == 1);
  CHECK(named(e.forward, "attention scale")[0].dram.value() == Approx(2.0 * 2.0 * scores));
  CHECK(named(e.forward, "attention mask").size() == 1);
  CHECK(named(e.backward, "attention scale backward").size() == 1);
  // Q, K and V split into heads and the context merged back: copies, and their gradients'.
  REQUIRE(named(e.forward, "attention head split").size() == 1);
  CHECK(named(e.forward, "attention head split")[0].dram.value() ==
        Approx(2.0 * 2.0 * tokens * 3.0 * h));
  CHECK(named(e.backward, "head merge backward").size() == 1);
  // A bias gradient per biased projection (QKV, output, FFN up, FFN down), reading its output
  // gradient once: the QKV one reads T x 3h.
  const std::vector<op_estimate> bias = named(e.backward, "bias gradient");
  REQUIRE(bias.size() == 4);
  CHECK(std::any_of(bias.begin(), bias.end(), [&](const op_estimate& op) {
    return op.dram.value() == Approx(2.0 * tokens * 3.0 * h);
  }));
  // The residual stream's gradient sums (after attention and after the FFN), 3 tensors each,
  // and LayerNorm's two-pass backward, 5 tensors.
  CHECK(named(e.backward, "residual gradient sum").size() == 2);
  REQUIRE(named(e.backward, "norm 1 backward").size() == 1);
  CHECK(named(e.backward, "norm 1 backward")[0].dram.value() == Approx(5.0 * 2.0 * tokens * h));
  // Fused, none of them run and the norm's backward is one pass of 3 tensors.
  run_config fused = r;
  fused.eager = false;
  const model_estimate f = estimate_model(g, presets::bert_base, fused);
  for (std::string_view n : {"attention scale", "attention mask", "attention head split"})
    CHECK(named(f.forward, n).empty());
  CHECK(named(f.backward, "bias gradient").empty());
  CHECK(named(f.backward, "residual gradient sum").empty());
  CHECK(named(f.backward, "norm 1 backward")[0].dram.value() == Approx(3.0 * 2.0 * tokens * h));
  CHECK(e.time > f.time);
  // Fused attention keeps its scores on chip: no scaling, mask or head copies even eager; and a
  // model without biases (Llama) has no bias gradients.
  run_config flash = r;
  flash.flash_attention = true;
  const model_estimate fl = estimate_model(g, presets::bert_base, flash);
  CHECK(named(fl.forward, "attention scale").empty());
  CHECK(named(fl.forward, "attention head split").empty());
  CHECK(named(fl.backward, "bias gradient").size() == 4);
  const model_estimate llama = estimate_model(g, presets::llama3_2_1b, flash);
  CHECK(named(llama.backward, "bias gradient").empty());
  CHECK(named(llama.backward, "residual gradient sum").size() == 2);
  // llama.cpp's unfused attention scales and masks inside its softmax kernel and takes the heads
  // as strided views; it still copies the merged heads (ggml_cont). Its stack says so, and an
  // eager run of PyTorch code keeps the kernels.
  run_config prompt{.batch = 1, .seq = 512, .type = dtype::fp16};
  prompt.mode = run_mode::infer;
  prompt.flash_attention = false;
  const run_config ggml = run_under(stacks::llama_cpp, prompt);
  CHECK(ggml.eager);
  CHECK(ggml.fused_softmax_glue);
  CHECK_FALSE(run_under(stacks::pytorch_eager, prompt).fused_softmax_glue);
  const model_estimate lc = estimate_model(g, presets::llama3_2_1b, ggml);
  for (std::string_view n : {"attention scale", "attention mask", "attention head split"})
    CHECK(named(lc.prefill, n).empty());
  CHECK_FALSE(named(lc.prefill, "attention head merge").empty());
  run_config pt = ggml;
  pt.fused_softmax_glue = false;
  const model_estimate pe = estimate_model(g, presets::llama3_2_1b, pt);
  CHECK_FALSE(named(pe.prefill, "attention scale").empty());
  CHECK(pe.prefill_time > lc.prefill_time);
}

TEST_CASE("eager PyTorch runs RMSNorm as the FP32 element-wise ops of its Python code", "[model]") {
  const auto norm_bytes = [](const op_sequence& seq, std::string_view name) {
    for (const op_estimate& op : seq)
      if (op.name == name) return op.dram.value();
    return 0.0;
  };
  const gpu_spec& g = catalog::rtx_4090;
  run_config r{.batch = 4, .seq = 512, .type = dtype::bf16};
  r.eager = true;
  const run_config c = run_under(stacks::pytorch_eager, r);
  CHECK(c.composite_norms);
  CHECK_FALSE(run_under(stacks::llama_cpp, r).composite_norms);
  CHECK_FALSE(run_under(stacks::torch_compile, r).composite_norms);
  // Llama's RMSNorm: 36 bytes per element forward, 76 backward, 68 under LoRA (no weight
  // gradient), against one kernel's 2 x 2 forward and 5 x 2 backward.
  const double elements =
      4.0 * 512.0 * static_cast<double>(presets::llama3_2_1b.transformer.hidden);
  const model_estimate e = estimate_model(g, presets::llama3_2_1b, c);
  CHECK(norm_bytes(e.forward, "norm 1") == Approx(36.0 * elements));
  CHECK(norm_bytes(e.backward, "norm 1 backward") == Approx(76.0 * elements));
  const model_estimate one = estimate_model(g, presets::llama3_2_1b, r);
  CHECK(norm_bytes(one.forward, "norm 1") == Approx(4.0 * elements));
  CHECK(norm_bytes(one.backward, "norm 1 backward") == Approx(10.0 * elements));
  CHECK(e.time > one.time);
  run_config lora = c;
  lora.lora.rank = 16;
  const model_estimate l = estimate_model(g, presets::llama3_2_1b, lora);
  CHECK(norm_bytes(l.backward, "norm 1 backward") == Approx(68.0 * elements));
  // LayerNorm (BERT) is one kernel whatever the stack says.
  const double bert = 4.0 * 512.0 * 768.0;
  const model_estimate b = estimate_model(g, presets::bert_base, c);
  CHECK(norm_bytes(b.forward, "norm 1") == Approx(4.0 * bert));
}

TEST_CASE("every other rejection of a model, a run or a model file names its field",
          "[model][errors]") {
  const auto transformer_fails = [](void (*edit)(transformer_config&), const char* message) {
    transformer_config t = presets::gpt2.transformer;
    edit(t);
    INFO(message);
    CHECK_THROWS_WITH(t.validate(), Catch::Contains(message));
  };
  transformer_fails([](transformer_config& t) { t.kv_heads = -1; }, "kv_heads must be >= 0");
  transformer_fails([](transformer_config& t) { t.ffn = -1; }, "ffn must be >= 0");
  transformer_fails([](transformer_config& t) { t.token_types = -2; }, "token_types must be >= 0");
  transformer_fails([](transformer_config& t) { t.experts = -1; }, "experts and experts_per_token");
  transformer_fails([](transformer_config& t) { t.experts_per_token = 2; },
                    "experts_per_token needs experts > 1");
  transformer_fails([](transformer_config& t) { t.decoder_layers = 6; },
                    "decoder_layers is for encoder-decoder models only");
  transformer_fails([](transformer_config& t) { t.kind = transformer_kind::encoder_decoder; },
                    "an encoder-decoder needs decoder_layers > 0");
  transformer_fails([](transformer_config& t) { t.vocab = 1LL << 27; }, "sizes out of range");

  cnn_config c = presets::resnet50.cnn;
  c.se_reduction = -1;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("se_reduction must be >= 0"));
  c = presets::resnet50.cnn;
  c.stages = {};
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("needs at least one stage with blocks"));
  c = presets::resnet50.cnn;
  c.stages[2].blocks = 0;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("stage 4: follows a stage without blocks"));

  CHECK_THROWS_WITH(memory_need(presets::gpt2, run_config{.seq = -1}),
                    Catch::Contains("seq, prompt and generate must be >= 0"));
  CHECK_THROWS_WITH(memory_need(presets::gpt2, run_config{.overhead_bytes = -1}),
                    Catch::Contains("overhead_bytes must be >= 0 and finite"));
  CHECK_THROWS_WITH(memory_need(presets::gpt2, run_config{.batch = 1LL << 25}),
                    Catch::Contains("batch <= 2^24"));
  transformer_config odd_kv = presets::llama3_8b.transformer;
  odd_kv.heads = 48;
  odd_kv.hidden = 6144;
  odd_kv.kv_heads = 12;
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, as_model(odd_kv),
                                   run_config{.seq = 128, .gpus = 8, .tp = 8}),
                    Catch::Contains("tp (8) and kv_heads (12) must divide one another"));

  io::string_store strings;
  CHECK_THROWS_WITH(io::parse_model(R"({"name": "x", "layers": 2})", strings),
                    Catch::Contains("model file: layers: unknown field"));
  CHECK_THROWS_WITH(io::parse_model(R"({"transformer": [1, 2]})", strings),
                    Catch::Contains("model file: transformer"));
}

// Issue 19, item 6: GeForce training shown at 80-91 % of peak. The peak it is measured against is
// the FP32-accumulated tensor rate, which GeForce boards (Turing to Blackwell GB20x) run at half
// their FP16-accumulated rate (Ada whitepaper v2.02 Table 2: RTX 4090 165.2 against 330.3
// TFLOPS): a 16-bit training step never counts against the doubled rate, on every such board.
TEST_CASE("16-bit training on GeForce is measured against the FP32-accumulate rate",
          "[model][properties][catalog]") {
  int geforce = 0;
  for (const gpu_spec* g : catalog::all) {
    if (g->facts().segment != segment::geforce || !g->supports(dtype::fp16, accumulator::fp16) ||
        !g->arch().has_tensor_path(dtype::fp16, accumulator::fp16))
      continue;
    const dtype t = g->supports(dtype::bf16, accumulator::fp32) ? dtype::bf16 : dtype::fp16;
    INFO(g->id());
    ++geforce;
    CHECK(g->peak(t, accumulator::fp32) == 0.5 * g->peak(dtype::fp16, accumulator::fp16));
    const model_estimate e =
        estimate_model(*g, presets::gpt2, run_config{.batch = 8, .seq = 1024, .type = t});
    CHECK(e.peak == g->peak(t, accumulator::fp32));
    CHECK(e.mfu() <= 1.0);
  }
  CHECK(geforce >= 25);  // every RTX board of the catalog, RTX 20 to RTX 50
}
