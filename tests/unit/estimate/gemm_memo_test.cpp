// best_gemm_memo (include/dlperf/estimate/gemm_memo.hpp): with a memo, best_gemm gives what it
// gives without, bit for bit, on GPUs of every vendor, datatypes and shapes skinny and large;
// a repeated GEMM is answered from the memo; devices are told apart by their figures, not by
// the objects that hold them; memos nest, stay within their capacity, and hold no answer for a
// problem that is refused.
#include <array>
#include <catch2/catch.hpp>
#include <cstddef>
#include <dlperf/dlperf.hpp>
#include <dlperf/estimate/gemm_memo.hpp>
#include <string>
#include <vector>

using namespace dlperf;

namespace {

// Every field of two estimates, bit for bit.
void check_same_estimate(const gemm_estimate& a, const gemm_estimate& b) {
  CHECK(a.tile == b.tile);
  CHECK(a.blocks_per_sm == b.blocks_per_sm);
  CHECK(a.tiles == b.tiles);
  CHECK(a.waves == b.waves);
  CHECK(a.wave_efficiency == b.wave_efficiency);
  CHECK(a.last_wave_efficiency == b.last_wave_efficiency);
  CHECK(a.time.value() == b.time.value());
  CHECK(a.compute_time.value() == b.compute_time.value());
  CHECK(a.dram_time.value() == b.dram_time.value());
  CHECK(a.l2_time.value() == b.l2_time.value());
  CHECK(a.shared_time.value() == b.shared_time.value());
  CHECK(a.latency_time.value() == b.latency_time.value());
  CHECK(a.work.value() == b.work.value());
  CHECK(a.throughput.value() == b.throughput.value());
  CHECK(a.dram_bytes.value() == b.dram_bytes.value());
  CHECK(a.l2_bytes.value() == b.l2_bytes.value());
  CHECK(a.shared_bytes.value() == b.shared_bytes.value());
  CHECK(a.l2_hit_rate == b.l2_hit_rate);
  CHECK(a.bound == b.bound);
  CHECK(a.latency_bound_steps == b.latency_bound_steps);
}

// Problems of every kind the model distinguishes: skinny (the GEMV-like kernel), split-K,
// batched, with C read, large, and in the datatypes a transformer step asks for.
std::vector<gemm_problem> memo_problems() {
  std::vector<gemm_problem> out;
  for (const dtype t : {dtype::fp16, dtype::bf16, dtype::fp8_e4m3, dtype::fp32})
    for (const std::array<long long, 3> mnk : {std::array<long long, 3>{1, 4096, 4096},
                                               {8, 11008, 4096},
                                               {128, 4096, 14336},
                                               {512, 512, 8192},
                                               {4096, 4096, 4096},
                                               {2048, 32000, 4096}}) {
      gemm_problem p{mnk[0], mnk[1], mnk[2]};
      p.input = t;
      out.push_back(p);
      p.batch = 32;
      out.push_back(p);
      p.batch = 1;
      p.beta = 1.0;
      out.push_back(p);
    }
  return out;
}

}  // namespace

TEST_CASE("best_gemm with a memo gives what it gives without, and answers repeats from it",
          "[gemm_memo]") {
  const std::array<const gpu_spec*, 5> gpus{&catalog::v100_sxm2, &catalog::a100_sxm4_80gb,
                                            &catalog::h100_sxm, &catalog::mi300x,
                                            &catalog::rtx_4090};
  const std::vector<gemm_problem> problems = memo_problems();
  // Without a memo, first: the reference answers (nullopt where the device refuses the type).
  std::vector<std::optional<gemm_estimate>> plain;
  REQUIRE(best_gemm_memo::active() == nullptr);
  for (const gpu_spec* g : gpus)
    for (const gemm_problem& p : problems) try {
        plain.emplace_back(best_gemm(*g, p));
      } catch (const unsupported&) {
        plain.emplace_back();
      }
  best_gemm_memo memo;
  REQUIRE(best_gemm_memo::active() == &memo);
  std::size_t answered = 0;
  for (int round = 0; round < 2; ++round) {
    std::size_t i = 0;
    for (const gpu_spec* g : gpus)
      for (const gemm_problem& p : problems) {
        INFO(g->id() << " " << name(p.input) << " " << p.m << "x" << p.n << "x" << p.k << " x"
                     << p.batch << " beta " << p.beta << " round " << round);
        const std::optional<gemm_estimate>& reference = plain[i++];
        if (!reference) {
          CHECK_THROWS_AS(best_gemm(*g, p), unsupported);
          continue;
        }
        check_same_estimate(best_gemm(*g, p), *reference);
        if (round == 0) ++answered;
      }
  }
  // Each answer searched once (the problems are distinct), then found on the second round.
  CHECK(memo.misses() == answered);
  CHECK(memo.hits() == answered);
  CHECK(memo.size() == answered);
  CHECK(answered >= 250);  // most pairs run: V100 has no BF16 or FP8, A100 and MI300X no E4M3
}

TEST_CASE("a memo tells devices apart by their figures, not by the objects that hold them",
          "[gemm_memo]") {
  const gemm_problem p{4096, 4096, 4096};
  const gemm_problem skinny{1, 8192, 8192};
  const measured_device nominal(catalog::h100_sxm);
  measured_device slower(catalog::h100_sxm);
  slower.set_bandwidth(tier::global, catalog::h100_sxm.memory(tier::global).throughput * 0.5,
                       "half the datasheet, for the test");
  const gemm_estimate slow_plain = best_gemm(slower, skinny);
  best_gemm_memo memo;
  const gemm_estimate catalog_answer = best_gemm(catalog::h100_sxm, p);
  // A device of equal figures, held by another object: the same answer, from the memo.
  check_same_estimate(best_gemm(nominal, p), catalog_answer);
  CHECK(memo.hits() == 1);
  // One figure differs (DRAM bandwidth): searched again, and its own answer.
  const gemm_estimate nominal_skinny = best_gemm(nominal, skinny);
  const gemm_estimate slow_skinny = best_gemm(slower, skinny);
  CHECK(memo.misses() == 3);
  check_same_estimate(slow_skinny, slow_plain);
  CHECK(slow_skinny.time > nominal_skinny.time);  // a DRAM-bound GEMV on half the bandwidth
  // A copy of the slower device: equal figures again.
  const measured_device copy = slower;
  check_same_estimate(best_gemm(copy, skinny), slow_plain);
  CHECK(memo.hits() == 2);
}

TEST_CASE("memos nest, stay within their capacity and hold nothing for a refused problem",
          "[gemm_memo]") {
  const gpu_spec& g = catalog::a100_sxm4_80gb;
  best_gemm_memo outer;
  {
    best_gemm_memo inner(2);
    CHECK(best_gemm_memo::active() == &inner);
    CHECK(inner.capacity() == 2);
    for (const long long m : {64, 128, 256, 512, 1024}) {
      (void)best_gemm(g, gemm_problem{m, 1024, 1024});
      CHECK(inner.size() <= 2);
    }
    CHECK(inner.misses() == 5);
    CHECK(outer.misses() == 0);  // the inner memo answered while it lived
  }
  CHECK(best_gemm_memo::active() == &outer);
  (void)best_gemm(g, gemm_problem{64, 1024, 1024});
  CHECK(outer.misses() == 1);

  // A bad problem is refused before the memo is consulted, and leaves nothing behind.
  CHECK_THROWS_AS(best_gemm(g, gemm_problem{0, 1024, 1024}), invalid_argument);
  // A datatype the architecture cannot multiply is refused as without a memo.
  gemm_problem in_bf16{1024, 1024, 1024};
  in_bf16.input = dtype::bf16;
  CHECK_THROWS_AS(best_gemm(catalog::v100_sxm2, in_bf16), unsupported);
  CHECK(outer.size() == 1);
  CHECK(outer.misses() == 1);
}

TEST_CASE("a memo of no capacity is refused, naming it", "[gemm_memo]") {
  CHECK_THROWS_AS(best_gemm_memo(0), invalid_argument);
  CHECK_THROWS_WITH(best_gemm_memo(0), Catch::Contains("capacity must be positive"));
  CHECK(best_gemm_memo::active() == nullptr);
}
