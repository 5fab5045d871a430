// Weight formats as data (core/weight_format.hpp, model/weight_file.hpp) and the KV-cache dtype:
// bits per weight computed from the published layouts, file sizes against published GGUF files,
// decode speed ordered by the bytes each format reads on every GPU, and rejections by name.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"
#include "run_types.hpp"

using namespace dlperf;
using dlperf::test::widest_half;
using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;
using dlperf_test::run_result;

namespace {

run_config decode_run(dtype t, weight_format w) {
  run_config r{.mode = run_mode::infer, .batch = 1, .type = t, .weights = w};
  r.prompt = 128;
  r.generate = 64;
  return r;
}

}  // namespace

TEST_CASE("bits per weight come from the published block layouts", "[weights]") {
  // ggml-common.h static_asserts each block's size: block_q4_0 18 bytes per 32 weights,
  // block_q8_0 34 per 32, block_q4_K 144, block_q5_K 176 and block_q6_K 210 per QK_K = 256.
  CHECK(gguf::q4_0.bits_per_weight() * 32 / 8 == Approx(18));
  CHECK(gguf::q8_0.bits_per_weight() * 32 / 8 == Approx(34));
  CHECK(gguf::q4_k.bits_per_weight() * 256 / 8 == Approx(144));
  CHECK(gguf::q5_k.bits_per_weight() * 256 / 8 == Approx(176));
  CHECK(gguf::q6_k.bits_per_weight() * 256 / 8 == Approx(210));
  // OCP MX v1.0: an 8-bit scale per 32 FP4 elements, 4.25 bits; NVFP4: an 8-bit scale per 16,
  // 4.5 bits (NVIDIA's NVFP4 blog); QLoRA's 0.127 bits of scales per weight (arXiv 2305.14314).
  CHECK(weight_formats::mxfp4.bits_per_weight() == Approx(4.25));
  CHECK(weight_formats::nvfp4.bits_per_weight() == Approx(4.5));
  CHECK(weight_formats::nf4.bits_per_weight() - 4.0 == Approx(0.127).epsilon(0.001));
  // One source of truth: QLoRA's storage is the table's NF4.
  CHECK(nf4_bits_per_weight == weight_formats::nf4.bits_per_weight());
  // AWQ and GPTQ: a 16-bit scale and a 4-bit zero per 128 weights.
  CHECK(weight_formats::awq.bits_per_weight() == Approx(4.0 + 20.0 / 128.0));
  CHECK(weight_formats::gptq.bits_per_weight() == weight_formats::awq.bits_per_weight());
  // MLC LLM's q4f16_1: a group of 32 int4 weights packed in four uint32 words (storage_nbit 32)
  // and one FP16 scale, 18 bytes; its LM head the same (final_fc_weight "same_as_linear_weight").
  CHECK(weight_formats::q4f16_1.bits_per_weight() * 32 / 8 == Approx(18));
  CHECK(weight_formats::q4f16_1.head.bits_per_weight() ==
        weight_formats::q4f16_1.bits_per_weight());
}

TEST_CASE("EXL2 files hold their named average bits per weight, the LM head about 6.3",
          "[weights]") {
  // ExLlamaV2's converter (doc/convert.md): -b sets the average bits per weight, -hb 6 (the
  // default) gives the LM head "about 6.3 bits"; the kernels dequantise to FP16.
  const struct {
    weight_format f;
    double bits;
  } expected[] = {{weight_format::exl2_2_5, 2.5}, {weight_format::exl2_3_0, 3.0},
                  {weight_format::exl2_3_5, 3.5}, {weight_format::exl2_4_0, 4.0},
                  {weight_format::exl2_4_5, 4.5}, {weight_format::exl2_5_0, 5.0},
                  {weight_format::exl2_6_0, 6.0}, {weight_format::exl2_8_0, 8.0}};
  for (const auto& e : expected) {
    const weight_format_spec& s = weight_formats::of(e.f);
    INFO(name(e.f));
    CHECK(s.bits_per_weight() == e.bits);
    CHECK(s.head.bits_per_weight() == Approx(6.3));
    CHECK(s.compute == dtype::fp16);
    CHECK(s.dequantized);
    CHECK_FALSE(s.gguf);
  }
  CHECK(parse<weight_format>("exl2_4.5bpw") == weight_format::exl2_4_5);
  // A 4.0 bpw Llama-2-7B: its linear layers' 6.48 G weights at half a byte each.
  CHECK(linear_weight_bytes(presets::llama2_7b.transformer, weight_format::exl2_4_0, dtype::fp16) ==
        0.5);
}

TEST_CASE("MLX's affine formats cost their bits and half a bit, the LM head included",
          "[weights]") {
  // mlx.core.quantize, affine mode: a 16-bit scale and a 16-bit bias per group of 64 weights,
  // 32 / 64 = 0.5 bits per weight; mlx_lm.convert quantises the LM head as well.
  const struct {
    weight_format f;
    int bits;
  } expected[] = {{weight_format::mlx_2bit, 2}, {weight_format::mlx_3bit, 3},
                  {weight_format::mlx_4bit, 4}, {weight_format::mlx_5bit, 5},
                  {weight_format::mlx_6bit, 6}, {weight_format::mlx_8bit, 8}};
  for (const auto& e : expected) {
    const weight_format_spec& s = weight_formats::of(e.f);
    INFO(name(e.f));
    CHECK(s.bits_per_weight() == e.bits + 0.5);
    CHECK(s.head.bits_per_weight() == s.bits_per_weight());
    CHECK(s.compute == dtype::fp16);
    CHECK(s.dequantized);
  }
  // MLX's 4-bit weighs what GGUF's Q4_0 does (a 16-bit scale per 32), by another layout.
  CHECK(weight_formats::mlx_4bit.bits_per_weight() == weight_formats::q4_0.bits_per_weight());
  CHECK(parse<weight_format>("mlx_4bit") == weight_format::mlx_4bit);
}

TEST_CASE("every weight format has a record, a name and a source", "[weights]") {
  for (weight_format f : enum_values<weight_format>) {
    const weight_format_spec& s = weight_formats::of(f);
    INFO(name(f));
    CHECK(s.id == f);
    CHECK(!s.source.empty());
    CHECK(parse<weight_format>(name(f)) == f);
    if (!s.is_native()) {  // from EXL2's 2.5 bits to Q8_0's 8.5
      CHECK(s.bits_per_weight() >= 2.5);
      CHECK(s.bits_per_weight() <= 8.5);
    }
  }
}

TEST_CASE("the K-quant mixes give about half the layers more bits", "[weights]") {
  // llama.cpp's use_more_bits: 32 layers (Llama-2-7B) give 16, 40 (13B) give 20, 80 (70B) 40.
  CHECK(gguf_more_bits_layers(32) == 16);
  CHECK(gguf_more_bits_layers(40) == 20);
  CHECK(gguf_more_bits_layers(80) == 40);
  CHECK(gguf_more_bits(0, 32));
  CHECK(gguf_more_bits(31, 32));
  CHECK_FALSE(gguf_more_bits(4, 32));
  CHECK(gguf_more_bits(6, 32));
}

TEST_CASE("GGUF quantiser mixes give the published files' sizes", "[weights]") {
  // ggml's block sizes: block_q2_K 84 bytes, block_q3_K 110, block_iq4_xs 136 per 256 weights.
  CHECK(gguf::q2_k.bits_per_weight() * 256 / 8 == 84);
  CHECK(gguf::q3_k.bits_per_weight() * 256 / 8 == 110);
  CHECK(gguf::iq4_xs.bits_per_weight() * 256 / 8 == 136);
  // Published file sizes in bytes: bartowski/Meta-Llama-3.1-8B-Instruct-GGUF at revision
  // bf5b95e9 (made with an importance matrix) and Qwen/Qwen2.5-Coder-32B-Instruct-GGUF at
  // 9d3053fc (Qwen2.5-32B's shape), as a model-download manifest lists them. The files hold
  // their tokenizer and metadata besides (about 8 MB for Llama 3's): within 0.3 %.
  const struct {
    const model_spec* model;
    weight_format format;
    double bytes;
  } published[] = {{&presets::llama3_1_8b, weight_format::q2_k, 3179136416},
                   {&presets::llama3_1_8b, weight_format::q3_k_m, 4018922912},
                   {&presets::llama3_1_8b, weight_format::iq4_xs, 4447667616},
                   {&presets::llama3_1_8b, weight_format::q4_k_m, 4920739232},
                   {&presets::llama3_1_8b, weight_format::q5_k_m, 5732992416},
                   {&presets::llama3_1_8b, weight_format::q6_k, 6596011424},
                   {&presets::llama3_1_8b, weight_format::q8_0, 8540775840},
                   {&presets::qwen2_5_32b, weight_format::q2_k, 12313098432},
                   {&presets::qwen2_5_32b, weight_format::q3_k_m, 15935047872},
                   {&presets::qwen2_5_32b, weight_format::q4_k_m, 19851335872},
                   {&presets::qwen2_5_32b, weight_format::q6_k, 26886154432}};
  for (const auto& p : published) {
    const double bytes = weight_file_bytes(*p.model, p.format, dtype::bf16);
    INFO(p.model->name << " " << name(p.format) << ": " << bytes << " against " << p.bytes);
    CHECK(bytes <= p.bytes);  // the metadata is not modelled
    CHECK(bytes == Approx(p.bytes).epsilon(0.003));
  }
  // Without its mix, Q3_K_M would be Q3_K throughout: the mix is 14 % of the file here.
  const double q3_k_alone =
      split_weights(presets::llama3_1_8b.transformer).linear * gguf::q3_k.bytes_per_weight();
  CHECK(linear_weight_bytes(presets::llama3_1_8b.transformer, weight_format::q3_k_m, dtype::bf16) *
            split_weights(presets::llama3_1_8b.transformer).linear >
        1.1 * q3_k_alone);
}

TEST_CASE("GGUF file sizes match published files", "[weights]") {
  // localmodels/Llama-2-13B-ggml README (huggingface.co/localmodels/Llama-2-13B-ggml, 2023-07):
  // llama-2-13b.ggmlv3.q4_K_M.bin 7.87 GB, "Q6_K for half of the attention.wv and
  // feed_forward.w2 tensors, else Q4_K". GB rounded to 0.01 and the metadata (tokenizer, about
  // 1 MB) not modelled: within 0.5 %.
  const double q4_k_m = weight_file_bytes(presets::llama2_13b, weight_format::q4_k_m, dtype::bf16);
  CHECK(q4_k_m / 1e9 == Approx(7.87).epsilon(0.005));
  // The mix costs more than Q4_K alone: 2 x 20 of 40 layers' tensors at Q6_K.
  const auto gb = [](weight_format f) {
    return weight_file_bytes(presets::llama2_7b, f, dtype::bf16) / 1e9;
  };
  CHECK(gb(weight_format::q4_0) < gb(weight_format::q4_k_m));
  CHECK(gb(weight_format::q4_k_m) < gb(weight_format::q5_k_m));
  CHECK(gb(weight_format::q5_k_m) < gb(weight_format::q6_k));
  CHECK(gb(weight_format::q6_k) < gb(weight_format::q8_0));
  // The native file is the parameters in the run's type, exactly.
  CHECK(weight_file_bytes(presets::llama2_7b, weight_format::native, dtype::bf16) ==
        2.0 * presets::llama2_7b.parameters());
  // Inference memory holds the file's weights.
  run_config r = decode_run(dtype::fp16, weight_format::q4_k_m);
  r.overhead_bytes = 0;
  CHECK(memory_need(presets::llama2_7b, r).weights.value() ==
        Approx(gb(weight_format::q4_k_m) * 1e9));
}

TEST_CASE("batch-1 decode: int4 faster than int8 faster than fp16, on every GPU", "[weights]") {
  const std::array int4s{weight_format::int4_weights, weight_format::q4_0,  weight_format::q4_k_m,
                         weight_format::awq,          weight_format::gptq,  weight_format::q4f16_1,
                         weight_format::nf4,          weight_format::mxfp4, weight_format::nvfp4};
  const std::array int8s{weight_format::int8_weights, weight_format::q8_0, weight_format::fp8};
  for (const gpu_spec* g : catalog::all) {
    const dtype t = widest_half(*g);
    for (stack_id id : {stack_id::ceiling, stack_id::llama_cpp, stack_id::vllm}) {
      const software_stack& s = stacks::of(id);
      if (!s.vendors.has(g->arch().vendor)) continue;  // llama.cpp's CUDA backend
      const auto decode = [&](weight_format f) {
        return estimate_model(*g, presets::llama2_7b, decode_run(t, f), s).stack.decode_per_token;
      };
      const duration native = decode(weight_format::native);
      // Every GPU's batch-1 decode GEMMs are DRAM-bound, those without tensor cores (Pascal,
      // Apple) too: a one-row product on the vector ALUs is not padded to a matrix tile
      // (estimate/gemm.hpp, skinny_gemm), so the bytes read set the time.
      const model_estimate plain =
          estimate_model(*g, presets::llama2_7b, decode_run(t, weight_format::int8_weights));
      for (const op_estimate& op : plain.decode)
        if (op.kind == op_kind::gemm && op.weight_gemv) CHECK(op.bound != bound::compute);
      for (weight_format w8 : int8s) {
        INFO(g->id() << " under " << s.name() << ": " << name(w8));
        const duration eight = decode(w8);
        CHECK(eight < native);
        for (weight_format w4 : int4s) {
          INFO(name(w4));
          CHECK(decode(w4) < eight);
        }
      }
    }
  }
}

TEST_CASE("the dequantisation cost is the stack's quantised-GEMV share", "[weights][stack]") {
  // FP8 weights on H100 run as FP8 products (no dequantisation); on A100, which has no FP8, they
  // are dequantised in the product, as weight-only int4 is everywhere.
  const gpu_spec& h100 = catalog::find("h100_sxm");
  const gpu_spec& a100 = catalog::find("a100_sxm4_80gb");
  const model_spec& m = presets::llama2_7b;
  CHECK_FALSE(
      estimate_model(h100, m, decode_run(dtype::fp16, weight_format::fp8)).dequantized_weights);
  CHECK(estimate_model(a100, m, decode_run(dtype::fp16, weight_format::fp8)).dequantized_weights);
  CHECK(estimate_model(h100, m, decode_run(dtype::fp16, weight_format::awq)).dequantized_weights);
  CHECK_FALSE(
      estimate_model(h100, m, decode_run(dtype::fp16, weight_format::native)).dequantized_weights);
  // A DRAM-bound weight GEMM of a dequantised format runs at the stack's quantised share (on
  // the A100 held to what llama.cpp's kernels move per SM clock).
  const stacked_estimate e =
      estimate_model(a100, m, decode_run(dtype::fp16, weight_format::q4_0), stacks::llama_cpp);
  bool seen = false;
  for (std::size_t i = 0; i < e.stack.decode.size(); ++i) {
    const op_estimate& op = e.ceiling.decode[i];
    if (op.kind != op_kind::gemm || op.bound != bound::global) continue;
    seen = true;
    CHECK(e.stack.decode[i].time.value() ==
          Approx(op.time.value() / gemv_share(stacks::llama_cpp, true, device_context(a100))));
  }
  CHECK(seen);
}

TEST_CASE("the KV-cache dtype sets the cache's bytes and what decode reads", "[weights][kv]") {
  const gpu_spec& h100 = catalog::find("h100_sxm");
  run_config r = decode_run(dtype::bf16, weight_format::native);
  r.prompt = 8000;
  r.generate = 192;
  r.batch = 16;
  run_config kv_fp8 = r, kv_int8 = r, kv_fp16 = r;
  kv_fp8.kv_cache = kv_cache_type::float8;
  kv_int8.kv_cache = kv_cache_type::integer8;
  kv_fp16.kv_cache = kv_cache_type::float16;
  const model_spec& m = presets::llama3_8b;
  const double cache16 = memory_need(m, kv_fp16).kv_cache.value();
  // 32 layers x 2 x 8 KV heads x 128 x 8192 tokens x 16 sequences x 2 bytes.
  CHECK(cache16 == 32.0 * 2 * 8 * 128 * 8192 * 16 * 2);
  CHECK(memory_need(m, kv_fp8).kv_cache.value() == cache16 / 2);
  CHECK(memory_need(m, kv_int8).kv_cache.value() == cache16 / 2);
  CHECK(memory_need(m, r).kv_cache.value() == cache16);  // auto: the run's BF16
  // At 8k context and batch 16 the cache read is a large share of a decode step.
  const duration t16 = estimate_model(h100, m, kv_fp16).decode_per_token;
  const duration t8 = estimate_model(h100, m, kv_fp8).decode_per_token;
  CHECK(t8 < t16);
  CHECK(estimate_model(h100, m, kv_int8).decode_per_token == t8);
}

TEST_CASE("bad weight formats and KV-cache dtypes are rejected by name", "[weights][cli]") {
  CHECK_THROWS_AS(parse<weight_format>("q4_k_s"), not_found);
  CHECK_THROWS_WITH(parse<weight_format>("q4_k_s"), Catch::Contains("q4_k_m"));
  run_config train{.batch = 1, .seq = 64, .weights = weight_format::awq};
  CHECK_THROWS_WITH(train.validate(), Catch::Contains("awq"));
  run_config unfused = decode_run(dtype::fp16, weight_format::native);
  unfused.kv_cache = kv_cache_type::float8;
  unfused.flash_attention = false;
  CHECK_THROWS_WITH(unfused.validate(), Catch::Contains("fused attention"));
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --infer --weights q3_k",
                      "--weights");
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --infer --weights q3_k", "q4_k_m");
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --infer --kv-dtype fp4",
                      "--kv-dtype");
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --weights q4_0", "for --infer");
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --kv-dtype fp8", "for --infer");
  require_usage_error("model --preset llama2_7b --gpu rtx_4090 --infer --kv-dtype int8 --no-flash",
                      "--no-flash");
}

TEST_CASE("model shows the file size and the KV-cache dtype", "[weights][cli]") {
  const run_result r = run_dlperf(
      "model --preset llama2_7b --gpu rtx_4090 --infer --weights q4_k_m --kv-dtype fp8 "
      "--prompt 512 --generate 128 --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("weights") == "q4_k_m");
  CHECK(j.at("kv_dtype") == "fp8");
  CHECK(j.at("weight_file_bytes").get<double>() ==
        Approx(weight_file_bytes(presets::llama2_7b, weight_format::q4_k_m, dtype::bf16)));
  const run_result people = run_dlperf(
      "model --preset llama2_7b --gpu rtx_4090 --infer --weights q4_k_m --prompt 512 "
      "--generate 128");
  CHECK(people.out.find("weights q4_k_m (GGUF Q4_K_M") != std::string::npos);
  CHECK(people.out.find("GiB on disk") != std::string::npos);
  // Training has no KV cache: the key is null.
  const run_result train = run_dlperf("model --preset gpt2 --gpu h100_sxm --json");
  REQUIRE(train.exit_code == 0);
  CHECK(nlohmann::json::parse(train.out).at("kv_dtype").is_null());
}

TEST_CASE("model FLOPs utilisation never exceeds 1 in any weight format, prefill or training",
          "[weights]") {
  // The peak is that of the datatype the weight products run in: FP8 weights on Ada run FP8
  // GEMMs at twice the BF16 rate, and against the BF16 peak a 4096-token prefill on RTX 4090
  // came out at 167 % "MFU".
  for (const gpu_spec* g : catalog::all) {
    const dtype t = widest_half(*g);
    for (weight_format f : enum_values<weight_format>) {
      INFO(g->id() << ": " << name(f));
      run_config prefill{.mode = run_mode::infer, .batch = 1, .type = t, .weights = f};
      prefill.prompt = 4096;
      const model_estimate e = estimate_model(*g, presets::llama2_7b, prefill);
      CHECK(e.mfu() > 0.0);
      CHECK(e.mfu() <= 1.0);
      CHECK(e.achieved() <= e.peak);
    }
    const model_estimate train = estimate_model(
        *g, presets::llama2_7b, run_config{.mode = run_mode::train, .batch = 1, .type = t});
    INFO(g->id() << ": training");
    CHECK(train.mfu() <= 1.0);
  }
}
