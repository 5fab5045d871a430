/// @file
/// Numbers as people type them ("4096", "8Ki", "1.5G") and the plausible range of each one a
/// request reads: one table serves the tool's flags, Python's keywords and the page's fields
/// (docs/buying.md, "Plausible inputs"); and the switches and names a keyword request reads.
#pragma once

#include <cstddef>
#include <dlperf/app/request_error.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// Parses a non-negative, finite amount such as "1e12", "4096", "2G" or "1.5Gi": an optional
/// decimal (k, M, G, T, P) or binary (Ki, Mi, Gi, Ti) multiplier may follow the number. Throws
/// request_error naming @p option for anything else (negative, NaN, inf, trailing text).
double parse_amount(std::string_view option, std::string_view text);

/// Parses a positive whole count such as "4096" or "8Ki" (same multipliers as parse_amount).
/// Throws request_error naming @p option for zero, fractions and anything parse_amount rejects.
long long parse_count(std::string_view option, std::string_view text);

/// Parses a fraction in [0, 1] such as "0.15". Throws request_error naming @p option for
/// anything else.
double parse_fraction(std::string_view option, std::string_view text);

/// The plausible range of a number a request reads (docs/buying.md, "Plausible inputs"):
/// outside it the figure is a typo, and computing with it would print nonsense ($5e301, a
/// million GPUs on a desktop PSU). One table holds every flag's range.
struct plausible_range {
  std::string_view flag;  ///< the flag, "--gpu-watts"
  double low;             ///< least value admitted (excluded when low_open)
  double high;            ///< greatest value admitted
  bool low_open;          ///< whether low itself is excluded
  std::string_view unit;  ///< the unit, for the message ("W", "USD", "")
  bool or_zero = false;   ///< 0 is admitted too (it means "none": no FLOP, no bytes)
};

/// Every range, in the order of docs/buying.md's table.
extern const std::span<const plausible_range> plausible_ranges;

/// The range of @p flag in plausible_ranges. Throws std::logic_error for a flag it lacks (a bug).
const plausible_range& plausible_range_of(std::string_view flag);

/// Parses @p text as parse_amount does and checks it against @p flag's plausible range. Throws
/// request_error naming the flag and the range ("--days '1e300' must be in (0, 36500] days").
double parse_plausible(std::string_view flag, std::string_view text);

/// The same for a whole number (the range, then parse_count's rules; 0 where the range admits
/// it).
long long parse_plausible_count(std::string_view flag, std::string_view text);

/// A switch's value as a keyword gives it: "true"/"false" or "1"/"0", as Python's True and False
/// arrive. Throws request_error naming @p flag for anything else.
bool parse_switch(std::string_view flag, std::string_view value);

/// Throws request_error when the keyword of @p fields[@p i] is one an earlier field gave
/// ("keyword 'batch' given twice"): a request takes each keyword once.
void refuse_repeated_keyword(const std::vector<std::pair<std::string, std::string>>& fields,
                             std::size_t i);

/// The enumerator of E named @p value (its stable name). Throws request_error naming @p flag
/// and the valid names.
template <listed_enum E>
E parse_named(std::string_view flag, std::string_view value) {
  try {
    return parse<E>(value);
  } catch (const not_found& e) {
    throw request_error(std::string(flag) + ": " + e.what());
  }
}

}  // namespace dlperf::app
