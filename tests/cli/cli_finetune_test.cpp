// `dlperf model --lora R [--lora-targets ...] [--qlora]` (docs/models.md, "Fine-tuning").
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;

TEST_CASE("dlperf model --lora states the trainable parameters, in text and JSON", "[cli][lora]") {
  const std::string base = "model --preset llama2_7b --gpu rtx_4090 --train --batch 1 --seq 512 ";
  const auto text = run_dlperf(base + "--lora 8");
  REQUIRE(text.exit_code == 0);
  // PEFT's count for r = 8 on q_proj and v_proj: 4,194,304.
  CHECK(text.out.find("LoRA rank 8 on q,v: 4.19 M trainable parameters") != std::string::npos);
  const auto full = run_dlperf(base);
  REQUIRE(full.exit_code == 0);
  CHECK(full.out.find("full training: 6.74 B trainable parameters") != std::string::npos);
  const auto j = run_dlperf(base + "--lora 8 --lora-targets all --qlora --json");
  REQUIRE(j.exit_code == 0);
  const nlohmann::json out = nlohmann::json::parse(j.out);
  CHECK(out.at("trainable_parameters").get<double>() == 19988480.0);
  CHECK(out.at("lora").at("rank") == 8);
  CHECK(out.at("lora").at("targets") == "q,k,v,o,gate,up,down");
  CHECK(out.at("lora").at("qlora") == true);
  CHECK(out.at("memory").at("gradients_bytes").get<double>() == 2.0 * 19988480.0);
  CHECK(out.at("step_time_s").get<double>() > 0);
  const nlohmann::json plain = nlohmann::json::parse(run_dlperf(base + "--json").out);
  CHECK(plain.at("lora").is_null());
}

TEST_CASE("dlperf model rejects bad LoRA flags with exit code 2 and one line",
          "[cli][lora][errors]") {
  const std::string base = "model --preset llama2_7b --gpu rtx_4090 ";
  require_usage_error(base + "--lora 0", "--lora");
  require_usage_error(base + "--lora -8", "--lora");
  require_usage_error(base + "--lora 8 --infer", "--lora and --qlora are for --train");
  require_usage_error(base + "--qlora", "--qlora needs --lora RANK");
  require_usage_error(base + "--lora-targets all", "--lora-targets needs --lora RANK");
  require_usage_error(base + "--lora 8 --lora-targets q,qkv", "unknown LoRA target module 'qkv'");
  require_usage_error(base + "--lora 8 --qlora --dtype fp32", "qlora computes in bf16 or fp16");
  require_usage_error(base + "--lora 8192", "exceeds target 'q'");
  require_usage_error("model --preset gpt2 --gpu rtx_4090 --lora 8 --lora-targets gate",
                      "needs a gated (SwiGLU) FFN");
  require_usage_error("model --preset resnet50 --gpu rtx_4090 --lora 8", "this model is a CNN");
}
#endif
