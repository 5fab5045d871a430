/// @file
/// The answer every operator estimator gives (`op_estimate`) and the list a layer is made of
/// (`op_sequence`), so that a transformer layer or a ResNet block is estimated op by op.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>

namespace dlperf {

/// Estimate of one operator (one kernel, or one fused kernel).
struct op_estimate {
  std::string_view name;                         ///< what the operator is
  duration time{};                               ///< its time, launch included
  flop_count work{};                             ///< arithmetic it does
  byte_count dram{};                             ///< DRAM traffic
  dlperf::bound bound = dlperf::bound::compute;  ///< what limits it
  int kernels = 1;                               ///< kernel launches it takes
};

/// Operators run one after another, as a layer runs them. A literal type with fixed capacity.
class op_sequence {
 public:
  /// Most operators one sequence holds.
  static constexpr std::size_t capacity = 24;

  /// Appends @p op. Throws invalid_argument beyond `capacity`.
  constexpr op_sequence& add(const op_estimate& op) {
    if (size_ == capacity) detail::throw_invalid_argument("op_sequence: more than 24 operators");
    ops_[size_++] = op;
    return *this;
  }
  /// Operators added.
  [[nodiscard]] constexpr std::size_t size() const { return size_; }
  /// Operator @p i.
  [[nodiscard]] constexpr const op_estimate& operator[](std::size_t i) const { return ops_.at(i); }
  /// Start of the operators.
  [[nodiscard]] constexpr const op_estimate* begin() const { return ops_.data(); }
  /// End of the operators.
  [[nodiscard]] constexpr const op_estimate* end() const { return ops_.data() + size_; }
  /// Summed time.
  [[nodiscard]] constexpr duration time() const {
    duration t{};
    for (const op_estimate& op : *this) t += op.time;
    return t;
  }
  /// Summed DRAM traffic.
  [[nodiscard]] constexpr byte_count dram() const {
    byte_count b{};
    for (const op_estimate& op : *this) b += op.dram;
    return b;
  }
  /// Summed arithmetic.
  [[nodiscard]] constexpr flop_count work() const {
    flop_count f{};
    for (const op_estimate& op : *this) f += op.work;
    return f;
  }
  /// Summed kernel launches.
  [[nodiscard]] constexpr int kernels() const {
    int k = 0;
    for (const op_estimate& op : *this) k += op.kernels;
    return k;
  }

 private:
  std::array<op_estimate, capacity> ops_{};
  std::size_t size_ = 0;
};

}  // namespace dlperf
