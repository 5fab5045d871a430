// Compile-time tests of operator sequences: an op_sequence (a std::vector inside) is usable in
// a constant expression that does not keep it, where the standard library's std::vector is
// (core/library_support.hpp; libc++ before 15 has none, and then this file checks nothing).
#include <dlperf/dlperf.hpp>

#if defined(__cpp_lib_constexpr_vector)

using namespace dlperf;
using namespace dlperf::literals;

namespace ops_static {  // named: the unity build shares one anonymous namespace per batch

constexpr op_sequence two_steps() {
  op_sequence s;
  s.add({"a", 1.0_ms, 2.0_GFLOP, 3.0_MB});
  s.add({"b", 0.5_ms, 1.0_GFLOP, 1.0_MB, bound::global, 2});
  return s;
}

constexpr attention_problem small_attention{1, 8, 512, 512, 64, dtype::fp16, false};

static_assert(two_steps().size() == 2);
static_assert(two_steps().time() == 1.5_ms);
static_assert(two_steps().kernels() == 3);
static_assert(two_steps().repeat(80).time() == 80.0 * two_steps().time());
static_assert(two_steps().repeat(80).kernels() == 240);
static_assert(two_steps().repeat(80).size() == 2);

// Unfused attention on H100, with its two GEMMs' tile searches, at compile time: QK^T and PV
// do 2 x 2 b h Sq Skv d FLOP, the softmax 5 per score.
static_assert(estimate_attention_unfused(catalog::h100_sxm, small_attention).size() == 3);
static_assert(estimate_attention_unfused(catalog::h100_sxm, small_attention).work() ==
              flops(4.0 * 8 * 512 * 512 * 64 + 5.0 * 8 * 512 * 512));

}  // namespace ops_static

#endif
