/// @file
/// The operand types of one kernel on one GPU, as `dlperf gemm` and `dlperf roofline` take them
/// (`--dtype`, `--accumulator`, `--sparse`) and Python's keywords give them (`dtype`,
/// `accumulator`, `sparse`).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <dlperf/app/amounts.hpp>
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
std::span<const std::string_view> operand_keywords();

/// Applies @p keyword = @p value to @p o when it is one of operand_keywords() and returns true;
/// returns false for any other keyword. Throws request_error naming the flag for an unknown
/// datatype or accumulation, or a switch that is not true or false.
bool apply_operand_keyword(operand_types& o, std::string_view keyword, const std::string& value);

/// A keyword of a one-kernel request (gemm, roofline) whose value its options keep as text, and
/// the member it sets.
template <class Options>
struct text_keyword {
  std::string_view keyword;      ///< "m", "flops"
  std::string Options::*option;  ///< the member of Options it sets
};

/// Every keyword of a one-kernel request: those of @p text, then operand_keywords().
template <class Options, std::size_t N>
constexpr std::array<std::string_view, N + 3> kernel_keywords(
    const std::array<text_keyword<Options>, N>& text) {
  std::array<std::string_view, N + 3> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = text[i].keyword;
  names[N] = "dtype";
  names[N + 1] = "accumulator";
  names[N + 2] = "sparse";
  return names;
}

/// The options of a one-kernel request that keyword and value pairs @p fields give: a keyword of
/// @p text sets its member, an operand keyword the member `operands`. Throws request_error
/// naming @p command for an unknown or repeated keyword, and as apply_operand_keyword does.
template <class Options, std::size_t N>
Options kernel_options_from_keywords(const std::vector<std::pair<std::string, std::string>>& fields,
                                     const std::array<text_keyword<Options>, N>& text,
                                     std::string_view command) {
  Options o;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    // Named, not bound: clang 14 cannot capture a structured binding in a lambda.
    const std::string& k = fields[i].first;
    const std::string& value = fields[i].second;
    refuse_repeated_keyword(fields, i);
    const auto* field = std::find_if(
        text.begin(), text.end(), [&](const text_keyword<Options>& f) { return f.keyword == k; });
    if (field != text.end())
      o.*(field->option) = value;
    else if (!apply_operand_keyword(o.operands, k, value))
      throw request_error(std::string(command) + ": unknown keyword '" + k + "'");
  }
  return o;
}

}  // namespace dlperf::app
