// Fine-tuning: LoRA and QLoRA as run options (docs/models.md, "Fine-tuning"): trainable
// parameters against PEFT's published count, QLoRA's storage and its 65B-on-48GB claim, frozen
// GEMMs without weight gradients, the adapters' FLOP, the NF4 dequantisation, composition with
// checkpointing, 8-bit Adam and ZeRO, and every rejection.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>
#include <string_view>

using namespace dlperf;

namespace {

// LLaMA-65B (Touvron et al. 2023, "LLaMA", Table 2: dimension 8192, 64 heads, 80 layers;
// FFN 22016 and vocabulary 32000 from the released params.json / HF config): the model the
// QLoRA paper fine-tunes on one 48 GB GPU.
constexpr transformer_config llama_65b{.kind = transformer_kind::decoder,
                                       .layers = 80,
                                       .hidden = 8192,
                                       .heads = 64,
                                       .ffn = 22016,
                                       .ffn_type = ffn_kind::swiglu,
                                       .vocab = 32000,
                                       .max_seq = 2048,
                                       .tied_embeddings = false,
                                       .biases = false,
                                       .norm = norm_kind::rmsnorm};

run_config lora_run(long long rank, lora_targets targets, bool qlora = false) {
  run_config r{.batch = 1, .seq = 512, .type = dtype::bf16};
  r.lora = lora_config{rank, targets, qlora};
  return r;
}

// Total FLOP of the operators of @p s whose name contains @p part.
double work_named(const op_sequence& s, std::string_view part) {
  double w = 0;
  for (const op_estimate& op : s)
    if (op.name.find(part) != std::string_view::npos)
      w += static_cast<double>(op.repeats) * op.work.value();
  return w;
}

}  // namespace

TEST_CASE("LoRA's trainable parameters are PEFT's published count", "[lora]") {
  // Hugging Face PEFT, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]) on Llama-2-7B:
  // print_trainable_parameters() gives "trainable params: 4,194,304 || all params:
  // 6,742,609,920 || trainable%: 0.0622" (the PEFT quicktour / LoRA guides, 2023-24).
  const run_config r = lora_run(8, lora_targets::query_value());
  CHECK(trainable_parameters(presets::llama2_7b, r) == 4194304.0);
  CHECK(presets::llama2_7b.parameters() + trainable_parameters(presets::llama2_7b, r) ==
        6742609920.0);
  // Every linear layer, rank 8: 32 x 8 x (4 x (4096 + 4096) + 3 x (4096 + 11008)) = 19,988,480
  // (PEFT with target_modules="all-linear" on Llama-2-7B).
  CHECK(trainable_parameters(presets::llama2_7b, lora_run(8, lora_targets::all())) == 19988480.0);
  // Grouped-query attention: Llama-3-8B's k and v adapters are 4096 -> 1024.
  CHECK(trainable_parameters(presets::llama3_8b, lora_run(16, lora_targets::query_value())) ==
        32.0 * 16.0 * ((4096 + 4096) + (4096 + 1024)));
  // Without LoRA every parameter trains.
  CHECK(trainable_parameters(presets::llama2_7b, run_config{}) == presets::llama2_7b.parameters());
}

TEST_CASE("QLoRA stores the blocks' weights in 4.127 bits", "[lora][memory]") {
  // Dettmers et al. 2023 (QLoRA), section 3, Double Quantization: blocks of 64 weights with an
  // 8-bit absmax, 256 of those per FP32 constant: 8/64 + 32/(64 x 256) = 0.127 bits per
  // parameter for the scales (0.5 without double quantisation).
  CHECK(nf4_bits_per_weight - 4.0 == Approx(0.127).epsilon(0.001));
  const model_spec& m = presets::llama2_7b;
  run_config r = lora_run(64, lora_targets::all(), true);
  r.overhead_bytes = 0;
  const memory_breakdown q = memory_need(m, r);
  const double linear = block_linear_weights(m.transformer);
  // Llama-2-7B's block linears: 32 x (4 x 4096^2 + 3 x 4096 x 11008) = 6,476,005,376.
  CHECK(linear == 6476005376.0);
  const double adapters = trainable_parameters(m, r);
  CHECK(q.weights.value() == Approx(linear * nf4_bits_per_weight / 8.0 +
                                    (m.parameters() - linear) * 2.0 + adapters * 2.0));
  // The frozen base is about 3.9 GB: the blocks at 3.34 GB plus the 16-bit embeddings and LM
  // head (0.52 GB); the rank-64 adapters add 0.32 GB.
  const double base = q.weights.value() - 2.0 * adapters;
  CHECK(base > 3.8e9);
  CHECK(base < 3.95e9);
  // Frozen weights have no gradient and no optimizer state: only the adapters do, 2 + 12 bytes
  // each with mixed-precision Adam.
  CHECK(q.gradients.value() == Approx(2.0 * adapters));
  CHECK(q.optimizer.value() == Approx(12.0 * adapters));
}

TEST_CASE("QLoRA fine-tunes a 65B model on one 48 GB GPU, 16-bit LoRA does not", "[lora][memory]") {
  // QLoRA abstract: "reduces memory usage enough to finetune a 65B parameter model on a single
  // 48GB GPU", from ">780GB of GPU memory" for regular 16-bit finetuning (section 1). Their
  // Guanaco runs: LoRA r = 64 on all linear layers, gradient checkpointing, paged AdamW (the
  // model's 8-bit Adam stands in for the paged optimizer, whose 32-bit states page out to the
  // host when the GPU runs short), batch 1 x 512 here.
  const model_spec m = as_model(llama_65b, "llama_65b");
  CHECK(m.parameters() == Approx(65.2e9).epsilon(0.005));
  run_config r = lora_run(64, lora_targets::all(), true);
  r.checkpointing = true;
  r.optimizer = optimizer_kind::adam8bit;
  const gpu_spec& card = catalog::rtx_a6000;  // 48 GB
  const fit_verdict q = check_fit(card, m, r);
  INFO("QLoRA 65B needs " << q.need.total().value() / 1e9 << " GB");
  CHECK(q.fits);
  // The 4-bit blocks are 33.4 GB, the 16-bit embeddings and LM head 1.05 GB; the adapters
  // (r = 64 everywhere: 799 M parameters) 1.6 GB more.
  const double base = q.need.weights.value() - 2.0 * trainable_parameters(m, r);
  CHECK(base > 34e9);
  CHECK(base < 35e9);
  r.lora.qlora = false;
  CHECK_FALSE(check_fit(card, m, r).fits);  // 130 GB of 16-bit weights
  const memory_breakdown full = memory_need(m, run_config{.batch = 1, .seq = 512});
  CHECK(full.total().value() > 780e9);
}

TEST_CASE("frozen GEMMs run forward and dgrad only, adapters add their thin GEMMs", "[lora]") {
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  const model_spec& m = presets::llama2_7b;
  const run_config r = lora_run(16, lora_targets::query_value());
  const model_estimate e = estimate_model(g, m, r);
  // No weight gradient for any frozen weight: the only wgrads are the adapters'.
  CHECK(work_named(e.backward, "QKV wgrad") == 0);
  CHECK(work_named(e.backward, "FFN down wgrad") == 0);
  CHECK(work_named(e.backward, "LM head wgrad") == 0);
  // dgrad still runs: 2 m n k, the forward's FLOP.
  CHECK(work_named(e.backward, "QKV dgrad") == Approx(work_named(e.forward, "QKV projection")));
  CHECK(work_named(e.backward, "FFN down dgrad") == Approx(work_named(e.forward, "FFN down")));
  // Adapters: x A is 2 T r h, (x A) B is 2 T h r per target and layer; backward twice that.
  const double T = 512, rank = 16, h = 4096, L = 32;
  CHECK(work_named(e.forward, "LoRA q A") == Approx(L * 2.0 * T * rank * h));
  CHECK(work_named(e.forward, "LoRA v B") == Approx(L * 2.0 * T * h * rank));
  CHECK(work_named(e.backward, "LoRA") == Approx(2.0 * work_named(e.forward, "LoRA")));
  CHECK(work_named(e.forward, "LoRA k") == 0);  // not a target
  // The optimizer updates the adapters only: 12 FLOP per parameter (Adam).
  CHECK(e.optimizer.work().value() == Approx(12.0 * trainable_parameters(m, r)));
  // So the step is cheaper than full training: about two thirds of its GEMM work.
  const model_estimate full = estimate_model(g, m, run_config{.batch = 1, .seq = 512});
  CHECK(e.time < full.time);
  CHECK(e.model_work.value() < 0.75 * full.model_work.value());
  CHECK(e.model_work.value() > 0.6 * full.model_work.value());
  CHECK(e.mfu() <= 1.0);
}

TEST_CASE("QLoRA dequantises every block weight before its forward GEMM and its dgrad", "[lora]") {
  const gpu_spec& g = catalog::rtx_4090;
  const model_spec& m = presets::llama2_7b;
  const run_config lora = lora_run(16, lora_targets::all());
  const run_config qlora = lora_run(16, lora_targets::all(), true);
  const model_estimate l = estimate_model(g, m, lora);
  const model_estimate q = estimate_model(g, m, qlora);
  // One streaming pass per weight and pass: read 4.127 bits, write 2 bytes.
  const double linear = block_linear_weights(m.transformer);
  double dram = 0;
  for (const op_sequence* s : {&q.forward, &q.backward})
    for (const op_estimate& op : *s)
      if (op.name.find("NF4 dequantize") != std::string_view::npos)
        dram += static_cast<double>(op.repeats) * op.dram.value();
  CHECK(dram == Approx(2.0 * linear * (nf4_bits_per_weight / 8.0 + 2.0)));
  CHECK(q.time > l.time);
  CHECK(q.model_work.value() == Approx(l.model_work.value()).epsilon(0.01));
  // Checkpointing recomputes the forward, dequantisation included.
  run_config ck = qlora;
  ck.checkpointing = true;
  const model_estimate c = estimate_model(g, m, ck);
  CHECK(work_named(c.recompute, "NF4 dequantize") ==
        Approx(work_named(q.forward, "NF4 dequantize")));
  CHECK(work_named(c.recompute, "LoRA") == Approx(work_named(q.forward, "LoRA")));
}

TEST_CASE("LoRA composes with checkpointing, 8-bit Adam, ZeRO and mixtures of experts",
          "[lora][memory]") {
  const model_spec& m = presets::llama2_7b;
  run_config r = lora_run(16, lora_targets::all());
  r.overhead_bytes = 0;
  const double adapters = trainable_parameters(m, r);
  const memory_breakdown plain = memory_need(m, r);
  r.optimizer = optimizer_kind::adam8bit;
  CHECK(memory_need(m, r).optimizer.value() == Approx(6.0 * adapters));
  r.checkpointing = true;
  CHECK(memory_need(m, r).activations < plain.activations);
  r.gpus = 4;
  r.zero = 2;
  const memory_breakdown z = memory_need(m, r);
  CHECK(z.gradients.value() == Approx(2.0 * adapters / 4.0));
  CHECK(z.weights.value() == Approx(plain.weights.value()));  // stage 2 keeps the weights
  // A mixture of experts: FFN targets are adapted in every expert; a token passes k of them.
  const model_spec& mx = presets::mixtral_8x7b;
  const run_config mr = lora_run(8, lora_targets{}.with(lora_target::down));
  CHECK(trainable_parameters(mx, mr) == 32.0 * 8.0 * 8.0 * (14336 + 4096));
  const model_estimate e = estimate_model(catalog::h100_sxm, mx, mr);
  CHECK(work_named(e.forward, "LoRA down A") == Approx(32.0 * 2.0 * 512 * 2 * 8 * 14336));
}

TEST_CASE("LoRA step estimates are finite and below peak over the catalog", "[lora][properties]") {
  for (const gpu_spec* g : catalog::all) {
    if (!g->supports(dtype::bf16, accumulator::fp32)) continue;
    for (bool q : {false, true}) {
      const run_config r = lora_run(16, lora_targets::all(), q);
      const model_estimate e = estimate_model(*g, presets::llama2_7b, r);
      INFO(g->id() << (q ? " QLoRA" : " LoRA"));
      CHECK(std::isfinite(e.time.value()));
      CHECK(e.time.value() > 0);
      CHECK(e.achieved() <= e.peak);
      CHECK(e.mfu() <= 1.0);
    }
  }
}

TEST_CASE("bad LoRA runs are rejected naming what is wrong", "[lora][errors]") {
  const model_spec& m = presets::llama2_7b;
  run_config r = lora_run(8, lora_targets::query_value());
  r.lora.rank = -4;
  CHECK_THROWS_WITH(memory_need(m, r), Catch::Contains("lora rank must be positive"));
  // k of Llama-3-8B is 4096 x 1024: a rank above 1024 is not low rank.
  r = lora_run(2048, lora_targets{}.with(lora_target::k));
  CHECK_THROWS_WITH(memory_need(presets::llama3_8b, r),
                    Catch::Contains("lora rank (2048) exceeds target 'k' (4096 x 1024)"));
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, presets::llama3_8b, r),
                    Catch::Contains("at most 1024"));
  r = lora_run(8, lora_targets{}.with(lora_target::gate));
  CHECK_THROWS_WITH(memory_need(presets::gpt2, r),
                    Catch::Contains("lora target 'gate' needs a gated (SwiGLU) FFN"));
  r = lora_run(8, lora_targets::query_value());
  CHECK_THROWS_WITH(memory_need(presets::resnet50, r), Catch::Contains("this model is a CNN"));
  r.mode = run_mode::infer;
  CHECK_THROWS_WITH(memory_need(m, r), Catch::Contains("lora and qlora are training options"));
  r = lora_run(0, lora_targets::query_value(), true);
  CHECK_THROWS_WITH(memory_need(m, r), Catch::Contains("qlora needs a lora rank"));
  r = lora_run(8, lora_targets::query_value(), true);
  r.type = dtype::fp32;
  CHECK_THROWS_WITH(memory_need(m, r), Catch::Contains("qlora computes in bf16 or fp16"));
  r = lora_run(8, lora_targets{});
  CHECK_THROWS_WITH(memory_need(m, r), Catch::Contains("lora needs at least one target"));
  CHECK_THROWS_WITH(parse_lora_targets("q,qkv"),
                    Catch::Contains("unknown LoRA target module 'qkv'"));
  CHECK_THROWS_AS(parse_lora_targets("q,"), not_found);
  CHECK_THROWS_AS(parse_lora_targets(""), invalid_argument);
  CHECK(parse_lora_targets("v,q") == lora_targets::query_value());
  CHECK(parse_lora_targets("all") == lora_targets::all());
  CHECK(describe(parse_lora_targets("down,q,up")) == "q,up,down");
}
