/// @file
/// A HuggingFace `config.json` read as a transformer description (docs/models.md, "HuggingFace
/// configurations"). The family comes from `model_type` (else `architectures[0]`); each family
/// reads the fields that size the model, a list of fields that do not matter to performance is
/// ignored, and any other field is an error that names it, so a configuration the reader does not
/// understand is never half read. Optional header: it needs nlohmann_json.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dlperf/core/error.hpp>
#include <dlperf/io/json.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf::io {

/// Fields of a HuggingFace configuration that do not change a model's size or cost: token ids,
/// numerical constants, rotary and routing details, dropout probabilities the reader does not
/// use, bookkeeping. docs/models.md lists them.
inline constexpr std::array hf_ignored_fields{"_name_or_path",
                                              "activation_function",
                                              "add_cross_attention",
                                              "attention_dropout",
                                              "attention_probs_dropout_prob",
                                              "attn_logit_softcapping",
                                              "attn_pdrop",
                                              "auto_map",
                                              "aux_loss_alpha",
                                              "bos_token_id",
                                              "cache_implementation",
                                              "classifier_dropout",
                                              "decoder_start_token_id",
                                              "dtype",
                                              "embd_pdrop",
                                              "eos_token_id",
                                              "ep_size",
                                              "final_logit_softcapping",
                                              "gradient_checkpointing",
                                              "hidden_act",
                                              "hidden_activation",
                                              "hidden_dropout",
                                              "id2label",
                                              "initial_context_length",
                                              "initializer_factor",
                                              "initializer_range",
                                              "is_decoder",
                                              "label2id",
                                              "layer_norm_eps",
                                              "layer_norm_epsilon",
                                              "layer_types",
                                              "max_window_layers",
                                              "model_name",
                                              "n_ctx",
                                              "n_group",
                                              "norm_topk_prob",
                                              "num_nextn_predict_layers",
                                              "original_max_position_embeddings",
                                              "output_router_logits",
                                              "pad_token_id",
                                              "position_embedding_type",
                                              "pretraining_tp",
                                              "query_pre_attn_scalar",
                                              "reorder_and_upcast_attn",
                                              "rms_norm_eps",
                                              "rope_local_base_freq",
                                              "rope_parameters",
                                              "rope_scaling",
                                              "rope_theta",
                                              "rotary_emb_base",
                                              "rotary_pct",
                                              "routed_scaling_factor",
                                              "router_aux_loss_coef",
                                              "router_jitter_noise",
                                              "router_z_loss_coef",
                                              "scale_attn_by_inverse_layer_idx",
                                              "scale_attn_weights",
                                              "scoring_func",
                                              "seq_aux",
                                              "sliding_window",
                                              "sliding_window_pattern",
                                              "summary_activation",
                                              "summary_first_dropout",
                                              "summary_proj_to_labels",
                                              "summary_type",
                                              "summary_use_proj",
                                              "swiglu_limit",
                                              "task_specific_params",
                                              "topk_group",
                                              "topk_method",
                                              "torch_dtype",
                                              "transformers_version",
                                              "use_cache",
                                              "use_mrope",
                                              "use_parallel_residual",
                                              "use_sliding_window",
                                              "quantization_config"};

/// The model families the reader knows, by `model_type`.
inline constexpr std::array hf_model_types{
    "llama",     "mistral", "mixtral", "qwen2",       "qwen2_moe",  "qwen3",
    "qwen3_moe", "gemma2",  "gemma3",  "gemma3_text", "phi3",       "gpt2",
    "gpt_neox",  "bert",    "gpt_oss", "deepseek_v2", "deepseek_v3"};

namespace detail {

// The `model_type` of an `architectures` class name, for configurations without one.
inline std::string hf_type_of_architecture(std::string_view arch) {
  constexpr std::array<std::pair<std::string_view, std::string_view>, 17> known{
      {{"LlamaForCausalLM", "llama"},
       {"MistralForCausalLM", "mistral"},
       {"MixtralForCausalLM", "mixtral"},
       {"Qwen2ForCausalLM", "qwen2"},
       {"Qwen2MoeForCausalLM", "qwen2_moe"},
       {"Qwen3ForCausalLM", "qwen3"},
       {"Qwen3MoeForCausalLM", "qwen3_moe"},
       {"Gemma2ForCausalLM", "gemma2"},
       {"Gemma3ForConditionalGeneration", "gemma3"},
       {"Gemma3ForCausalLM", "gemma3_text"},
       {"Phi3ForCausalLM", "phi3"},
       {"GPT2LMHeadModel", "gpt2"},
       {"GPTNeoXForCausalLM", "gpt_neox"},
       {"BertForMaskedLM", "bert"},
       {"GptOssForCausalLM", "gpt_oss"},
       {"DeepseekV2ForCausalLM", "deepseek_v2"},
       {"DeepseekV3ForCausalLM", "deepseek_v3"}}};
  for (const auto& [a, t] : known)
    if (a == arch) return std::string(t);
  if (arch.starts_with("Bert")) return "bert";
  return {};
}

// One configuration object being read: every key read or ignored is ticked off, and what is left
// is an unknown field.
class hf_fields {
 public:
  hf_fields(const json& j, std::string path) : j_(j), path_(std::move(path)) {}

  [[nodiscard]] bool has(std::string_view key) const {
    const auto it = j_.find(std::string(key));
    return it != j_.end() && !it->is_null();
  }
  // A whole number in [lo, hi]; @p fallback when absent or null, an error when required.
  long long count(std::string_view key, long long lo, long long hi, long long fallback = -1) {
    used_.emplace_back(key);
    if (!has(key)) {
      if (fallback < 0) fail(where(key), "missing (a required field of this model type)");
      return fallback;
    }
    const json& v = j_.at(std::string(key));
    if (!v.is_number_integer() && !v.is_number_unsigned())
      fail(where(key), "must be a whole number");
    // An unsigned number above a long long's range (2^63) would wrap on reading: compare it as
    // read, and show it as written.
    const bool above =
        v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi);
    const long long n = above ? hi : v.get<long long>();
    if (above || n < lo || n > hi)
      fail(where(key), "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                           ", got " + v.dump());
    return n;
  }
  bool flag(std::string_view key, bool fallback) {
    used_.emplace_back(key);
    if (!has(key)) return fallback;
    const json& v = j_.at(std::string(key));
    if (!v.is_boolean()) fail(where(key), "must be true or false");
    return v.get<bool>();
  }
  double number(std::string_view key, double fallback) {
    used_.emplace_back(key);
    if (!has(key)) return fallback;
    const json& v = j_.at(std::string(key));
    if (!v.is_number()) fail(where(key), "must be a number");
    return v.get<double>();
  }
  // Marks @p key as read (its value checked by the caller).
  const json* take(std::string_view key) {
    used_.emplace_back(key);
    const auto it = j_.find(std::string(key));
    return it == j_.end() ? nullptr : &*it;
  }
  // Throws for the first key neither read nor ignored.
  void reject_unknown(std::string_view model_type) const {
    for (const auto& [key, v] : j_.items()) {
      if (std::find(used_.begin(), used_.end(), key) != used_.end()) continue;
      if (std::find(hf_ignored_fields.begin(), hf_ignored_fields.end(), key) !=
          hf_ignored_fields.end())
        continue;
      fail(where(key), "unknown field for model_type '" + std::string(model_type) +
                           "' (docs/models.md lists the fields read and ignored)");
    }
  }
  [[nodiscard]] std::string where(std::string_view key) const { return join(path_, key); }

 private:
  const json& j_;
  std::string path_;
  std::vector<std::string> used_;
};

inline constexpr long long hf_max_width = 1LL << 26;   // vocabularies and FFN widths
inline constexpr long long hf_max_hidden = 1LL << 24;  // model widths and ranks
inline constexpr long long hf_max_count = 1LL << 16;   // layers, heads, experts
inline constexpr long long hf_max_seq = 1LL << 30;     // context

// The names a family gives its sizes.
struct hf_size_keys {
  std::string_view layers, hidden, heads, ffn, positions;
  bool ffn_required;  // else absent or null: 4 x hidden
};
inline constexpr hf_size_keys hf_keys{"num_hidden_layers",       "hidden_size",
                                      "num_attention_heads",     "intermediate_size",
                                      "max_position_embeddings", true};
inline constexpr hf_size_keys gpt2_keys{"n_layer", "n_embd",      "n_head",
                                        "n_inner", "n_positions", false};

// Layers, widths, heads, vocabulary and context under the family's names.
inline transformer_config hf_sizes(hf_fields& f, const hf_size_keys& k) {
  transformer_config t;
  t.layers = f.count(k.layers, 1, hf_max_count);
  t.hidden = f.count(k.hidden, 1, hf_max_hidden);
  t.heads = f.count(k.heads, 1, hf_max_count);
  t.ffn = f.count(k.ffn, 1, hf_max_width, k.ffn_required ? -1 : 0);
  t.vocab = f.count("vocab_size", 1, hf_max_width);
  t.max_seq = f.count(k.positions, 1, hf_max_seq);
  return t;
}

// The fields every decoder with rotary positions shares (Llama and its descendants).
inline transformer_config hf_rotary_decoder(hf_fields& f, bool tied_default) {
  transformer_config t = hf_sizes(f, hf_keys);
  t.kv_heads = f.count("num_key_value_heads", 1, hf_max_count, t.heads);
  if (t.kv_heads == t.heads) t.kv_heads = 0;
  t.ffn_type = ffn_kind::swiglu;
  t.tied_embeddings = f.flag("tie_word_embeddings", tied_default);
  t.biases = false;
  t.norm = norm_kind::rmsnorm;
  const long long d = f.count("head_dim", 1, 1LL << 20, 0);
  if (d > 0 && d * t.heads != t.hidden) t.head_size = d;
  return t;
}

// Layers that are all experts: a sparse step of 1 and no dense-only layers.
inline void hf_every_layer_sparse(hf_fields& f) {
  if (f.count("decoder_sparse_step", 1, hf_max_count, 1) != 1)
    fail(f.where("decoder_sparse_step"), "only 1 (every layer a mixture of experts) is modelled");
  if (const json* m = f.take("mlp_only_layers");
      m != nullptr && !m->is_null() && !(m->is_array() && m->empty()))
    fail(f.where("mlp_only_layers"), "only an empty list is modelled");
}

// Llama and its kin (Mistral, Mixtral, Phi-3): a rotary decoder without biases.
inline transformer_config hf_llama(const std::string& type, hf_fields& f) {
  transformer_config t = hf_rotary_decoder(f, false);
  if (f.flag("attention_bias", false)) fail(f.where("attention_bias"), "true is not modelled");
  if (f.flag("mlp_bias", false)) fail(f.where("mlp_bias"), "true is not modelled");
  if (type == "phi3") {
    f.number("resid_pdrop", 0);
    f.number("partial_rotary_factor", 1);
  }
  if (type == "mixtral") {
    t.experts = f.count("num_local_experts", 2, hf_max_count);
    t.experts_per_token = f.count("num_experts_per_tok", 1, t.experts);
  }
  return t;
}

// Qwen2 and Qwen3, dense and mixture-of-experts.
inline transformer_config hf_qwen(const std::string& type, hf_fields& f) {
  transformer_config t = hf_rotary_decoder(f, false);
  const bool qwen2 = type.starts_with("qwen2");
  // Qwen2's attention has Q, K and V biases by construction; Qwen3 has a switch for all four.
  if (qwen2)
    t.qkv_bias = true;
  else if (f.flag("attention_bias", false))
    fail(f.where("attention_bias"), "true is not modelled");
  t.qk_norm = !qwen2;
  if (type.ends_with("_moe")) {
    t.experts = f.count("num_experts", 2, hf_max_count);
    t.experts_per_token = f.count("num_experts_per_tok", 1, t.experts);
    t.expert_ffn = f.count("moe_intermediate_size", 1, hf_max_width);
    if (qwen2) t.shared_expert_ffn = f.count("shared_expert_intermediate_size", 0, hf_max_width, 0);
    hf_every_layer_sparse(f);
  }
  return t;
}

// Gemma 2 and Gemma 3's text model: norms before and after each block.
inline transformer_config hf_gemma(const std::string& type, hf_fields& f) {
  transformer_config t = hf_rotary_decoder(f, true);
  t.sandwich_norms = true;
  t.qk_norm = type == "gemma3_text";
  if (f.flag("attention_bias", false)) fail(f.where("attention_bias"), "true is not modelled");
  return t;
}

// gpt-oss: biases on every attention projection and on its experts (and the router).
inline transformer_config hf_gpt_oss(hf_fields& f) {
  transformer_config t = hf_rotary_decoder(f, false);
  t.biases = f.flag("attention_bias", true);
  t.experts = f.count("num_local_experts", 2, hf_max_count);
  t.experts_per_token = f.count("num_experts_per_tok", 1, t.experts);
  if (const long long k = f.count("experts_per_token", 1, t.experts, t.experts_per_token);
      k != t.experts_per_token)
    fail(f.where("experts_per_token"), "differs from num_experts_per_tok");
  return t;
}

// DeepSeek V2 and V3: multi-head latent attention, routed and shared experts after dense layers.
inline transformer_config hf_deepseek(hf_fields& f) {
  transformer_config t = hf_rotary_decoder(f, false);
  if (f.flag("attention_bias", false)) fail(f.where("attention_bias"), "true is not modelled");
  t.kv_heads = 0;  // MLA: every head has its own keys, rebuilt from the shared latent
  t.q_lora_rank = f.count("q_lora_rank", 1, hf_max_hidden, 0);
  t.kv_lora_rank = f.count("kv_lora_rank", 1, hf_max_hidden);
  t.rope_head_dim = f.count("qk_rope_head_dim", 1, 1LL << 20);
  t.head_size = f.count("qk_nope_head_dim", 1, 1LL << 20) + t.rope_head_dim;
  t.v_head_dim = f.count("v_head_dim", 1, 1LL << 20);
  t.experts = f.count("n_routed_experts", 0, hf_max_count, 0);
  if (t.experts > 1) {
    t.experts_per_token = f.count("num_experts_per_tok", 1, t.experts);
    t.expert_ffn = f.count("moe_intermediate_size", 1, hf_max_width);
    t.shared_expert_ffn = f.count("n_shared_experts", 0, hf_max_count, 0) * t.expert_ffn;
    t.dense_layers = f.count("first_k_dense_replace", 0, t.layers - 1, 0);
    if (f.count("moe_layer_freq", 1, hf_max_count, 1) != 1)
      fail(f.where("moe_layer_freq"), "only 1 (every layer after the dense ones) is modelled");
  } else {
    t.experts = 0;
  }
  return t;
}

// GPT-2: learned positions, tied embeddings by default.
inline transformer_config hf_gpt2(hf_fields& f) {
  transformer_config t = hf_sizes(f, gpt2_keys);
  t.learned_positions = true;
  t.tied_embeddings = f.flag("tie_word_embeddings", true);
  t.dropout = f.number("resid_pdrop", 0.1) > 0;
  return t;
}

// GPT-NeoX (Pythia): biases on every projection.
inline transformer_config hf_gpt_neox(hf_fields& f) {
  transformer_config t = hf_sizes(f, hf_keys);
  t.tied_embeddings = f.flag("tie_word_embeddings", false);
  if (!f.flag("attention_bias", true)) fail(f.where("attention_bias"), "false is not modelled");
  t.dropout = f.number("hidden_dropout", 0) > 0;
  return t;
}

// BERT: an encoder with learned positions, token types and a pooler.
inline transformer_config hf_bert(hf_fields& f) {
  transformer_config t = hf_sizes(f, hf_keys);
  t.kind = transformer_kind::encoder;
  if (t.ffn == 4 * t.hidden) t.ffn = 0;
  t.learned_positions = true;
  t.token_types = f.count("type_vocab_size", 0, hf_max_count, 2);
  t.pooler = true;
  t.dropout = f.number("hidden_dropout_prob", 0.1) > 0;
  return t;
}

// The transformer of a config whose model_type is @p type: one reader per family.
inline transformer_config hf_transformer(const std::string& type, hf_fields& f) {
  if (type == "llama" || type == "mistral" || type == "mixtral" || type == "phi3")
    return hf_llama(type, f);
  if (type == "qwen2" || type == "qwen3" || type == "qwen2_moe" || type == "qwen3_moe")
    return hf_qwen(type, f);
  if (type == "gemma2" || type == "gemma3_text") return hf_gemma(type, f);
  if (type == "gpt_oss") return hf_gpt_oss(f);
  if (type == "deepseek_v2" || type == "deepseek_v3") return hf_deepseek(f);
  if (type == "gpt2") return hf_gpt2(f);
  if (type == "gpt_neox") return hf_gpt_neox(f);
  if (type == "bert") return hf_bert(f);
  std::string known;
  for (const char* k : hf_model_types) known += (known.empty() ? "" : ", ") + std::string(k);
  fail(f.where("model_type"), "unsupported model_type '" + type + "' (supported: " + known + ")");
}

}  // namespace detail

/// Whether @p j looks like a HuggingFace configuration (it has `model_type` or `architectures`)
/// rather than a dlperf model file.
inline bool is_hf_config(const json& j) {
  return j.is_object() && (j.contains("model_type") || j.contains("architectures"));
}

/// The transformer a HuggingFace configuration describes, validated. Throws json_error naming
/// the field for an unknown field, an unsupported `model_type`, a missing required field or a
/// size out of range, and invalid_argument for an inconsistent model.
inline transformer_config transformer_from_hf(const json& j) {
  detail::object_at(j, "");
  std::string type;
  if (const auto it = j.find("model_type"); it != j.end()) {
    if (!it->is_string()) fail("model_type", "must be a string");
    type = it->get<std::string>();
  }
  if (const auto it = j.find("architectures"); it != j.end()) {
    if (!it->is_array() || it->empty() || !(*it)[0].is_string())
      fail("architectures", "must be a list of class names");
    if (type.empty()) {
      type = detail::hf_type_of_architecture((*it)[0].get<std::string>());
      if (type.empty())
        fail("architectures",
             "unsupported architecture '" + (*it)[0].get<std::string>() + "' and no model_type");
    }
  }
  if (type.empty()) fail("model_type", "missing (and no architectures)");
  // Gemma 3's multimodal configuration nests its language model; the vision tower is not
  // counted.
  if (type == "gemma3") {
    const auto it = j.find("text_config");
    if (it == j.end() || !it->is_object())
      fail("text_config", "missing (Gemma 3 nests its text model)");
    for (const auto& [key, v] : j.items())
      if (key != "model_type" && key != "architectures" && key != "text_config" &&
          key != "vision_config" && key != "mm_tokens_per_image" && key != "boi_token_index" &&
          key != "eoi_token_index" && key != "image_token_index" &&
          std::find(hf_ignored_fields.begin(), hf_ignored_fields.end(), key) ==
              hf_ignored_fields.end())
        fail(key, "unknown field for model_type 'gemma3'");
    json text = *it;
    text.erase("model_type");
    detail::hf_fields f(text, "text_config");
    transformer_config t = detail::hf_transformer("gemma3_text", f);
    f.reject_unknown("gemma3_text");
    t.validate();
    return t;
  }
  detail::hf_fields f(j, "");
  f.take("model_type");
  f.take("architectures");
  const transformer_config t = detail::hf_transformer(type, f);
  f.reject_unknown(type);
  t.validate();
  return t;
}

}  // namespace dlperf::io
