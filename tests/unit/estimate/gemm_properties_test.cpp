// Properties of the estimators over every catalog GPU and every datatype it supports (dense and,
// where the tensor cores have it, 2:4 sparse), on shapes that include the awkward ones around
// powers of two (docs/gemm.md, "Properties"):
// - GEMM time is non-decreasing in m, n, k and batch: a bigger problem is never faster;
// - throughput never exceeds the GPU's derived peak;
// - a roofline's time is at least each of its bounds' times;
// - the best tile is never slower than any legal schedule the search enumerates (every
//   candidate tiling at every depth, split-K where its output tiles leave SMs idle);
// - every in-range problem gives a finite, positive estimate.
// The [properties] cases sample the grid (a different slice per GPU and datatype, so that the
// catalog covers it all); the hidden [monotonic_scan] case scans the whole grid and prints the
// number of violations.
#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <dlperf/dlperf.hpp>
#include <iostream>
#include <string>
#include <vector>

using namespace dlperf;

namespace {

// One GPU, one datatype, one sparsity the GPU can multiply.
struct gemm_case {
  const gpu_spec* gpu;
  dtype type;
  bool sparse;
};

std::vector<gemm_case> supported_cases() {
  std::vector<gemm_case> out;
  for (const gpu_spec* g : catalog::all)
    for (dtype t : enum_values<dtype>)
      for (bool sparse : {false, true})
        if (g->supports(t, default_accumulator(t), sparse ? sparsity::sparse_2_4 : sparsity::dense))
          out.push_back({g, t, sparse});
  return out;
}

std::string describe(const gemm_case& c, const gemm_problem& p) {
  return std::string(c.gpu->id()) + " " + std::string(name(c.type)) + (c.sparse ? " sparse" : "") +
         " " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) + " x" +
         std::to_string(p.batch);
}

gemm_problem problem(const gemm_case& c, long long m, long long n, long long k, long long batch) {
  gemm_problem p{m, n, k, batch, c.type, default_accumulator(c.type)};
  p.sparse_a = c.sparse;
  return p;
}

flop_rate peak_of(const gemm_case& c) {
  return c.gpu->peak(c.type, default_accumulator(c.type),
                     c.sparse ? sparsity::sparse_2_4 : sparsity::dense);
}

// Extents around powers of two and typical model widths.
constexpr std::array<long long, 13> extents{1,   7,    100,  127,  128,   129,  500,
                                            512, 1000, 3000, 4096, 12288, 16384};
constexpr std::array<long long, 4> batches{1, 2, 3, 8};

// Counts neighbour pairs (one step up one axis of the grid) where the bigger problem is
// estimated faster; reports the first few.
struct monotonic_counter {
  long long pairs = 0, violations = 0;
  double worst = 0;  // largest relative speed-up of a bigger problem
  std::vector<std::string> examples;

  void compare(const gemm_case& c, const gemm_problem& small, const gemm_estimate& s,
               const gemm_problem& big, const gemm_estimate& b) {
    ++pairs;
    if (b.time.value() >= s.time.value()) return;
    ++violations;
    const double gain = 1.0 - b.time.value() / s.time.value();
    worst = std::max(worst, gain);
    if (examples.size() < 8)
      examples.push_back(describe(c, small) + " -> " + describe(c, big) + ": " +
                         std::to_string(s.time.value() * 1e6) + " us -> " +
                         std::to_string(b.time.value() * 1e6) + " us");
  }
};

// The grid point (i, j, l) of the extents and batch index q: best estimate, cached per case.
class grid_estimates {
 public:
  explicit grid_estimates(const gemm_case& c) : case_(c), cache_(size, gemm_estimate{}) {}
  const gemm_estimate& at(std::size_t i, std::size_t j, std::size_t l, std::size_t q) {
    const std::size_t key = ((i * extents.size() + j) * extents.size() + l) * batches.size() + q;
    if (!done_[key]) {
      cache_[key] = best_gemm(*case_.gpu, at_problem(i, j, l, q));
      done_[key] = true;
    }
    return cache_[key];
  }
  [[nodiscard]] gemm_problem at_problem(std::size_t i, std::size_t j, std::size_t l,
                                        std::size_t q) const {
    return problem(case_, extents[i], extents[j], extents[l], batches[q]);
  }
  // Compares (i, j, l, q) with its upper neighbour on each axis.
  void check_neighbours(monotonic_counter& count, std::size_t i, std::size_t j, std::size_t l,
                        std::size_t q) {
    const gemm_estimate s = at(i, j, l, q);
    const gemm_problem p = at_problem(i, j, l, q);
    if (i + 1 < extents.size())
      count.compare(case_, p, s, at_problem(i + 1, j, l, q), at(i + 1, j, l, q));
    if (j + 1 < extents.size())
      count.compare(case_, p, s, at_problem(i, j + 1, l, q), at(i, j + 1, l, q));
    if (l + 1 < extents.size())
      count.compare(case_, p, s, at_problem(i, j, l + 1, q), at(i, j, l + 1, q));
    if (q + 1 < batches.size())
      count.compare(case_, p, s, at_problem(i, j, l, q + 1), at(i, j, l, q + 1));
  }

 private:
  static constexpr std::size_t size =
      extents.size() * extents.size() * extents.size() * batches.size();
  gemm_case case_;
  std::vector<gemm_estimate> cache_;
  std::vector<bool> done_ = std::vector<bool>(size, false);
};

// A small deterministic generator (the sample must be the same on every run).
struct lcg {
  unsigned long long state;
  std::size_t below(std::size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((state >> 33) % n);
  }
};

}  // namespace

TEST_CASE("every catalog efficiency is a fraction of peak, at most 1", "[properties]") {
  for (const architecture_spec& a : all_architectures) {
    INFO(a.name);
    CHECK(a.gemm_efficiency_default > 0);
    CHECK(a.gemm_efficiency_default <= 1);
    for (const gemm_efficiency_entry& e : a.gemm_efficiency) CHECK(e.fraction <= 1);
  }
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    CHECK(g->facts().gemm_efficiency <= 1);
    for (dtype t : enum_values<dtype>) CHECK(g->gemm_efficiency(t) <= 1);
  }
}

TEST_CASE("GEMM time is non-decreasing in m, n, k and batch on every GPU and datatype",
          "[properties][gemm]") {
  monotonic_counter count;
  lcg pick{12345};
  for (const gemm_case& c : supported_cases()) {
    grid_estimates grid(c);
    // A sample of the grid per GPU and datatype: 12 points with all their upper neighbours.
    for (int s = 0; s < 12; ++s)
      grid.check_neighbours(count, pick.below(extents.size()), pick.below(extents.size()),
                            pick.below(extents.size()), pick.below(batches.size()));
  }
  INFO(count.violations << " of " << count.pairs << " pairs; first: "
                        << (count.examples.empty() ? std::string("-") : count.examples[0]));
  CHECK(count.pairs > 10000);
  CHECK(count.violations == 0);
}

TEST_CASE("GEMM throughput never exceeds the derived peak, dense or sparse", "[properties][gemm]") {
  int checked = 0;
  for (const gemm_case& c : supported_cases()) {
    const double peak = peak_of(c).value();
    for (long long e : {1024LL, 4096LL, 16384LL}) {
      const gemm_problem p = problem(c, e, e, e, 1);
      const gemm_estimate b = best_gemm(*c.gpu, p);
      INFO(describe(c, p) << ": " << in_teraflops(b.throughput) << " TFLOPS of " << peak / 1e12);
      CHECK(b.throughput.value() <= peak);
      ++checked;
    }
  }
  CHECK(checked > 500);
}

TEST_CASE("the best tile is never slower than any legal schedule the search enumerates",
          "[properties][gemm]") {
  lcg pick{777};
  long long schedules = 0;
  for (const gemm_case& c : supported_cases()) {
    const gemm_problem p =
        problem(c, extents[pick.below(extents.size())], extents[pick.below(extents.size())],
                extents[pick.below(extents.size())], 1);
    const gemm_estimate best = best_gemm(*c.gpu, p);
    const gemm_evaluator model(*c.gpu, p);
    for (tile_config t : tile_candidates(traits(c.type).storage_bits))
      for (int stages = 2; stages <= max_search_stages; ++stages)
        for (int split : {1, 2, 4, 8}) {
          t.stages = stages;
          t.split_k = 1;
          const tile_check check = model.check(t);
          if (!check.ok()) continue;
          // The search splits K where a tiling's output tiles leave SMs idle.
          if (split > 1 && model.estimate(t, check).tiles >= c.gpu->sm_count()) continue;
          t.split_k = split;
          ++schedules;
          const gemm_estimate e = model.estimate(t, check);
          INFO(describe(c, p) << " tile " << t.block_m << "x" << t.block_n << "x" << t.block_k
                              << "/" << stages << " split " << split);
          CHECK(best.time <= e.time);
        }
  }
  CHECK(schedules > 10000);
}

TEST_CASE("every in-range GEMM gives a finite, positive estimate", "[properties][gemm]") {
  constexpr long long most = 1LL << 40;
  for (const gemm_case& c : supported_cases())
    for (const auto& [m, n, k, batch] :
         std::array<std::array<long long, 4>, 6>{{{1, 1, 1, 1},
                                                  {most, 1, 1, 1},
                                                  {1, most, most, 1},
                                                  {1, 1, most, most},
                                                  {1 << 23, 1 << 23, most, 1},
                                                  {127, 3000, 16384, 3}}}) {
      const gemm_problem p = problem(c, m, n, k, batch);
      const gemm_estimate e = best_gemm(*c.gpu, p);
      INFO(describe(c, p));
      CHECK(std::isfinite(e.time.value()));
      CHECK(e.time.value() > 0);
      CHECK(std::isfinite(e.throughput.value()));
      CHECK(e.throughput.value() > 0);
      CHECK(e.tiles >= 1);
      CHECK(e.waves >= 1);
      CHECK(e.throughput <= peak_of(c));
    }
}

TEST_CASE("a roofline's time is at least each of its bounds' times", "[properties][roofline]") {
  for (const gemm_case& c : supported_cases()) {
    for (double flop : {0.0, 1.0, 1e9, 1e15})
      for (double traffic : {0.0, 1.0, 1e6, 1e12}) {
        workload w = workload{}.compute(c.type, flops(flop), default_accumulator(c.type),
                                        c.sparse ? sparsity::sparse_2_4 : sparsity::dense);
        for (tier m : all_tiers) w = w.move(m, bytes(traffic));
        const roofline_result r = roofline(*c.gpu, w);
        INFO(c.gpu->id() << " " << name(c.type) << " " << flop << " FLOP, " << traffic << " B");
        CHECK(r.time >= r.compute_time);
        for (tier m : all_tiers) CHECK(r.time >= r.tier_time[m]);
        CHECK(r.attainable.value() <= r.peak.value() * (1 + 1e-12));
        CHECK(std::isfinite(r.time.value()));
      }
  }
}

TEST_CASE("full monotonicity scan of GEMM time over the grid", "[.][monotonic_scan]") {
  const auto start = std::chrono::steady_clock::now();
  monotonic_counter count;
  long long estimates = 0;
  for (const gemm_case& c : supported_cases()) {
    grid_estimates grid(c);
    for (std::size_t i = 0; i < extents.size(); ++i)
      for (std::size_t j = 0; j < extents.size(); ++j)
        for (std::size_t l = 0; l < extents.size(); ++l)
          for (std::size_t q = 0; q < batches.size(); ++q) {
            grid.check_neighbours(count, i, j, l, q);
            ++estimates;
          }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "monotonic scan: " << estimates << " estimates, " << count.pairs << " pairs, "
            << count.violations << " violations (worst " << 100 * count.worst << " % faster), "
            << seconds << " s\n";
  for (const std::string& e : count.examples) std::cout << "  " << e << "\n";
  CHECK(count.violations == 0);
}
