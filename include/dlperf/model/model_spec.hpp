/// @file
/// A model as the estimators take it: a transformer or a convolutional network, with its name,
/// its published parameter count and its source (model/presets.hpp holds the published ones).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
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

}  // namespace dlperf
