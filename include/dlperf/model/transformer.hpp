/// @file
/// A transformer described as a literal type, and its parameter count computed from the
/// description (docs/models.md, @ref models_parameters):
///
///     attention   = h q + 2 h kv + q h            (+ q + 2 kv + h biases, or q + 2 kv on Q,
///                                                  K, V only; + 2 d for Q/K norms)
///     MLA         = h r_q + r_q + r_q n (d_nope + d_rope)      (queries through rank r_q)
///                 + h (r_kv + d_rope) + r_kv + r_kv n (d_nope + d_v) + n d_v h
///     FFN         = 2 h f (GELU/ReLU) or 3 h f (gated SwiGLU)   (+ f + h or 2 f + h biases)
///     MoE FFN     = E x FFN(f_e) + h E (router) + FFN(f_s) (shared experts)
///     layer       = attention + FFN + 2 norms     (4 with norms after attention and FFN too;
///                                                  a decoder layer with cross-attention: 2
///                                                  attentions + FFN + 3 norms)
///     embeddings  = V h (+ positions x h when learned, + token types x h)
///     total       = embeddings + layers + one final norm per stack (+ V h for a separate LM head,
///                   + h h + h for BERT's pooler)
///
/// with h the hidden size, q = heads x head dim d (d = h / heads unless given), kv = key/value
/// heads x d (grouped-query attention shares each key/value head between heads / kv_heads query
/// heads), f the FFN width, E experts and V the vocabulary. A norm is 2 h (LayerNorm: scale and
/// bias) or h (RMSNorm). Multi-head latent attention (MLA, DeepSeek-V2/V3) projects keys and
/// values through a rank r_kv latent that is all the KV cache holds, r_kv + d_rope per token per
/// layer. In a mixture of experts the first `dense_layers` layers keep a dense FFN of width f.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>

namespace dlperf {

/// The feed-forward block of a transformer layer.
enum class ffn_kind : std::uint8_t {
  gelu,   ///< two matrices, GELU between them (BERT, GPT-2)
  relu,   ///< two matrices, ReLU between them (the original Transformer)
  swiglu  ///< three matrices: SiLU(x W_gate) * (x W_up), then W_down (Llama, Mistral)
};

/// The FFN kinds and their stable names.
template <>
struct enum_list<ffn_kind> {
  static constexpr std::string_view kind = "FFN kind";  ///< what the enum names
  /// Every FFN kind.
  static constexpr std::array values{
      enumerator{ffn_kind::gelu, "gelu", "two matrices with GELU"},
      enumerator{ffn_kind::relu, "relu", "two matrices with ReLU"},
      enumerator{ffn_kind::swiglu, "swiglu", "three matrices, gated SiLU"}};
};

/// Which stacks a transformer has, and so which attention mask its layers use.
enum class transformer_kind : std::uint8_t {
  encoder,         ///< bidirectional attention (BERT)
  decoder,         ///< causal attention, generates token by token (GPT, Llama)
  encoder_decoder  ///< an encoder stack and a causal decoder stack with cross-attention
};

/// The transformer kinds and their stable names.
template <>
struct enum_list<transformer_kind> {
  static constexpr std::string_view kind = "transformer kind";  ///< what the enum names
  /// Every transformer kind.
  static constexpr std::array values{
      enumerator{transformer_kind::encoder, "encoder", "bidirectional (BERT)"},
      enumerator{transformer_kind::decoder, "decoder", "causal (GPT, Llama)"},
      enumerator{transformer_kind::encoder_decoder, "encoder_decoder",
                 "encoder and decoder stacks (the original Transformer)"}};
};

/// The normalisation layers of a transformer.
enum class norm_kind : std::uint8_t {
  layernorm,  ///< LayerNorm: scale and bias, 2 h parameters
  rmsnorm     ///< RMSNorm: scale only, h parameters
};

/// The norm kinds and their stable names.
template <>
struct enum_list<norm_kind> {
  static constexpr std::string_view kind = "norm kind";  ///< what the enum names
  /// Every norm kind.
  static constexpr std::array values{enumerator{norm_kind::layernorm, "layernorm"},
                                     enumerator{norm_kind::rmsnorm, "rmsnorm"}};
};

/// A transformer, as its published configuration describes it. A literal type: presets are
/// `constexpr` objects and every figure derived from one is a constant expression.
struct transformer_config {
  /// The largest sizes validate() admits: parameter counts stay exact in doubles and far from
  /// overflow. The tool's shape-flag ranges (app's plausible_ranges) read these.
  struct limits {
    static constexpr long long width = 1LL << 24;     ///< hidden, heads, LoRA ranks of MLA
    static constexpr long long ffn = 1LL << 26;       ///< vocab and every FFN width
    static constexpr long long layers = 1LL << 16;    ///< layers (all stacks) and experts
    static constexpr long long head_dim = 1LL << 20;  ///< head_size, v_head_dim, rope_head_dim
    static constexpr long long context = 1LL << 30;   ///< max_seq
  };

  transformer_kind kind = transformer_kind::decoder;  ///< stacks and attention mask
  long long layers = 0;                   ///< layers (the encoder's, for an encoder-decoder)
  long long decoder_layers = 0;           ///< decoder layers of an encoder-decoder; 0 otherwise
  long long hidden = 0;                   ///< model width h
  long long heads = 0;                    ///< query heads (h must be a multiple)
  long long kv_heads = 0;                 ///< key/value heads (grouped-query attention); 0 = heads
  long long ffn = 0;                      ///< FFN width f; 0 = 4 h
  ffn_kind ffn_type = ffn_kind::gelu;     ///< FFN block
  long long vocab = 0;                    ///< vocabulary V
  long long max_seq = 0;                  ///< longest sequence the model allows (its context)
  bool learned_positions = false;         ///< learned position embeddings (max_seq x h parameters)
  bool tied_embeddings = true;            ///< the LM head reuses the token embedding
  bool biases = true;                     ///< linear layers have biases
  norm_kind norm = norm_kind::layernorm;  ///< norm layers
  bool dropout = false;             ///< training applies dropout (keeps a 1-byte mask per element)
  long long token_types = 0;        ///< segment embeddings (BERT: 2)
  bool pooler = false;              ///< BERT's pooler (h x h + h)
  long long experts = 0;            ///< mixture of experts: experts per layer; 0 = a dense FFN
  long long experts_per_token = 0;  ///< experts each token is routed to (MoE only)
  long long head_size = 0;      ///< dimension per query/key head; 0 = hidden / heads (Gemma: 256)
  bool qkv_bias = false;        ///< Q, K and V have biases when `biases` is off (Qwen2)
  bool qk_norm = false;         ///< RMSNorm over each query and key head (Qwen3, Gemma 3)
  bool sandwich_norms = false;  ///< norms after attention and FFN too: 4 a layer (Gemma 2, 3)
  long long expert_ffn = 0;     ///< FFN width of each routed expert; 0 = ffn
  long long shared_expert_ffn = 0;  ///< width of the always-active shared expert(s); 0 = none
  long long dense_layers = 0;       ///< MoE: leading layers with a dense FFN of width ffn
  long long q_lora_rank = 0;        ///< MLA: rank of the query projection; 0 = full rank
  long long kv_lora_rank = 0;       ///< MLA: rank of the key/value latent; 0 = no MLA
  long long rope_head_dim = 0;      ///< MLA: rotary part of each query/key head (in head_size)
  long long v_head_dim = 0;         ///< MLA: dimension per value head

  /// Whether attention is multi-head latent attention.
  [[nodiscard]] constexpr bool mla() const { return kv_lora_rank > 0; }
  /// Dimension per head.
  [[nodiscard]] constexpr long long head_dim() const {
    return head_size > 0 ? head_size : hidden / heads;
  }
  /// Width of the queries: heads x head dimension.
  [[nodiscard]] constexpr long long q_dim() const { return heads * head_dim(); }
  /// Key/value heads (heads when not grouped).
  [[nodiscard]] constexpr long long kv_head_count() const {
    return kv_heads > 0 ? kv_heads : heads;
  }
  /// Width of K (and of V): key/value heads x head dimension.
  [[nodiscard]] constexpr long long kv_dim() const { return kv_head_count() * head_dim(); }
  /// FFN width.
  [[nodiscard]] constexpr long long ffn_width() const { return ffn > 0 ? ffn : 4 * hidden; }
  /// Whether the FFN is a mixture of experts.
  [[nodiscard]] constexpr bool moe() const { return experts > 1; }
  /// FFN width of one routed expert (the dense FFN's when not a mixture of experts).
  [[nodiscard]] constexpr long long expert_ffn_width() const {
    return moe() && expert_ffn > 0 ? expert_ffn : ffn_width();
  }
  /// Layers whose FFN is a mixture of experts.
  [[nodiscard]] constexpr long long moe_layers() const { return moe() ? layers - dense_layers : 0; }
  /// Elements one token keeps in the KV cache per self-attention layer: keys and values of the
  /// key/value heads, or MLA's latent and its rotary key.
  [[nodiscard]] constexpr long long kv_cache_width() const {
    return mla() ? kv_lora_rank + rope_head_dim : 2 * kv_dim();
  }
  /// Whether attention is causal (decoders; an encoder-decoder's decoder stack).
  [[nodiscard]] constexpr bool causal() const { return kind != transformer_kind::encoder; }
  /// Whether the model generates text token by token.
  [[nodiscard]] constexpr bool generates() const { return kind != transformer_kind::encoder; }
  /// Layers in all stacks.
  [[nodiscard]] constexpr long long total_layers() const { return layers + decoder_layers; }

  /// Throws invalid_argument naming the first field out of its domain: non-positive sizes,
  /// heads not dividing hidden, key/value heads not dividing heads, an MoE routing more experts
  /// than it has, decoder layers on a model that is not an encoder-decoder.
  constexpr void validate() const {
    detail::require_positive("transformer", {{"layers", layers},
                                             {"hidden", hidden},
                                             {"heads", heads},
                                             {"vocab", vocab},
                                             {"max_seq", max_seq}});
    const auto fail = [](const std::string& why) {
      detail::throw_invalid_argument("transformer: " + why);
    };
    if (kv_heads < 0) fail("kv_heads must be >= 0 (0: as many as heads)");
    if (ffn < 0) fail("ffn must be >= 0 (0: 4 x hidden)");
    if (token_types < 0) fail("token_types must be >= 0");
    if (token_types > limits::ffn) fail("token_types <= 2^26 (an embedding table, as vocab)");
    if (head_size < 0) fail("head_size must be >= 0 (0: hidden / heads)");
    if (head_size == 0 && hidden % heads != 0)
      fail("heads (" + std::to_string(heads) + ") must divide hidden (" + std::to_string(hidden) +
           ") unless head_size is given");
    if (expert_ffn < 0 || shared_expert_ffn < 0 || dense_layers < 0)
      fail("expert_ffn, shared_expert_ffn and dense_layers must be >= 0");
    if ((expert_ffn > 0 || shared_expert_ffn > 0 || dense_layers > 0) && experts <= 1)
      fail("expert_ffn, shared_expert_ffn and dense_layers need experts > 1");
    if (dense_layers >= layers && dense_layers > 0)
      fail("dense_layers (" + std::to_string(dense_layers) + ") must be fewer than layers (" +
           std::to_string(layers) + ")");
    if (q_lora_rank < 0 || kv_lora_rank < 0 || rope_head_dim < 0 || v_head_dim < 0)
      fail("q_lora_rank, kv_lora_rank, rope_head_dim and v_head_dim must be >= 0");
    if (mla() && (v_head_dim <= 0 || head_size <= rope_head_dim))
      fail("MLA (kv_lora_rank > 0) needs v_head_dim > 0 and head_size > rope_head_dim");
    if (!mla() && (q_lora_rank > 0 || rope_head_dim > 0 || v_head_dim > 0))
      fail("q_lora_rank, rope_head_dim and v_head_dim need kv_lora_rank > 0 (MLA)");
    if (heads % kv_head_count() != 0)
      fail("kv_heads (" + std::to_string(kv_heads) + ") must divide heads (" +
           std::to_string(heads) + ")");
    if (experts < 0 || experts_per_token < 0) fail("experts and experts_per_token must be >= 0");
    if (experts > 1 && (experts_per_token < 1 || experts_per_token > experts))
      fail("experts_per_token must be between 1 and experts (" + std::to_string(experts) + ")");
    if (experts <= 1 && experts_per_token > 1) fail("experts_per_token needs experts > 1");
    if (kind == transformer_kind::encoder_decoder) {
      if (decoder_layers <= 0) fail("an encoder-decoder needs decoder_layers > 0");
    } else if (decoder_layers != 0) {
      fail("decoder_layers is for encoder-decoder models only");
    }
    // Parameter counts stay exact in doubles and far from overflow.
    if (hidden > limits::width || vocab > limits::ffn || total_layers() > limits::layers ||
        ffn_width() > limits::ffn || experts > limits::layers || max_seq > limits::context ||
        head_size > limits::head_dim || expert_ffn > limits::ffn ||
        shared_expert_ffn > limits::ffn || q_lora_rank > limits::width ||
        kv_lora_rank > limits::width || v_head_dim > limits::head_dim)
      fail(
          "sizes out of range (hidden and ranks <= 2^24, vocab and ffn <= 2^26, layers and "
          "experts <= 2^16, head dims <= 2^20)");
  }

  /// Parameters of one norm layer.
  [[nodiscard]] constexpr double norm_parameters() const {
    return (norm == norm_kind::layernorm ? 2.0 : 1.0) * static_cast<double>(hidden);
  }
  /// Parameters of one attention block (Q, K, V and output projections; MLA's low-rank
  /// projections and their norms).
  [[nodiscard]] constexpr double attention_parameters() const {
    const double h = static_cast<double>(hidden), n = static_cast<double>(heads),
                 d = static_cast<double>(head_dim());
    if (mla()) {
      const double rq = static_cast<double>(q_lora_rank), rkv = static_cast<double>(kv_lora_rank),
                   rope = static_cast<double>(rope_head_dim), v = static_cast<double>(v_head_dim);
      const double queries = rq > 0 ? h * rq + rq + rq * n * d : h * n * d;
      const double latent = h * (rkv + rope) + rkv + rkv * n * (d - rope + v);
      return queries + latent + n * v * h;
    }
    const double q = static_cast<double>(q_dim()), kv = static_cast<double>(kv_dim());
    const double bias = biases ? q + 2.0 * kv + h : (qkv_bias ? q + 2.0 * kv : 0.0);
    return 2.0 * h * q + 2.0 * h * kv + bias + (qk_norm ? 2.0 * d : 0.0);
  }
  /// Parameters of one FFN of width @p width.
  [[nodiscard]] constexpr double ffn_parameters(long long width) const {
    const double h = static_cast<double>(hidden), f = static_cast<double>(width);
    if (ffn_type == ffn_kind::swiglu) return 3.0 * h * f + (biases ? 2.0 * f + h : 0.0);
    return 2.0 * h * f + (biases ? f + h : 0.0);
  }
  /// Parameters of one routed expert's (or the dense) FFN.
  [[nodiscard]] constexpr double ffn_parameters() const {
    return ffn_parameters(expert_ffn_width());
  }
  /// Parameters of a layer's FFN block: every expert, the router and the shared experts, or the
  /// dense FFN.
  [[nodiscard]] constexpr double ffn_block_parameters() const {
    if (!moe()) return ffn_parameters();
    const double e = static_cast<double>(experts);
    const double router = static_cast<double>(hidden) * e + (biases ? e : 0.0);
    const double shared = shared_expert_ffn > 0 ? ffn_parameters(shared_expert_ffn) : 0.0;
    return e * ffn_parameters() + router + shared;
  }
  /// Parameters of every routed expert of every layer (what expert parallelism spreads out):
  /// E x FFN(f_e) per mixture-of-experts layer; 0 for a dense model.
  [[nodiscard]] constexpr double routed_expert_parameters() const {
    return static_cast<double>(moe_layers()) * static_cast<double>(experts) * ffn_parameters();
  }
  /// Norms of one layer.
  [[nodiscard]] constexpr double layer_norms() const { return sandwich_norms ? 4.0 : 2.0; }
  /// Parameters of one encoder (or decoder-only) layer.
  [[nodiscard]] constexpr double layer_parameters() const {
    return attention_parameters() + ffn_block_parameters() + layer_norms() * norm_parameters();
  }
  /// Parameters of one of a mixture of experts' leading dense layers.
  [[nodiscard]] constexpr double dense_layer_parameters() const {
    return attention_parameters() + ffn_parameters(ffn_width()) + layer_norms() * norm_parameters();
  }
  /// Parameters of one decoder layer of an encoder-decoder (self- and cross-attention).
  [[nodiscard]] constexpr double cross_layer_parameters() const {
    return 2.0 * attention_parameters() + ffn_block_parameters() + 3.0 * norm_parameters();
  }
  /// Parameters of the embeddings (tokens, learned positions, token types), the separate LM
  /// head when not tied, and the pooler.
  [[nodiscard]] constexpr double embedding_parameters() const {
    const double h = static_cast<double>(hidden);
    double p = static_cast<double>(vocab) * h;
    if (learned_positions) p += static_cast<double>(max_seq) * h;
    p += static_cast<double>(token_types) * h;
    if (!tied_embeddings) p += static_cast<double>(vocab) * h;
    if (pooler) p += h * h + h;
    return p;
  }
  /// Parameters outside the layers: the embeddings and one final norm per stack (what FSDP
  /// keeps in its root unit when it wraps each layer).
  [[nodiscard]] constexpr double outer_parameters() const {
    const double stacks = kind == transformer_kind::encoder_decoder ? 2.0 : 1.0;
    return embedding_parameters() + stacks * norm_parameters();
  }
  /// Every parameter of the model.
  [[nodiscard]] constexpr double parameters() const {
    validate();
    const double dense = moe() ? static_cast<double>(dense_layers) : 0.0;
    return outer_parameters() + static_cast<double>(layers) * layer_parameters() -
           dense * (layer_parameters() - dense_layer_parameters()) +
           static_cast<double>(decoder_layers) * cross_layer_parameters();
  }
  /// Parameter tensors, as the reference implementations hold them (Hugging Face modules:
  /// separate Q, K, V and output projections, one tensor per expert matrix): what an optimizer
  /// walks tensor by tensor (stack/optimizer_kernels.hpp).
  [[nodiscard]] constexpr double parameter_tensors() const {
    validate();
    const double norms = norm == norm_kind::layernorm ? 2.0 : 1.0;
    double attention = 0;
    if (mla()) {
      // Q down, its norm and Q up (or one Q projection), KV down, its norm, KV up, output.
      attention = (q_lora_rank > 0 ? 3.0 : 1.0) + 4.0;
    } else {
      attention = 4.0 + (biases ? 4.0 : (qkv_bias ? 3.0 : 0.0)) + (qk_norm ? 2.0 : 0.0);
    }
    // Two or three matrices (gated), each with its bias when the model has them.
    const double matrices = ffn_type == ffn_kind::swiglu ? 3.0 : 2.0;
    const double ffn_tensors = matrices + (biases ? matrices : 0.0);
    double block = ffn_tensors;
    if (moe())
      block = static_cast<double>(experts) * ffn_tensors + (biases ? 2.0 : 1.0) +
              (shared_expert_ffn > 0 ? ffn_tensors : 0.0);
    const double layer = attention + block + layer_norms() * norms;
    const double dense_layer = attention + ffn_tensors + layer_norms() * norms;
    const double cross = 2.0 * attention + block + 3.0 * norms;
    const double embedding = 1.0 + (learned_positions ? 1.0 : 0.0) + (token_types > 0 ? 1.0 : 0.0) +
                             (tied_embeddings ? 0.0 : 1.0) + (pooler ? 2.0 : 0.0);
    const double stacks = kind == transformer_kind::encoder_decoder ? 2.0 : 1.0;
    const double dense = moe() ? static_cast<double>(dense_layers) : 0.0;
    return embedding + static_cast<double>(layers) * layer - dense * (layer - dense_layer) +
           static_cast<double>(decoder_layers) * cross + stacks * norms;
  }
  /// Parameters one token passes through: all of them for a dense model; for a mixture of
  /// experts only experts_per_token of each layer's experts.
  [[nodiscard]] constexpr double active_parameters() const {
    if (!moe()) return parameters();
    const double idle = static_cast<double>(experts - experts_per_token) * ffn_parameters();
    const double sparse = static_cast<double>(decoder_layers + moe_layers());
    return parameters() - sparse * idle;
  }

  /// Equal descriptions (a preset and the configuration file it comes from).
  friend constexpr bool operator==(const transformer_config&, const transformer_config&) = default;
};

}  // namespace dlperf
