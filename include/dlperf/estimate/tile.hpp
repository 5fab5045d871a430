/// @file
/// GEMM tile configurations (block tile, warp tile, pipeline stages, 2:4 sparse A) and the checks
/// that decide whether one is legal on an architecture: shared memory per block and per SM,
/// registers per thread, MMA shape, threads per block, datatype support; and the occupancy
/// (resident blocks per SM) that follows from those limits.
///
/// Resource formulas, for a block tile BM x BN x BK, warp tile WM x WN, S stages, operand
/// width b bytes, accumulator width c bytes, MMA K extent k elements:
///
///     threads   = (BM / WM) * (BN / WN) * 32
///     shared    = S * (BM * BK * b_A + BK * BN * b) with b_A = b/2 + 1/8 for 2:4 sparse A
///                 (half the values plus 2-bit indices for the kept half)
///     registers = WM * WN * c / (32 * 4)                       accumulators
///               + 2 * (WM + WN) * k * b / (32 * 4)             double-buffered fragments
///               + 24                                           addresses, loop state
///     (operand fragments are 0 where the MMA reads shared memory directly, accumulators 0 where
///      they live in tensor memory; registers are allocated in units of 8 per thread)
///     blocks/SM = min(max blocks, max threads / threads, registers per SM / (regs * threads),
///                     shared per SM / (shared + 1 KiB reserved from compute capability 8.0))
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>

namespace dlperf {

/// A GEMM tiling as a value: what a CUTLASS-style kernel template is instantiated with.
struct tile_config {
  int block_m;            ///< rows of C per block (CTA)
  int block_n;            ///< columns of C per block
  int block_k;            ///< K extent of one pipeline stage
  int warp_m;             ///< rows of C per warp
  int warp_n;             ///< columns of C per warp
  int stages;             ///< shared-memory pipeline stages (multi-buffering)
  bool sparse_a = false;  ///< A is 2:4 structured sparse
  int split_k = 1;        ///< K split across this many blocks (partial sums reduced afterwards)

  /// Warps in one block.
  [[nodiscard]] constexpr int warps() const {
    return warp_m > 0 && warp_n > 0 ? (block_m / warp_m) * (block_n / warp_n) : 0;
  }
  /// Threads in one block.
  [[nodiscard]] constexpr int threads() const { return warps() * 32; }
  /// Equality (used to compare search results).
  friend constexpr bool operator==(const tile_config&, const tile_config&) = default;
};

/// A tiling as a type, for compile-time checks: `tile<128, 256, 32, 64, 64, 3>`.
template <int BM, int BN, int BK, int WM, int WN, int Stages, bool SparseA = false>
struct tile {
  /// The tiling as a value.
  static constexpr tile_config value{BM, BN, BK, WM, WN, Stages, SparseA, 1};
};

/// Why a tiling is illegal on an architecture (`none` if it is legal).
enum class tile_problem : std::uint8_t {
  none,                  ///< legal
  bad_shape,             ///< a non-positive extent, or the block not a multiple of the warp tile
  mma_shape,             ///< warp tile or BK not a multiple of the MMA instruction shape
  threads_per_block,     ///< more threads than a block may have
  datatype,              ///< the tensor cores cannot multiply this type (or not 2:4 sparse)
  shared_per_block,      ///< shared memory beyond what one block may opt in to
  shared_per_sm,         ///< shared memory beyond one SM's carve-out
  registers_per_thread,  ///< more than the architecture's 255 registers per thread
  registers_per_sm,      ///< one block's registers exceed the SM's register file
  tensor_memory          ///< accumulators beyond GB100's tensor memory
};

/// Resources one tiling uses and the verdict of checking them against an architecture.
struct tile_check {
  tile_problem problem = tile_problem::none;  ///< first limit violated, `none` if legal
  double shared_bytes = 0;                    ///< shared memory per block, all stages
  double shared_limit = 0;                    ///< the limit checked against
  int registers_per_thread = 0;               ///< estimated registers per thread
  int threads = 0;                            ///< threads per block
  int blocks_per_sm = 0;                      ///< occupancy (0 if illegal)

  /// Whether the tiling is legal.
  [[nodiscard]] constexpr bool ok() const { return problem == tile_problem::none; }
};

/// Registers allocated per thread: accumulators + double-buffered fragments + 24, rounded up to
/// the allocation unit of 8 registers per thread. A warp's (wavefront's) register is SIMD width x
/// 4 bytes wide.
constexpr int tile_registers_per_thread(const architecture_spec& arch, const tile_config& t,
                                        dtype in, accumulator acc) {
  const int bits = traits(in).storage_bits;
  const double acc_bytes = acc == accumulator::fp16 ? 2.0 : 4.0;
  const double warp_register_bytes = arch.sm.simd_width * 4.0;  // one register across a warp
  const double accumulators = arch.mma.accumulators_in_tensor_memory
                                  ? 0.0
                                  : t.warp_m * t.warp_n * acc_bytes / warp_register_bytes;
  const double fragments =
      arch.mma.operands_from_shared
          ? 0.0
          : 2.0 * (t.warp_m + t.warp_n) * arch.mma.k(bits) * (bits / 8.0) / warp_register_bytes;
  const auto regs = static_cast<int>(accumulators + fragments + 0.999999) + 24;
  return (regs + 7) / 8 * 8;
}

/// Bytes per (dense-equivalent) element of the A operand: the element size, or for 2:4 sparse A
/// half of it (the kept values) plus 1/8 (a 2-bit index per kept value).
constexpr double a_element_bytes(dtype in, bool sparse_a) {
  const double b = traits(in).storage().value();
  return sparse_a ? b / 2.0 + 1.0 / 8.0 : b;
}

/// Shared memory one block of tiling @p t uses for operands of type @p in, all stages.
constexpr double tile_shared_bytes(const tile_config& t, dtype in) {
  return t.stages * (t.block_m * t.block_k * a_element_bytes(in, t.sparse_a) +
                     t.block_k * t.block_n * traits(in).storage().value());
}

namespace detail {
// x % m == 0, with a mask where m is a power of two (every MMA extent of every architecture):
// integer division is the slowest instruction on the tile check's path.
constexpr bool is_multiple(int x, int m) {
  return (m & (m - 1)) == 0 ? (x & (m - 1)) == 0 : x % m == 0;
}
}  // namespace detail

/// Checks tiling @p t for operands @p in accumulating in @p acc on @p arch. Usable in constant
/// expressions; `describe` turns a failed check into a sentence with the numbers.
constexpr tile_check check_tile(const architecture_spec& arch, const tile_config& t, dtype in,
                                accumulator acc) {
  tile_check c;
  const auto fail = [&c](tile_problem p) {
    c.problem = p;
    c.blocks_per_sm = 0;
    return c;
  };
  if (t.block_m <= 0 || t.block_n <= 0 || t.block_k <= 0 || t.warp_m <= 0 || t.warp_n <= 0 ||
      t.stages <= 0 || t.split_k <= 0)
    return fail(tile_problem::bad_shape);
  const int warps_m = t.block_m / t.warp_m, warps_n = t.block_n / t.warp_n;
  if (warps_m * t.warp_m != t.block_m || warps_n * t.warp_n != t.block_n)
    return fail(tile_problem::bad_shape);
  const int warps = warps_m * warps_n;
  c.threads = warps * arch.sm.simd_width;
  const int bits = traits(in).storage_bits;
  const int k = arch.mma.k(bits);
  if (!detail::is_multiple(t.warp_m, arch.mma.m) || !detail::is_multiple(t.warp_n, arch.mma.n) ||
      !detail::is_multiple(t.block_k, k) || !detail::is_multiple(warps, arch.mma.warps))
    return fail(tile_problem::mma_shape);
  if (c.threads > arch.sm.max_threads_per_block) return fail(tile_problem::threads_per_block);
  const sparsity s = t.sparse_a ? sparsity::sparse_2_4 : sparsity::dense;
  if (!arch.supports(in, acc, s)) return fail(tile_problem::datatype);

  c.shared_bytes = tile_shared_bytes(t, in);
  c.shared_limit = arch.sm.shared_per_block.value();
  if (c.shared_bytes > c.shared_limit) return fail(tile_problem::shared_per_block);
  // The runtime's reservation per block (NVIDIA from compute capability 8.0 on: 1 KiB).
  const double reserved = arch.sm.shared_reserved_per_block.value();
  c.shared_limit = arch.sm.shared_per_sm.value();
  if (c.shared_bytes + reserved > c.shared_limit) return fail(tile_problem::shared_per_sm);

  c.registers_per_thread = tile_registers_per_thread(arch, t, in, acc);
  if (c.registers_per_thread > arch.sm.max_registers_per_thread)
    return fail(tile_problem::registers_per_thread);

  const int by_registers = arch.sm.registers_per_sm / (c.registers_per_thread * c.threads);
  if (by_registers == 0) return fail(tile_problem::registers_per_sm);
  int blocks = arch.sm.max_blocks_per_sm;
  blocks = std::min(blocks, arch.sm.max_threads_per_sm() / c.threads);
  blocks = std::min(blocks, by_registers);
  blocks = std::min(blocks,
                    static_cast<int>(arch.sm.shared_per_sm.value() / (c.shared_bytes + reserved)));
  if (arch.mma.accumulators_in_tensor_memory) {
    const double acc_bytes = t.block_m * t.block_n * 4.0;
    if (acc_bytes > arch.tensor_memory_per_sm.value()) return fail(tile_problem::tensor_memory);
    blocks = std::min(blocks, static_cast<int>(arch.tensor_memory_per_sm.value() / acc_bytes));
  }
  c.blocks_per_sm = blocks;
  return c;
}

/// The check as a sentence naming the numbers: "tile 256x256x64 (3 stages) needs 196608 B of
/// shared memory per block; ampere_ga10x allows 101376 B". Empty for a legal tiling.
inline std::string describe(const tile_check& c, const architecture_spec& arch,
                            const tile_config& t, dtype in) {
  const std::string name = "tile " + std::to_string(t.block_m) + "x" + std::to_string(t.block_n) +
                           "x" + std::to_string(t.block_k) + " (warp " + std::to_string(t.warp_m) +
                           "x" + std::to_string(t.warp_n) + ", " + std::to_string(t.stages) +
                           " stages)";
  const std::string on = std::string(arch.name);
  const auto bytes_text = [](double b) { return std::to_string(static_cast<long long>(b)) + " B"; };
  switch (c.problem) {
    case tile_problem::none:
      return {};
    case tile_problem::bad_shape:
      return name + ": extents must be positive and the block a multiple of the warp tile";
    case tile_problem::mma_shape:
      return name + ": warp tile must be a multiple of " + on + "'s MMA shape m" +
             std::to_string(arch.mma.m) + "n" + std::to_string(arch.mma.n) + "k" +
             std::to_string(arch.mma.k(traits(in).storage_bits)) + " for " +
             std::string(dlperf::name(in)) +
             (arch.mma.warps > 1 ? " with warps in groups of " + std::to_string(arch.mma.warps)
                                 : std::string());
    case tile_problem::threads_per_block:
      return name + " needs " + std::to_string(c.threads) + " threads per block; " + on +
             " allows " + std::to_string(arch.sm.max_threads_per_block);
    case tile_problem::datatype:
      return name + ": " + on + "'s tensor cores cannot multiply " + std::string(dlperf::name(in)) +
             (t.sparse_a ? " with 2:4 sparsity" : "");
    case tile_problem::shared_per_block:
      return name + " needs " + bytes_text(c.shared_bytes) + " of shared memory per block; " + on +
             " allows " + bytes_text(c.shared_limit);
    case tile_problem::shared_per_sm:
      return name + " needs " + bytes_text(c.shared_bytes) + " of shared memory; " + on + " has " +
             bytes_text(c.shared_limit) + " per SM";
    case tile_problem::registers_per_thread:
      return name + " needs about " + std::to_string(c.registers_per_thread) +
             " registers per thread; " + on + " allows " +
             std::to_string(arch.sm.max_registers_per_thread);
    case tile_problem::registers_per_sm:
      return name + " needs " + std::to_string(c.registers_per_thread * c.threads) +
             " registers per block; " + on + " has " + std::to_string(arch.sm.registers_per_sm) +
             " per SM";
    case tile_problem::tensor_memory:
      return name + ": its accumulators exceed " + on + "'s tensor memory per SM";
  }
  return {};
}

/// Compile-time check of tile type @p Tile for operands @p T on architecture @p A: each limit is
/// its own static_assert, so the message says which one the tile breaks.
template <architecture A, class Tile, datatype_tag T, accumulator Acc = default_accumulator(T::id)>
constexpr int blocks_per_sm() {
  constexpr tile_config t = Tile::value;
  constexpr tile_check c = check_tile(A::spec, t, T::id, Acc);
  static_assert(c.problem != tile_problem::bad_shape,
                "dlperf: tile extents must be positive and the block a multiple of the warp tile");
  static_assert(c.problem != tile_problem::mma_shape,
                "dlperf: the warp tile (or BK) is not a multiple of the architecture's MMA "
                "instruction shape");
  static_assert(c.problem != tile_problem::threads_per_block,
                "dlperf: the tile needs more threads per block than the architecture allows");
  static_assert(c.problem != tile_problem::datatype,
                "dlperf: the architecture's tensor cores cannot multiply this datatype (with this "
                "sparsity)");
  static_assert(c.problem != tile_problem::shared_per_block,
                "dlperf: the tile's pipeline stages exceed the architecture's shared memory per "
                "block");
  static_assert(
      c.problem != tile_problem::shared_per_sm,
      "dlperf: the tile's pipeline stages exceed the architecture's shared memory per SM");
  static_assert(c.problem != tile_problem::registers_per_thread,
                "dlperf: the tile needs more than 255 registers per thread");
  static_assert(c.problem != tile_problem::registers_per_sm,
                "dlperf: one block of the tile needs more registers than an SM has");
  static_assert(c.problem != tile_problem::tensor_memory,
                "dlperf: the tile's accumulators exceed the architecture's tensor memory");
  return c.blocks_per_sm;
}

}  // namespace dlperf
