// Padding and packing of a training set's documents (run_config::document, ::packing;
// docs/models.md, "Padding and packing"): padded sequences compute every position and learn from
// the document's, packed ones learn from every position, and under fused attention attend within
// each document; both against the model's own formulas, over the catalog, and every rejection.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace packing_test {

// The FLOP of a step's attention operators (forward and backward), repeats included.
flop_count attention_work(const model_estimate& m) {
  flop_count w{};
  for (step_phase p : enum_values<step_phase>)
    for (const op_estimate& op : m.phase(p))
      if (op.kind == op_kind::attention) w += static_cast<double>(op.repeats) * op.work;
  return w;
}

// Every operator's FLOP but attention's.
flop_count other_work(const model_estimate& m) { return m.work() - attention_work(m); }

run_config training(long long batch, long long seq, long long document, bool packing) {
  run_config r;
  r.batch = batch;
  r.seq = seq;
  r.document = document;
  r.packing = packing;
  return r;
}

}  // namespace packing_test

using namespace packing_test;

TEST_CASE("a document as long as the sequence, padded or packed, is the run without documents",
          "[model][packing]") {
  const gpu_spec& g = catalog::h100_sxm;
  const model_estimate none = estimate_model(g, presets::llama2_7b, training(2, 2048, 0, false));
  for (bool packing : {false, true}) {
    const model_estimate same =
        estimate_model(g, presets::llama2_7b, training(2, 2048, 2048, packing));
    CHECK(same.time.value() == none.time.value());
    CHECK(same.tokens == none.tokens);
    CHECK(same.samples == none.samples);
    CHECK(same.mfu() == none.mfu());
  }
}

TEST_CASE("padding computes every position and learns from the documents' tokens only",
          "[model][packing]") {
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  const model_estimate full = estimate_model(g, presets::llama2_7b, training(4, 2048, 0, false));
  const model_estimate padded =
      estimate_model(g, presets::llama2_7b, training(4, 2048, 512, false));
  // The same kernels on the same tensors: padding costs what real tokens cost.
  CHECK(padded.time.value() == full.time.value());
  CHECK(padded.work().value() == full.work().value());
  // A quarter of the positions are a document's: tokens, tokens/s and MFU are a quarter.
  CHECK(padded.tokens == 4.0 * 512.0);
  CHECK(padded.samples == 4.0);
  CHECK(padded.tokens_per_second() == Approx(full.tokens_per_second() / 4.0).epsilon(1e-12));
  CHECK(padded.mfu() == Approx(full.mfu() / 4.0).epsilon(1e-12));
}

TEST_CASE("packing under fused attention attends within each document", "[model][packing]") {
  const gpu_spec& g = catalog::h100_sxm;
  const model_estimate full = estimate_model(g, presets::llama2_7b, training(2, 4096, 0, false));
  const model_estimate packed = estimate_model(g, presets::llama2_7b, training(2, 4096, 512, true));
  // Causal attention over S tokens is proportional to S^2 per sequence: 8 documents of S/8
  // tokens each do 1/8 of one sequence's attention arithmetic (forward and backward).
  CHECK(attention_work(packed).value() == Approx(attention_work(full).value() / 8.0).epsilon(1e-9));
  // Every other operator runs over the same 8192 tokens.
  CHECK(other_work(packed).value() == Approx(other_work(full).value()).epsilon(1e-12));
  CHECK(packed.time_of(op_kind::attention).value() < full.time_of(op_kind::attention).value());
  CHECK(packed.tokens == 8192.0);
  CHECK(packed.samples == 16.0);  // 8 documents a sequence
  CHECK(packed.time.value() < full.time.value());
}

TEST_CASE("packing without fused attention masks the whole sequence's scores", "[model][packing]") {
  const gpu_spec& g = catalog::rtx_4090;
  run_config padded = training(1, 1024, 256, false);
  padded.flash_attention = false;
  run_config packed = padded;
  packed.packing = true;
  const model_estimate a = estimate_model(g, presets::gpt2, padded);
  const model_estimate b = estimate_model(g, presets::gpt2, packed);
  // The same kernels (a block-diagonal mask is still a full score matrix), four times the
  // documents' tokens.
  CHECK(b.time.value() == a.time.value());
  CHECK(b.tokens_per_second() == Approx(4.0 * a.tokens_per_second()).epsilon(1e-12));
  CHECK(memory_need(presets::gpt2, packed).total().value() ==
        memory_need(presets::gpt2, padded).total().value());
}

TEST_CASE("packed tokens/s never falls below padded, and grows as the documents shorten",
          "[model][packing][properties]") {
  for (const char* id : {"rtx_3090", "a100_sxm4_80gb", "h100_sxm", "mi300x"}) {
    const gpu_spec* g = &catalog::find(id);
    double last_packed = 0, last_padded = 1e300;
    for (long long doc : {4096LL, 2048LL, 1024LL, 512LL, 256LL, 128LL}) {
      INFO(id << ", documents of " << doc << " tokens");
      const model_estimate padded =
          estimate_model(*g, presets::llama3_8b, training(1, 4096, doc, false));
      const model_estimate packed =
          estimate_model(*g, presets::llama3_8b, training(1, 4096, doc, true));
      CHECK(std::isfinite(packed.tokens_per_second()));
      CHECK(packed.tokens_per_second() >= padded.tokens_per_second());
      CHECK(packed.tokens_per_second() >= last_packed);
      CHECK(padded.tokens_per_second() < last_padded);
      CHECK(packed.mfu() <= 1.0);
      CHECK(packed.achieved().value() <= packed.peak.value() * 1.000001);
      last_packed = packed.tokens_per_second();
      last_padded = padded.tokens_per_second();
    }
  }
}

TEST_CASE("BERT's masked-token head predicts 15 % of the documents' tokens, not the padding",
          "[model][packing]") {
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  const model_estimate full = estimate_model(g, presets::bert_large, training(8, 512, 0, false));
  const model_estimate padded =
      estimate_model(g, presets::bert_large, training(8, 512, 128, false));
  CHECK(padded.time.value() < full.time.value());  // the head runs on fewer tokens
  const auto head = [](const model_estimate& m) {
    for (const op_estimate& op : m.forward)
      if (op.name == "LM head") return op.work.value();
    return 0.0;
  };
  // 0.15 x 8 x 512 = 614.4, rounded up to 615 tokens; 0.15 x 8 x 128 = 153.6 -> 154.
  CHECK(head(full) / head(padded) == Approx(615.0 / 154.0).epsilon(1e-12));
}

TEST_CASE("bad document runs are rejected naming what is wrong", "[model][packing][errors]") {
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  CHECK_THROWS_WITH(estimate_model(g, presets::llama2_7b, training(1, 2048, -1, false)),
                    Catch::Contains("document tokens must be >= 0"));
  CHECK_THROWS_WITH(estimate_model(g, presets::llama2_7b, training(1, 2048, 0, true)),
                    Catch::Contains("packing needs the documents' mean length"));
  CHECK_THROWS_WITH(estimate_model(g, presets::llama2_7b, training(1, 2048, 4096, false)),
                    Catch::Contains("document tokens (4096) exceed seq (2048)"));
  CHECK_THROWS_WITH(memory_need(presets::llama2_7b, training(1, 2048, 4096, true)),
                    Catch::Contains("document tokens (4096) exceed seq (2048)"));
  run_config infer = training(1, 2048, 512, false);
  infer.mode = run_mode::infer;
  CHECK_THROWS_WITH(estimate_model(g, presets::llama2_7b, infer),
                    Catch::Contains("inference takes its prompt as given"));
  CHECK_THROWS_WITH(estimate_model(g, presets::resnet50, training(32, 0, 100, false)),
                    Catch::Contains("this model is a CNN"));
  CHECK_THROWS_WITH(memory_need(presets::resnet50, training(32, 0, 100, true)),
                    Catch::Contains("this model is a CNN"));
  CHECK_THROWS_WITH(estimate_model(g, presets::llama2_7b, training(1, 2048, 1LL << 31, false)),
                    Catch::Contains("document tokens <= 2^30"));
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model --doc-tokens and --packing, in text and JSON", "[cli][packing]") {
  using dlperf_test::run_dlperf;
  const std::string base = "model --preset llama2_7b --gpu h100_sxm --train --batch 2 --seq 4096 ";
  const auto padded = run_dlperf(base + "--doc-tokens 512");
  REQUIRE(padded.exit_code == 0);
  CHECK(padded.out.find("batch 2 x 4096 tokens, each a document of 512 padded (12.5 % real)") !=
        std::string::npos);
  const auto packed = run_dlperf(base + "--doc-tokens 512 --packing");
  REQUIRE(packed.exit_code == 0);
  CHECK(packed.out.find("batch 2 x 4096 tokens, documents of 512 packed (8.00 a sequence)") !=
        std::string::npos);
  const nlohmann::json a = nlohmann::json::parse(run_dlperf(base + "--doc-tokens 512 --json").out);
  const nlohmann::json b =
      nlohmann::json::parse(run_dlperf(base + "--doc-tokens 512 --packing --json").out);
  const nlohmann::json none = nlohmann::json::parse(run_dlperf(base + "--json").out);
  CHECK(a.at("document_tokens") == 512);
  CHECK(a.at("packing") == false);
  CHECK(b.at("packing") == true);
  CHECK(none.at("document_tokens").is_null());
  CHECK(a.at("tokens_per_s").get<double>() * a.at("step_time_s").get<double>() ==
        Approx(2.0 * 512.0));
  CHECK(b.at("tokens_per_s").get<double>() * b.at("step_time_s").get<double>() ==
        Approx(2.0 * 4096.0));
  CHECK(b.at("samples_per_s").get<double>() * b.at("step_time_s").get<double>() == Approx(16.0));
}

TEST_CASE("dlperf model rejects bad --doc-tokens and --packing with exit code 2 and one line",
          "[cli][packing][errors]") {
  using dlperf_test::require_usage_error;
  const std::string base = "model --preset llama2_7b --gpu h100_sxm ";
  require_usage_error(base + "--train --packing", "--packing needs --doc-tokens N");
  require_usage_error(base + "--train --doc-tokens 1.5", "--doc-tokens '1.5' must be a whole");
  require_usage_error(base + "--train --doc-tokens -3", "--doc-tokens");
  require_usage_error(base + "--infer --doc-tokens 512", "--doc-tokens describes a training set");
  require_usage_error(base + "--infer --doc-tokens 512 --packing", "--packing describes");
  require_usage_error(base + "--train --seq 2048 --doc-tokens 4096",
                      "document tokens (4096) exceed seq (2048)");
  require_usage_error("model --preset resnet50 --gpu h100_sxm --train --doc-tokens 64",
                      "this model is a CNN");
  require_usage_error(base + "--train --seq 1.5", "--seq '1.5' must be a whole number of tokens");
  require_usage_error(base + "--infer --prompt 511.5 --generate 8",
                      "--prompt '511.5' must be a whole number of tokens");
  require_usage_error(base + "--infer --prompt 512 --generate 0.5",
                      "--generate '0.5' must be a whole number of tokens");
}
#endif
