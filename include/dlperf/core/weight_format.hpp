/// @file
/// How inference stores a model's weights, as data (docs/models.md, @ref models_weight_formats):
/// one list of formats, and for each the scale layout it is published with, from which its bits
/// per weight are computed, the datatype its matrix products run in, and its source.
///
/// A layout stores each weight in `element_bits`, one set of block scales (a scale, and a
/// minimum or zero point where the format has one) of `block_bits` per `block` weights, and one
/// set of super-block scales of `super_bits` per `super_block` weights:
///
///     bits per weight = element_bits + block_bits / block + super_bits / super_block
///
/// e.g. GGUF Q4_0: 32 weights of 4 bits and one FP16 scale, 4 + 16 / 32 = 4.5; Q4_K: super-blocks
/// of 256 weights with an FP16 scale and an FP16 minimum, 8 blocks of 32 with a 6-bit scale and
/// a 6-bit minimum each, 4 + 12 / 32 + 32 / 256 = 4.5.
///
/// GGUF's K-quant files are mixes: llama.cpp's quantizer (`llama_tensor_get_type`,
/// src/llama-quant.cpp) stores the output (LM head) tensor in Q6_K and some tensors of some
/// layers in other types (`gguf::mix`: Q4_K_M the attention value projection and the FFN down
/// projection of the layers `gguf_more_bits` selects in Q6_K; Q3_K_M and Q2_K attention V,
/// attention output and FFN down in Q3_K to Q5_K); model/weight_file.hpp applies a mix to a
/// model.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>

namespace dlperf {

/// How inference stores the weights.
enum class weight_format : std::uint8_t {
  native,        ///< in the run's datatype
  int8_weights,  ///< weight-only 8-bit, one FP16 scale per output channel
  int4_weights,  ///< weight-only 4-bit, one FP16 scale per group of 128 weights
  q2_k,          ///< GGUF Q2_K (Q2_K, some tensors Q3_K or Q4_K)
  q3_k_m,        ///< GGUF Q3_K_M (Q3_K, some tensors Q4_K or Q5_K)
  iq4_xs,        ///< GGUF IQ4_XS (non-linear 4-bit, 6-bit scales per 32)
  q4_0,          ///< GGUF Q4_0
  q4_k_m,        ///< GGUF Q4_K_M (Q4_K with Q6_K for some tensors)
  q5_k_m,        ///< GGUF Q5_K_M (Q5_K with Q6_K for some tensors)
  q6_k,          ///< GGUF Q6_K
  q8_0,          ///< GGUF Q8_0
  awq,           ///< AWQ int4, groups of 128
  gptq,          ///< GPTQ int4, groups of 128
  q4f16_1,       ///< MLC LLM q4f16_1: int4, one FP16 scale per group of 32
  nf4,           ///< bitsandbytes 4-bit NormalFloat, double-quantised scales
  mxfp4,         ///< OCP MXFP4
  nvfp4,         ///< NVIDIA NVFP4
  fp8,           ///< FP8 E4M3 weights, per-tensor or per-channel scales
  exl2_2_5,      ///< ExLlamaV2 EXL2 at an average of 2.5 bits per weight
  exl2_3_0,      ///< ExLlamaV2 EXL2 at an average of 3.0 bits per weight
  exl2_3_5,      ///< ExLlamaV2 EXL2 at an average of 3.5 bits per weight
  exl2_4_0,      ///< ExLlamaV2 EXL2 at an average of 4.0 bits per weight
  exl2_4_5,      ///< ExLlamaV2 EXL2 at an average of 4.5 bits per weight
  exl2_5_0,      ///< ExLlamaV2 EXL2 at an average of 5.0 bits per weight
  exl2_6_0,      ///< ExLlamaV2 EXL2 at an average of 6.0 bits per weight
  exl2_8_0,      ///< ExLlamaV2 EXL2 at an average of 8.0 bits per weight
  mlx_2bit,      ///< MLX affine 2-bit, a 16-bit scale and bias per group of 64
  mlx_3bit,      ///< MLX affine 3-bit, a 16-bit scale and bias per group of 64
  mlx_4bit,      ///< MLX affine 4-bit, a 16-bit scale and bias per group of 64
  mlx_5bit,      ///< MLX affine 5-bit, a 16-bit scale and bias per group of 64
  mlx_6bit,      ///< MLX affine 6-bit, a 16-bit scale and bias per group of 64
  mlx_8bit,      ///< MLX affine 8-bit, a 16-bit scale and bias per group of 64
};

/// The weight formats and their stable names (the CLI's `--weights`).
template <>
struct enum_list<weight_format> {
  static constexpr std::string_view kind = "weight format";  ///< what the enum names
  /// Every weight format.
  static constexpr std::array values{
      enumerator{weight_format::native, "native", "the run's datatype"},
      enumerator{weight_format::int8_weights, "int8", "weight-only 8-bit, per-channel scales"},
      enumerator{weight_format::int4_weights, "int4", "weight-only 4-bit, groups of 128"},
      enumerator{weight_format::q2_k, "q2_k", "GGUF Q2_K (Q2_K, some tensors Q3_K or Q4_K)"},
      enumerator{weight_format::q3_k_m, "q3_k_m", "GGUF Q3_K_M (Q3_K, some tensors Q4_K or Q5_K)"},
      enumerator{weight_format::iq4_xs, "iq4_xs", "GGUF IQ4_XS (4.25 bits, importance-matrix)"},
      enumerator{weight_format::q4_0, "q4_0", "GGUF Q4_0"},
      enumerator{weight_format::q4_k_m, "q4_k_m", "GGUF Q4_K_M (Q4_K, some tensors Q6_K)"},
      enumerator{weight_format::q5_k_m, "q5_k_m", "GGUF Q5_K_M (Q5_K, some tensors Q6_K)"},
      enumerator{weight_format::q6_k, "q6_k", "GGUF Q6_K"},
      enumerator{weight_format::q8_0, "q8_0", "GGUF Q8_0"},
      enumerator{weight_format::awq, "awq", "AWQ int4, groups of 128"},
      enumerator{weight_format::gptq, "gptq", "GPTQ int4, groups of 128"},
      enumerator{weight_format::q4f16_1, "q4f16_1", "MLC LLM int4, FP16 scale per 32 (4.5 bits)"},
      enumerator{weight_format::nf4, "nf4", "bitsandbytes NF4, double-quantised"},
      enumerator{weight_format::mxfp4, "mxfp4", "OCP MXFP4: FP4 E2M1, E8M0 scale per 32"},
      enumerator{weight_format::nvfp4, "nvfp4", "NVFP4: FP4 E2M1, E4M3 scale per 16"},
      enumerator{weight_format::fp8, "fp8", "FP8 E4M3 weights"},
      enumerator{weight_format::exl2_2_5, "exl2_2.5bpw",
                 "ExLlamaV2 EXL2, 2.5 bits per weight on average"},
      enumerator{weight_format::exl2_3_0, "exl2_3.0bpw",
                 "ExLlamaV2 EXL2, 3.0 bits per weight on average"},
      enumerator{weight_format::exl2_3_5, "exl2_3.5bpw",
                 "ExLlamaV2 EXL2, 3.5 bits per weight on average"},
      enumerator{weight_format::exl2_4_0, "exl2_4.0bpw",
                 "ExLlamaV2 EXL2, 4.0 bits per weight on average"},
      enumerator{weight_format::exl2_4_5, "exl2_4.5bpw",
                 "ExLlamaV2 EXL2, 4.5 bits per weight on average"},
      enumerator{weight_format::exl2_5_0, "exl2_5.0bpw",
                 "ExLlamaV2 EXL2, 5.0 bits per weight on average"},
      enumerator{weight_format::exl2_6_0, "exl2_6.0bpw",
                 "ExLlamaV2 EXL2, 6.0 bits per weight on average"},
      enumerator{weight_format::exl2_8_0, "exl2_8.0bpw",
                 "ExLlamaV2 EXL2, 8.0 bits per weight on average"},
      enumerator{weight_format::mlx_2bit, "mlx_2bit", "MLX affine 2-bit, group 64 (2.5 bits)"},
      enumerator{weight_format::mlx_3bit, "mlx_3bit", "MLX affine 3-bit, group 64 (3.5 bits)"},
      enumerator{weight_format::mlx_4bit, "mlx_4bit", "MLX affine 4-bit, group 64 (4.5 bits)"},
      enumerator{weight_format::mlx_5bit, "mlx_5bit", "MLX affine 5-bit, group 64 (5.5 bits)"},
      enumerator{weight_format::mlx_6bit, "mlx_6bit", "MLX affine 6-bit, group 64 (6.5 bits)"},
      enumerator{weight_format::mlx_8bit, "mlx_8bit", "MLX affine 8-bit, group 64 (8.5 bits)"}};
};

/// The storage of one tensor in a block-scaled format (see the file comment).
struct weight_layout {
  int element_bits = 16;  ///< bits of each stored weight
  int block = 0;          ///< weights sharing a set of block scales (0: none, or per channel)
  int block_bits = 0;     ///< bits of a block's scale and minimum or zero point
  int super_block = 0;    ///< weights sharing a set of super-block scales (0: none)
  int super_bits = 0;     ///< bits of a super-block's scales

  /// Bits one weight occupies, its share of the scales included.
  [[nodiscard]] constexpr double bits_per_weight() const {
    double b = element_bits;
    if (block > 0) b += static_cast<double>(block_bits) / block;
    if (super_block > 0) b += static_cast<double>(super_bits) / super_block;
    return b;
  }
  /// Bytes one weight occupies.
  [[nodiscard]] constexpr double bytes_per_weight() const { return bits_per_weight() / 8.0; }
};

/// The GGUF block types the formats are made of: ggml's block structs in
/// ggml/src/ggml-common.h (github.com/ggml-org/llama.cpp, 2025), QK_K = 256.
namespace gguf {
/// block_q4_0: FP16 d, 16 bytes of 4-bit weights per 32: 18 bytes, 4.5 bits per weight.
inline constexpr weight_layout q4_0{4, 32, 16};
/// block_q8_0: FP16 d, 32 int8 weights: 34 bytes per 32, 8.5 bits per weight.
inline constexpr weight_layout q8_0{8, 32, 16};
/// block_q4_K: FP16 d and dmin per 256, 12 bytes of 6-bit scales and minimums for its 8 blocks of
/// 32, 128 bytes of 4-bit weights: 144 bytes, 4.5 bits per weight.
inline constexpr weight_layout q4_k{4, 32, 12, 256, 32};
/// block_q5_K: as block_q4_K with a fifth bit per weight (qh, 32 bytes): 176 bytes, 5.5 bits.
inline constexpr weight_layout q5_k{5, 32, 12, 256, 32};
/// block_q6_K: FP16 d per 256, an int8 scale per block of 16, 6-bit weights (ql and qh): 210
/// bytes, 6.5625 bits per weight.
inline constexpr weight_layout q6_k{6, 16, 8, 256, 16};
/// block_q2_K: FP16 d and dmin per 256, a 4-bit scale and a 4-bit minimum per block of 16
/// (scales, 16 bytes), 2-bit weights (qs, 64 bytes): 84 bytes, 2.625 bits per weight.
inline constexpr weight_layout q2_k{2, 16, 8, 256, 32};
/// block_q3_K: FP16 d per 256, 6-bit scales per block of 16 (12 bytes), 2 low bits (qs, 64
/// bytes) and a high bit (hmask, 32 bytes) per weight: 110 bytes, 3.4375 bits per weight.
inline constexpr weight_layout q3_k{3, 16, 6, 256, 16};
/// block_iq4_xs: FP16 d per 256, 6-bit scales per block of 32 (scales_h and scales_l, 6 bytes),
/// 4-bit indices into a non-linear table (qs, 128 bytes): 136 bytes, 4.25 bits per weight.
inline constexpr weight_layout iq4_xs{4, 32, 6, 256, 16};

/// No type: a role without a rule for grouped-query models.
inline constexpr weight_layout no_layout{0};

/// Which layers of a tensor role a quantisation mix stores in another type, as llama.cpp's
/// quantizer decides per tensor (`llama_tensor_get_type`, src/llama-quant.cpp).
enum class layers : std::uint8_t {
  none,            ///< no layer
  all,             ///< every layer
  more_bits,       ///< the layers `gguf_more_bits` selects (about half)
  first_two,       ///< the first two (`i_attention_wv < 2`)
  first_sixteenth  ///< those below layers / 16 (`i_layer < n_layer/16`)
};

/// One tensor role's types in a mix: @p first in its layers, else @p rest in its, else the
/// format's own; where the model shares each key/value head among 4 or more query heads
/// (`n_gqa() >= 4`) and @p gqa is set, @p gqa in every layer instead.
struct role {
  layers first_layers = layers::none;  ///< where `first` applies
  weight_layout first{};               ///< its type there
  layers rest_layers = layers::none;   ///< where `rest` applies (after `first`)
  weight_layout rest{};                ///< its type there
  weight_layout gqa{0};                ///< every layer's type for n_gqa >= 4 (`no_layout`: none)
};

/// A quantisation mix: the types of attention V, attention output and FFN down where they
/// differ from the format's own (every other linear tensor keeps it).
struct mix {
  role value;   ///< attn_v
  role output;  ///< attn_output
  role down;    ///< ffn_down
  /// Whether any role leaves the format's own type.
  [[nodiscard]] constexpr bool any() const {
    return value.first_layers != layers::none || value.rest_layers != layers::none ||
           value.gqa.element_bits > 0 || output.first_layers != layers::none ||
           output.rest_layers != layers::none || down.first_layers != layers::none ||
           down.rest_layers != layers::none;
  }
};

/// Q4_K_M and Q5_K_M: attention V and FFN down of the `gguf_more_bits` layers in Q6_K.
inline constexpr mix more_bits_q6_k{{layers::more_bits, q6_k, layers::none, {}, no_layout},
                                    {},
                                    {layers::more_bits, q6_k, layers::none, {}, no_layout}};
/// Q3_K_M: attention V in Q5_K for the first two layers and Q4_K after, attention output in Q4_K,
/// FFN down in Q5_K below layers / 16 and Q4_K after (any architecture but Falcon).
inline constexpr mix q3_k_m_mix{{layers::first_two, q5_k, layers::all, q4_k, no_layout},
                                {layers::all, q4_k, layers::none, {}, no_layout},
                                {layers::first_sixteenth, q5_k, layers::all, q4_k, no_layout}};
/// Q2_K: attention V in Q3_K (Q4_K where n_gqa >= 4), attention output and FFN down in Q3_K.
inline constexpr mix q2_k_mix{{layers::all, q3_k, layers::none, {}, q4_k},
                              {layers::all, q3_k, layers::none, {}, no_layout},
                              {layers::all, q3_k, layers::none, {}, no_layout}};
/// IQ4_XS with an importance matrix (as published IQ4_XS files are made): attention V in Q5_K
/// where n_gqa >= 4 (without a matrix, FFN down's first eighth would be Q5_K too).
inline constexpr mix iq4_xs_mix{{layers::none, {}, layers::none, {}, q5_k}, {}, {}};
}  // namespace gguf

/// One weight format: its layout, the LM head's, the datatype its matrix products run in, and
/// where the layout is published.
struct weight_format_spec {
  weight_format id = weight_format::native;  ///< identity
  weight_layout layout{};       ///< the linear layers' weights (native: the run's datatype)
  weight_layout head{};         ///< the LM head (16 bits: left unquantised, as AutoAWQ, AutoGPTQ,
                                ///< bitsandbytes and ModelOpt leave it); a K-quant mix stores its
                                ///< chosen tensors in this layout too
  bool gguf = false;            ///< a GGUF type: embeddings in the format and norms in FP32;
                                ///< otherwise embeddings and norms stay in 16 bits
  gguf::mix mix{};              ///< a GGUF quantiser mix: the tensors it stores in other types
  dtype compute = dtype::fp16;  ///< datatype the matrix products run in where the GPU has it
                                ///< (native: the run's); else dequantised to the run's datatype
  bool dequantized = true;      ///< weight-only: dequantised in the product's inner loop (the
                                ///< stack's quantized_gemv_dram_share applies); false: products
                                ///< run on the format natively where the GPU has `compute`
  std::string_view source;      ///< where the layout and the compute path are published

  /// Bits per weight of the linear layers (a mix: of its base type).
  [[nodiscard]] constexpr double bits_per_weight() const { return layout.bits_per_weight(); }
  /// Whether the weights keep the run's datatype.
  [[nodiscard]] constexpr bool is_native() const { return id == weight_format::native; }
};

/// The formats (see each source).
namespace weight_formats {
/// llama.cpp runs GGUF quantised types through MMQ/MMVQ kernels: activations quantised to Q8_1,
/// int8 dot products (ggml/src/ggml-cuda/mmq.cuh, mmvq.cu; int8 tensor-core MMA from Turing).
inline constexpr std::string_view ggml_compute = "; computed in int8 (ggml-cuda mmq.cuh, mmvq.cu)";

/// The run's own datatype: no quantisation.
inline constexpr weight_format_spec native{
    weight_format::native, {}, {}, false, {}, dtype::fp16, false, "the run's datatype"};
/// Weight-only int8 with per-channel scales.
inline constexpr weight_format_spec int8{weight_format::int8_weights,
                                         {8},
                                         {8},
                                         false,
                                         {},
                                         dtype::fp16,
                                         true,
                                         "weight-only int8, per-channel FP16 scales (negligible "
                                         "per weight): TensorRT-LLM weight-only quantization"};
/// Weight-only int4, one FP16 scale per group of 128.
inline constexpr weight_format_spec int4{weight_format::int4_weights,
                                         {4, 128, 16},
                                         {4, 128, 16},
                                         false,
                                         {},
                                         dtype::fp16,
                                         true,
                                         "weight-only int4, one FP16 scale per group of 128, "
                                         "symmetric (no zero point)"};
/// GGUF Q2_K (llama.cpp's mix of Q2_K with Q3_K and Q4_K).
inline constexpr weight_format_spec q2_k{weight_format::q2_k,
                                         gguf::q2_k,
                                         gguf::q6_k,
                                         true,
                                         gguf::q2_k_mix,
                                         dtype::int8,
                                         true,
                                         "ggml-common.h block_q2_K, block_q3_K, block_q4_K; the "
                                         "mix of llama-quant.cpp llama_tensor_get_type"};
/// GGUF Q3_K_M (llama.cpp's mix of Q3_K with Q4_K and Q5_K).
inline constexpr weight_format_spec q3_k_m{weight_format::q3_k_m,
                                           gguf::q3_k,
                                           gguf::q6_k,
                                           true,
                                           gguf::q3_k_m_mix,
                                           dtype::int8,
                                           true,
                                           "ggml-common.h block_q3_K, block_q4_K, block_q5_K; the "
                                           "mix of llama-quant.cpp llama_tensor_get_type"};
/// GGUF IQ4_XS (made with an importance matrix, as published files are).
inline constexpr weight_format_spec iq4_xs{weight_format::iq4_xs,
                                           gguf::iq4_xs,
                                           gguf::q6_k,
                                           true,
                                           gguf::iq4_xs_mix,
                                           dtype::int8,
                                           true,
                                           "ggml-common.h block_iq4_xs, block_q5_K; the mix of "
                                           "llama-quant.cpp llama_tensor_get_type"};
/// GGUF Q4_0.
inline constexpr weight_format_spec q4_0{weight_format::q4_0,
                                         gguf::q4_0,
                                         gguf::q6_k,
                                         true,
                                         {},
                                         dtype::int8,
                                         true,
                                         "ggml-common.h block_q4_0; LM head Q6_K "
                                         "(llama-quant.cpp)"};
/// GGUF Q4_K_M (llama.cpp's mix of Q4_K and Q6_K).
inline constexpr weight_format_spec q4_k_m{weight_format::q4_k_m,
                                           gguf::q4_k,
                                           gguf::q6_k,
                                           true,
                                           gguf::more_bits_q6_k,
                                           dtype::int8,
                                           true,
                                           "ggml-common.h block_q4_K, block_q6_K; the mix of "
                                           "llama-quant.cpp llama_tensor_get_type"};
/// GGUF Q5_K_M (llama.cpp's mix of Q5_K and Q6_K).
inline constexpr weight_format_spec q5_k_m{weight_format::q5_k_m,
                                           gguf::q5_k,
                                           gguf::q6_k,
                                           true,
                                           gguf::more_bits_q6_k,
                                           dtype::int8,
                                           true,
                                           "ggml-common.h block_q5_K, block_q6_K; the mix of "
                                           "llama-quant.cpp llama_tensor_get_type"};
/// GGUF Q6_K.
inline constexpr weight_format_spec q6_k{
    weight_format::q6_k,       gguf::q6_k, gguf::q6_k, true, {}, dtype::int8, true,
    "ggml-common.h block_q6_K"};
/// GGUF Q8_0.
inline constexpr weight_format_spec q8_0{weight_format::q8_0,
                                         gguf::q8_0,
                                         gguf::q8_0,
                                         true,
                                         {},
                                         dtype::int8,
                                         true,
                                         "ggml-common.h block_q8_0; LM head stays Q8_0 "
                                         "(llama-quant.cpp)"};
/// AWQ (Lin et al. 2023, arXiv 2306.00978) as AutoAWQ stores it: 4-bit weights, an FP16 scale
/// and a 4-bit zero point (qzeros) per group of 128; dequantised to FP16 in the GEMM.
inline constexpr weight_format_spec awq{
    weight_format::awq,
    {4, 128, 16 + 4},
    {},
    false,
    {},
    dtype::fp16,
    true,
    "AWQ, arXiv 2306.00978: group 128, FP16 scale + 4-bit zero (AutoAWQ qzeros)"};
/// GPTQ (Frantar et al. 2022, arXiv 2210.17323) as AutoGPTQ stores it: the same group layout.
inline constexpr weight_format_spec gptq{
    weight_format::gptq,
    {4, 128, 16 + 4},
    {},
    false,
    {},
    dtype::fp16,
    true,
    "GPTQ, arXiv 2210.17323: group 128, FP16 scale + 4-bit zero (AutoGPTQ qzeros)"};
/// MLC LLM's q4f16_1 (mlc_llm/quantization/__init__.py, 2023): symmetric int4 with one FP16
/// scale per group of 32, for every linear layer and the LM head (`final_fc_weight` "same as
/// linear_weight"); its embedding table too, which the file's size here counts in 16 bits.
/// Dequantised in the inner loop of TVM's generated kernels.
inline constexpr weight_format_spec q4f16_1{
    weight_format::q4f16_1,
    {4, 32, 16},
    {4, 32, 16},
    false,
    {},
    dtype::fp16,
    true,
    "MLC LLM q4f16_1 (mlc_llm/quantization, 2023): GroupQuantizationSpec int4, sym, group 32, "
    "FP16 scale; the LM head the same"};
/// bitsandbytes NF4 with double quantisation (Dettmers et al. 2023, arXiv 2305.14314, 3):
/// an 8-bit absmax per 64 weights, an FP32 constant per 256 absmaxes.
inline constexpr weight_format_spec nf4{
    weight_format::nf4,
    {4, 64, 8, 64 * 256, 32},
    {},
    false,
    {},
    dtype::bf16,
    true,
    "QLoRA, arXiv 2305.14314 section 3: block 64, 8-bit absmax, FP32 per 256 blocks"};
/// OCP Microscaling Formats (MX) v1.0 (2023): 32 FP4 E2M1 elements share an E8M0 scale.
inline constexpr weight_format_spec mxfp4{weight_format::mxfp4,
                                          {4, 32, 8},
                                          {},
                                          false,
                                          {},
                                          dtype::fp4_e2m1,
                                          false,
                                          "OCP MX v1.0 (2023): block 32, E8M0 scale"};
/// NVFP4 (NVIDIA, "Introducing NVFP4", developer.nvidia.com blog, 2025-06): 16 FP4 E2M1
/// elements share an FP8 E4M3 scale, plus one FP32 scale per tensor (negligible).
inline constexpr weight_format_spec nvfp4{
    weight_format::nvfp4,
    {4, 16, 8},
    {},
    false,
    {},
    dtype::fp4_e2m1,
    false,
    "NVIDIA NVFP4 blog (2025-06): block 16, E4M3 scale, FP32 per tensor"};
/// FP8 E4M3 weights with per-tensor or per-channel scales (negligible per weight), run as FP8
/// products (OCP OFP8 rev. 1.0; TensorRT-LLM and vLLM FP8 checkpoints).
inline constexpr weight_format_spec fp8{
    weight_format::fp8,
    {8},
    {},
    false,
    {},
    dtype::fp8_e4m3,
    false,
    "OCP OFP8 rev. 1.0 E4M3; per-tensor scales (TensorRT-LLM, vLLM FP8 checkpoints)"};

/// ExLlamaV2's EXL2 (github.com/turboderp/exllamav2, doc/convert.md): the converter measures each
/// layer's error at several bit widths and mixes groups of 2 to 8 bits with their scales to a
/// target average (`-b`, any value; published files name it, e.g. "4.0bpw"); the LM head takes
/// `-hb 6` by default, "about 6.3 bits". The layout records the average (element bits plus a
/// fraction as block bits), which is all a size or a read time needs; the kernels dequantise
/// to FP16 in the product, as GPTQ's do.
inline constexpr weight_layout exl2_head{6, 10, 3};  // 6.3 bits
/// EXL2 at 2.5 bits per weight.
inline constexpr weight_format_spec exl2_2_5{
    weight_format::exl2_2_5,
    {2, 2, 1},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 2.5 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 3.0 bits per weight.
inline constexpr weight_format_spec exl2_3_0{
    weight_format::exl2_3_0,
    {3},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 3.0 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 3.5 bits per weight.
inline constexpr weight_format_spec exl2_3_5{
    weight_format::exl2_3_5,
    {3, 2, 1},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 3.5 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 4.0 bits per weight.
inline constexpr weight_format_spec exl2_4_0{
    weight_format::exl2_4_0,
    {4},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 4.0 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 4.5 bits per weight.
inline constexpr weight_format_spec exl2_4_5{
    weight_format::exl2_4_5,
    {4, 2, 1},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 4.5 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 5.0 bits per weight.
inline constexpr weight_format_spec exl2_5_0{
    weight_format::exl2_5_0,
    {5},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 5.0 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 6.0 bits per weight.
inline constexpr weight_format_spec exl2_6_0{
    weight_format::exl2_6_0,
    {6},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 6.0 average bits per weight, LM head -hb 6 (about 6.3)"};
/// EXL2 at 8.0 bits per weight.
inline constexpr weight_format_spec exl2_8_0{
    weight_format::exl2_8_0,
    {8},
    exl2_head,
    false,
    {},
    dtype::fp16,
    true,
    "ExLlamaV2 doc/convert.md: -b 8.0 average bits per weight, LM head -hb 6 (about 6.3)"};

/// MLX's affine quantisation (ml-explore/mlx, `mlx.core.quantize`, mode "affine"): every group of
/// 64 weights along a row (the default; 32 and 128 also exist) shares a scale and a bias in the
/// weights' own 16-bit type, so a weight costs its bits and 32/64 of a bit. `mlx_lm.convert`
/// quantises every linear layer the group divides, the LM head included, and its Metal kernels
/// (qmv, qmm) dequantise to 16 bits in the product.
constexpr weight_format_spec mlx_affine(weight_format id, int bits) {
  return {id,
          {bits, 64, 2 * 16},
          {bits, 64, 2 * 16},
          false,
          {},
          dtype::fp16,
          true,
          "MLX mlx.core.quantize, affine mode: group 64, 16-bit scale and bias; LM head quantised "
          "too (mlx_lm.convert)"};
}
/// MLX 2-bit.
inline constexpr weight_format_spec mlx_2bit = mlx_affine(weight_format::mlx_2bit, 2);
/// MLX 3-bit.
inline constexpr weight_format_spec mlx_3bit = mlx_affine(weight_format::mlx_3bit, 3);
/// MLX 4-bit, `mlx_lm.convert -q`'s default.
inline constexpr weight_format_spec mlx_4bit = mlx_affine(weight_format::mlx_4bit, 4);
/// MLX 5-bit.
inline constexpr weight_format_spec mlx_5bit = mlx_affine(weight_format::mlx_5bit, 5);
/// MLX 6-bit.
inline constexpr weight_format_spec mlx_6bit = mlx_affine(weight_format::mlx_6bit, 6);
/// MLX 8-bit.
inline constexpr weight_format_spec mlx_8bit = mlx_affine(weight_format::mlx_8bit, 8);

/// Every format, in `weight_format` order.
inline constexpr std::array<const weight_format_spec*, enum_count<weight_format>> all{
    &native,   &int8,     &int4,     &q2_k,     &q3_k_m,   &iq4_xs,   &q4_0,     &q4_k_m,
    &q5_k_m,   &q6_k,     &q8_0,     &awq,      &gptq,     &q4f16_1,  &nf4,      &mxfp4,
    &nvfp4,    &fp8,      &exl2_2_5, &exl2_3_0, &exl2_3_5, &exl2_4_0, &exl2_4_5, &exl2_5_0,
    &exl2_6_0, &exl2_8_0, &mlx_2bit, &mlx_3bit, &mlx_4bit, &mlx_5bit, &mlx_6bit, &mlx_8bit};

/// The record of format @p f.
constexpr const weight_format_spec& of(weight_format f) { return *all[enum_index(f)]; }
}  // namespace weight_formats

/// Whether llama.cpp's K-quant mixes give layer @p layer of @p layers more bits: the first and
/// last eighth, and every third layer between (`use_more_bits`, src/llama-quant.cpp).
constexpr bool gguf_more_bits(long long layer, long long layers) {
  return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
}

/// Layers of @p layers that `gguf_more_bits` selects.
constexpr long long gguf_more_bits_layers(long long layers) {
  long long n = 0;
  for (long long i = 0; i < layers; ++i) n += gguf_more_bits(i, layers) ? 1 : 0;
  return n;
}

/// Bytes per linear-layer weight of @p f (a mix: its base type) when the run computes in @p t.
constexpr double weight_bytes(weight_format f, dtype t) {
  const weight_format_spec& s = weight_formats::of(f);
  return s.is_native() ? traits(t).storage().value() : s.layout.bytes_per_weight();
}

}  // namespace dlperf
