/// @file
/// A transformer described by its shape, as the tool's shape flags (`--layers`, `--hidden`,
/// `--heads`, `--vocab`, `--max-seq`, ...) and Python's keywords (`layers=`, `hidden=`, ...)
/// state it, and the choice between a preset, a model file and a shape (docs/models.md,
/// "Describing a model"; docs/layers.md, "The application layer").
#pragma once

#include <array>
#include <dlperf/io/model_json.hpp>
#include <dlperf/model/model_spec.hpp>
#include <dlperf/model/transformer.hpp>
#include <span>
#include <string>
#include <string_view>

namespace dlperf::app {

/// A shape field that takes a size: its flag, the member of transformer_config it sets, and its
/// help; 0 when not given.
struct shape_size_field {
  std::string_view flag;                  ///< "--kv-heads"
  long long transformer_config::*member;  ///< what it sets
  std::string_view help;                  ///< the flag's help text
};

/// A shape field that is a switch: when given, it sets its member to `value`.
struct shape_switch_field {
  std::string_view flag;             ///< "--no-biases"
  bool transformer_config::*member;  ///< what it sets
  bool value;                        ///< the value it sets
  std::string_view help;             ///< the flag's help text
};

/// The size fields beyond the five every shape needs (docs/models.md, "Describing a model").
inline constexpr std::array shape_sizes{
    shape_size_field{"--kv-heads", &transformer_config::kv_heads,
                     "key/value heads (0: as many as heads)"},
    shape_size_field{"--head-dim", &transformer_config::head_size,
                     "dimension per head (0: hidden / heads)"},
    shape_size_field{"--ffn", &transformer_config::ffn, "FFN width (0: 4 x hidden)"},
    shape_size_field{"--token-types", &transformer_config::token_types,
                     "segment embeddings (BERT: 2)"},
    shape_size_field{"--experts", &transformer_config::experts, "MoE experts per layer (0: dense)"},
    shape_size_field{"--experts-per-token", &transformer_config::experts_per_token,
                     "MoE experts per token"},
    shape_size_field{"--expert-ffn", &transformer_config::expert_ffn,
                     "FFN width of each expert (0: --ffn)"},
    shape_size_field{"--shared-expert-ffn", &transformer_config::shared_expert_ffn,
                     "width of the shared expert(s) (0: none)"},
    shape_size_field{"--dense-layers", &transformer_config::dense_layers,
                     "leading layers with a dense FFN of width --ffn (MoE)"},
    shape_size_field{"--q-lora-rank", &transformer_config::q_lora_rank, "MLA query rank (0: full)"},
    shape_size_field{"--kv-lora-rank", &transformer_config::kv_lora_rank,
                     "MLA key/value latent rank (0: no MLA)"},
    shape_size_field{"--rope-head-dim", &transformer_config::rope_head_dim,
                     "MLA rotary key dimension"},
    shape_size_field{"--v-head-dim", &transformer_config::v_head_dim, "MLA value head dimension"}};

/// The on/off shape fields.
inline constexpr std::array shape_switches{
    shape_switch_field{"--untied-embeddings", &transformer_config::tied_embeddings, false,
                       "a separate LM head (default: tied to the token embedding)"},
    shape_switch_field{"--no-biases", &transformer_config::biases, false,
                       "linear layers without biases"},
    shape_switch_field{"--qkv-bias", &transformer_config::qkv_bias, true,
                       "biases on Q, K and V only (with --no-biases)"},
    shape_switch_field{"--qk-norm", &transformer_config::qk_norm, true,
                       "RMSNorm on each query and key head"},
    shape_switch_field{"--sandwich-norms", &transformer_config::sandwich_norms, true,
                       "norms after attention and FFN too (4 a layer)"},
    shape_switch_field{"--learned-positions", &transformer_config::learned_positions, true,
                       "learned position embeddings"},
    shape_switch_field{"--pooler", &transformer_config::pooler, true, "BERT's pooler"},
    shape_switch_field{"--dropout", &transformer_config::dropout, true,
                       "training applies dropout"}};

/// A shape as a front end states it; numbers stay text until model_of_shape reads them, so that
/// a bad one is named by its flag.
struct shape_options {
  std::string layers;                                 ///< --layers (empty: no shape)
  std::string hidden;                                 ///< --hidden
  std::string heads;                                  ///< --heads
  std::string vocab;                                  ///< --vocab
  std::string max_seq;                                ///< --max-seq
  ffn_kind ffn_type = ffn_kind::gelu;                 ///< --ffn-kind
  transformer_kind kind = transformer_kind::decoder;  ///< --arch
  norm_kind norm = norm_kind::layernorm;              ///< --norm
  /// shape_sizes' values, in its order ("0": not given).
  std::array<std::string, shape_sizes.size()> sizes = [] {
    std::array<std::string, shape_sizes.size()> zeros;
    zeros.fill("0");
    return zeros;
  }();
  std::array<bool, shape_switches.size()> switches{};  ///< shape_switches given
  /// The first shape field given other than --layers and --max-seq, as its flag ("--hidden");
  /// empty for none. Such a field beside a preset or a model file is refused by it.
  std::string first_given;
};

/// The keywords of the shape fields, each its flag without the dashes and `-` as `_`: layers,
/// hidden, heads, vocab, max_seq, ffn_kind, arch, norm, then shape_sizes' and shape_switches'.
std::span<const std::string_view> shape_keywords();

/// Whether shape flag @p flag is refused beside a preset or a model file: every one but --layers
/// (which gives the model by its shape) and --max-seq (which sets the model's context:
/// with_context).
bool refused_beside_model(std::string_view flag);

/// Sets shape field @p keyword (shape_keywords) of @p o to @p value ("true" or "1" for a
/// switch) and notes it in first_given; false when @p keyword is not a shape field. Throws
/// request_error naming the flag for a bad enumerator or switch value.
bool set_shape_keyword(shape_options& o, std::string_view keyword, const std::string& value);

/// The transformer @p o describes. Throws request_error naming the flag of a missing required
/// field (--hidden, --heads, --vocab, --max-seq) or a number out of range; dlperf's
/// invalid_argument for a shape transformer_config refuses.
model_spec model_of_shape(const shape_options& o);

/// @p m with its context set to @p max_seq tokens (--max-seq beside a preset or a model file):
/// long-context training past the context a model was released with (RoPE scaling), as
/// published long-sequence runs do (docs/parallel.md, "Training with long sequences"); learned
/// positions grow with it. Throws request_error for a CNN, a count out of range or below the
/// model's own context, and
/// invalid_argument for a context transformer_config refuses.
model_spec with_context(model_spec m, const std::string& max_seq);

/// The model that exactly one of @p preset, @p config (a model file, whose names @p strings
/// keeps) and @p shape (with --layers) names; --max-seq beside a preset or model file sets its
/// context (long-context training). Throws request_error unless exactly one is given, for any
/// other shape field beside a preset or model file, or --max-seq beside a CNN; dlperf's errors
/// for an unknown preset or a bad file.
model_spec select_model(const std::string& preset, const std::string& config,
                        const shape_options& shape, io::string_store& strings);

}  // namespace dlperf::app
