/// @file
/// A transformer described as a literal type, and its parameter count computed from the
/// description (docs/models.md, @ref models_parameters):
///
///     attention   = h q + 2 h kv + q h            (+ q + 2 kv + h biases)
///     FFN         = 2 h f (GELU/ReLU) or 3 h f (gated SwiGLU)   (+ f + h or 2 f + h biases)
///     MoE FFN     = E x FFN + h E (router)
///     layer       = attention + FFN + 2 norms     (a decoder layer with cross-attention: 2
///                                                  attentions + FFN + 3 norms)
///     embeddings  = V h (+ positions x h when learned, + token types x h)
///     total       = embeddings + layers + one final norm per stack (+ V h for a separate LM head,
///                   + h h + h for BERT's pooler)
///
/// with h the hidden size, q = heads x head dim (= h), kv = key/value heads x head dim (grouped-
/// query attention shares each key/value head between heads / kv_heads query heads), f the FFN
/// width, E experts and V the vocabulary. A norm is 2 h (LayerNorm: scale and bias) or h
/// (RMSNorm).
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

  /// Dimension per head.
  [[nodiscard]] constexpr long long head_dim() const { return hidden / heads; }
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
    if (hidden % heads != 0)
      fail("heads (" + std::to_string(heads) + ") must divide hidden (" + std::to_string(hidden) +
           ")");
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
    if (hidden > (1LL << 24) || vocab > (1LL << 26) || total_layers() > (1LL << 16) ||
        ffn_width() > (1LL << 26) || experts > (1LL << 16) || max_seq > (1LL << 30))
      fail("sizes out of range (hidden <= 2^24, vocab and ffn <= 2^26, layers <= 2^16)");
  }

  /// Parameters of one norm layer.
  [[nodiscard]] constexpr double norm_parameters() const {
    return (norm == norm_kind::layernorm ? 2.0 : 1.0) * static_cast<double>(hidden);
  }
  /// Parameters of one attention block (Q, K, V and output projections).
  [[nodiscard]] constexpr double attention_parameters() const {
    const double h = static_cast<double>(hidden), kv = static_cast<double>(kv_dim());
    return 2.0 * h * h + 2.0 * h * kv + (biases ? 2.0 * h + 2.0 * kv : 0.0);
  }
  /// Parameters of one expert's (or the dense) FFN.
  [[nodiscard]] constexpr double ffn_parameters() const {
    const double h = static_cast<double>(hidden), f = static_cast<double>(ffn_width());
    if (ffn_type == ffn_kind::swiglu) return 3.0 * h * f + (biases ? 2.0 * f + h : 0.0);
    return 2.0 * h * f + (biases ? f + h : 0.0);
  }
  /// Parameters of a layer's FFN block: every expert and the router, or the dense FFN.
  [[nodiscard]] constexpr double ffn_block_parameters() const {
    if (!moe()) return ffn_parameters();
    const double e = static_cast<double>(experts);
    return e * ffn_parameters() + static_cast<double>(hidden) * e;
  }
  /// Parameters of one encoder (or decoder-only) layer.
  [[nodiscard]] constexpr double layer_parameters() const {
    return attention_parameters() + ffn_block_parameters() + 2.0 * norm_parameters();
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
  /// Every parameter of the model.
  [[nodiscard]] constexpr double parameters() const {
    validate();
    const double stacks = kind == transformer_kind::encoder_decoder ? 2.0 : 1.0;
    return embedding_parameters() + static_cast<double>(layers) * layer_parameters() +
           static_cast<double>(decoder_layers) * cross_layer_parameters() +
           stacks * norm_parameters();
  }
  /// Parameters one token passes through: all of them for a dense model; for a mixture of
  /// experts only experts_per_token of each layer's experts.
  [[nodiscard]] constexpr double active_parameters() const {
    if (!moe()) return parameters();
    const double idle = static_cast<double>(experts - experts_per_token) * ffn_parameters();
    return parameters() - static_cast<double>(total_layers()) * idle;
  }
};

}  // namespace dlperf
