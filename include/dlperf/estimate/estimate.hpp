/// @file
/// The answer every operator estimator gives (`op_estimate`) and the list a layer is made of
/// (`op_sequence`), so that a transformer layer or a ResNet block is estimated op by op, and a
/// model as its layers repeated.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// What kind of kernel an operator is, so that a layer's or a model's time can be split by kind
/// ("the GEMMs are compute-bound, the rest is DRAM-bound").
enum class op_kind : std::uint8_t {
  gemm,          ///< a matrix multiply on tensor cores (or CUDA cores for FP32)
  attention,     ///< fused attention
  streaming,     ///< a memory-streaming kernel: element-wise map, norm, reduction, optimizer pass
  other,         ///< anything else
  communication  ///< data between GPUs: a collective, or activations handed to the next GPU
};

/// The operator kinds and their stable names.
template <>
struct enum_list<op_kind> {
  static constexpr std::string_view kind = "operator kind";  ///< what the enum names
  /// Every operator kind.
  static constexpr std::array values{
      enumerator{op_kind::gemm, "gemm"}, enumerator{op_kind::attention, "attention"},
      enumerator{op_kind::streaming, "streaming"}, enumerator{op_kind::other, "other"},
      enumerator{op_kind::communication, "communication"}};
};

/// Which streaming kernel an operator is, where a software stack may have measured what that
/// kernel of its own moves per SM clock (stack/stack.hpp, `stream_bytes_per_sm_cycle`): the
/// generic element-wise, norm and reduction kernels stream at the stack's DRAM share, these may
/// be held to less.
enum class stream_kernel : std::uint8_t {
  generic,      ///< any other streaming kernel
  dequantize,   ///< quantised weights dequantised to 16 bits ahead of a library GEMM
  softmax,      ///< unfused attention's softmax over the scores
  strided_copy  ///< a copy through strided indices: a permuted tensor made contiguous, or new
                ///< keys and values copied into the cache
};

/// The streaming kernel classes and their stable names.
template <>
struct enum_list<stream_kernel> {
  static constexpr std::string_view kind = "streaming kernel";  ///< what the enum names
  /// Every class.
  static constexpr std::array values{enumerator{stream_kernel::generic, "generic"},
                                     enumerator{stream_kernel::dequantize, "dequantize"},
                                     enumerator{stream_kernel::softmax, "softmax"},
                                     enumerator{stream_kernel::strided_copy, "strided-copy"}};
};

/// Estimate of one operator (one kernel, or one fused kernel).
struct op_estimate {
  std::string_view name;                         ///< what the operator is
  duration time{};                               ///< its time per run, launch included
  flop_count work{};                             ///< arithmetic it does per run
  byte_count dram{};                             ///< DRAM traffic per run
  dlperf::bound bound = dlperf::bound::compute;  ///< what limits it
  int kernels = 1;                               ///< kernel launches per run
  long long repeats = 1;  ///< runs in its sequence (a layer repeated n times: n); at least 1
  op_kind kind = op_kind::other;  ///< what kind of kernel it is
  /// A weight GEMM that reads weight-only quantised weights and dequantises them in its inner
  /// loop (a stack's quantised-GEMV share applies to it, not to products of activations).
  bool quantized_weights = false;
  /// A forward weight GEMM over at most `skinny_max_rows` rows: the matrix-vector kernels whose
  /// rate per SM clock a stack may have measured (stack/stack.hpp), not a tiled GEMM's.
  bool weight_gemv = false;
  /// A weight GEMV's output rows, over all its groups: the rows a kernel that gives each its own
  /// warps spreads over the SMs (stack/gemv_occupancy.hpp).
  double gemv_rows = 0.0;
  /// Which streaming kernel it is (`op_kind::streaming` only): a stack may cap the rate of its
  /// own kernels of that class per SM clock.
  stream_kernel stream = stream_kernel::generic;
  /// A fused attention kernel's time were its loop over tiles to pay the fixed cost of each
  /// tile, as FlashAttention's CUDA kernels do (ops/attention.hpp, flash_tile_share); zero for
  /// other operators. A stack that runs such a kernel (software_stack::flash_tiles) takes the
  /// longer of this and `time`.
  duration tile_floor{};
};

/// Most runs one operator may count (`op_estimate::repeats`), so that totals stay exact.
inline constexpr long long max_op_repeats = 1LL << 40;

namespace detail {
// The sum of op.*field x op.repeats over @p ops: each run of operators with equal repeats is
// summed, then multiplied once. (A free function: clang 14 and 15 do not instantiate a member
// template used by an earlier member in time for constant evaluation.)
template <class Q>
constexpr Q total(const std::vector<op_estimate>& ops, Q op_estimate::*field) {
  Q sum{};
  for (std::size_t i = 0; i < ops.size();) {
    const long long times = ops[i].repeats;
    Q run{};
    for (; i < ops.size() && ops[i].repeats == times; ++i) run += ops[i].*field;
    sum += static_cast<double>(times) * run;
  }
  return sum;
}
}  // namespace detail

/// Operators run one after another, as a layer runs them; any number of them. Usable in constant
/// expressions as long as the sequence does not outlive the evaluation (its storage is a
/// `std::vector`).
///
/// A block run n times (80 identical transformer layers) is held once with each operator's
/// `repeats` multiplied by n (`repeat`, `add(block, n)`), not copied n times. Totals add up runs
/// of consecutive operators with the same `repeats` and then multiply, so n copies of a block
/// total exactly n times the block's total.
class op_sequence {
 public:
  /// Appends @p op. Throws invalid_argument unless 1 <= op.repeats <= `max_op_repeats`.
  constexpr op_sequence& add(const op_estimate& op) {
    check_repeats(op.repeats);
    ops_.push_back(op);
    return *this;
  }
  /// Appends the operators of @p block run @p times in a row (each one's repeats times @p times).
  /// Throws invalid_argument unless @p times >= 1 and the products stay within `max_op_repeats`.
  DLPERF_CONSTEXPR_VECTOR op_sequence& add(const op_sequence& block, long long times = 1) {
    if (&block == this) {  // appending reads the block: a copy of it first
      const std::vector<op_estimate> copy = ops_;
      append(copy, times);
    } else {
      append(block.ops_, times);
    }
    return *this;
  }
  /// This sequence run @p times in a row: the same operators, each one's repeats times @p times.
  /// Throws invalid_argument unless @p times >= 1 and the products stay within `max_op_repeats`.
  [[nodiscard]] DLPERF_CONSTEXPR_VECTOR op_sequence repeat(long long times) const {
    op_sequence r;
    r.append(ops_, times);
    return r;
  }
  /// Makes room for @p n operators in all, so that appending up to them allocates no more.
  DLPERF_CONSTEXPR_VECTOR void reserve(std::size_t n) { ops_.reserve(n); }
  /// Operators held (a repeated operator counts once).
  [[nodiscard]] constexpr std::size_t size() const { return ops_.size(); }
  /// Operator @p i.
  [[nodiscard]] constexpr const op_estimate& operator[](std::size_t i) const { return ops_.at(i); }
  /// Start of the operators.
  [[nodiscard]] constexpr const op_estimate* begin() const { return ops_.data(); }
  /// End of the operators.
  [[nodiscard]] constexpr const op_estimate* end() const { return ops_.data() + ops_.size(); }
  /// Summed time, repeats included.
  [[nodiscard]] constexpr duration time() const { return detail::total(ops_, &op_estimate::time); }
  /// Summed time of the operators of kind @p k, repeats included.
  [[nodiscard]] constexpr duration time_of(op_kind k) const {
    duration t{};
    for (const op_estimate& op : ops_)
      if (op.kind == k) t += static_cast<double>(op.repeats) * op.time;
    return t;
  }
  /// Summed DRAM traffic, repeats included.
  [[nodiscard]] constexpr byte_count dram() const {
    return detail::total(ops_, &op_estimate::dram);
  }
  /// Summed arithmetic, repeats included.
  [[nodiscard]] constexpr flop_count work() const {
    return detail::total(ops_, &op_estimate::work);
  }
  /// Summed kernel launches, repeats included.
  [[nodiscard]] constexpr long long kernels() const {
    long long k = 0;
    for (const op_estimate& op : ops_) k += op.kernels * op.repeats;
    return k;
  }

 private:
  static constexpr void check_repeats(long long times) {
    detail::require_positive(times, "op_sequence", "repeats");
    if (times > max_op_repeats)
      detail::throw_invalid_argument("op_sequence: repeats must be at most 2^40, got " +
                                     std::to_string(times));
  }
  // Appends @p ops run @p times each. Every product is checked before the first is appended: a
  // refused block leaves this as it was. Room grows geometrically (a step appends many blocks);
  // push_back, which add(op) instantiates anyway, rather than a range insert: every file that
  // includes this header would otherwise instantiate vector's range insert (about 3 % of
  // kernel.hpp's compile; docs/layers.md, "Compile cost").
  DLPERF_CONSTEXPR_VECTOR void append(const std::vector<op_estimate>& ops, long long times) {
    check_repeats(times);
    for (const op_estimate& op : ops)
      if (op.repeats > max_op_repeats / times)
        detail::throw_invalid_argument("op_sequence: " + std::string(op.name) +
                                       " would run more than 2^40 times");
    if (const std::size_t need = ops_.size() + ops.size(); need > ops_.capacity())
      ops_.reserve(need > 2 * ops_.capacity() ? need : 2 * ops_.capacity());
    for (const op_estimate& op : ops) {
      ops_.push_back(op);
      ops_.back().repeats *= times;
    }
  }
  std::vector<op_estimate> ops_;
};

}  // namespace dlperf
