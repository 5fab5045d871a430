/// @file
/// Low-rank adaptation as a run option (docs/models.md, @ref models_finetuning): LoRA (Hu et al.
/// 2021, arXiv 2106.09685) freezes every weight of the model and trains, beside each chosen
/// linear layer W (in x out), two thin matrices A (in x r) and B (r x out); QLoRA (Dettmers et
/// al. 2023, arXiv 2305.14314) stores the frozen layers' weights in 4-bit NormalFloat with
/// double-quantised block scales and dequantises them to the compute type before each product.
/// This header holds the run's choice; model/adapters.hpp holds what it means for a model.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/weight_format.hpp>

namespace dlperf {

/// A linear layer of a transformer block that LoRA can adapt (the module names Hugging Face
/// PEFT's `target_modules` use for Llama-style models: q_proj, k_proj, ...).
enum class lora_target : std::uint8_t {
  q,     ///< query projection (h -> heads x head dim)
  k,     ///< key projection (h -> key/value heads x head dim)
  v,     ///< value projection (h -> key/value heads x head dim)
  o,     ///< attention output projection (heads x head dim -> h)
  gate,  ///< FFN gate projection (SwiGLU only: h -> f)
  up,    ///< FFN up projection (h -> f)
  down   ///< FFN down projection (f -> h)
};

/// The LoRA targets and their stable names.
template <>
struct enum_list<lora_target> {
  static constexpr std::string_view kind = "LoRA target module";  ///< what the enum names
  /// Every target.
  static constexpr std::array values{enumerator{lora_target::q, "q", "query projection"},
                                     enumerator{lora_target::k, "k", "key projection"},
                                     enumerator{lora_target::v, "v", "value projection"},
                                     enumerator{lora_target::o, "o", "attention output"},
                                     enumerator{lora_target::gate, "gate", "FFN gate (SwiGLU)"},
                                     enumerator{lora_target::up, "up", "FFN up"},
                                     enumerator{lora_target::down, "down", "FFN down"}};
};

/// A set of LoRA targets (a bit per target).
struct lora_targets {
  std::uint8_t bits = 0;  ///< bit enum_index(t) set when t is a target

  /// Whether @p t is in the set.
  [[nodiscard]] constexpr bool has(lora_target t) const {
    return ((bits >> enum_index(t)) & 1U) != 0;
  }
  /// The set with @p t added.
  [[nodiscard]] constexpr lora_targets with(lora_target t) const {
    return {static_cast<std::uint8_t>(bits | (1U << enum_index(t)))};
  }
  /// Whether the set is empty.
  [[nodiscard]] constexpr bool empty() const { return bits == 0; }
  /// Query and value projections: the original LoRA paper's choice and PEFT's default for
  /// Llama models.
  static constexpr lora_targets query_value() {
    return lora_targets{}.with(lora_target::q).with(lora_target::v);
  }
  /// Every linear layer of the block ("all-linear"; QLoRA's recommendation, section 4).
  static constexpr lora_targets all() {
    lora_targets s;
    for (lora_target t : enum_values<lora_target>) s = s.with(t);
    return s;
  }
  /// Equality.
  friend constexpr bool operator==(lora_targets a, lora_targets b) { return a.bits == b.bits; }
};

/// The targets as "q,v", in list order.
inline std::string describe(lora_targets s) {
  std::string out;
  for (lora_target t : enum_values<lora_target>)
    if (s.has(t)) out += (out.empty() ? "" : ",") + std::string(name(t));
  return out;
}

/// The targets @p text names: "all" or a comma-separated list of target names ("q,v"). Throws
/// not_found naming an unknown target and listing the valid ones, invalid_argument for an empty
/// list.
constexpr lora_targets parse_lora_targets(std::string_view text) {
  if (text == "all") return lora_targets::all();
  lora_targets s;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    s = s.with(parse<lora_target>(item));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) s = s.with(parse<lora_target>(text));  // a trailing comma: names ""
  }
  if (s.empty()) detail::throw_invalid_argument("LoRA targets: name at least one module");
  return s;
}

/// Bits per weight of QLoRA's 4-bit NormalFloat storage with double quantisation, from the NF4
/// layout of the weight-format table (core/weight_format.hpp): 4 bits per weight, an 8-bit
/// absmax per block of 64 weights and an FP32 constant per 256 of those absmaxes:
/// 4 + 8/64 + 32/(64 x 256) = 4.127 (Dettmers et al. 2023, section 3, "Double Quantization":
/// 0.127 bits per parameter for the scales, against 0.5 without it).
inline constexpr double nf4_bits_per_weight = weight_formats::nf4.bits_per_weight();

/// Low-rank adaptation of a training run.
struct lora_config {
  long long rank = 0;                                  ///< r; 0: no LoRA (every weight trains)
  lora_targets targets = lora_targets::query_value();  ///< the adapted linear layers
  bool qlora = false;  ///< the frozen layers' weights in NF4 (bitsandbytes), dequantised per use

  /// Whether the run trains adapters instead of the model.
  [[nodiscard]] constexpr bool enabled() const { return rank > 0; }
};

}  // namespace dlperf
