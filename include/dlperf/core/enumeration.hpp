/// @file
/// One list of enumerators per enum, from which its names, parsing, help text, iteration and
/// array sizes all come (as LLVM's `.def` files and nlohmann/json's field lists do): adding an
/// enumerator to the list updates every one of them, so none can drift or be overrun.
///
/// An enum joins by specialising `enum_list`:
///
///     template <> struct enum_list<tier> {
///       static constexpr std::string_view kind = "memory tier";   // used in error messages
///       static constexpr std::array values{enumerator{tier::registers, "registers"}, ...};
///     };
///
/// and then has `name(e)`, `label(e)`, `parse<E>(text)`, `enum_values<E>`, `enum_count<E>`,
/// `enum_index(e)`, `enum_names<E>(sep)` and `enum_array<E, T>` (an array indexed by the enum).
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <dlperf/core/error.hpp>

namespace dlperf {

/// One enumerator with its stable name (what the tool, device files and JSON use) and an
/// optional one-line description for help text.
template <class E>
struct enumerator {
  E value;                         ///< the enumerator
  std::string_view name;           ///< stable lower-case name
  std::string_view description{};  ///< what it means, for help text (may be empty)
  /// The word prose uses for it where that is not its stable name ("HBM" for `hbm`; empty:
  /// the name).
  std::string_view label{};
};
/// Deduces the enum from the value (clang 14 has no aggregate deduction).
template <class E>
enumerator(E, std::string_view) -> enumerator<E>;
/// Deduces the enum from the value, with a description.
template <class E>
enumerator(E, std::string_view, std::string_view) -> enumerator<E>;
/// Deduces the enum from the value, with a description and a label.
template <class E>
enumerator(E, std::string_view, std::string_view, std::string_view) -> enumerator<E>;

/// The list of an enum's enumerators; specialised next to each enum.
template <class E>
struct enum_list;

/// Satisfied by enums that have an `enum_list`.
template <class E>
concept listed_enum = std::is_enum_v<E> && requires {
  { enum_list<E>::kind } -> std::convertible_to<std::string_view>;
  enum_list<E>::values.size();
};

/// Number of enumerators of @p E.
template <listed_enum E>
inline constexpr std::size_t enum_count = enum_list<E>::values.size();

/// Every enumerator of @p E, in list order.
template <listed_enum E>
inline constexpr std::array<E, enum_count<E>> enum_values = [] {
  std::array<E, enum_count<E>> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = enum_list<E>::values[i].value;
  return out;
}();

/// Whether @p E's list holds its enumerators in the order of their values 0, 1, 2, ... (the
/// usual enum without initialisers): then an enumerator's value is its position.
template <listed_enum E>
inline constexpr bool enum_is_dense = [] {
  for (std::size_t i = 0; i < enum_count<E>; ++i)
    if (static_cast<std::underlying_type_t<E>>(enum_list<E>::values[i].value) !=
        static_cast<std::underlying_type_t<E>>(i))
      return false;
  return true;
}();

/// Position of @p e in its list: the index of arrays sized by `enum_count<E>`. Throws
/// invalid_argument for a value outside the list (a cast from a bad integer). Constant time for
/// a dense list (enum_is_dense), the common case: name(), traits() and every enum_array read it
/// in the estimators' inner loops.
template <listed_enum E>
constexpr std::size_t enum_index(E e) {
  if constexpr (enum_is_dense<E>) {
    // A negative value wraps to above the count, and is refused as one past the end is.
    const auto i = static_cast<std::size_t>(static_cast<std::underlying_type_t<E>>(e));
    if (i < enum_count<E>) return i;
  } else {
    for (std::size_t i = 0; i < enum_count<E>; ++i)
      if (enum_list<E>::values[i].value == e) return i;
  }
  detail::throw_invalid_argument("dlperf: invalid " + std::string(enum_list<E>::kind) +
                                 " enumerator");
}

/// Stable name of @p e.
template <listed_enum E>
constexpr std::string_view name(E e) {
  return enum_list<E>::values[enum_index(e)].name;
}

/// The word prose uses for @p e: its label, else its stable name.
template <listed_enum E>
constexpr std::string_view label(E e) {
  const auto& v = enum_list<E>::values[enum_index(e)];
  return v.label.empty() ? v.name : v.label;
}

/// Description of @p e (empty where the list gives none).
template <listed_enum E>
constexpr std::string_view description(E e) {
  return enum_list<E>::values[enum_index(e)].description;
}

/// The names of every enumerator of @p E joined by @p separator ("fp32, tf32, fp16, ...").
template <listed_enum E>
std::string enum_names(std::string_view separator = ", ") {
  std::string out;
  for (const auto& v : enum_list<E>::values) {
    if (!out.empty()) out += separator;
    out += v.name;
  }
  return out;
}

/// The enumerator named @p text. Throws not_found naming the input and listing the valid names:
/// "unknown memory tier 'l3' (valid: registers, shared, l2, llc, global)".
template <listed_enum E>
constexpr E parse(std::string_view text) {
  for (const auto& v : enum_list<E>::values)
    if (v.name == text) return v.value;
  detail::throw_unknown(enum_list<E>::kind, text, enum_list<E>::values,
                        [](const auto& v) { return v.name; });
}

/// A fixed-size array with one element per enumerator of @p E, indexed by the enum.
template <listed_enum E, class T>
class enum_array {
 public:
  /// Element of @p e.
  constexpr T& operator[](E e) { return items_[enum_index(e)]; }
  /// Element of @p e.
  constexpr const T& operator[](E e) const { return items_[enum_index(e)]; }
  /// Elements in list order.
  [[nodiscard]] constexpr auto begin() { return items_.begin(); }
  /// Elements in list order.
  [[nodiscard]] constexpr auto begin() const { return items_.begin(); }
  /// End of the elements.
  [[nodiscard]] constexpr auto end() { return items_.end(); }
  /// End of the elements.
  [[nodiscard]] constexpr auto end() const { return items_.end(); }
  /// One element per enumerator.
  [[nodiscard]] static constexpr std::size_t size() { return enum_count<E>; }

  std::array<T, enum_count<E>> items_{};  ///< the elements (public: keeps the type a literal)
};

}  // namespace dlperf
