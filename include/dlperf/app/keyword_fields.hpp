/// @file
/// The keywords of a request whose values its options keep as text, each naming the member it
/// sets: one table per request feeds both its keyword reader and its list of keywords
/// (docs/layers.md, "The application layer").
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// The options that keyword and value pairs @p fields give: a keyword of @p table sets its
/// member, and any other goes to @p other(o, keyword, value), which reads it (an enumerator, a
/// switch, a run field) or returns false for a keyword the request does not take. Throws
/// request_error for a repeated keyword and, naming @p command, for one neither takes.
template <class Options, std::size_t N, class Other>
Options options_from_keywords(const std::vector<std::pair<std::string, std::string>>& fields,
                              const std::array<text_keyword<Options>, N>& table,
                              std::string_view command, Other other) {
  Options o;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    refuse_repeated_keyword(fields, i);
    const auto& [k, value] = fields[i];
    if (!set_text_keyword(o, table, k, value) && !other(o, k, value))
      throw request_error(std::string(command) + ": unknown keyword '" + k + "'");
  }
  return o;
}

}  // namespace dlperf::app
