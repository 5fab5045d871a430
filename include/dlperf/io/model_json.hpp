/// @file
/// JSON for model descriptions, through the same field tables as device files (io/json.hpp): a
/// model file is `{"name": ..., "transformer": {...}}` or `{"name": ..., "cnn": {...}}` with the
/// members of `transformer_config` or `cnn_config` as keys (docs/models.md, "Describe your own
/// model"). A HuggingFace `config.json` (it has `model_type` or `architectures`) is read by
/// io/hf_config.hpp instead. Optional header: it needs nlohmann_json.
#pragma once

#include <filesystem>
#include <string>
#include <tuple>

#include <dlperf/io/device_file.hpp>
#include <dlperf/io/hf_config.hpp>
#include <dlperf/io/json.hpp>
#include <dlperf/model/cnn.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf::io {

/// A transformer's description.
template <>
struct field_table<transformer_config> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"kind", &transformer_config::kind, 1.0, rule::any, if_present},
      field{"layers", &transformer_config::layers, 1.0, in(1, 65536)},
      field{"decoder_layers", &transformer_config::decoder_layers, 1.0, in(0, 65536), if_present},
      field{"hidden", &transformer_config::hidden, 1.0, in(1, 16777216)},
      field{"heads", &transformer_config::heads, 1.0, in(1, 65536)},
      field{"kv_heads", &transformer_config::kv_heads, 1.0, in(0, 65536), if_present},
      field{"ffn", &transformer_config::ffn, 1.0, in(0, 67108864), if_present},
      field{"ffn_kind", &transformer_config::ffn_type, 1.0, rule::any, if_present},
      field{"vocab", &transformer_config::vocab, 1.0, in(1, 67108864)},
      field{"max_seq", &transformer_config::max_seq, 1.0, in(1, 1073741824)},
      field{"learned_positions", &transformer_config::learned_positions, 1.0, rule::any,
            if_present},
      field{"tied_embeddings", &transformer_config::tied_embeddings, 1.0, rule::any, if_present},
      field{"biases", &transformer_config::biases, 1.0, rule::any, if_present},
      field{"norm", &transformer_config::norm, 1.0, rule::any, if_present},
      field{"dropout", &transformer_config::dropout, 1.0, rule::any, if_present},
      field{"token_types", &transformer_config::token_types, 1.0, in(0, 65536), if_present},
      field{"pooler", &transformer_config::pooler, 1.0, rule::any, if_present},
      field{"experts", &transformer_config::experts, 1.0, in(0, 65536), if_present},
      field{"experts_per_token", &transformer_config::experts_per_token, 1.0, in(0, 65536),
            if_present},
      field{"head_size", &transformer_config::head_size, 1.0, in(0, 1048576), if_present},
      field{"qkv_bias", &transformer_config::qkv_bias, 1.0, rule::any, if_present},
      field{"qk_norm", &transformer_config::qk_norm, 1.0, rule::any, if_present},
      field{"sandwich_norms", &transformer_config::sandwich_norms, 1.0, rule::any, if_present},
      field{"expert_ffn", &transformer_config::expert_ffn, 1.0, in(0, 67108864), if_present},
      field{"shared_expert_ffn", &transformer_config::shared_expert_ffn, 1.0, in(0, 67108864),
            if_present},
      field{"dense_layers", &transformer_config::dense_layers, 1.0, in(0, 65536), if_present},
      field{"q_lora_rank", &transformer_config::q_lora_rank, 1.0, in(0, 16777216), if_present},
      field{"kv_lora_rank", &transformer_config::kv_lora_rank, 1.0, in(0, 16777216), if_present},
      field{"rope_head_dim", &transformer_config::rope_head_dim, 1.0, in(0, 1048576), if_present},
      field{"v_head_dim", &transformer_config::v_head_dim, 1.0, in(0, 1048576), if_present}};
};

/// A stage of bottleneck blocks.
template <>
struct field_table<cnn_stage> {
  /// The fields.
  static constexpr std::tuple fields{field{"blocks", &cnn_stage::blocks, 1.0, in(0, 1000)},
                                     field{"planes", &cnn_stage::planes, 1.0, in(1, 65536)},
                                     field{"stride", &cnn_stage::stride, 1.0, in(1, 64)}};
};

/// A bottleneck network's description.
template <>
struct field_table<cnn_config> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"in_channels", &cnn_config::in_channels, 1.0, in(1, 65536), if_present},
      field{"stem_channels", &cnn_config::stem_channels, 1.0, in(1, 65536), if_present},
      field{"stem_kernel", &cnn_config::stem_kernel, 1.0, in(1, 64), if_present},
      field{"stem_stride", &cnn_config::stem_stride, 1.0, in(1, 64), if_present},
      field{"stem_pool", &cnn_config::stem_pool, 1.0, rule::any, if_present},
      field{"stages", &cnn_config::stages},
      field{"groups", &cnn_config::groups, 1.0, in(1, 65536), if_present},
      field{"base_width", &cnn_config::base_width, 1.0, in(1, 65536), if_present},
      field{"expansion", &cnn_config::expansion, 1.0, in(1, 64), if_present},
      field{"se_reduction", &cnn_config::se_reduction, 1.0, in(0, 65536), if_present},
      field{"classes", &cnn_config::classes, 1.0, in(1, 16777216), if_present}};
};

/// A model as JSON: {"name", "transformer" | "cnn"}.
inline json model_to_json(const model_spec& m) {
  json out = {{"name", m.name}};
  if (m.kind == model_kind::transformer)
    out["transformer"] = to_json(m.transformer);
  else
    out["cnn"] = to_json(m.cnn);
  return out;
}

/// Reads a model from @p j (strings kept in @p strings) and validates it. Its name: the file's
/// `name`; for a HuggingFace config its `_name_or_path` (the checkpoint it came from), else
/// @p file_name (the file's own name, passed by read_model_file), else its `model_type`; "custom"
/// when none is given. Throws json_error naming the field for a malformed document and
/// invalid_argument for an inconsistent model (heads not dividing hidden, ...).
inline model_spec model_from_json(const json& j, string_store& strings,
                                  std::string_view file_name = {}) {
  detail::object_at(j, "");
  model_spec m;
  m.name = file_name.empty() ? std::string_view("custom") : file_name;
  if (is_hf_config(j)) {
    m.transformer = transformer_from_hf(j);
    const auto text = [&j](const char* key) {
      const auto it = j.find(key);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (const std::string path = text("_name_or_path"); !path.empty())
      m.name = strings.emplace_back(path);
    else if (const std::string type = text("model_type"); file_name.empty() && !type.empty())
      m.name = strings.emplace_back(type);
    return m;
  }
  for (const auto& [key, v] : j.items())
    if (key != "name" && key != "transformer" && key != "cnn")
      fail(key, "unknown field (a model file has name and one of transformer or cnn)");
  if (const auto it = j.find("name"); it != j.end())
    m.name = decode<std::string_view>(*it, "name", 1.0, rule::any, strings);
  const bool t = j.contains("transformer"), c = j.contains("cnn");
  if (t == c) fail("", "a model file needs exactly one of 'transformer' and 'cnn'");
  if (t) {
    m.kind = model_kind::transformer;
    m.transformer = from_json(j.at("transformer"), "transformer", strings, transformer_config{});
  } else {
    m.kind = model_kind::cnn;
    m.cnn = from_json(j.at("cnn"), "cnn", strings, cnn_config{.stages = {}});
  }
  m.validate();
  return m;
}

/// Parses a model file's text; strings are kept in @p strings. Throws invalid_argument, starting
/// "model file: " and naming the field, for anything wrong. @p file_name names a model that names
/// itself nowhere (see model_from_json).
inline model_spec parse_model(std::string_view text, string_store& strings,
                              std::string_view file_name = {}) {
  try {
    return model_from_json(parse_json(text), strings, file_name);
  } catch (const json_error& e) {
    ::dlperf::detail::throw_invalid_argument("model file: " + std::string(e.what()));
  } catch (const invalid_argument& e) {
    ::dlperf::detail::throw_invalid_argument("model file: " + std::string(e.what()));
  } catch (const json::exception&) {  // a check missed a shape: still one line
    ::dlperf::detail::throw_invalid_argument("model file: a value has the wrong JSON type");
  }
}

/// Reads the model file at @p path (strings kept in @p strings). A model that names itself nowhere
/// is named after the file: its stem, or for HuggingFace's "config.json" the folder it is in (the
/// checkpoint's name, as `huggingface-cli download` lays it out). Throws invalid_argument when it
/// cannot be read or parsed.
inline model_spec read_model_file(const std::string& path, string_store& strings) {
  const std::filesystem::path p(path);
  std::string file_name = p.stem().string();
  if (file_name == "config" && p.has_parent_path())
    file_name = std::filesystem::absolute(p).parent_path().filename().string();
  return parse_model(calibrate::read_text_file(path, "model file"), strings,
                     strings.emplace_back(file_name));
}

}  // namespace dlperf::io
