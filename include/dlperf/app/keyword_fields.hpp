/// @file
/// The keywords of a request whose values its options keep as text, each naming the member it
/// sets: one table per request feeds both its keyword reader and its list of keywords
/// (docs/layers.md, "The application layer").
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace dlperf::app {

/// A keyword whose value the options keep as text, and the member of Options it sets.
template <class Options>
struct text_keyword {
  std::string_view keyword;      ///< "m", "flops", "gpu"
  std::string Options::*option;  ///< the member of Options it sets
};

/// The keywords of @p table, then @p more (those a request reads apart: enumerators, switches).
template <class Options, std::size_t N, std::size_t M>
constexpr std::array<std::string_view, N + M> keyword_names(
    const std::array<text_keyword<Options>, N>& table,
    const std::array<std::string_view, M>& more) {
  std::array<std::string_view, N + M> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = table[i].keyword;
  for (std::size_t i = 0; i < M; ++i) names[N + i] = more[i];
  return names;
}

/// Sets the member of @p o that @p keyword names in @p table to @p value and returns true;
/// false when @p table has no such keyword.
template <class Options, std::size_t N>
bool set_text_keyword(Options& o, const std::array<text_keyword<Options>, N>& table,
                      std::string_view keyword, const std::string& value) {
  const auto* field = std::find_if(table.begin(), table.end(), [&](const text_keyword<Options>& f) {
    return f.keyword == keyword;
  });
  if (field == table.end()) return false;
  o.*(field->option) = value;
  return true;
}

}  // namespace dlperf::app
