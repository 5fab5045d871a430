/// @file
/// One figure of a software stack (stack/stack.hpp): its value, its unit, and the measurement or
/// evidence rows it comes from.
#pragma once

#include <string_view>

namespace dlperf {

/// One figure of a stack: its value, unit, where it comes from and when that was published.
struct stack_figure {
  double value = 1.0;       ///< the figure, in `unit`
  std::string_view unit;    ///< "fraction of the ceiling", "s per kernel", ...
  std::string_view source;  ///< a published measurement, or "fitted on the evidence: rows"
  std::string_view date{};  ///< when the source was published (YYYY-MM)
};

}  // namespace dlperf
