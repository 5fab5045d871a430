/// @file
/// Published models as `constexpr` descriptions, each with its source and its published parameter
/// count. The count the library uses is computed from the description (`parameters()`); the
/// published figure is only there to test that computation against (tests/unit/model_test.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/model/cnn.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf {

/// Which description a model has.
enum class model_kind : std::uint8_t {
  transformer,  ///< a `transformer_config`
  cnn           ///< a `cnn_config`
};

/// The model kinds and their stable names.
template <>
struct enum_list<model_kind> {
  static constexpr std::string_view kind = "model kind";  ///< what the enum names
  /// Every model kind.
  static constexpr std::array values{enumerator{model_kind::transformer, "transformer"},
                                     enumerator{model_kind::cnn, "cnn"}};
};

/// A model: a transformer or a convolutional network, with a name and where it comes from.
struct model_spec {
  std::string_view name;                      ///< stable id ("llama2_7b")
  model_kind kind = model_kind::transformer;  ///< which description holds
  transformer_config transformer{};           ///< the description when kind is transformer
  cnn_config cnn{};                           ///< the description when kind is cnn
  double published_parameters = 0;            ///< the count its authors publish (0: none)
  std::string_view source;                    ///< where the configuration is published

  /// Parameters computed from the description.
  [[nodiscard]] constexpr double parameters() const {
    return kind == model_kind::transformer ? transformer.parameters() : cnn.parameters();
  }
  /// Throws invalid_argument naming the first bad field of the description.
  constexpr void validate() const {
    if (kind == model_kind::transformer)
      transformer.validate();
    else
      cnn.validate();
  }
};

/// A transformer as a model.
constexpr model_spec as_model(const transformer_config& t, std::string_view name = "custom") {
  return model_spec{name, model_kind::transformer, t, {}, 0, {}};
}
/// A convolutional network as a model.
constexpr model_spec as_model(const cnn_config& c, std::string_view name = "custom") {
  return model_spec{name, model_kind::cnn, {}, c, 0, {}};
}

namespace presets {

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
}  // namespace detail

/// BERT-base: 12 layers, 768 wide, 110M parameters.
inline constexpr model_spec bert_base{"bert_base",
                                      model_kind::transformer,
                                      detail::bert(12, 768, 12),
                                      {},
                                      110e6,
                                      "Devlin et al. 2018, arXiv:1810.04805; "
                                      "huggingface.co/bert-base-uncased config.json"};
/// BERT-large: 24 layers, 1024 wide, 340M parameters.
inline constexpr model_spec bert_large{"bert_large",
                                       model_kind::transformer,
                                       detail::bert(24, 1024, 16),
                                       {},
                                       340e6,
                                       "Devlin et al. 2018, arXiv:1810.04805; "
                                       "huggingface.co/bert-large-uncased config.json"};
/// GPT-2 small: 12 layers, 768 wide, 124M parameters.
inline constexpr model_spec gpt2{"gpt2",
                                 model_kind::transformer,
                                 detail::gpt2(12, 768, 12),
                                 {},
                                 124e6,
                                 "Radford et al. 2019; huggingface.co/openai-community/gpt2 "
                                 "config.json (124,439,808)"};
/// GPT-2 XL: 48 layers, 1600 wide, 1.5B parameters.
inline constexpr model_spec gpt2_xl{"gpt2_xl",
                                    model_kind::transformer,
                                    detail::gpt2(48, 1600, 25),
                                    {},
                                    1.558e9,
                                    "Radford et al. 2019 (1542M, Table 2); "
                                    "huggingface.co/openai-community/gpt2-xl config.json"};
/// The Transformer "big" of Vaswani et al. (WMT14 English-German): 6 + 6 layers, 1024 wide,
/// 37000-token shared vocabulary, one embedding matrix for source, target and output.
inline constexpr model_spec transformer_big{
    "transformer_big",
    model_kind::transformer,
    transformer_config{.kind = transformer_kind::encoder_decoder,
                       .layers = 6,
                       .decoder_layers = 6,
                       .hidden = 1024,
                       .heads = 16,
                       .ffn = 4096,
                       .ffn_type = ffn_kind::relu,
                       .vocab = 37000,
                       .max_seq = 1024,
                       .dropout = true},
    {},
    213e6,
    "Vaswani et al. 2017, arXiv:1706.03762, Table 3 (big: 213M) and section 3.4"};
/// Llama 2 7B.
inline constexpr model_spec llama2_7b{
    "llama2_7b",
    model_kind::transformer,
    detail::llama(32, 4096, 32, 32, 11008, 32000, 4096),
    {},
    6.74e9,
    "Touvron et al. 2023, arXiv:2307.09288; huggingface.co/meta-llama/Llama-2-7b-hf"};
/// Llama 2 13B.
inline constexpr model_spec llama2_13b{
    "llama2_13b",
    model_kind::transformer,
    detail::llama(40, 5120, 40, 40, 13824, 32000, 4096),
    {},
    13.0e9,
    "Touvron et al. 2023, arXiv:2307.09288; huggingface.co/meta-llama/Llama-2-13b-hf"};
/// Llama 2 70B (grouped-query attention, 8 key/value heads).
inline constexpr model_spec llama2_70b{
    "llama2_70b",
    model_kind::transformer,
    detail::llama(80, 8192, 64, 8, 28672, 32000, 4096),
    {},
    69.0e9,
    "Touvron et al. 2023, arXiv:2307.09288; huggingface.co/meta-llama/Llama-2-70b-hf"};
/// Llama 3 8B.
inline constexpr model_spec llama3_8b{
    "llama3_8b",
    model_kind::transformer,
    detail::llama(32, 4096, 32, 8, 14336, 128256, 8192),
    {},
    8.03e9,
    "Meta 2024, ai.meta.com/blog/meta-llama-3; huggingface.co/meta-llama/Meta-Llama-3-8B"};
/// Llama 3 70B.
inline constexpr model_spec llama3_70b{
    "llama3_70b",
    model_kind::transformer,
    detail::llama(80, 8192, 64, 8, 28672, 128256, 8192),
    {},
    70.6e9,
    "Meta 2024; huggingface.co/meta-llama/Meta-Llama-3-70B config.json"};
/// Mistral 7B v0.1 (the sliding attention window of 4096 is not modelled).
inline constexpr model_spec mistral_7b{
    "mistral_7b",
    model_kind::transformer,
    detail::llama(32, 4096, 32, 8, 14336, 32000, 32768),
    {},
    7.24e9,
    "Jiang et al. 2023, arXiv:2310.06825; huggingface.co/mistralai/Mistral-7B-v0.1"};
/// Mixtral 8x7B: 8 SwiGLU experts per layer, 2 per token (46.7B parameters, 12.9B active).
inline constexpr model_spec mixtral_8x7b{
    "mixtral_8x7b",
    model_kind::transformer,
    [] {
      transformer_config t = detail::llama(32, 4096, 32, 8, 14336, 32000, 32768);
      t.experts = 8;
      t.experts_per_token = 2;
      return t;
    }(),
    {},
    46.7e9,
    "Jiang et al. 2024, arXiv:2401.04088; mistral.ai/news/mixtral-of-experts (46.7B, 12.9B "
    "active)"};

/// ResNet-50 v1.5 (He et al. 2015, arXiv:1512.03385; stride on the 3x3 convolution as in
/// torchvision and NVIDIA's v1.5): 25,557,032 parameters (torchvision).
inline constexpr model_spec resnet50{
    "resnet50", model_kind::cnn,
    {},         cnn_config{.stages = {{{3, 64, 1}, {4, 128, 2}, {6, 256, 2}, {3, 512, 2}}}},
    25557032,   "He et al. 2015, arXiv:1512.03385; pytorch.org/vision resnet50 (25,557,032)"};
/// ResNet-101 v1.5: 44,549,160 parameters (torchvision).
inline constexpr model_spec resnet101{
    "resnet101", model_kind::cnn,
    {},          cnn_config{.stages = {{{3, 64, 1}, {4, 128, 2}, {23, 256, 2}, {3, 512, 2}}}},
    44549160,    "He et al. 2015, arXiv:1512.03385; pytorch.org/vision resnet101 (44,549,160)"};
/// SE-ResNeXt-101 32x4d (Xie et al. 2016, arXiv:1611.05431; Hu et al. 2017, arXiv:1709.01507):
/// cardinality 32, 4 channels per group, SE reduction 16; 48,955,416 parameters (osmr/imgclsmob).
inline constexpr model_spec se_resnext101_32x4d{
    "se_resnext101_32x4d",
    model_kind::cnn,
    {},
    cnn_config{.stages = {{{3, 64, 1}, {4, 128, 2}, {23, 256, 2}, {3, 512, 2}}},
               .groups = 32,
               .base_width = 4,
               .se_reduction = 16},
    48955416,
    "Xie et al. 2016, arXiv:1611.05431; Hu et al. 2017, arXiv:1709.01507; osmr/imgclsmob "
    "seresnext.py (48,955,416)"};

/// Every preset, in listing order.
inline constexpr std::array all{
    bert_base,  bert_large,   gpt2,       gpt2_xl,   transformer_big,
    llama2_7b,  llama2_13b,   llama2_70b, llama3_8b, llama3_70b,
    mistral_7b, mixtral_8x7b, resnet50,   resnet101, se_resnext101_32x4d};

/// The preset named @p id. Throws not_found listing the valid names.
constexpr const model_spec& find(std::string_view id) {
  for (const model_spec& m : all)
    if (m.name == id) return m;
  dlperf::detail::throw_unknown("model preset", id, all,
                                [](const model_spec& m) { return m.name; });
}

}  // namespace presets
}  // namespace dlperf
