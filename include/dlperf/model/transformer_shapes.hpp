/// @file
/// The sizes one GPU works with when it runs a transformer: tokens per replica, per-GPU widths
/// under tensor parallelism, the sequence the run resolves to. Shared by the memory need
/// (model/memory.hpp) and the step estimate (model/step.hpp), so both read one set of figures.
#pragma once

#include <string>

#include <dlperf/core/error.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf::detail {

/// Fraction of tokens BERT's masked-language-model head predicts (Devlin et al. 2018, 3.1).
inline constexpr double masked_token_fraction = 0.15;

// Per-GPU sizes of a transformer run.
struct transformer_shapes {
  long long batch = 0;          // sequences per replica
  long long cp = 1;             // GPUs a training sequence is split over (seq: one GPU's share)
  long long ep = 1;             // GPUs the routed experts are spread over (expert parallelism)
  long long seq = 0;            // tokens per sequence (training, encoders); the prompt (decoders)
  long long context = 0;        // decoder inference: prompt + generated tokens
  long long hidden = 0;         // h (not split)
  long long head_dim = 0;       // d
  long long heads_per_gpu = 0;  // query heads on this GPU
  long long kv_heads_per_gpu = 0;  // key/value heads on this GPU (at least 1)
  long long ffn_per_gpu = 0;       // FFN width on this GPU
  long long vocab_per_gpu = 0;     // LM head columns on this GPU
  // A mixture of experts' leading dense layers and shared experts (DeepSeek, Qwen2-MoE): how
  // many dense layers, their FFN width on this GPU, the shared experts' width on this GPU.
  long long dense_layer_count = 0;
  long long dense_ffn_per_gpu = 0;
  long long shared_ffn_per_gpu = 0;
  // Multi-head latent attention (DeepSeek-V2/V3): the query and key/value ranks (whole on every
  // GPU), the rotary and the plain part of each query/key head, the value head's width.
  bool mla = false;
  long long q_rank = 0, kv_rank = 0, rope_dim = 0, nope_dim = 0, v_dim = 0;
  // The same as doubles, for the formulas.
  double tokens = 0, h = 0, q = 0, kv = 0, f = 0, heads = 0, vocab = 0;
  double layers = 0, decoder_layers = 0;
  double experts = 0, experts_per_token = 1;
  // Under expert parallelism the share of the tokens this GPU routes: its tp-th (sequence
  // parallelism hands each tensor-parallel GPU its own tokens), else all; its experts then see
  // as many token copies, routed balanced.
  double routed_share = 1;
  double head_tokens = 0;  // tokens the LM head runs on
  // Training on documents (run_config::document): tokens per document, and how many documents
  // and real (not padding) tokens a replica's step takes. Without documents: seq, batch, tokens.
  long long document = 0;
  double documents = 0, useful_tokens = 0;
  bool varlen_attention = false;  // packed under fused attention: each document attends alone
  double kv_cache_width = 0;      // cached elements per token per self-attention layer on this GPU
  bool dropout = false, gated = false;
  bool rotary = false;  // queries and keys rotated (RoPE): no learned position embeddings

  // Tokens of a whole sequence: seq, or under context parallelism cp GPUs' shares of it.
  [[nodiscard]] constexpr long long whole_seq() const { return seq * cp; }

  // Resolves @p t under @p r. Throws invalid_argument naming a sequence the model does not
  // allow or a tensor-parallel degree that does not divide the heads.
  static constexpr transformer_shapes of(const transformer_config& t, const run_config& r) {
    t.validate();
    r.validate();
    const long long seq = r.seq > 0 ? r.seq : t.max_seq;
    if (seq > t.max_seq)
      throw_invalid_argument("seq (" + std::to_string(seq) + ") exceeds the model's context (" +
                             std::to_string(t.max_seq) + ")");
    transformer_shapes s;
    s.batch = r.batch;
    s.seq = seq;
    if (!r.training() && t.generates()) {
      // The prompt: as given, else --seq, else what the context leaves after the output.
      const long long room = t.max_seq - r.generate;
      s.seq = r.prompt > 0 ? r.prompt : (r.seq > 0 ? r.seq : (room > 0 ? room : 1));
      s.context = s.seq + r.generate;
      if (s.context > t.max_seq)
        throw_invalid_argument("prompt + generate (" + std::to_string(s.context) +
                               ") exceeds the model's context (" + std::to_string(t.max_seq) + ")");
    }
    if (r.cp > 1) s.split_context(t, r, seq);
    const long long tp = r.tp, kvh = t.kv_head_count();
    if (t.heads % tp != 0)
      throw_invalid_argument("tp (" + std::to_string(tp) + ") must divide heads (" +
                             std::to_string(t.heads) + ")");
    if (kvh % tp != 0 && tp % kvh != 0)
      throw_invalid_argument("tp (" + std::to_string(tp) + ") and kv_heads (" +
                             std::to_string(kvh) + ") must divide one another");
    s.hidden = t.hidden;
    s.head_dim = t.head_dim();
    s.heads_per_gpu = t.heads / tp;
    s.kv_heads_per_gpu = kvh % tp == 0 ? kvh / tp : 1;  // fewer kv heads than GPUs: replicated
    // A mixture of experts' layers run its routed experts' width, their shared experts and
    // its leading dense layers their own (below).
    s.ffn_per_gpu = (t.expert_ffn_width() + tp - 1) / tp;
    if (r.ep > 1) {  // whole experts, experts / ep on this GPU (validate_model_run)
      s.ep = r.ep;
      s.ffn_per_gpu = t.expert_ffn_width();
      s.routed_share = 1.0 / static_cast<double>(tp);
    }
    s.vocab_per_gpu = (t.vocab + tp - 1) / tp;
    if (t.moe()) {
      s.dense_layer_count = t.dense_layers;
      s.dense_ffn_per_gpu = (t.ffn_width() + tp - 1) / tp;
      s.shared_ffn_per_gpu = (t.shared_expert_ffn + tp - 1) / tp;
    }
    s.mla = t.mla();
    if (s.mla) {
      s.q_rank = t.q_lora_rank;
      s.kv_rank = t.kv_lora_rank;
      s.rope_dim = t.rope_head_dim;
      s.nope_dim = t.head_dim() - t.rope_head_dim;
      s.v_dim = t.v_head_dim;
    }
    s.rotary = !t.learned_positions;
    s.tokens = static_cast<double>(s.batch) * static_cast<double>(s.seq);
    s.h = static_cast<double>(t.hidden);
    s.q = static_cast<double>(s.heads_per_gpu * s.head_dim);
    s.kv = static_cast<double>(s.kv_heads_per_gpu * s.head_dim);
    s.f = static_cast<double>(s.ffn_per_gpu);
    s.heads = static_cast<double>(s.heads_per_gpu);
    s.vocab = static_cast<double>(s.vocab_per_gpu);
    s.layers = static_cast<double>(t.layers);
    s.decoder_layers = static_cast<double>(t.decoder_layers);
    s.experts = static_cast<double>(t.moe() ? t.experts : 1);
    s.experts_per_token = static_cast<double>(t.moe() ? t.experts_per_token : 1);
    // MLA caches one latent per token, whole on every tensor-parallel GPU.
    s.kv_cache_width = t.mla() ? static_cast<double>(t.kv_cache_width()) : 2.0 * s.kv;
    s.resolve_documents(r);
    s.dropout = t.dropout && r.training();
    s.gated = t.ffn_type == ffn_kind::swiglu;
    if (r.training())
      s.head_tokens =
          t.kind == transformer_kind::encoder
              ? static_cast<double>(ceil_tokens(s.useful_tokens * masked_token_fraction))
              : s.tokens;
    else
      s.head_tokens = t.generates() ? static_cast<double>(s.batch) : 0.0;
    return s;
  }

  // Keys and values of every position of decoder inference, each decoder layer (and, for an
  // encoder-decoder, the cross-attention keys and values of the prompt).
  [[nodiscard]] constexpr double kv_cache_bytes(const run_config& r) const {
    if (context == 0) return 0;
    const double e = kv_cache_element_bytes(r.kv_cache, r.type);
    const double b = static_cast<double>(batch);
    const double self_layers = decoder_layers > 0 ? decoder_layers : layers;
    double cache = self_layers * kv_cache_width * static_cast<double>(context) * b * e;
    if (decoder_layers > 0) cache += 2.0 * decoder_layers * kv * static_cast<double>(seq) * b * e;
    return cache;
  }

 private:
  // Context parallelism (docs/parallel.md): each GPU holds seq / cp tokens of every sequence,
  // two chunks of seq / 2cp from either end so that the causal mask leaves every GPU the same
  // work, as Megatron and torchtitan split them; both require seq to be a multiple of 2cp.
  constexpr void split_context(const transformer_config& t, const run_config& r, long long whole) {
    if (t.kind != transformer_kind::decoder)
      throw_invalid_argument("run: context parallelism (cp " + std::to_string(r.cp) +
                             ") is modelled for a decoder's causal self-attention; this model is "
                             "an " +
                             std::string(name(t.kind)));
    if ((r.document > 0 && r.document < whole) || r.packing)
      throw_invalid_argument("run: context parallelism (cp " + std::to_string(r.cp) +
                             ") with documents shorter than the sequence (padding or packing) is "
                             "not modelled");
    if (!r.flash_attention)
      throw_invalid_argument("run: context parallelism (cp " + std::to_string(r.cp) +
                             ") runs fused attention (Transformer Engine's and PyTorch's ring "
                             "attention call FlashAttention or cuDNN), not unfused attention");
    if (whole % (2 * r.cp) != 0)
      throw_invalid_argument("run: context parallelism (cp " + std::to_string(r.cp) +
                             ") splits each sequence into 2 x cp chunks, two a GPU: seq (" +
                             std::to_string(whole) + ") must be a multiple of " +
                             std::to_string(2 * r.cp));
    seq = whole / r.cp;
    cp = r.cp;
  }

  // Padding and packing (docs/models.md): a padded sequence holds one document and computes
  // every position; a packed one holds seq / document documents and no padding.
  constexpr void resolve_documents(const run_config& r) {
    // Under context parallelism a document is the whole sequence (split_context), seq a share.
    document = r.document > 0 && cp == 1 ? r.document : seq;
    if (document > seq)
      throw_invalid_argument("document tokens (" + std::to_string(document) + ") exceed seq (" +
                             std::to_string(seq) +
                             "): a sequence holds at least one whole document on average");
    const double per = static_cast<double>(document);
    documents = r.packing ? tokens / per : static_cast<double>(batch);
    useful_tokens = r.packing ? tokens : static_cast<double>(batch) * per;
    varlen_attention = r.packing && r.flash_attention;
  }

  static constexpr long long ceil_tokens(double x) {
    const long long n = static_cast<long long>(x);
    return static_cast<double>(n) < x ? n + 1 : (n > 0 ? n : 1);
  }
};

}  // namespace dlperf::detail
