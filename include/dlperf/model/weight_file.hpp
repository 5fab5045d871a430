/// @file
/// A model's weights in a weight format (core/weight_format.hpp): the bytes of its checkpoint
/// file, the figure a user sees on disk, and the mean bytes per weight its decode steps read
/// (docs/models.md, @ref models_weight_formats). A format stores the linear layers of the blocks
/// in its layout; what else it quantises differs:
///
///     GGUF        embeddings in the format (tied: as the LM head), LM head in Q6_K (Q8_0 keeps
///                 Q8_0), norms and biases FP32; a quantiser mix (gguf::mix) stores attention V,
///                 attention output and FFN down of some layers in other types (Q4_K_M: those
///                 gguf_more_bits selects in Q6_K)
///     others      embeddings, LM head, norms and biases in 16 bits (int8 and int4: embeddings
///                 and LM head in the format, as the whole model was before the table)
///     native      everything in the run's datatype
///
///     file bytes  = linear x b_linear + sum over mixed roles of their weights x (b_role -
///                 b_linear) + embedding x b_embedding + head x b_head + other x b_other
///
/// The file's metadata (tokenizer, header) is left out: under 0.1 % of a 7B model's GGUF file.
#pragma once

#include <algorithm>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/weight_format.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf {

/// A transformer's parameters by how a weight format stores them.
struct weight_split {
  double linear = 0;     ///< the blocks' linear layers (attention projections, FFN and experts)
  double value = 0;      ///< of those, one layer's attention V (a mix's roles, per layer)
  double output = 0;     ///< one layer's attention output projection
  double down = 0;       ///< one layer's FFN down projection (every expert's)
  double embedding = 0;  ///< token, position and token-type embeddings, BERT's pooler
  double head = 0;       ///< the LM head when not tied to the embedding (0 when tied)
  double other = 0;      ///< norms, biases, routers

  /// Every parameter.
  [[nodiscard]] constexpr double total() const { return linear + embedding + head + other; }
};

/// The parameters of @p t split as weight formats store them.
constexpr weight_split split_weights(const transformer_config& t) {
  const double h = static_cast<double>(t.hidden), kv = static_cast<double>(t.kv_dim());
  const double q = static_cast<double>(t.q_dim());
  const double per_ffn = t.ffn_type == ffn_kind::swiglu ? 3.0 : 2.0;  // matrices of an FFN
  const auto matrices = [&](long long width) { return per_ffn * h * static_cast<double>(width); };
  // MLA's projections are all matrices but for two rank-wide norms (negligible).
  const double attention = t.mla() ? t.attention_parameters() : 2.0 * h * q + 2.0 * h * kv;
  const double shared = t.shared_expert_ffn > 0 ? matrices(t.shared_expert_ffn) : 0.0;
  const double sparse_ffn =
      t.moe() ? static_cast<double>(t.experts) * matrices(t.expert_ffn_width()) + shared
              : matrices(t.ffn_width());
  const double dense_ffn = matrices(t.ffn_width());
  const double moe_layers = static_cast<double>(t.moe() ? t.moe_layers() : t.layers);
  const double dense_layers = static_cast<double>(t.layers) - moe_layers;
  const double dec = static_cast<double>(t.decoder_layers);
  weight_split s;
  s.linear = moe_layers * (attention + sparse_ffn) + dense_layers * (attention + dense_ffn) +
             dec * (2.0 * attention + sparse_ffn);
  // The FFN down projection is one of the FFN's matrices (per expert, and the shared one's).
  const double down =
      t.moe() ? (static_cast<double>(t.experts) * static_cast<double>(t.expert_ffn_width()) +
                 static_cast<double>(t.shared_expert_ffn)) *
                    h
              : static_cast<double>(t.ffn_width()) * h;
  s.value = t.mla() ? 0.0 : h * kv;  // MLA has no separate value projection
  s.output = t.mla() ? 0.0 : q * h;  // MLA's output projection is its own width
  s.down = down;
  s.head = t.tied_embeddings ? 0.0 : static_cast<double>(t.vocab) * h;
  s.embedding = t.embedding_parameters() - s.head;
  s.other = t.parameters() - s.linear - s.embedding - s.head;
  if (s.other < 0)
    detail::throw_invalid_argument(
        "weight split: the linear layers exceed the parameters (an unsupported layout)");
  return s;
}

/// Bytes per weight of the LM head of @p f when the run computes in @p t.
constexpr double head_bytes(weight_format f, dtype t) {
  const weight_format_spec& s = weight_formats::of(f);
  return s.is_native() ? traits(t).storage().value() : s.head.bytes_per_weight();
}

namespace detail {
// Layers of @p layers that rule @p r selects.
constexpr double mix_layers(gguf::layers r, long long layers) {
  switch (r) {
    case gguf::layers::none:
      return 0.0;
    case gguf::layers::all:
      return static_cast<double>(layers);
    case gguf::layers::more_bits:
      return static_cast<double>(gguf_more_bits_layers(layers));
    case gguf::layers::first_two:
      return static_cast<double>(std::min(2LL, layers));
    case gguf::layers::first_sixteenth:
      break;
  }
  return static_cast<double>(layers / 16);
}

// Bytes role @p r of a mix adds over the format's @p base bytes per weight, for @p per_layer
// weights in each of @p t's layers.
constexpr double mix_role_bytes(const gguf::role& r, double per_layer, double base,
                                const transformer_config& t) {
  const double layers = static_cast<double>(t.layers);
  const bool gqa = r.gqa.element_bits > 0 && t.heads >= 4 * t.kv_head_count();
  if (gqa) return per_layer * layers * (r.gqa.bytes_per_weight() - base);
  const double first = mix_layers(r.first_layers, t.layers);
  const double rest =
      r.rest_layers == gguf::layers::all ? layers - first : mix_layers(r.rest_layers, t.layers);
  return per_layer *
         (first * (r.first.bytes_per_weight() - base) + rest * (r.rest.bytes_per_weight() - base));
}
}  // namespace detail

/// Mean bytes per weight of @p m's blocks' linear layers in format @p f under compute type
/// @p t: the format's layout, with a GGUF mix's tensors at theirs.
constexpr double linear_weight_bytes(const transformer_config& m, weight_format f, dtype t) {
  const double base = weight_bytes(f, t);
  const weight_format_spec& s = weight_formats::of(f);
  if (!s.mix.any()) return base;
  const weight_split w = split_weights(m);
  const double extra = detail::mix_role_bytes(s.mix.value, w.value, base, m) +
                       detail::mix_role_bytes(s.mix.output, w.output, base, m) +
                       detail::mix_role_bytes(s.mix.down, w.down, base, m);
  return base + extra / w.linear;
}

/// Bytes of @p m's weights stored in format @p f (native: in @p t), metadata left out (see the
/// file comment). A CNN stores every parameter in the format. Throws invalid_argument for an
/// invalid model.
constexpr double weight_file_bytes(const model_spec& m, weight_format f, dtype t) {
  m.validate();
  const weight_format_spec& s = weight_formats::of(f);
  if (m.kind == model_kind::cnn) return m.parameters() * weight_bytes(f, t);
  const transformer_config& c = m.transformer;
  const weight_split w = split_weights(c);
  const double native = traits(t).storage().value();
  const double linear = w.linear * linear_weight_bytes(c, f, t);
  if (s.is_native()) return linear + (w.embedding + w.head + w.other) * native;
  const double head = head_bytes(f, t);
  // GGUF keeps the token embedding in the format, or as the LM head when tied to it.
  const double embedding = s.gguf ? (c.tied_embeddings ? head : weight_bytes(f, t)) : head;
  const double other = s.gguf ? 4.0 : 2.0;  // GGUF: FP32 norms; otherwise 16 bits
  return linear + w.embedding * embedding + w.head * head + w.other * other;
}

}  // namespace dlperf
