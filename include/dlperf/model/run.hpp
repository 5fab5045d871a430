/// @file
/// How a model is run: training or inference, batch and sequence, precision, optimizer, weight
/// format, activation checkpointing, low-rank adaptation (model/lora.hpp) and the split over GPUs.
/// One `run_config` answers both the time question (model/step.hpp) and the memory question
/// (model/memory.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/model/lora.hpp>

namespace dlperf {

/// Training step or inference.
enum class run_mode : std::uint8_t {
  train,  ///< forward, backward and optimizer update
  infer   ///< forward only (decoders: prefill and token-by-token decode)
};

/// The run modes and their stable names.
template <>
struct enum_list<run_mode> {
  static constexpr std::string_view kind = "mode";  ///< what the enum names
  /// Every mode.
  static constexpr std::array values{enumerator{run_mode::train, "train"},
                                     enumerator{run_mode::infer, "infer"}};
};

/// The optimizer of a training step.
enum class optimizer_kind : std::uint8_t {
  sgd,      ///< SGD with momentum: one state per parameter
  adam,     ///< Adam / AdamW: two FP32 moments per parameter
  adam8bit  ///< 8-bit Adam (Dettmers et al. 2021): two 1-byte moments per parameter
};

/// The optimizers and their stable names.
template <>
struct enum_list<optimizer_kind> {
  static constexpr std::string_view kind = "optimizer";  ///< what the enum names
  /// Every optimizer.
  static constexpr std::array values{
      enumerator{optimizer_kind::sgd, "sgd", "SGD with momentum"},
      enumerator{optimizer_kind::adam, "adam", "Adam/AdamW, FP32 moments"},
      enumerator{optimizer_kind::adam8bit, "adam8bit", "Adam with 8-bit moments"}};
};

/// How inference stores the weights.
enum class weight_format : std::uint8_t {
  native,        ///< in the run's datatype
  int8_weights,  ///< weight-only 8-bit, one FP16 scale per output channel
  int4_weights   ///< weight-only 4-bit, one FP16 scale per group of 128 weights
};

/// The weight formats and their stable names.
template <>
struct enum_list<weight_format> {
  static constexpr std::string_view kind = "weight format";  ///< what the enum names
  /// Every weight format.
  static constexpr std::array values{
      enumerator{weight_format::native, "native", "the run's datatype"},
      enumerator{weight_format::int8_weights, "int8", "weight-only 8-bit"},
      enumerator{weight_format::int4_weights, "int4", "weight-only 4-bit, groups of 128"}};
};

/// Elements per FP16 scale of 4-bit group quantisation (GPTQ and AWQ use 128).
inline constexpr double int4_group_size = 128;

/// Bytes per weight of @p f when the run computes in @p t.
constexpr double weight_bytes(weight_format f, dtype t) {
  switch (f) {
    case weight_format::int8_weights:
      return 1.0;  // the per-channel scales are negligible
    case weight_format::int4_weights:
      return 0.5 + 2.0 / int4_group_size;
    case weight_format::native:
      break;
  }
  return traits(t).storage().value();
}

/// One run of a model.
struct run_config {
  run_mode mode = run_mode::train;  ///< training or inference
  long long batch = 1;              ///< sequences or images per data-parallel replica
  long long seq = 0;                ///< tokens per sequence (transformers); 0 = the model's context
  long long image = 224;            ///< image side in pixels (CNNs)
  long long prompt = 0;             ///< decoder inference: prompt tokens; 0 = seq, else the
                                    ///< context less the generated tokens
  long long generate = 0;           ///< decoder inference: tokens generated after the prompt
  dtype type = dtype::bf16;  ///< compute type; 16-bit and FP8 training keep FP32 master weights
  weight_format weights = weight_format::native;    ///< inference weight storage
  optimizer_kind optimizer = optimizer_kind::adam;  ///< training optimizer
  bool checkpointing = false;   ///< training: keep only layer inputs, recompute the rest
  bool flash_attention = true;  ///< fused attention (no score matrix in DRAM or memory)
  /// Every element-wise op its own kernel, as an eager framework runs it (no epilogue fusion,
  /// batch norm not folded at inference).
  bool eager = false;
  long long gpus = 1;                    ///< GPUs of the job
  int zero = 0;                          ///< ZeRO stage over the data-parallel GPUs: 0 to 3
  long long tp = 1;                      ///< tensor-parallel degree (divides gpus)
  double overhead_bytes = 1073741824.0;  ///< framework and workspace memory per GPU (1 GiB)
  lora_config lora{};  ///< training: LoRA / QLoRA adapters instead of every weight (rank 0: off)

  /// Whether the run trains.
  [[nodiscard]] constexpr bool training() const { return mode == run_mode::train; }
  /// Data-parallel replicas: gpus / tp.
  [[nodiscard]] constexpr long long data_parallel() const { return gpus / tp; }

  /// Throws invalid_argument naming the first field out of its domain.
  constexpr void validate() const {
    detail::require_positive("run",
                             {{"batch", batch}, {"image", image}, {"gpus", gpus}, {"tp", tp}});
    if (seq < 0 || prompt < 0 || generate < 0)
      detail::throw_invalid_argument("run: seq, prompt and generate must be >= 0");
    if (zero < 0 || zero > 3) detail::throw_invalid_argument("run: zero must be 0, 1, 2 or 3");
    if (gpus % tp != 0)
      detail::throw_invalid_argument("run: tp (" + std::to_string(tp) + ") must divide gpus (" +
                                     std::to_string(gpus) + ")");
    if (!(overhead_bytes >= 0) || !detail::is_finite(overhead_bytes))
      detail::throw_invalid_argument("run: overhead_bytes must be >= 0 and finite");
    if (batch > (1LL << 24) || image > (1LL << 16) || gpus > (1LL << 20) || seq > (1LL << 30) ||
        prompt > (1LL << 30) || generate > (1LL << 30))
      detail::throw_invalid_argument("run: batch <= 2^24, image <= 65536, gpus <= 2^20");
    if (training() && weights != weight_format::native)
      detail::throw_invalid_argument("run: weight-only int8/int4 formats are for inference");
    validate_lora();
  }

 private:
  constexpr void validate_lora() const {
    if (lora.rank < 0)
      detail::throw_invalid_argument("run: lora rank must be positive (0: no LoRA), got " +
                                     std::to_string(lora.rank));
    if (lora.qlora && !lora.enabled())
      detail::throw_invalid_argument(
          "run: qlora needs a lora rank (QLoRA is LoRA over a 4-bit base)");
    if (!lora.enabled()) return;
    if (!training())
      detail::throw_invalid_argument(
          "run: lora and qlora are training options (merge the "
          "adapters for inference)");
    if (lora.targets.empty()) detail::throw_invalid_argument("run: lora needs at least one target");
    if (lora.rank > (1LL << 20)) detail::throw_invalid_argument("run: lora rank <= 2^20");
    if (lora.qlora && type != dtype::bf16 && type != dtype::fp16)
      detail::throw_invalid_argument(
          "run: qlora computes in bf16 or fp16 (the 4-bit base is "
          "dequantised to it), not " +
          std::string(name(type)));
  }
};

}  // namespace dlperf
