/// @file
/// A memo of `best_gemm`'s answers on one thread, for callers that ask the same GEMM again and
/// again: a sweep's points (the same layer shapes at every stack and mode), an autotuner's
/// repeated candidates, a simulator's steps. While a `best_gemm_memo` lives, `best_gemm` on its
/// thread returns the estimate it found before for the same figures and problem instead of
/// searching again; the answer is the same, bit for bit, since the key is every input the
/// search reads: the problem's shape and types, the device's figures as the GEMM model takes them
/// (`detail::gemm_context`) and the architecture's as the tile check reads them
/// (`detail::occupancy_key`). Two devices of equal figures share answers, whichever objects hold
/// them; a device whose memory or clock differs in one figure does not.
///
///     dlperf::best_gemm_memo memo;  // this thread, until it goes out of scope
///     for (...) dlperf::estimate_model(gpu, model, run);
///
/// The memo holds at most `capacity()` answers and starts again empty when it is full. Memos
/// nest: an inner one is consulted until it ends, then the outer one again. One is used only by
/// the thread that made it, and must end on it (it is neither copied nor moved).
/// At compile time `best_gemm` never consults a memo. docs/gemm.md, "Speed", gives its effect.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include <dlperf/core/error.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/occupancy_key.hpp>

namespace dlperf {

namespace detail {

// Every input of best_gemm's search and of the skinny kernel it compares, in two parts. The
// device's: the architecture's tile-check figures with the problem's types (`occupancy`),
// whether the architecture has a matrix path for the types (the skinny kernel pads to it), and
// the device's rates and latencies as the model takes them for those types. The problem's: its
// extents and element sizes, whether C is read, and the device part it runs on, by number.
struct gemm_memo_device {
  occupancy_key occupancy;
  bool tensor_path = false;
  std::array<double, 9> figures{};
  constexpr bool operator==(const gemm_memo_device&) const = default;
};

struct gemm_memo_key {
  std::array<double, 8> figures{};
  std::uint32_t device = 0;
  bool beta_nonzero = false;
  constexpr bool operator==(const gemm_memo_key&) const = default;
};

inline gemm_memo_device make_gemm_memo_device(const gemm_context& x, const gemm_problem& p,
                                              const occupancy_key& occupancy) {
  return {occupancy,
          x.arch->has_tensor_path(p.input, p.acc),
          {x.sms, x.inv_sm_peak, x.inv_dram_bw, x.inv_l2_bw, x.inv_shared_bw_sm, x.l2_usable,
           x.dram_latency, x.fill, x.launch}};
}

inline gemm_memo_key make_gemm_memo_key(const gemm_context& x, std::uint32_t device) {
  return {{x.a, x.b, x.c, x.m, x.n, x.k, x.batch, x.a_dram}, device, x.beta_nonzero};
}

// The bit pattern of @p f (std::bit_cast, which the web build's standard library lacks).
inline std::uint64_t bits_of(double f) noexcept {
  std::uint64_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The figures' bit patterns, mixed word by word and finished with a 64-bit avalanche
// (splitmix64's), so that extents differing in high bits only still spread over the buckets.
struct gemm_memo_hash {
  std::size_t operator()(const gemm_memo_key& k) const noexcept {
    std::uint64_t h = (static_cast<std::uint64_t>(k.device) << 1U) | (k.beta_nonzero ? 1U : 0U);
    for (double f : k.figures) h = (h ^ bits_of(f)) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 30U;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27U;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 31U;
    return static_cast<std::size_t>(h);
  }
};

}  // namespace detail

/// Memoises `best_gemm` on the thread that makes it, for as long as it lives (see the file
/// comment).
class best_gemm_memo {
 public:
  /// Answers held before the memo starts again empty: 16384 (about 5 MB).
  static constexpr std::size_t default_capacity = 16384;

  /// Starts memoising this thread's `best_gemm` calls, holding at most @p capacity answers.
  /// Throws invalid_argument for a capacity of 0.
  explicit best_gemm_memo(std::size_t capacity = default_capacity)
      : capacity_(capacity), outer_(slot()) {
    if (capacity == 0) detail::throw_invalid_argument("best_gemm_memo: capacity must be positive");
    answers_.reserve(std::min<std::size_t>(capacity, 1024));
    slot() = this;
  }
  /// Hands this thread back to the memo that was active before (or to none).
  /// Memos end in the reverse order of their making (the innermost first), as scopes do.
  ~best_gemm_memo() {
    assert(slot() == this && "best_gemm_memo: the innermost memo of a thread must end first");
    slot() = outer_;
  }
  best_gemm_memo(const best_gemm_memo&) = delete;
  best_gemm_memo& operator=(const best_gemm_memo&) = delete;
  best_gemm_memo(best_gemm_memo&&) = delete;
  best_gemm_memo& operator=(best_gemm_memo&&) = delete;

  /// The memo `best_gemm` consults on this thread, or null.
  [[nodiscard]] static best_gemm_memo* active() noexcept { return slot(); }

  /// Answers held now.
  [[nodiscard]] std::size_t size() const noexcept { return answers_.size(); }
  /// Most answers held before starting again.
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  /// Calls answered from the memo.
  [[nodiscard]] std::uint64_t hits() const noexcept { return hits_; }
  /// Calls that searched (and whose answer the memo then held).
  [[nodiscard]] std::uint64_t misses() const noexcept { return misses_; }

  /// The answer held for the GEMM of @p x on the device part @p device, or @p search's, which
  /// is then held.
  template <class Search>
  gemm_estimate find_or(const detail::gemm_context& x, const detail::gemm_memo_device& device,
                        Search&& search) {
    const detail::gemm_memo_key key = detail::make_gemm_memo_key(x, device_number(device));
    if (const auto it = answers_.find(key); it != answers_.end()) {
      ++hits_;
      return it->second;
    }
    ++misses_;
    gemm_estimate e = std::invoke(std::forward<Search>(search));
    if (answers_.size() >= capacity_) answers_.clear();
    answers_.emplace(key, e);
    return e;
  }

 private:
  // Most device parts held: a new one past this starts the memo again.
  static constexpr std::size_t most_devices = 256;

  // The number of @p device among those seen (the last one is checked first: a model's GEMMs
  // mostly run on one device in one datatype).
  std::uint32_t device_number(const detail::gemm_memo_device& device) {
    if (last_ < devices_.size() && devices_[last_] == device)
      return static_cast<std::uint32_t>(last_);
    for (std::size_t i = 0; i < devices_.size(); ++i)
      if (devices_[i] == device) return static_cast<std::uint32_t>(last_ = i);
    if (devices_.size() == most_devices) {
      devices_.clear();
      answers_.clear();
    }
    devices_.push_back(device);
    return static_cast<std::uint32_t>(last_ = devices_.size() - 1);
  }

  std::size_t capacity_;
  std::vector<detail::gemm_memo_device> devices_;
  std::size_t last_ = 0;
  best_gemm_memo* outer_;
  std::unordered_map<detail::gemm_memo_key, gemm_estimate, detail::gemm_memo_hash> answers_;
  std::uint64_t hits_ = 0, misses_ = 0;
  // The memo consulted on this thread (the innermost alive), or null.
  static best_gemm_memo*& slot() noexcept {
    // Set only by a memo's constructor and destructor; best_gemm reads it.
    // NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables)
    thread_local best_gemm_memo* active = nullptr;
    return active;
  }
};

}  // namespace dlperf
