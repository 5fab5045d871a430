/// @file
/// How far a stack's estimates are from published measurements: per software stack and mode,
/// the median and worst |error| of the evidence rows (tests/data/evidence/rows.csv) predicted
/// with every figure fitted on the evidence refitted without the row's own source (leave one
/// source out; docs/evidence.md, "Cross-validation of the fitted figures"). The tool prints the
/// band beside an estimate, so a figure is never shown without what it is worth.
///
/// The table is data, not a fit: the test "every stack's error band is its held-out error on the
/// evidence" (tests/unit/evidence_stack_test.cpp) recomputes every entry from the evidence and
/// fails when one drifts, and a group of fewer than `least_rows` rows has no band.
#pragma once

#include <array>
#include <optional>

#include <dlperf/model/run.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf {

/// The held-out error of one stack and mode over its evidence rows.
struct error_band {
  /// Rows below which a median says little: no band.
  static constexpr int least_rows = 5;

  stack_id stack = stack_id::ceiling;  ///< the stack the rows ran under
  run_mode mode = run_mode::train;     ///< training steps or inference
  int rows = 0;                        ///< evidence rows, outside calibration
  double median = 0;                   ///< median |error|, held out by source
  double worst = 0;                    ///< largest |error|, held out by source
};

/// The bands of every stack and mode with at least `error_band::least_rows` evidence rows.
inline constexpr std::array error_bands{
    error_band{stack_id::llama_cpp, run_mode::infer, 47, 0.148, 0.287},
    error_band{stack_id::lmdeploy, run_mode::infer, 5, 0.244, 0.576},
    error_band{stack_id::pytorch_eager, run_mode::infer, 28, 0.181, 0.551},
    error_band{stack_id::pytorch_eager, run_mode::train, 64, 0.104, 0.504},
    error_band{stack_id::tensorflow, run_mode::infer, 5, 0.201, 0.656},
};

/// The band of @p stack in @p mode, or none where the evidence holds too few rows of it.
constexpr std::optional<error_band> error_band_of(stack_id stack, run_mode mode) {
  for (const error_band& b : error_bands)
    if (b.stack == stack && b.mode == mode) return b;
  return std::nullopt;
}

}  // namespace dlperf
