/// @file
/// A stack's 16-bit batch-1 GEMV kernel as Little's law sees it (docs/stacks.md, "GEMV kernels
/// per SM clock"): a kernel that gives each output row its own warps keeps as many warps in
/// flight on an SM as the product has rows for it, up to what the SM holds of the kernel's
/// blocks, and each resident warp moves about the same bytes per SM clock (its loads in flight
/// over the memory's latency). A product of few rows (Llama 3's 1024-row K and V projections)
/// then streams below the rate the kernel reaches on a large product, and an architecture that
/// holds few blocks per SM (GA10x: 16) caps even a large one.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/stack/stack_figure.hpp>

namespace dlperf {

/// The shape of a stack's 16-bit GEMV kernel and what one resident warp of it moves.
struct gemv_occupancy {
  int warps_per_row = 0;    ///< warps each output row gets; 0: not modelled
  int warps_per_block = 1;  ///< warps in one block of the kernel
  /// Bytes of weights one resident warp moves per SM clock, measured on a product too small to
  /// fill the SMs.
  stack_sm_rate bytes_per_warp_cycle{0.0, "bytes of weights per resident warp per SM clock",
                                     "not measured"};
  std::string_view source{};  ///< where the kernel's shape comes from

  /// Whether the stack's kernel is described.
  [[nodiscard]] constexpr bool modelled() const {
    return warps_per_row > 0 && bytes_per_warp_cycle.value > 0.0;
  }

  /// Bytes one SM moves per SM clock in a product of @p rows output rows on a device of @p sms
  /// SMs, each holding at most @p max_blocks blocks and @p max_warps warps: the warps the rows
  /// give each SM, up to what it holds, times a warp's rate (modelled() only).
  [[nodiscard]] constexpr double bytes_per_sm_cycle(double rows, double sms, int max_blocks,
                                                    int max_warps) const {
    const double wanted = rows * static_cast<double>(warps_per_row) / sms;
    const double held =
        std::min(static_cast<double>(max_blocks) * warps_per_block, static_cast<double>(max_warps));
    return std::min(wanted, held) * bytes_per_warp_cycle.value;
  }

  /// Throws invalid_argument naming stack @p stack when a count is negative or the rate is out
  /// of [0, max_bytes_per_sm_cycle].
  constexpr void validate(std::string_view stack) const {
    if (warps_per_row < 0 || warps_per_block < 1 || !bytes_per_warp_cycle.in_domain())
      detail::throw_invalid_argument(
          "stack " + std::string(stack) +
          ": gemv_occupancy needs warps_per_row >= 0, warps_per_block >= 1 and "
          "bytes_per_warp_cycle in [0, 1024]");
  }
};

}  // namespace dlperf
