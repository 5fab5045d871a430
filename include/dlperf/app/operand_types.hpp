/// @file
/// The operand types of one kernel on one GPU, as `dlperf gemm` and `dlperf roofline` take them
/// (`--dtype`, `--accumulator`, `--sparse`) and Python's keywords give them (`dtype`,
/// `accumulator`, `sparse`).
#pragma once

#include <array>
#include <cstddef>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/core/datatype.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// A kernel's operand datatype, its accumulation and its sparsity.
struct operand_types {
  dtype type = dtype::fp16;        ///< the operands' datatype
  std::optional<accumulator> acc;  ///< the accumulation; empty: the datatype's usual one
  bool sparse = false;             ///< 2:4 structured-sparse operands

  /// The accumulation: as given, else default_accumulator(type).
  [[nodiscard]] accumulator accumulation() const { return acc.value_or(default_accumulator(type)); }
  /// 2:4 or dense.
  [[nodiscard]] sparsity density() const { return sparse ? sparsity::sparse_2_4 : sparsity::dense; }
};

/// The keywords of operand_types: dtype, accumulator, sparse.
inline constexpr std::array<std::string_view, 3> operand_keyword_names{"dtype", "accumulator",
                                                                       "sparse"};

/// operand_keyword_names, as a span.
std::span<const std::string_view> operand_keywords();

/// Applies @p keyword = @p value to @p o when it is one of operand_keywords() and returns true;
/// returns false for any other keyword. Throws request_error naming the flag for an unknown
/// datatype or accumulation, or a switch that is not true or false.
bool apply_operand_keyword(operand_types& o, std::string_view keyword, const std::string& value);

/// Every keyword of a one-kernel request: those of @p text, then operand_keywords().
template <class Options, std::size_t N>
constexpr std::array<std::string_view, N + 3> kernel_keywords(
    const std::array<text_keyword<Options>, N>& text) {
  return keyword_names(text, operand_keyword_names);
}

/// The options of a one-kernel request that keyword and value pairs @p fields give: a keyword of
/// @p text sets its member, an operand keyword the member `operands`. Throws request_error
/// naming @p command for an unknown or repeated keyword, and as apply_operand_keyword does.
template <class Options, std::size_t N>
Options kernel_options_from_keywords(const std::vector<std::pair<std::string, std::string>>& fields,
                                     const std::array<text_keyword<Options>, N>& text,
                                     std::string_view command) {
  return options_from_keywords(fields, text, command,
                               [](Options& o, std::string_view k, const std::string& value) {
                                 return apply_operand_keyword(o.operands, k, value);
                               });
}

}  // namespace dlperf::app
