// The optimizer's kernel families (stack/optimizer_kernels.hpp; docs/stacks.md, "The optimizer"):
// PyTorch's for-loop and foreach updates as element-wise passes, fused updates as one pass, the
// kernels each launches, the stacks' defaults and a run's own choice, and every rejection.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace optimizer_kernels_test {

// Bytes per parameter of a pass list: 4 per FP32 tensor read or written.
template <class Passes>
double pass_bytes(const Passes& passes) {
  double b = 0;
  for (const optimizer_pass& p : passes) b += p.bytes;
  return b;
}

run_config training_with(optimizer_kind o, optimizer_kernel k, dtype t = dtype::fp32) {
  run_config r;
  r.batch = 8;
  r.seq = 512;
  r.type = t;
  r.optimizer = o;
  r.optimizer_kernels = k;
  return r;
}

// The optimizer phase's time of @p m on @p g under @p r as the stack runs it.
double update_time(const gpu_spec& g, const model_spec& m, const run_config& r, stack_id s) {
  return estimate_model(g, m, r, stacks::of(s)).stack.optimizer.time().value();
}

}  // namespace optimizer_kernels_test

using namespace optimizer_kernels_test;

TEST_CASE("PyTorch's unfused updates move the bytes their ops read and write",
          "[optimizer_kernels]") {
  // AdamW: decay 8, lerp 12, mul 8, addcmul 12, sqrt 8, div 8, add 8, addcdiv 16 (FP32).
  CHECK(adamw_passes.size() == 8);
  CHECK(pass_bytes(adamw_passes) == 80.0);
  // SGD with momentum and weight decay: add 12, mul 8, add 12, add 12.
  CHECK(sgd_momentum_passes.size() == 4);
  CHECK(pass_bytes(sgd_momentum_passes) == 44.0);
  // Each pass's bytes are 4 per list it reads plus 4 for what it writes, at least 8.
  for (const optimizer_pass& p : adamw_passes) {
    CHECK(p.bytes >= 8.0);
    CHECK(std::fmod(p.bytes, 4.0) == 0.0);
    CHECK(p.tensor_lists >= 1);
    CHECK(p.tensor_lists <= 5);
  }
  // The fused pass reads the gradient and reads and writes the weights and both moments: 28 B
  // for FP32 training, the least any update moves.
  const optimizer_update fused =
      optimizer_update_of(optimizer_kind::adam, optimizer_kernel::fused, 1e9, 300, 28.0);
  CHECK(fused.bytes_per_parameter == 28.0);
  CHECK(fused.passes == 1);
  for (optimizer_kernel k : {optimizer_kernel::per_tensor, optimizer_kernel::multi_tensor}) {
    const optimizer_update u = optimizer_update_of(optimizer_kind::adam, k, 1e9, 300, 28.0);
    CHECK(u.bytes_per_parameter == 80.0);
    CHECK(u.passes == 8);
  }
}

TEST_CASE("kernel launches: a kernel per op and tensor, multi-tensor chunks, or one pass",
          "[optimizer_kernels]") {
  const multi_tensor_launch_limits l{};
  // A launch holds at most 110 tensors of one list, 30 of five, and 320 x 65536 elements.
  CHECK(l.launches(1e6, 110, 1) == 1.0);
  CHECK(l.launches(1e6, 111, 1) == 2.0);
  CHECK(l.launches(1e6, 30, 5) == 1.0);
  CHECK(l.launches(320.0 * 65536.0, 1, 1) == 1.0);
  CHECK(l.launches(320.0 * 65536.0 + 1.0, 1, 1) == 2.0);
  // Llama-2-7B's 291 tensors: the chunks bound the launches (6.74e9 / 2^24.3 ~ 322 per pass).
  const double p = presets::llama2_7b.parameters(),
               t = presets::llama2_7b.transformer.parameter_tensors();
  const optimizer_update per_tensor =
      optimizer_update_of(optimizer_kind::adam, optimizer_kernel::per_tensor, p, t, 16.0);
  CHECK(per_tensor.kernels == 8.0 * t);
  const optimizer_update foreach =
      optimizer_update_of(optimizer_kind::adam, optimizer_kernel::multi_tensor, p, t, 16.0);
  CHECK(foreach.kernels == 8.0 * std::ceil(p / (320.0 * 65536.0)));
  // So a foreach pass over a 7B model launches more kernels than a loop over its tensors, but
  // the host makes a call per pass and per tensor (the lists), not per launch.
  CHECK(foreach.kernels > per_tensor.kernels);
  CHECK(foreach.host_calls == 8.0 + t);
  CHECK(per_tensor.host_calls == per_tensor.kernels);
  // ResNet-50's 161 small tensors fit a few launches per pass.
  const double rn = presets::resnet50.cnn.parameter_tensors();
  const optimizer_update small =
      optimizer_update_of(optimizer_kind::sgd, optimizer_kernel::multi_tensor,
                          presets::resnet50.parameters(), rn, 20.0);
  CHECK(small.kernels <= 4.0 * 4.0);
  CHECK(small.kernels >= 4.0 * 2.0);
  // TensorFlow's and bitsandbytes' updates: one fused kernel per tensor.
  CHECK(optimizer_update_of(optimizer_kind::sgd, optimizer_kernel::per_tensor_fused, p, t, 20.0)
            .kernels == t);
  // 8-bit Adam is bitsandbytes' per-tensor kernel whatever the family says.
  const optimizer_update eight =
      optimizer_update_of(optimizer_kind::adam8bit, optimizer_kernel::multi_tensor, p, t, 16.0);
  CHECK(eight.kernels == t);
  CHECK(eight.bytes_per_parameter == 16.0);
}

TEST_CASE("parameter tensors as the reference implementations hold them", "[optimizer_kernels]") {
  // torchvision's ResNet-50: 53 convolutions with a batch norm each (scale and bias) and the
  // classifier's weight and bias, 161 tensors; ResNet-101: 104 convolutions, 314.
  CHECK(presets::resnet50.cnn.parameter_tensors() == 53.0 + 2.0 * 53.0 + 2.0);
  CHECK(presets::resnet101.cnn.parameter_tensors() == 104.0 + 2.0 * 104.0 + 2.0);
  // Hugging Face's Llama-2-7B: 32 layers of 4 attention and 3 MLP matrices and 2 RMSNorms, the
  // embedding, the final norm and the LM head: 291 (what llama.cpp's loader reports for it).
  CHECK(presets::llama2_7b.transformer.parameter_tensors() == 291.0);
  // Mixtral's experts are tensors of their own: 8 x 3 per layer plus the router.
  CHECK(presets::mixtral_8x7b.transformer.parameter_tensors() ==
        32.0 * (4.0 + 8.0 * 3.0 + 1.0 + 2.0) + 3.0);
  // BERT-large: Q, K, V, output and two FFN matrices with their biases, two LayerNorms (scale,
  // bias) per layer; word, position and type embeddings, their LayerNorm, the pooler.
  CHECK(presets::bert_large.transformer.parameter_tensors() ==
        24.0 * (8.0 + 4.0 + 4.0) + 3.0 + 2.0 + 2.0);
  // LoRA trains an A and a B matrix per adapted matrix: q and v of 32 layers, 128.
  run_config lora = training_with(optimizer_kind::adam, optimizer_kernel::as_stack);
  lora.lora.rank = 16;
  CHECK(lora_tensors(presets::llama2_7b.transformer, lora) == 2.0 * 2.0 * 32.0);
}

TEST_CASE("per-tensor is never faster than multi-tensor, nor multi-tensor than fused",
          "[optimizer_kernels][properties]") {
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    if (!stacks::pytorch_eager.vendors.has(g->arch().vendor)) continue;  // CUDA's PyTorch
    for (const model_spec* m : {&presets::resnet50, &presets::bert_large}) {
      INFO(m->name);
      for (optimizer_kind o : {optimizer_kind::sgd, optimizer_kind::adam}) {
        const auto at = [&](optimizer_kernel k) {
          run_config r = training_with(o, k, dtype::fp16);
          if (m->kind == model_kind::cnn) r.seq = 0;
          return update_time(*g, *m, r, stack_id::pytorch_eager);
        };
        const double loop = at(optimizer_kernel::per_tensor);
        const double foreach = at(optimizer_kernel::multi_tensor);
        const double fused = at(optimizer_kernel::fused);
        CHECK(std::isfinite(loop));
        CHECK(fused > 0);
        CHECK(loop >= foreach);
        CHECK(foreach >= fused);
      }
    }
  }
}

TEST_CASE("the stack's optimizer kernels unless the run names its own", "[optimizer_kernels]") {
  const run_config as_stack = training_with(optimizer_kind::adam, optimizer_kernel::as_stack);
  CHECK(optimizer_kernels_of(stacks::pytorch_eager, as_stack) == optimizer_kernel::multi_tensor);
  CHECK(optimizer_kernels_of(stacks::megatron, as_stack) == optimizer_kernel::fused);
  CHECK(optimizer_kernels_of(stacks::tensorflow, as_stack) == optimizer_kernel::per_tensor_fused);
  CHECK(optimizer_kernels_of(stacks::ceiling, as_stack) == optimizer_kernel::fused);
  const run_config fused = training_with(optimizer_kind::adam, optimizer_kernel::fused);
  CHECK(optimizer_kernels_of(stacks::pytorch_eager, fused) == optimizer_kernel::fused);
  const run_config eight = training_with(optimizer_kind::adam8bit, optimizer_kernel::as_stack);
  CHECK(optimizer_kernels_of(stacks::pytorch_eager, eight) == optimizer_kernel::per_tensor_fused);
  // Outside a stack the model runs the ceiling's fused pass: as_stack is that exactly.
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  CHECK(estimate_model(g, presets::bert_large, as_stack).time.value() ==
        estimate_model(g, presets::bert_large, fused).time.value());
  // The eager stack's update pays its op calls' host time: the per-tensor loop over BERT-large's
  // 391 tensors x 8 kernels is at least 391 x 8 x 7 us.
  const run_config loop = training_with(optimizer_kind::adam, optimizer_kernel::per_tensor);
  CHECK(update_time(g, presets::bert_large, loop, stack_id::pytorch_eager) >=
        presets::bert_large.transformer.parameter_tensors() * 8.0 *
            stacks::pytorch_eager.optimizer_host_overhead.number());
}

TEST_CASE("optimizer kernel rejections name what is wrong", "[optimizer_kernels][errors]") {
  run_config infer = training_with(optimizer_kind::adam, optimizer_kernel::fused);
  infer.mode = run_mode::infer;
  CHECK_THROWS_WITH(infer.validate(), Catch::Contains("optimizer kernels are for training"));
  const run_config eight = training_with(optimizer_kind::adam8bit, optimizer_kernel::multi_tensor);
  CHECK_THROWS_WITH(eight.validate(), Catch::Contains("adam8bit") &&
                                          Catch::Contains("per-tensor-fused") &&
                                          Catch::Contains("multi-tensor"));
  CHECK_NOTHROW(
      training_with(optimizer_kind::adam8bit, optimizer_kernel::per_tensor_fused).validate());
  software_stack s = stacks::pytorch_eager;
  s.optimizer_kernels = optimizer_kernel::as_stack;
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("optimizer_kernels must name a kernel family"));
  s = stacks::pytorch_eager;
  s.optimizer_host_overhead.value = microseconds(-1);
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("optimizer_host_overhead"));
  CHECK_THROWS_WITH(parse<optimizer_kernel>("foreach"), Catch::Contains("multi-tensor"));
  // A per-tensor AdamW over 4096 layers of 65,536 tiny experts (the largest the transformer
  // allows) would launch 8 kernels for each of about 8e8 tensors: more than a step's int count.
  transformer_config wide = presets::mixtral_8x7b.transformer;
  wide.layers = 4096;
  wide.hidden = 8;
  wide.heads = 1;
  wide.kv_heads = 1;
  wide.ffn = 8;
  wide.expert_ffn = 0;
  wide.head_size = 0;
  wide.vocab = 8;
  wide.experts = 65536;
  wide.experts_per_token = 1;
  const model_spec tiny{"tiny experts", model_kind::transformer, wide, {}, 0, "this test"};
  REQUIRE(tiny.transformer.parameter_tensors() * 8.0 > 2147483647.0);
  const run_config loop = training_with(optimizer_kind::adam, optimizer_kernel::per_tensor);
  CHECK_THROWS_WITH(estimate_model(catalog::h100_sxm, tiny, loop),
                    Catch::Contains("more than 2^31 kernel launches"));
  CHECK_NOTHROW(estimate_model(catalog::h100_sxm, tiny,
                               training_with(optimizer_kind::adam, optimizer_kernel::fused)));
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model --optimizer-kernels: the family in JSON and text, and its rejections",
          "[optimizer_kernels][cli]") {
  const std::string bert = "model --preset bert_large --gpu a100_sxm4_80gb --batch 8 --seq 512 ";
  CHECK(dlperf_test::json_of(bert + "--stack pytorch-eager --json").at("optimizer_kernels") ==
        "multi-tensor");
  CHECK(dlperf_test::json_of(bert + "--json").at("optimizer_kernels") == "fused");
  const nlohmann::json loop =
      dlperf_test::json_of(bert + "--stack pytorch-eager --optimizer-kernels per-tensor --json");
  CHECK(loop.at("optimizer_kernels") == "per-tensor");
  CHECK(loop.at("optimizer") == "adam");
  CHECK(dlperf_test::json_of(bert + "--optimizer adam8bit --stack megatron --json")
            .at("optimizer_kernels") == "per-tensor-fused");
  const nlohmann::json infer = dlperf_test::json_of(bert + "--infer --json");
  CHECK(infer.at("optimizer").is_null());
  CHECK(infer.at("optimizer_kernels").is_null());
  // The slower update shows in the step.
  CHECK(loop.at("step_time_s").get<double>() >
        dlperf_test::json_of(bert + "--stack pytorch-eager --optimizer-kernels fused --json")
            .at("step_time_s")
            .get<double>());
  const dlperf_test::run_result text =
      dlperf_test::run_dlperf(bert + "--stack pytorch-eager --optimizer sgd");
  CHECK(text.out.find("sgd update, multi-tensor kernels") != std::string::npos);
  dlperf_test::require_usage_error(bert + "--infer --optimizer-kernels fused",
                                   "--optimizer-kernels is for --train");
  dlperf_test::require_usage_error(bert + "--optimizer adam8bit --optimizer-kernels fused",
                                   "per-tensor-fused");
  dlperf_test::require_usage_error(bert + "--optimizer-kernels foreach", "--optimizer-kernels");
  dlperf_test::require_usage_error(
      "model --layers 4096 --hidden 8 --heads 1 --vocab 8 --ffn 8 --max-seq 8 --experts 65536 "
      "--experts-per-token 1 --gpu h100_sxm --train --batch 1 --seq 8 --optimizer-kernels "
      "per-tensor",
      "more than 2^31 kernel launches");
}
#endif
