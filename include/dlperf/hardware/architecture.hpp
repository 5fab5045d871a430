/// @file
/// What an SM architecture is: its resources, math rates per datatype and accumulator, and
/// memory latencies, as a literal value (`architecture_spec`), plus the `architecture` concept
/// that the per-generation tag types in `dlperf/arch/` model.
///
/// A chip family, not a marketing generation, is the unit: GA100 (A100) and GA10x (RTX 30, A10,
/// A6000) are both "Ampere" but differ in shared memory, FP32 lanes and tensor-core width, so
/// they are two tags, `ampere_ga100` and `ampere_ga10x`, with the same `family`.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/vendor.hpp>

namespace dlperf {

/// Marketing generation a chip family belongs to.
enum class family : std::uint8_t {
  pascal,
  volta,
  turing,
  ampere,
  ada,
  hopper,
  blackwell,
  cdna2,
  cdna3,
  cdna4,
  rdna3,
  rdna4,
  apple_m1,
  apple_m2,
  apple_m3,
  apple_m4
};

/// The families and their stable names.
template <>
struct enum_list<family> {
  static constexpr std::string_view kind = "family";  ///< what the enum names
  /// Every family, by vendor and then by age.
  static constexpr std::array values{enumerator{family::pascal, "pascal"},
                                     enumerator{family::volta, "volta"},
                                     enumerator{family::turing, "turing"},
                                     enumerator{family::ampere, "ampere"},
                                     enumerator{family::ada, "ada"},
                                     enumerator{family::hopper, "hopper"},
                                     enumerator{family::blackwell, "blackwell"},
                                     enumerator{family::cdna2, "cdna2"},
                                     enumerator{family::cdna3, "cdna3"},
                                     enumerator{family::cdna4, "cdna4"},
                                     enumerator{family::rdna3, "rdna3"},
                                     enumerator{family::rdna4, "rdna4"},
                                     enumerator{family::apple_m1, "apple_m1"},
                                     enumerator{family::apple_m2, "apple_m2"},
                                     enumerator{family::apple_m3, "apple_m3"},
                                     enumerator{family::apple_m4, "apple_m4"}};
};

/// Per-SM (NVIDIA) or per-CU (AMD) resources that bound occupancy. Sources are cited in each
/// vendor's architecture headers (NVIDIA: CUDA C++ Programming Guide, "Technical Specifications
/// per Compute Capability"; AMD: the CDNA and RDNA ISA references and whitepapers).
struct sm_resources {
  int registers_per_sm;          ///< 32-bit registers in one SM's register file
  int max_registers_per_thread;  ///< most registers one thread may use
  int max_warps_per_sm;          ///< resident warps per SM
  int max_threads_per_block;     ///< threads in one block (CTA)
  int max_blocks_per_sm;         ///< resident blocks per SM
  byte_count shared_per_sm;      ///< largest shared-memory carve-out of one SM
  byte_count shared_per_block;   ///< largest shared memory one block may opt in to
  byte_count l1_and_shared;      ///< unified L1/texture/shared storage per SM (Pascal: shared only)
  int simd_width;                ///< threads that run in lock-step: a warp (32) or wavefront (64)
  byte_count shared_reserved_per_block;  ///< shared memory the runtime keeps per block (1 KiB
                                         ///< from NVIDIA compute capability 8.0, else 0)

  /// Resident threads per SM (warps x SIMD width).
  [[nodiscard]] constexpr int max_threads_per_sm() const { return max_warps_per_sm * simd_width; }
  /// Bytes of one SM's register file.
  [[nodiscard]] constexpr byte_count register_file() const { return bytes(registers_per_sm * 4.0); }
};

/// Dense multiply-accumulates per clock per SM for one (input, accumulator) pair. One FMA is two
/// FLOP. `consumer_fma_per_clock` is the rate GeForce boards get where NVIDIA halves tensor
/// throughput with FP32 accumulation; it equals `fma_per_clock` where no such limit exists.
struct math_rate {
  dtype input = dtype::fp32;            ///< operand datatype
  accumulator acc = accumulator::fp32;  ///< accumulation datatype
  int fma_per_clock = 0;           ///< dense FMA per clock per SM on full-rate (datacenter) parts
  int consumer_fma_per_clock = 0;  ///< the same on GeForce parts
};

/// Load-to-use latencies of the memory tiers and of one FFMA, in SM clock cycles.
struct latency_cycles {
  double global;   ///< DRAM access (L2 miss)
  double l2;       ///< L2 hit
  double llc = 0;  ///< last-level (Infinity) cache hit; 0 where there is none
  double l1;       ///< L1 hit
  double shared;   ///< shared-memory load
  double ffma;     ///< dependent fused multiply-add
};

/// Shape of the architecture's matrix-multiply-accumulate instruction, as one warp sees it.
/// K is given in bits because it scales with the operand width: Ampere's mma.sync is m16n8k16
/// for 16-bit types, m16n8k8 for TF32 and m16n8k32 for 8-bit types, 256 bits in every case.
struct mma_shape {
  int m;          ///< rows of A (and C) one warp covers per instruction
  int n;          ///< columns of B (and C) one warp covers per instruction
  int k_bits;     ///< K extent in bits of the operand type
  int warps = 1;  ///< warps issuing one instruction together (Hopper's wgmma: a warpgroup of 4)
  bool operands_from_shared = false;  ///< B (and optionally A) read straight from shared memory
  bool accumulators_in_tensor_memory = false;  ///< accumulators live in tensor memory (GB100)

  /// K extent in elements of a type @p bits wide.
  [[nodiscard]] constexpr int k(int bits) const { return k_bits / bits > 0 ? k_bits / bits : 1; }
};

/// Fraction of the tensor (or FFMA) peak that large, well-tuned GEMMs reach for one input type:
/// what the analytical terms of the GEMM model do not capture (instruction issue, epilogue,
/// clock behaviour under load). Defaults come from published measurements, cited where set.
struct gemm_efficiency_entry {
  dtype input = dtype::fp32;  ///< operand datatype
  double fraction = 0;        ///< achieved / peak on a large square GEMM, in (0, 1]
};

/// A low-high range of a multiplicative factor (1.0-1.0 where nothing is gained).
struct factor_range {
  double low = 1.0;   ///< the smaller bound
  double high = 1.0;  ///< the larger bound
};

/// What a generation gains over the one before it in the speed-up rule of Dettmers' guide (Which
/// GPU(s) to Get for Deep Learning, 2020 edition; docs/buying.md, "Speed-up between two GPUs"):
/// beyond the DRAM bandwidth ratio, a factor for its larger shared memory / L1 and one for its
/// tensor cores, each a low-high range. Hardware facts as the guide states them; where it states
/// none the factors stay 1.0 and `source` says so.
struct generation_factors {
  std::string_view previous;   ///< the architecture this one succeeds ("" = oldest of its line)
  factor_range shared_memory;  ///< larger shared memory / L1 cache, against `previous`
  factor_range tensor_cores;   ///< tensor cores, against `previous`
  std::string_view source;     ///< where the factors are published, or that none are
};

/// Everything dlperf knows about one SM architecture, as a literal value. Rates are per SM per
/// clock so a GPU's peaks follow from SM count x clock (see gpu_spec).
struct architecture_spec {
  std::string_view name;    ///< stable id, e.g. "ampere_ga100"
  dlperf::vendor vendor;    ///< who designs it
  dlperf::family family;    ///< marketing generation
  std::string_view chips;   ///< chips of the family, e.g. "GA102, GA104"
  std::string_view isa;     ///< instruction-set target: "sm_80" (compute capability), "gfx942"
  sm_resources sm;          ///< per-SM resources
  int tensor_cores_per_sm;  ///< 0 where the family has none
  bool sparse_2_4;          ///< tensor cores run 2:4 structured sparsity at twice the dense rate
  std::array<math_rate, 12> tensor;  ///< tensor-core rates (unused slots have rate 0)
  std::array<math_rate, 6> vector;   ///< CUDA-core (FFMA, HFMA2, DP4A) rates
  int shared_bytes_per_clock;        ///< shared-memory bandwidth per SM per clock
  double l2_bytes_per_clock;         ///< L2 bandwidth per SM per clock
  latency_cycles latency;            ///< per-tier latencies
  mma_shape mma;  ///< matrix instruction shape (an FFMA warp tile without tensor cores)
  byte_count tensor_memory_per_sm{};   ///< accumulator memory of GB100's tensor cores (0 elsewhere)
  double gemm_efficiency_default = 0;  ///< large-GEMM efficiency for types not listed below
  std::array<gemm_efficiency_entry, 6> gemm_efficiency{};  ///< per-type large-GEMM efficiency
  generation_factors rule_factors{};  ///< the guide's speed-up factors over the previous generation
  /// Share of the dense tensor-core peak that warp-level `mma.sync`, the instruction of kernels
  /// written for Ampere (FlashAttention-2), reaches: 1 where it is the native path, below 1
  /// where the full rate needs a newer instruction (Hopper's warpgroup `wgmma`).
  double warp_mma_share = 1.0;

  /// Large-GEMM efficiency for operands of type @p t.
  [[nodiscard]] constexpr double gemm_efficiency_for(dtype t) const {
    for (const gemm_efficiency_entry& e : gemm_efficiency)
      if (e.fraction > 0 && e.input == t) return e.fraction;
    return gemm_efficiency_default;
  }

  /// Dense tensor-core FMA per clock per SM for (t, a); 0 if the tensor cores cannot do it.
  [[nodiscard]] constexpr int tensor_rate(dtype t, accumulator a, bool consumer = false) const {
    for (const math_rate& r : tensor)
      if (r.fma_per_clock > 0 && r.input == t && r.acc == a)
        return consumer ? r.consumer_fma_per_clock : r.fma_per_clock;
    return 0;
  }
  /// CUDA-core FMA per clock per SM for (t, a); 0 if there is no such instruction path.
  [[nodiscard]] constexpr int vector_rate(dtype t, accumulator a) const {
    for (const math_rate& r : vector)
      if (r.fma_per_clock > 0 && r.input == t && r.acc == a) return r.fma_per_clock;
    return 0;
  }
  /// Whether the tensor cores can multiply @p t accumulating in @p a.
  [[nodiscard]] constexpr bool has_tensor_path(dtype t, accumulator a) const {
    return tensor_rate(t, a) > 0;
  }
  /// Whether any execution path (tensor or CUDA core) multiplies @p t accumulating in @p a.
  [[nodiscard]] constexpr bool supports(dtype t, accumulator a) const {
    return tensor_rate(t, a) > 0 || vector_rate(t, a) > 0;
  }
  /// Whether (t, a, s) can run: 2:4 sparsity needs a tensor path on an Ampere-or-later SM.
  [[nodiscard]] constexpr bool supports(dtype t, accumulator a, sparsity s) const {
    return s == sparsity::dense ? supports(t, a) : (sparse_2_4 && has_tensor_path(t, a));
  }
  /// Dense-equivalent FMA per clock per SM that (t, a, s) runs at; throws unsupported otherwise.
  [[nodiscard]] constexpr double fma_per_clock(dtype t, accumulator a, sparsity s,
                                               bool consumer) const {
    return execution(t, a, s, consumer).fma_per_clock;
  }

  /// How (t, a, s) executes: FMA per clock per SM and whether on tensor cores.
  struct execution_path {
    double fma_per_clock;  ///< dense-equivalent FMA per clock per SM
    bool tensor_cores;     ///< on the tensor cores (else CUDA cores)
  };
  /// The execution path of (t, a, s), looked up in one pass over each rate table (peak() is on
  /// every estimator's path). Throws unsupported when there is none.
  [[nodiscard]] constexpr execution_path execution(dtype t, accumulator a, sparsity s,
                                                   bool consumer) const {
    const math_rate* tc = nullptr;
    for (const math_rate& r : tensor)
      if (r.fma_per_clock > 0 && r.input == t && r.acc == a) tc = &r;
    if (tc != nullptr && (s == sparsity::dense || sparse_2_4)) {
      const double dense_rate = consumer ? tc->consumer_fma_per_clock : tc->fma_per_clock;
      return {s == sparsity::sparse_2_4 ? 2.0 * dense_rate : dense_rate, true};
    }
    if (s == sparsity::dense)
      for (const math_rate& r : vector)
        if (r.fma_per_clock > 0 && r.input == t && r.acc == a)
          return {static_cast<double>(r.fma_per_clock), false};
    throw_unsupported_combination(t, a, s);
  }

 private:
  // Non-constexpr: reaching it in a constant expression is a compile error naming it.
  [[noreturn]] void throw_unsupported_combination(dtype t, accumulator a, sparsity s) const {
    std::string why = std::string(name) + " cannot run " + std::string(dlperf::name(t)) + " with " +
                      std::string(dlperf::name(a)) + " accumulation";
    if (s == sparsity::sparse_2_4 && supports(t, a))
      why = std::string(name) + " has no 2:4 sparse tensor-core path for " +
            std::string(dlperf::name(t)) +
            " (2:4 sparse matrix units: NVIDIA Ampere or later, AMD CDNA 3)";
    else if (tensor_cores_per_sm == 0)
      why += " (it has no tensor cores)";
    detail::throw_unsupported(why);
  }
};

/// An architecture tag: a type whose static member `spec` is its architecture_spec.
template <class A>
concept architecture = requires {
  { A::spec } -> std::convertible_to<architecture_spec>;
};

/// Satisfied when the tensor cores of @p A multiply @p T accumulating in @p Acc.
template <class A, class T, accumulator Acc = default_accumulator(T::id)>
concept tensor_cores_support = architecture<A> && datatype_tag<T> &&
                               A::spec.has_tensor_path(T::id, Acc);

/// Dense tensor-core FMA per clock per SM of @p A for @p T with @p Acc, checked at compile time.
template <architecture A, datatype_tag T, accumulator Acc = default_accumulator(T::id)>
constexpr int tensor_fma_per_clock() {
  static_assert(A::spec.tensor_cores_per_sm > 0,
                "dlperf: this architecture has no tensor cores (Pascal and the GTX 16 series run "
                "matrix math on CUDA cores only)");
  static_assert(A::spec.has_tensor_path(T::id, Acc),
                "dlperf: this architecture's tensor cores cannot multiply this datatype with this "
                "accumulator (FP8 needs Ada, Hopper or Blackwell; BF16 and TF32 need Ampere or "
                "later; FP4 needs Blackwell)");
  return A::spec.tensor_rate(T::id, Acc);
}

/// Shared memory one block of @p A may use, checked against @p Bytes at compile time.
template <architecture A, long long Bytes>
constexpr bool fits_shared_memory_per_block() {
  static_assert(Bytes >= 0, "dlperf: a shared-memory request cannot be negative");
  static_assert(static_cast<double>(Bytes) <= A::spec.sm.shared_per_block.value(),
                "dlperf: this request exceeds the architecture's shared memory per block");
  return true;
}

}  // namespace dlperf
