/// @file
/// Numeric datatypes of deep learning as types (`dlperf::fp16`, `dlperf::fp8_e4m3`, ...) with
/// their format traits, computed from exponent and mantissa widths rather than typed in.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// Run-time identity of a datatype.
enum class dtype : std::uint8_t {
  fp32,
  tf32,
  fp16,
  bf16,
  fp8_e4m3,
  fp8_e5m2,
  fp8_e4m3_fnuz,
  fp8_e5m2_fnuz,
  int8,
  int4,
  fp4_e2m1
};

/// The datatypes and their stable names: the one list behind name(), parse<dtype>(), help text
/// and every array indexed by datatype.
template <>
struct enum_list<dtype> {
  static constexpr std::string_view kind = "dtype";  ///< what the enum names
  /// Every datatype, in the order of the enumeration.
  static constexpr std::array values{
      enumerator{dtype::fp32, "fp32", "IEEE binary32"},
      enumerator{dtype::tf32, "tf32", "TensorFloat-32 (AMD CDNA 3: XF32)"},
      enumerator{dtype::fp16, "fp16", "IEEE binary16"},
      enumerator{dtype::bf16, "bf16", "bfloat16"},
      enumerator{dtype::fp8_e4m3, "fp8_e4m3", "OCP FP8 E4M3"},
      enumerator{dtype::fp8_e5m2, "fp8_e5m2", "OCP FP8 E5M2"},
      enumerator{dtype::fp8_e4m3_fnuz, "fp8_e4m3_fnuz", "FP8 E4M3 FNUZ (AMD CDNA 3)"},
      enumerator{dtype::fp8_e5m2_fnuz, "fp8_e5m2_fnuz", "FP8 E5M2 FNUZ (AMD CDNA 3)"},
      enumerator{dtype::int8, "int8", "8-bit integer"},
      enumerator{dtype::int4, "int4", "4-bit integer"},
      enumerator{dtype::fp4_e2m1, "fp4_e2m1", "OCP FP4 E2M1"}};
};

/// Type in which products are summed: part of what a tensor-core rate depends on.
enum class accumulator : std::uint8_t { fp16, fp32, int32 };

/// The accumulators and their stable names.
template <>
struct enum_list<accumulator> {
  static constexpr std::string_view kind = "accumulator";  ///< what the enum names
  /// Every accumulator.
  static constexpr std::array values{enumerator{accumulator::fp16, "fp16"},
                                     enumerator{accumulator::fp32, "fp32"},
                                     enumerator{accumulator::int32, "int32"}};
};

/// Every datatype, in the order of the enumeration.
inline constexpr auto all_dtypes = enum_values<dtype>;

/// How a format spends its largest exponent code.
enum class encoding : std::uint8_t {
  ieee,        ///< IEEE 754 style: the top exponent code is reserved for infinity and NaN
  finite_nan,  ///< OCP FP8 E4M3: no infinity, only S.1111.111 is NaN, the top exponent is usable
  finite,      ///< OCP FP4 E2M1: no infinity and no NaN, every code is a number
  fnuz,        ///< FNUZ FP8 (AMD CDNA 3, Graphcore): no infinity, no negative zero, its code
               ///< (0x80) is the only NaN, every exponent usable, and the bias is one larger
  integer      ///< two's-complement integer
};

/// Format facts of one datatype. Range figures are computed from the bit layout.
struct datatype_traits {
  dtype id;               ///< identity
  std::string_view name;  ///< stable lower-case name used by the tool and files
  int storage_bits;       ///< bits one element occupies in memory
  int exponent_bits;      ///< exponent field width (0 for integers)
  int mantissa_bits;      ///< stored fraction bits (value bits for integers, sign excluded)
  encoding format;        ///< how special values are encoded

  /// Whether the type is a floating-point format.
  [[nodiscard]] constexpr bool is_floating() const { return format != encoding::integer; }
  /// Bytes one element occupies (0.5 for the 4-bit types).
  [[nodiscard]] constexpr byte_count storage() const { return bytes(storage_bits / 8.0); }
  /// Exponent bias, 2^(e-1) - 1 (FNUZ: 2^(e-1)).
  [[nodiscard]] constexpr int bias() const {
    return (1 << (exponent_bits - 1)) - (format == encoding::fnuz ? 0 : 1);
  }

  /// Largest finite value.
  [[nodiscard]] constexpr double max_finite() const {
    if (format == encoding::integer) return pow2(mantissa_bits) - 1.0;
    const double full_fraction = 2.0 - pow2(-mantissa_bits);  // 1.111...1 in binary
    switch (format) {
      case encoding::ieee:  // top exponent code reserved: largest exponent is the bias
        return full_fraction * pow2(bias());
      case encoding::finite_nan:  // top exponent usable, but its all-ones fraction is NaN
        return (full_fraction - pow2(-mantissa_bits)) * pow2(top_exponent());
      default:  // encoding::finite and fnuz: every exponent and fraction code is a number
        return full_fraction * pow2(top_exponent());
    }
  }
  /// Smallest positive normal value, 2^(1 - bias) (1 for integers).
  [[nodiscard]] constexpr double min_normal() const {
    return is_floating() ? pow2(1 - bias()) : 1.0;
  }
  /// Smallest positive subnormal value, 2^(1 - bias - m) (1 for integers).
  [[nodiscard]] constexpr double min_subnormal() const {
    return is_floating() ? pow2(1 - bias() - mantissa_bits) : 1.0;
  }
  /// Machine epsilon, the gap between 1 and the next value, 2^-m (1 for integers).
  [[nodiscard]] constexpr double epsilon() const {
    return is_floating() ? pow2(-mantissa_bits) : 1.0;
  }
  /// Whether the format can represent infinity.
  [[nodiscard]] constexpr bool has_infinity() const { return format == encoding::ieee; }

  /// 2^e for integral e, exactly, in a constant expression.
  static constexpr double pow2(int e) {
    double r = 1.0;
    for (; e > 0; --e) r *= 2.0;
    for (; e < 0; ++e) r /= 2.0;
    return r;
  }

 private:
  [[nodiscard]] constexpr int top_exponent() const { return (1 << exponent_bits) - 1 - bias(); }
};

/// Traits of a datatype. Layouts: IEEE 754-2008 (binary32, binary16), Google Brain bfloat16,
/// NVIDIA A100 whitepaper (2020) for TF32 (8-bit exponent, 10-bit mantissa, stored in 32 bits),
/// OCP 8-bit Floating Point Specification (OFP8) rev. 1.0 (2023) for E4M3/E5M2, OCP Microscaling
/// Formats (MX) v1.0 (2023) for FP4 E2M1.
constexpr datatype_traits traits(dtype t) {
  switch (t) {
    case dtype::fp32:
      return {t, name(t), 32, 8, 23, encoding::ieee};
    case dtype::tf32:
      return {t, name(t), 32, 8, 10, encoding::ieee};
    case dtype::fp16:
      return {t, name(t), 16, 5, 10, encoding::ieee};
    case dtype::bf16:
      return {t, name(t), 16, 8, 7, encoding::ieee};
    case dtype::fp8_e4m3:
      return {t, name(t), 8, 4, 3, encoding::finite_nan};
    case dtype::fp8_e5m2:
      return {t, name(t), 8, 5, 2, encoding::ieee};
    case dtype::fp8_e4m3_fnuz:
      return {t, name(t), 8, 4, 3, encoding::fnuz};
    case dtype::fp8_e5m2_fnuz:
      return {t, name(t), 8, 5, 2, encoding::fnuz};
    case dtype::int8:
      return {t, name(t), 8, 0, 7, encoding::integer};
    case dtype::int4:
      return {t, name(t), 4, 0, 3, encoding::integer};
    case dtype::fp4_e2m1:
      return {t, name(t), 4, 2, 1, encoding::finite};
  }
  detail::throw_invalid_argument("dlperf: invalid dtype enumerator");
}

/// Datatype from its name; also accepts "fp4" for fp4_e2m1. Throws not_found naming the input.
inline dtype parse_dtype(std::string_view text) {
  if (text == "fp4") return dtype::fp4_e2m1;
  return parse<dtype>(text);
}

/// Whether gradients of magnitude @p magnitude need FP16-style loss scaling in @p t: true when the
/// value falls outside the normal range [min_normal, max_finite], where it would underflow into
/// subnormals (losing precision, then flushing to zero) or overflow to inf/NaN. Zero needs no
/// scaling. Throws invalid_argument for a negative or non-finite magnitude and unsupported for
/// integer types, which are not trained with loss scaling.
constexpr bool needs_loss_scaling(dtype t, double magnitude) {
  const datatype_traits tr = traits(t);
  if (!(magnitude >= 0.0) || magnitude > std::numeric_limits<double>::max())
    detail::throw_invalid_argument("gradient magnitude must be finite and >= 0");
  if (!tr.is_floating())
    detail::throw_unsupported("loss scaling applies to floating-point types, not " +
                              std::string(tr.name));
  if (magnitude == 0.0) return false;
  return magnitude < tr.min_normal() || magnitude > tr.max_finite();
}

/// A datatype as a type: an empty tag whose static members carry the traits. It converts to the
/// run-time `dtype`, so a tag can be passed wherever a `dtype` is expected.
template <dtype D>
struct datatype {
  static constexpr dtype id = D;                                ///< identity
  static constexpr datatype_traits traits = dlperf::traits(D);  ///< format facts
  /// Implicit on purpose: a tag is usable wherever a run-time `dtype` is.
  constexpr operator dtype() const { return D; }  // NOLINT(google-explicit-constructor)
};

/// Satisfied by the datatype tags (`fp16_tag`, `int8_tag`, ...).
template <class T>
concept datatype_tag = requires {
  T::id;
}
&&std::same_as<std::remove_cv_t<T>, datatype<T::id>>;

using fp32_tag = datatype<dtype::fp32>;                    ///< IEEE binary32
using tf32_tag = datatype<dtype::tf32>;                    ///< TensorFloat-32
using fp16_tag = datatype<dtype::fp16>;                    ///< IEEE binary16
using bf16_tag = datatype<dtype::bf16>;                    ///< bfloat16
using fp8_e4m3_tag = datatype<dtype::fp8_e4m3>;            ///< OCP FP8 E4M3
using fp8_e5m2_tag = datatype<dtype::fp8_e5m2>;            ///< OCP FP8 E5M2
using fp8_e4m3_fnuz_tag = datatype<dtype::fp8_e4m3_fnuz>;  ///< FP8 E4M3 FNUZ
using fp8_e5m2_fnuz_tag = datatype<dtype::fp8_e5m2_fnuz>;  ///< FP8 E5M2 FNUZ
using int8_tag = datatype<dtype::int8>;                    ///< 8-bit integer
using int4_tag = datatype<dtype::int4>;                    ///< 4-bit integer
using fp4_e2m1_tag = datatype<dtype::fp4_e2m1>;            ///< OCP FP4 E2M1

inline constexpr fp32_tag fp32{};                    ///< IEEE binary32 tag
inline constexpr tf32_tag tf32{};                    ///< TensorFloat-32 tag
inline constexpr fp16_tag fp16{};                    ///< IEEE binary16 tag
inline constexpr bf16_tag bf16{};                    ///< bfloat16 tag
inline constexpr fp8_e4m3_tag fp8_e4m3{};            ///< OCP FP8 E4M3 tag
inline constexpr fp8_e5m2_tag fp8_e5m2{};            ///< OCP FP8 E5M2 tag
inline constexpr fp8_e4m3_fnuz_tag fp8_e4m3_fnuz{};  ///< FP8 E4M3 FNUZ tag
inline constexpr fp8_e5m2_fnuz_tag fp8_e5m2_fnuz{};  ///< FP8 E5M2 FNUZ tag
inline constexpr int8_tag int8{};                    ///< 8-bit integer tag
inline constexpr int4_tag int4{};                    ///< 4-bit integer tag
inline constexpr fp4_e2m1_tag fp4_e2m1{};            ///< OCP FP4 E2M1 tag

/// Accumulator frameworks and cuBLAS use unless told otherwise: int32 for integer inputs, fp32
/// for every floating input (FP16 GEMMs in PyTorch accumulate in FP32).
constexpr accumulator default_accumulator(dtype t) {
  return traits(t).is_floating() ? accumulator::fp32 : accumulator::int32;
}

/// Whether multiplying 2:4 structured-sparse operands (Ampere and later) or dense ones.
enum class sparsity : std::uint8_t { dense, sparse_2_4 };

/// The sparsities and their stable names ("dense", "2:4").
template <>
struct enum_list<sparsity> {
  static constexpr std::string_view kind = "sparsity";  ///< what the enum names
  /// Every sparsity.
  static constexpr std::array values{enumerator{sparsity::dense, "dense"},
                                     enumerator{sparsity::sparse_2_4, "2:4"}};
};

}  // namespace dlperf
