// HuggingFace config.json files read as transformer descriptions: real configurations give their
// published parameter counts and the presets, and every rejection names its field.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/hf_config.hpp>
#include <dlperf/io/model_json.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace dlperf;

namespace {

// The test data file tests/data/hf/@p name.
std::string hf_file(const std::string& name) {
  return std::string(DLPERF_SOURCE_DIR) + "/tests/data/hf/" + name + ".json";
}

transformer_config read_hf(const std::string& name) {
  io::string_store strings;
  const model_spec m = io::read_model_file(hf_file(name), strings);
  REQUIRE(m.kind == model_kind::transformer);
  return m.transformer;
}

io::json parse_config(const std::string& text) { return io::json::parse(text); }

// A small valid Llama configuration to break one field at a time.
io::json small_llama() {
  return parse_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
                   "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 128,
                   "vocab_size": 100, "max_position_embeddings": 256, "torch_dtype": "bfloat16",
                   "transformers_version": "4.45.0", "bos_token_id": 1, "rope_scaling": null})");
}

}  // namespace

// Each file in tests/data/hf/ is the config.json its model's HuggingFace repository publishes
// (the URL is in the matching preset's source), as vendored by public GitHub repositories:
// Qwen, Llama 3.1 8B and 3.2 3B from one collection of configs (id 30247352769 in the search
// index), Llama 3.2 1B from MatthewGoldsberry/LLM-Projects, Phi-4 from mehmetcc/pal, gpt-oss-20b
// from jihengzhang/jihz-gpt-oss-20b, Llama 3.3 70B Instruct, DeepSeek-R1 and DeepSeek-V2.5 from
// a parameter-counter's test file (Python literals turned back into JSON).
TEST_CASE("real HuggingFace configurations give the presets and their published counts",
          "[model][hf]") {
  struct row {
    const char* file;
    const model_spec& preset;
    double exact;  // the count HF's safetensors metadata prints (0: only a rounded figure)
  };
  const row rows[] = {
      {"llama3_1_8b", presets::llama3_1_8b, 8030261248},
      {"llama3_2_1b", presets::llama3_2_1b, 1235814400},
      {"llama3_2_3b", presets::llama3_2_3b, 3212749824},
      {"llama3_3_70b_instruct", presets::llama3_3_70b, 70553706496},
      {"qwen2_5_7b", presets::qwen2_5_7b, 0},
      {"qwen2_5_14b", presets::qwen2_5_14b, 0},
      // Hugging Face's safetensors total of DeepSeek-R1-Distill-Qwen-32B, Qwen2.5-32B's shape.
      {"qwen2_5_32b", presets::qwen2_5_32b, 32763876352},
      {"qwen3_8b", presets::qwen3_8b, 0},
      {"qwen3_32b", presets::qwen3_32b, 0},
      {"qwen3_30b_a3b", presets::qwen3_30b_a3b, 0},
      {"phi4", presets::phi4, 0},
      {"gpt_oss_20b", presets::gpt_oss_20b, 0},
      {"deepseek_r1", presets::deepseek_v3, 0},  // R1 is V3's architecture retrained
  };
  for (const row& r : rows) {
    INFO(r.file);
    const transformer_config t = read_hf(r.file);
    CHECK(t == r.preset.transformer);
    CHECK(t.parameters() == Approx(r.preset.published_parameters).epsilon(0.01));
    if (r.exact > 0) CHECK(t.parameters() == r.exact);
  }
}

TEST_CASE("DeepSeek-R1's distills count their Hugging Face safetensors totals", "[model][hf]") {
  // HF API "safetensors.total" of deepseek-ai/DeepSeek-R1-Distill-Qwen-32B and -Llama-8B.
  CHECK(presets::r1_distill_qwen_32b.parameters() == 32763876352);
  CHECK(presets::r1_distill_llama_8b.parameters() == 8030261248);
  // Each is its base's architecture (the DeepSeek-R1 README's table of distills).
  CHECK(presets::r1_distill_qwen_14b.transformer == read_hf("qwen2_5_14b"));
  CHECK(presets::r1_distill_llama_70b.transformer == read_hf("llama3_3_70b_instruct"));
  CHECK(presets::r1_distill_qwen_7b.transformer == read_hf("qwen2_5_7b"));
}

TEST_CASE("non-embedding counts the model cards publish", "[model][hf]") {
  const auto non_embedding = [](const transformer_config& t) {
    return t.parameters() -
           static_cast<double>(t.vocab * t.hidden) * (t.tied_embeddings ? 1.0 : 2.0);
  };
  // Qwen2.5 blog (qwenlm.github.io/blog/qwen2.5-llm, 2024-09-19): 7B 6.53B non-embedding.
  CHECK(non_embedding(read_hf("qwen2_5_7b")) == Approx(6.53e9).epsilon(0.001));
  // 14B and 32B: 13.1B and 31.0B non-embedding, about 1 % under the count of their configs
  // (13.21B and 31.21B): the blog's figures round down further than its totals do.
  CHECK(non_embedding(read_hf("qwen2_5_14b")) == Approx(13.1e9).epsilon(0.01));
  CHECK(non_embedding(read_hf("qwen2_5_32b")) == Approx(31.0e9).epsilon(0.01));
  // Qwen3-8B and Qwen3-32B model cards: 6.95B and 31.2B non-embedding.
  CHECK(non_embedding(read_hf("qwen3_8b")) == Approx(6.95e9).epsilon(0.001));
  CHECK(non_embedding(read_hf("qwen3_32b")) == Approx(31.2e9).epsilon(0.001));
  // Gemma 2 report (arXiv:2408.00118, Table 2), exact.
  CHECK(non_embedding(presets::gemma2_9b.transformer) == 8324201984);
  CHECK(non_embedding(presets::gemma2_27b.transformer) == 26047480320);
}

TEST_CASE("active parameters of the mixtures of experts", "[model][hf]") {
  // The gpt-oss model card (Table 1) counts active parameters without the token embedding, a
  // lookup: 3.61B (20b) and 5.13B (120b).
  for (const auto& [m, active] :
       {std::pair{&presets::gpt_oss_20b, 3.61e9}, std::pair{&presets::gpt_oss_120b, 5.13e9}}) {
    const transformer_config& t = m->transformer;
    CHECK(t.active_parameters() - static_cast<double>(t.vocab * t.hidden) ==
          Approx(active).epsilon(0.002));
  }
  CHECK(read_hf("gpt_oss_20b").active_parameters() ==
        presets::gpt_oss_20b.transformer.active_parameters());
  // Published with two or three digits, truncated: Qwen3-30B-A3B "3.3B activated", DeepSeek-V3
  // "37B activated" (arXiv:2412.19437), Mixtral 8x22B "39B active".
  CHECK(read_hf("qwen3_30b_a3b").active_parameters() == Approx(3.3e9).epsilon(0.02));
  CHECK(read_hf("deepseek_r1").active_parameters() == Approx(37e9).epsilon(0.02));
  CHECK(presets::mixtral_8x22b.transformer.active_parameters() == Approx(39e9).epsilon(0.01));
  // DeepSeek-V2(.5): 236B total, 21B activated (DeepSeek-AI 2024, arXiv:2405.04434, abstract).
  const transformer_config v2 = read_hf("deepseek_v2_5");
  CHECK(v2.parameters() == Approx(236e9).epsilon(0.01));
  CHECK(v2.active_parameters() == Approx(21e9).epsilon(0.02));
  // A dense model is all active.
  CHECK(read_hf("phi4").active_parameters() == read_hf("phi4").parameters());
}

TEST_CASE("MLA caches the latent and the rotary key: 576 elements per token per layer",
          "[model][hf][memory]") {
  // DeepSeek-V2 (arXiv:2405.04434, Table 1): MLA's cache is (d_c + d_h^R) l elements per token,
  // d_c = 512 and d_h^R = 64; grouped-query attention would cache 2 n_kv d_h l.
  const transformer_config t = read_hf("deepseek_r1");
  CHECK(t.kv_cache_width() == 576);
  const run_config r{
      .mode = run_mode::infer, .batch = 2, .prompt = 1000, .generate = 24, .type = dtype::bf16};
  const auto s = detail::transformer_shapes::of(t, r);
  CHECK(s.kv_cache_bytes(r) == 61.0 * 576 * 1024 * 2 * 2);
  // Under tensor parallelism every GPU holds the whole latent.
  run_config tp = r;
  tp.gpus = 8;
  tp.tp = 8;
  CHECK(detail::transformer_shapes::of(t, tp).kv_cache_bytes(tp) == s.kv_cache_bytes(r));
  // Llama 3.1 8B: 2 x 8 heads x 128 = 2048 per layer, the published 128 KiB a token in BF16.
  const transformer_config llama = read_hf("llama3_1_8b");
  CHECK(llama.kv_cache_width() == 2048);
  const run_config one{.mode = run_mode::infer, .batch = 1, .prompt = 1, .type = dtype::bf16};
  CHECK(detail::transformer_shapes::of(llama, one).kv_cache_bytes(one) == 32.0 * 2048 * 2);
}

TEST_CASE("families without a real file in tests/data: GPT-2, BERT, GPT-NeoX, Gemma, Mixtral",
          "[model][hf]") {
  // GPT-2 and BERT-base as their configs give them (huggingface.co/openai-community/gpt2,
  // google-bert/bert-base-uncased): the presets and HF's printed counts.
  const io::json gpt2 = parse_config(R"({"activation_function": "gelu_new",
      "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1, "bos_token_id": 50256,
      "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
      "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768,
      "n_head": 12, "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1,
      "summary_activation": null, "summary_first_dropout": 0.1, "summary_proj_to_labels": true,
      "summary_type": "cls_index", "summary_use_proj": true,
      "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}},
      "vocab_size": 50257})");
  CHECK(io::transformer_from_hf(gpt2) == presets::gpt2.transformer);
  CHECK(io::transformer_from_hf(gpt2).parameters() == 124439808);
  const io::json bert = parse_config(R"({"architectures": ["BertForMaskedLM"],
      "attention_probs_dropout_prob": 0.1, "gradient_checkpointing": false, "hidden_act": "gelu",
      "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
      "intermediate_size": 3072, "layer_norm_eps": 1e-12, "max_position_embeddings": 512,
      "model_type": "bert", "num_attention_heads": 12, "num_hidden_layers": 12,
      "pad_token_id": 0, "position_embedding_type": "absolute", "transformers_version": "4.6.0.dev0",
      "type_vocab_size": 2, "use_cache": true, "vocab_size": 30522})");
  CHECK(io::transformer_from_hf(bert) == presets::bert_base.transformer);
  CHECK(io::transformer_from_hf(bert).parameters() == 109482240);
  // Pythia-160M (EleutherAI/pythia-160m): an untied GPT-NeoX; HF prints 162,322,944.
  const io::json neox = parse_config(R"({"architectures": ["GPTNeoXForCausalLM"], "bos_token_id": 0,
      "eos_token_id": 0, "hidden_act": "gelu", "hidden_size": 768, "initializer_range": 0.02,
      "intermediate_size": 3072, "layer_norm_eps": 1e-05, "max_position_embeddings": 2048,
      "model_type": "gpt_neox", "num_attention_heads": 12, "num_hidden_layers": 12,
      "rotary_emb_base": 10000, "rotary_pct": 0.25, "tie_word_embeddings": false,
      "torch_dtype": "float16", "transformers_version": "4.24.0", "use_cache": true,
      "use_parallel_residual": true, "vocab_size": 50304})");
  CHECK(io::transformer_from_hf(neox).parameters() == 162322944);
  // Gemma 2 9B's sizes (huggingface.co/google/gemma-2-9b config.json) give the preset.
  const io::json gemma2 = parse_config(R"({"architectures": ["Gemma2ForCausalLM"],
      "attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0, "head_dim": 256,
      "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 3584, "intermediate_size": 14336,
      "max_position_embeddings": 8192, "model_type": "gemma2", "num_attention_heads": 16,
      "num_hidden_layers": 42, "num_key_value_heads": 8, "query_pre_attn_scalar": 256,
      "rms_norm_eps": 1e-06, "sliding_window": 4096, "vocab_size": 256000})");
  CHECK(io::transformer_from_hf(gemma2) == presets::gemma2_9b.transformer);
  // Gemma 3 nests its language model under text_config; the vision tower is not counted.
  const io::json gemma3 = parse_config(R"({"architectures": ["Gemma3ForConditionalGeneration"],
      "model_type": "gemma3", "mm_tokens_per_image": 256, "vision_config": {"hidden_size": 1152},
      "text_config": {"model_type": "gemma3_text", "head_dim": 128, "hidden_size": 5376,
        "intermediate_size": 21504, "num_attention_heads": 32, "num_hidden_layers": 62,
        "num_key_value_heads": 16, "query_pre_attn_scalar": 168, "sliding_window": 1024,
        "max_position_embeddings": 131072, "vocab_size": 262208}})");
  CHECK(io::transformer_from_hf(gemma3) == presets::gemma3_27b.transformer);
  // Mixtral 8x22B (mistralai/Mixtral-8x22B-v0.1 config.json sizes).
  const io::json mixtral = parse_config(R"({"architectures": ["MixtralForCausalLM"],
      "hidden_size": 6144, "intermediate_size": 16384, "max_position_embeddings": 65536,
      "model_type": "mixtral", "num_attention_heads": 48, "num_experts_per_tok": 2,
      "num_hidden_layers": 56, "num_key_value_heads": 8, "num_local_experts": 8,
      "router_aux_loss_coef": 0.001, "vocab_size": 32000})");
  CHECK(io::transformer_from_hf(mixtral) == presets::mixtral_8x22b.transformer);
  // No model_type: the family comes from architectures.
  io::json arch_only = small_llama();
  arch_only.erase("model_type");
  arch_only["architectures"] = {"MistralForCausalLM"};
  CHECK(io::transformer_from_hf(arch_only) == io::transformer_from_hf(small_llama()));
}

TEST_CASE("a HuggingFace configuration is told from a dlperf model file", "[model][hf][io]") {
  io::string_store strings;
  CHECK(io::is_hf_config(small_llama()));
  const model_spec own = io::parse_model(
      R"({"name": "t", "transformer": {"layers": 2, "hidden": 64, "heads": 4, "vocab": 100,
          "max_seq": 256}})",
      strings);
  CHECK(own.name == "t");
  const model_spec hf = io::parse_model(small_llama().dump(), strings);
  CHECK(hf.transformer.ffn_type == ffn_kind::swiglu);
  CHECK(hf.transformer.kv_heads == 2);
  CHECK(io::read_model_file(hf_file("phi4"), strings).name == "microsoft/phi-4");
  // Without _name_or_path: the file's name, else (parsed from text) its model_type; a config.json
  // is named after its folder, as a downloaded checkpoint is laid out.
  CHECK(io::read_model_file(hf_file("llama3_1_8b"), strings).name == "llama3_1_8b");
  CHECK(hf.name == "llama");
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "dlperf_hf_name_test" / "Meta-Llama-3.1-8B";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "config.json") << small_llama().dump();
  CHECK(io::read_model_file((folder / "config.json").string(), strings).name ==
        "Meta-Llama-3.1-8B");
  std::filesystem::remove_all(folder.parent_path());
  // The new description fields round-trip through dlperf's own format.
  const model_spec ds = io::model_from_json(io::model_to_json(presets::deepseek_v3), strings);
  CHECK(ds.transformer == presets::deepseek_v3.transformer);
}

TEST_CASE("HuggingFace configurations are rejected naming the field", "[model][hf][errors]") {
  io::string_store strings;
  const auto fails = [&](const io::json& j, const std::string& message) {
    INFO(j.dump());
    CHECK_THROWS_WITH(io::parse_model(j.dump(), strings),
                      Catch::StartsWith("model file: ") && Catch::Contains(message));
  };
  // One field of a valid configuration set to @p value (null: removed).
  const auto breaks = [&](const std::string& key, const io::json& value,
                          const std::string& message) {
    io::json j = small_llama();
    if (value.is_null())
      j.erase(key);
    else
      j[key] = value;
    fails(j, message);
  };
  breaks("layer_norm_type", "fancy", "layer_norm_type: unknown field for model_type 'llama'");
  breaks("model_type", "mamba", "unsupported model_type 'mamba'");
  breaks("model_type", "mamba", "deepseek_v3");  // the supported ones are listed
  breaks("hidden_size", nullptr, "hidden_size: missing");
  breaks("vocab_size", nullptr, "vocab_size: missing");
  breaks("hidden_size", -4096, "hidden_size: must be between 1 and 16777216, got -4096");
  breaks("num_hidden_layers", 1000000, "num_hidden_layers: must be between 1 and 65536");
  breaks("vocab_size", 1LL << 40, "vocab_size: must be between");
  // 2^63 and 2^64 - 1 are shown as written, not as the long long they would wrap to.
  breaks("hidden_size", 9223372036854775808ULL,
         "hidden_size: must be between 1 and 16777216, got 9223372036854775808");
  breaks("hidden_size", 18446744073709551615ULL, "got 18446744073709551615");
  breaks("num_attention_heads", 0, "num_attention_heads: must be between 1");
  breaks("intermediate_size", "big", "intermediate_size: must be a whole number");
  breaks("intermediate_size", 12.5, "intermediate_size: must be a whole number");
  breaks("tie_word_embeddings", 1, "tie_word_embeddings: must be true or false");
  breaks("num_key_value_heads", 3, "kv_heads (3) must divide heads (4)");
  breaks("mlp_bias", true, "mlp_bias: true is not modelled");
  breaks("model_type", 7, "model_type: must be a string");
  breaks("architectures", "LlamaForCausalLM", "architectures: must be a list");
  io::json j = small_llama();
  j.erase("model_type");
  j["architectures"] = {"RwkvForCausalLM"};
  fails(j, "unsupported architecture 'RwkvForCausalLM'");
  fails(parse_config(R"({"model_type": "gemma3", "vision_config": {}})"), "text_config: missing");
  j = parse_config(R"({"model_type": "qwen3_moe", "num_hidden_layers": 2, "hidden_size": 64,
      "num_attention_heads": 4, "intermediate_size": 128, "moe_intermediate_size": 32,
      "num_experts": 8, "num_experts_per_tok": 2, "vocab_size": 100,
      "max_position_embeddings": 64, "decoder_sparse_step": 2})");
  fails(j, "decoder_sparse_step: only 1");
  j.erase("decoder_sparse_step");
  j["num_experts_per_tok"] = 9;
  fails(j, "num_experts_per_tok: must be between 1 and 8");
  j["num_experts_per_tok"] = 2;
  j["mlp_only_layers"] = {0};
  fails(j, "mlp_only_layers: only an empty list");
  // A DeepSeek configuration without its MLA sizes.
  io::json ds = parse_config(R"({"model_type": "deepseek_v3", "num_hidden_layers": 4,
      "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128,
      "vocab_size": 100, "max_position_embeddings": 64, "kv_lora_rank": 16,
      "qk_rope_head_dim": 8, "qk_nope_head_dim": 16})");
  fails(ds, "v_head_dim: missing");
  ds["v_head_dim"] = 16;
  ds["n_routed_experts"] = 8;
  ds["num_experts_per_tok"] = 2;
  ds["moe_intermediate_size"] = 32;
  ds["first_k_dense_replace"] = 4;
  fails(ds, "first_k_dense_replace: must be between 0 and 3");
  ds["first_k_dense_replace"] = 1;
  ds["moe_layer_freq"] = 2;
  fails(ds, "moe_layer_freq: only 1");
  ds["moe_layer_freq"] = 1;
  CHECK(io::parse_model(ds.dump(), strings).transformer.dense_layers == 1);
}

TEST_CASE("the new description fields are validated naming the field", "[model][hf][errors]") {
  const auto fails = [](auto change, const std::string& message) {
    transformer_config t = presets::deepseek_v3.transformer;
    change(t);
    CHECK_THROWS_WITH(t.validate(), Catch::Contains(message));
  };
  fails([](transformer_config& t) { t.head_size = -1; }, "head_size must be >= 0");
  fails([](transformer_config& t) { t.dense_layers = 61; },
        "dense_layers (61) must be fewer than layers (61)");
  fails([](transformer_config& t) { t.expert_ffn = -5; }, "expert_ffn, shared_expert_ffn");
  fails([](transformer_config& t) { t.experts = 0, t.experts_per_token = 0; }, "need experts > 1");
  fails([](transformer_config& t) { t.v_head_dim = 0; }, "MLA (kv_lora_rank > 0) needs");
  fails([](transformer_config& t) { t.head_size = 64; }, "head_size > rope_head_dim");
  fails([](transformer_config& t) { t.kv_lora_rank = 0; }, "need kv_lora_rank > 0");
  fails([](transformer_config& t) { t.q_lora_rank = 1LL << 30; }, "sizes out of range");
  // With head_size given, heads need not divide hidden (Gemma 2 27B: 4608 / 32 is not 128).
  transformer_config g = presets::gemma2_27b.transformer;
  CHECK_NOTHROW(g.validate());
  g.heads = 7;
  g.kv_heads = 7;
  CHECK_NOTHROW(g.validate());
  g.head_size = 0;
  CHECK_THROWS_WITH(g.validate(), Catch::Contains("heads (7) must divide hidden (4608)"));
}

TEST_CASE("every transformer preset reads back through its own JSON and is finite", "[model][hf]") {
  io::string_store strings;
  for (const model_spec& m : presets::all) {
    if (m.kind != model_kind::transformer) continue;
    INFO(m.name);
    CHECK(io::model_from_json(io::model_to_json(m), strings).transformer == m.transformer);
    const transformer_config& t = m.transformer;
    CHECK(t.active_parameters() <= t.parameters());
    CHECK(t.active_parameters() > 0);
    CHECK(t.kv_cache_width() > 0);
  }
}

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace {

// The shape flags that describe @p t.
std::string as_flags(const transformer_config& t) {
  const auto n = [](long long v) { return std::to_string(v); };
  std::string f = "--layers " + n(t.layers) + " --hidden " + n(t.hidden) + " --heads " +
                  n(t.heads) + " --kv-heads " + n(t.kv_heads) + " --head-dim " + n(t.head_size) +
                  " --ffn " + n(t.ffn) + " --ffn-kind " + std::string(name(t.ffn_type)) +
                  " --arch " + std::string(name(t.kind)) + " --vocab " + n(t.vocab) +
                  " --max-seq " + n(t.max_seq) + " --norm " + std::string(name(t.norm)) +
                  " --token-types " + n(t.token_types) + " --experts " + n(t.experts) +
                  " --experts-per-token " + n(t.experts_per_token) + " --expert-ffn " +
                  n(t.expert_ffn) + " --shared-expert-ffn " + n(t.shared_expert_ffn) +
                  " --dense-layers " + n(t.dense_layers) + " --q-lora-rank " + n(t.q_lora_rank) +
                  " --kv-lora-rank " + n(t.kv_lora_rank) + " --rope-head-dim " +
                  n(t.rope_head_dim) + " --v-head-dim " + n(t.v_head_dim);
  if (!t.tied_embeddings) f += " --untied-embeddings";
  if (!t.biases) f += " --no-biases";
  if (t.qkv_bias) f += " --qkv-bias";
  if (t.qk_norm) f += " --qk-norm";
  if (t.sandwich_norms) f += " --sandwich-norms";
  if (t.learned_positions) f += " --learned-positions";
  if (t.pooler) f += " --pooler";
  if (t.dropout) f += " --dropout";
  return f;
}

}  // namespace

TEST_CASE("every transformer preset can be written as shape flags", "[cli][model][hf]") {
  using dlperf_test::run_dlperf;
  for (const model_spec& m : presets::all) {
    if (m.kind != model_kind::transformer) continue;
    const std::string args = "model " + as_flags(m.transformer) +
                             " --gpu h100_sxm --infer --prompt 8 --generate 8 --json";
    INFO(args);
    const dlperf_test::run_result r = run_dlperf(args);
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out).at("parameters").get<double>() == m.parameters());
  }
  // Mistral 7B by its flags (docs/models.md): the untied LM head makes the published 7.24B.
  const dlperf_test::run_result mistral = run_dlperf(
      "model --layers 32 --hidden 4096 --heads 32 --kv-heads 8 --ffn 14336 --ffn-kind swiglu "
      "--vocab 32000 --max-seq 32768 --norm rmsnorm --untied-embeddings --no-biases --gpu l4 "
      "--infer --prompt 8 --generate 8 --json");
  REQUIRE(mistral.exit_code == 0);
  CHECK(nlohmann::json::parse(mistral.out).at("parameters").get<double>() == 7241732096);
}

TEST_CASE("dlperf model --config reads a HuggingFace config.json", "[cli][model][hf]") {
  using dlperf_test::run_dlperf;
  const dlperf_test::run_result r = run_dlperf("model --config " + hf_file("qwen3_30b_a3b") +
                                               " --gpu h100_sxm --infer --prompt 512 "
                                               "--generate 64 --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("parameters").get<double>() == presets::qwen3_30b_a3b.parameters());
  // A config without _name_or_path is named after its file.
  CHECK(j.at("model").get<std::string>() == "qwen3_30b_a3b");
  // DeepSeek-V3's MLA cache: 61 layers x 576 x 2 bytes per token.
  const dlperf_test::run_result ds = run_dlperf(
      "model --preset deepseek_v3 --gpu h200_sxm --infer --prompt 1000 --generate 24 "
      "--gpus 8 --tp 8 --json");
  REQUIRE(ds.exit_code == 0);
  CHECK(nlohmann::json::parse(ds.out).at("memory").at("kv_cache_bytes").get<double>() ==
        61.0 * 576 * 1024 * 2);
  // models lists the new presets with the same keys.
  const nlohmann::json list = nlohmann::json::parse(run_dlperf("models --json").out);
  bool found = false;
  for (const nlohmann::json& m : list)
    if (m.at("name") == "gpt_oss_120b") {
      found = true;
      CHECK(m.at("published_parameters").get<double>() == 116.83e9);
      CHECK(m.contains("source"));
      CHECK(m.contains("kind"));
      CHECK(m.contains("parameters"));
    }
  CHECK(found);
}

TEST_CASE("dlperf model --config rejects a bad HuggingFace config with one line",
          "[cli][model][hf][errors]") {
  char path[] = "/tmp/dlperf_hf_test_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  {
    std::ofstream out(path);
    out << R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
               "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100,
               "max_position_embeddings": 256, "sliding_window_size": 4})";
  }
  dlperf_test::require_usage_error(std::string("model --config ") + path + " --gpu l4",
                                   "sliding_window_size: unknown field for model_type 'llama'");
  {
    std::ofstream out(path);
    out << R"({"model_type": "rwkv", "hidden_size": 64})";
  }
  dlperf_test::require_usage_error(std::string("model --config ") + path + " --gpu l4",
                                   "unsupported model_type 'rwkv'");
  std::remove(path);
  dlperf_test::require_usage_error(
      "model --layers 2 --hidden 64 --heads 4 --vocab 10 --max-seq 8 --dense-layers 1 --gpu l4",
      "need experts > 1");
}
#endif
