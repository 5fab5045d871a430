// vllm-rocm's GEMM figures (stack/rocm_stacks.hpp) are AITER's measured FP8 GEMMs on MI300X
// (tests/data/kernels/aiter_a8w8_mi300x.csv, docs/stacks.md "vLLM on ROCm"): each figure is the
// median of the tile model's time over the kernel's, over the shapes the model finds bound by
// the resource the figure prices, and the figures hold on shapes they were not taken from.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace dlperf;

namespace vllm_rocm_kernels {

// One published kernel: its shape, its time, and the tile model's estimate of the same GEMM.
struct kernel_row {
  long long m, n, k;
  double measured_s;
  op_estimate model;
};

std::vector<kernel_row> read_rows() {
  std::ifstream in(DLPERF_KERNEL_DATA_DIR "/aiter_a8w8_mi300x.csv");
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "m,n,k,time_us,tflops,kernel");
  std::vector<kernel_row> rows;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string m, n, k, us;
    std::getline(fields, m, ',');
    std::getline(fields, n, ',');
    std::getline(fields, k, ',');
    std::getline(fields, us, ',');
    const gemm_problem p{std::stoll(m), std::stoll(n), std::stoll(k), 1, dtype::fp8_e4m3_fnuz};
    rows.push_back({p.m, p.n, p.k, std::stod(us) * 1e-6, best_gemm_op(catalog::mi300x, "gemm", p)});
  }
  return rows;
}

const std::vector<kernel_row>& rows() {
  static const std::vector<kernel_row> all = read_rows();
  return all;
}

// The @p q quantile of @p v (linear between order statistics), as the error bands take theirs.
double quantile(std::vector<double> v, double q) {
  REQUIRE_FALSE(v.empty());
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto below = static_cast<std::size_t>(at);
  const std::size_t above = std::min(below + 1, v.size() - 1);
  return v[below] + (v[above] - v[below]) * (at - static_cast<double>(below));
}

// Model time over kernel time for the rows @p keep selects whose ceiling is bound by @p b.
template <class Keep>
std::vector<double> ratios(bound b, Keep keep) {
  std::vector<double> out;
  for (const kernel_row& r : rows())
    if (r.model.bound == b && keep(r)) out.push_back(r.model.time.value() / r.measured_s);
  return out;
}

std::vector<double> ratios(bound b) {
  return ratios(b, [](const kernel_row&) { return true; });
}

// |stack's time / kernel's - 1| for the rows @p keep selects, each GEMM as @p s runs it.
template <class Keep>
std::vector<double> errors(const software_stack& s, Keep keep) {
  std::vector<double> out;
  for (const kernel_row& r : rows())
    if (keep(r))
      out.push_back(std::abs(apply_stack(s, r.model, device_context(catalog::mi300x)).time.value() /
                                 r.measured_s -
                             1.0));
  return out;
}

// Llama 3.1 405B's shards: a hidden size of 16384 is N or K of every one of its GEMMs, and of
// none of 70B's (hidden 8192).
bool of_405b(const kernel_row& r) { return r.n % 16384 == 0 || r.k % 16384 == 0; }

// vllm-rocm with its two GEMM figures taken from the ratios @p compute and @p dram.
software_stack refit(const std::vector<double>& compute, const std::vector<double>& dram) {
  software_stack s = stacks::vllm_rocm;
  s.gemm_efficiency.value = quantile(compute, 0.5);
  s.gemv_dram_share.value = quantile(dram, 0.5);
  return s;
}

}  // namespace vllm_rocm_kernels

using namespace vllm_rocm_kernels;

TEST_CASE("vllm-rocm's GEMM figures are AITER's kernels", "[stack][vllm_rocm]") {
  REQUIRE(rows().size() == 427);  // every cu_num 304 row of the commit
  for (const kernel_row& r : rows()) {
    CHECK(r.measured_s > 0);
    CHECK(std::isfinite(r.model.time.value()));
  }
  const std::vector<double> compute = ratios(bound::compute);
  const std::vector<double> dram = ratios(bound::global);
  CHECK(compute.size() == 315);
  CHECK(dram.size() == 88);
  // The record's figures, to the two digits it gives them, and the spread its source quotes.
  CHECK(stacks::vllm_rocm.gemm_efficiency.value == Approx(quantile(compute, 0.5)).margin(0.005));
  CHECK(stacks::vllm_rocm.gemv_dram_share.value == Approx(quantile(dram, 0.5)).margin(0.005));
  CHECK(quantile(compute, 0.1) == Approx(0.57).margin(0.005));
  CHECK(quantile(compute, 0.9) == Approx(0.81).margin(0.005));
  CHECK(quantile(dram, 0.1) == Approx(0.53).margin(0.005));
  CHECK(quantile(dram, 0.9) == Approx(0.83).margin(0.005));
  // Every kernel is slower than the tile model's ceiling of it: the figures are in (0, 1).
  CHECK(stacks::vllm_rocm.gemm_efficiency.value < 1.0);
  CHECK(stacks::vllm_rocm.gemv_dram_share.value < 1.0);
}

TEST_CASE("vllm-rocm's GEMM figures hold on the shapes they were not taken from",
          "[stack][vllm_rocm]") {
  const auto all = [](const kernel_row&) { return true; };
  const auto small = [](const kernel_row& r) { return r.m <= 1024; };
  const auto large = [](const kernel_row& r) { return r.m > 1024; };
  const auto llama_70b = [](const kernel_row& r) { return !of_405b(r); };
  // Under the stack, half the kernels are within 10 % of their time (9.5 %); held out, within
  // 20 % (15.1 % and 13.9 %: the kernels of fewer rows sit further below the tile model, 0.66 of
  // it against 0.70 over all, so a figure from them is pessimistic on the large ones).
  CHECK(quantile(errors(stacks::vllm_rocm, all), 0.5) < 0.10);
  // Leave one scale out: figures from M <= 1024 rows, errors on the larger ones.
  const software_stack from_small =
      refit(ratios(bound::compute, small), ratios(bound::global, small));
  CHECK(quantile(errors(from_small, large), 0.5) < 0.20);
  // Leave one model out: figures from 70B's shards, errors on 405B's.
  const software_stack from_70b =
      refit(ratios(bound::compute, llama_70b), ratios(bound::global, llama_70b));
  CHECK(quantile(errors(from_70b, of_405b), 0.5) < 0.20);
}

TEST_CASE("vllm-rocm kernel figures, printed for docs/stacks.md", "[.][vllm_rocm_kernels]") {
  const auto all = [](const kernel_row&) { return true; };
  const auto small = [](const kernel_row& r) { return r.m <= 1024; };
  const auto large = [](const kernel_row& r) { return r.m > 1024; };
  const auto llama_70b = [](const kernel_row& r) { return !of_405b(r); };
  const auto print = [](const char* what, const std::vector<double>& v) {
    std::printf("| %s | %zu | %.3f | %.3f | %.3f |\n", what, v.size(), quantile(v, 0.1),
                quantile(v, 0.5), quantile(v, 0.9));
  };
  print("compute-bound, model / kernel", ratios(bound::compute));
  print("DRAM-bound, model / kernel", ratios(bound::global));
  print("latency-bound, model / kernel", ratios(bound::latency));
  print("all, |stack / kernel - 1|", errors(stacks::vllm_rocm, all));
  print("M > 1024, figures from M <= 1024",
        errors(refit(ratios(bound::compute, small), ratios(bound::global, small)), large));
  print(
      "405B, figures from 70B",
      errors(refit(ratios(bound::compute, llama_70b), ratios(bound::global, llama_70b)), of_405b));
  const software_stack from_small =
      refit(ratios(bound::compute, small), ratios(bound::global, small));
  const software_stack from_70b =
      refit(ratios(bound::compute, llama_70b), ratios(bound::global, llama_70b));
  std::printf("from M <= 1024: %.3f %.3f; from 70B: %.3f %.3f\n", from_small.gemm_efficiency.value,
              from_small.gemv_dram_share.value, from_70b.gemm_efficiency.value,
              from_70b.gemv_dram_share.value);
  SUCCEED();
}
