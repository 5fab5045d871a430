/// @file
/// The shapes the published transformer families share (BERT, GPT-2, MPT, Llama, Qwen, Gemma, a
/// mixture of experts), each from its authors' configuration files, for model/presets.hpp.
#pragma once

#include <dlperf/model/transformer.hpp>

namespace dlperf::presets {

// BERT (Devlin et al., 2018, arXiv:1810.04805, section 3: BASE L=12 H=768 A=12 110M, LARGE L=24
// H=1024 A=16 340M); vocabulary, positions and token types from the released configs
// (huggingface.co/bert-base-uncased/blob/main/config.json). The published counts include the
// pooler; HF's BertModel has 109,482,240 and 335,141,888.
namespace detail {
constexpr transformer_config bert(long long layers, long long hidden, long long heads) {
  return {.kind = transformer_kind::encoder,
          .layers = layers,
          .hidden = hidden,
          .heads = heads,
          .ffn_type = ffn_kind::gelu,
          .vocab = 30522,
          .max_seq = 512,
          .learned_positions = true,
          .dropout = true,
          .token_types = 2,
          .pooler = true};
}
// GPT-2 (Radford et al., 2019; huggingface.co/openai-community/gpt2/blob/main/config.json):
// learned positions, context 1024, vocabulary 50257, tied LM head.
constexpr transformer_config gpt2(long long layers, long long hidden, long long heads) {
  return {.layers = layers,
          .hidden = hidden,
          .heads = heads,
          .vocab = 50257,
          .max_seq = 1024,
          .learned_positions = true,
          .dropout = true};
}
// MPT (MosaicML's llm-foundry, scripts/train/yamls/pretrain/mpt-*.yaml and MPTConfig's
// defaults): GPT-2's layer (LayerNorm and linear layers with biases, a GELU FFN 4 x wide, tied LM
// head) with learned positions over its 2048-token context and a 50368-token vocabulary; no
// dropout.
constexpr transformer_config mpt(long long layers, long long hidden, long long heads) {
  return {.layers = layers,
          .hidden = hidden,
          .heads = heads,
          .vocab = 50368,
          .max_seq = 2048,
          .learned_positions = true};
}
// Llama family (Touvron et al., 2023; Meta's config.json files): SwiGLU, RMSNorm, no biases,
// rotary positions, separate LM head.
constexpr transformer_config llama(long long layers, long long hidden, long long heads,
                                   long long kv_heads, long long ffn, long long vocab,
                                   long long context) {
  return {.layers = layers,
          .hidden = hidden,
          .heads = heads,
          .kv_heads = kv_heads,
          .ffn = ffn,
          .ffn_type = ffn_kind::swiglu,
          .vocab = vocab,
          .max_seq = context,
          .tied_embeddings = false,
          .biases = false,
          .norm = norm_kind::rmsnorm};
}
// Llama 3.1/3.2/3.3 (Meta's config.json files): Llama 3's shape with a 131,072-token context.
constexpr transformer_config llama31(long long layers, long long hidden, long long heads,
                                     long long ffn, bool tied) {
  transformer_config t = llama(layers, hidden, heads, 8, ffn, 128256, 131072);
  t.tied_embeddings = tied;
  return t;
}
// Qwen2.5 (Qwen's config.json files): Llama's blocks with biases on Q, K and V.
constexpr transformer_config qwen25(long long layers, long long hidden, long long heads,
                                    long long kv_heads, long long ffn) {
  transformer_config t = llama(layers, hidden, heads, kv_heads, ffn, 152064, 131072);
  t.qkv_bias = true;
  return t;
}
// Qwen3 (Qwen's config.json files): head dimension 128 and RMSNorm on queries and keys.
constexpr transformer_config qwen3(long long layers, long long hidden, long long heads,
                                   long long kv_heads, long long ffn) {
  transformer_config t = llama(layers, hidden, heads, kv_heads, ffn, 151936, 40960);
  t.head_size = hidden == heads * 128 ? 0 : 128;
  t.qk_norm = true;
  return t;
}
// Gemma 2 and 3 (Google's config.json files): gated GELU (counted as the gated FFN), four norms
// a layer, tied embeddings.
constexpr transformer_config gemma(long long layers, long long hidden, long long heads,
                                   long long kv_heads, long long head, long long ffn,
                                   long long vocab, long long context) {
  transformer_config t = llama(layers, hidden, heads, kv_heads, ffn, vocab, context);
  t.head_size = head;
  t.tied_embeddings = true;
  t.sandwich_norms = true;
  return t;
}
// @p t with a mixture of @p experts experts, @p per_token of them per token, each @p width wide
// (0: the dense FFN's width).
constexpr transformer_config moe(transformer_config t, long long experts, long long per_token,
                                 long long width = 0) {
  t.experts = experts;
  t.experts_per_token = per_token;
  t.expert_ffn = width;
  return t;
}
// gpt-oss (OpenAI's config.json files): 2880 wide, 64 heads of 64, 8 key/value heads, experts
// 2880 wide with biases, 4 experts per token.
constexpr transformer_config gpt_oss(long long layers, long long experts) {
  transformer_config t = llama(layers, 2880, 64, 8, 2880, 201088, 131072);
  t.head_size = 64;
  t.biases = true;
  return moe(t, experts, 4);
}
}  // namespace detail

}  // namespace dlperf::presets
