// The tile-reuse model against published GEMM measurements (docs/gemm.md has the full table).
//
// Limits, and why: on large GEMMs (>= 100 GFLOP), where a model of steady-state throughput
// should hold, the median error must stay within 10 % (the goal of the design) and every row
// within 20 % (host-timed sources carry 5-10 % of their own noise, and power-limited boards
// vary with temperature). Over all rows, small problems included, the per-call overhead depends
// on how the source timed (CUDA graphs, do_bench, host loops), so the median must stay within
// 15 % and the worst row within 75 %.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "evidence_csv.hpp"
#include "gemm_measurements.hpp"

using namespace dlperf;

using evidence::median;

TEST_CASE("GEMM predictions against published measurements", "[gemm][evidence]") {
  std::vector<double> all, large;
  std::vector<std::string> gpus, types;
  for (const test::gemm_measurement& r : test::gemm_measurements) {
    const gemm_problem p{r.m, r.n, r.k, r.batch, r.type, default_accumulator(r.type)};
    const double predicted = in_teraflops(best_gemm(catalog::find(r.gpu), p).throughput);
    const double error = std::abs(predicted - r.tflops) / r.tflops;
    INFO(r.gpu << " " << name(r.type) << " " << r.m << "x" << r.n << "x" << r.k << ": predicted "
               << predicted << ", measured " << r.tflops << " (" << r.source << ")");
    if (r.calibration) {
      CHECK(error < 0.2);  // the calibration rows themselves are reproduced
      continue;
    }
    all.push_back(error);
    if (p.work().value() >= 1e11) {
      large.push_back(error);
      CHECK(error <= 0.20);
    }
    CHECK(error <= 0.75);
    gpus.emplace_back(r.gpu);
    types.emplace_back(name(r.type));
  }
  std::sort(gpus.begin(), gpus.end());
  std::sort(types.begin(), types.end());
  CHECK(std::unique(gpus.begin(), gpus.end()) - gpus.begin() >= 3);
  CHECK(std::unique(types.begin(), types.end()) - types.begin() >= 2);
  CHECK(all.size() >= 20);
  CHECK(median(large) <= 0.10);
  CHECK(median(all) <= 0.15);
}

namespace {
std::string tile_text(const tile_config& t) {
  std::string s = std::to_string(t.block_m) + "x" + std::to_string(t.block_n) + "x" +
                  std::to_string(t.block_k) + "/" + std::to_string(t.stages);
  if (t.split_k > 1) s += " splitK" + std::to_string(t.split_k);
  return s;
}
}  // namespace

// Prints the evidence table of docs/gemm.md and the median and worst |error| per GPU and dtype
// and per vendor and dtype (validation rows only). Hidden: run with `dlperf_tests
// "[evidence_table]"`.
TEST_CASE("GEMM evidence table", "[.][evidence_table]") {
  std::map<std::string, std::vector<double>> by_group;   // "gpu dtype" -> signed errors
  std::map<std::string, std::vector<double>> by_vendor;  // "vendor dtype" -> signed errors
  std::vector<double> all, large;                        // |error| of validation rows
  std::cout
      << "| GPU | dtype | M x N x K (x batch) | GFLOP | measured TFLOPS | predicted | error | "
         "tile | bound | source |\n|---|---|---|---:|---:|---:|---:|---|---|---|\n";
  for (const test::gemm_measurement& r : test::gemm_measurements) {
    const gemm_problem p{r.m, r.n, r.k, r.batch, r.type, default_accumulator(r.type)};
    const gemm_estimate e = best_gemm(catalog::find(r.gpu), p);
    const double predicted = in_teraflops(e.throughput);
    const double error = (predicted - r.tflops) / r.tflops;
    char line[256];
    std::snprintf(
        line, sizeof line, "| %s | %s | %lldx%lldx%lld%s | %.0f | %.1f | %.1f | %+.1f %%%s | ",
        std::string(r.gpu).c_str(), std::string(name(r.type)).c_str(), r.m, r.n, r.k,
        r.batch > 1 ? (" x" + std::to_string(r.batch)).c_str() : "", p.work().value() / 1e9,
        r.tflops, predicted, 100 * error, r.calibration ? " (calibration)" : "");
    std::cout << line << tile_text(e.tile) << " | " << name(e.bound) << " | " << r.source << " |\n";
    if (!r.calibration) {
      all.push_back(std::abs(error));
      if (p.work().value() >= 1e11) large.push_back(std::abs(error));
      const std::string type(name(r.type));
      by_group[std::string(r.gpu) + " " + type].push_back(error);
      by_vendor[std::string(name(catalog::find(r.gpu).arch().vendor)) + " " + type].push_back(
          error);
    }
  }
  const auto print_groups = [](const char* title, const auto& groups) {
    std::cout << "\n| " << title
              << " | rows | median abs error | worst error |\n|---|---:|---:|---:|\n";
    for (const auto& [group, errors] : groups) {
      std::vector<double> magnitudes;
      for (const double e : errors) magnitudes.push_back(std::abs(e));
      const double worst = *std::max_element(errors.begin(), errors.end(), [](double a, double b) {
        return std::abs(a) < std::abs(b);
      });
      char line[160];
      std::snprintf(line, sizeof line, "| %s | %zu | %.1f %% | %+.1f %% |\n", group.c_str(),
                    errors.size(), 100 * median(magnitudes), 100 * worst);
      std::cout << line;
    }
  };
  const auto summary = [](const char* rows, const std::vector<double>& errors) {
    std::printf("- %s %zu: median |error| %.1f %%, worst %.1f %%\n", rows, errors.size(),
                100 * median(errors), 100 * *std::max_element(errors.begin(), errors.end()));
  };
  std::cout << "\n" << std::flush;
  summary("validation rows", all);
  summary("large (>=100 GFLOP) rows", large);
  std::fflush(stdout);
  print_groups("GPU dtype", by_group);
  print_groups("vendor dtype", by_vendor);
  std::cout
      << "\nKnown misses:\n\n| GPU | dtype | M x N x K | GFLOP | measured | predicted | error | "
         "model's tile | mechanism | source |\n|---|---|---|---:|---:|---:|---:|---|---|---|\n";
  for (const test::gemm_miss& miss : test::gemm_known_misses) {
    const test::gemm_measurement& r = miss.row;
    const gemm_problem p{r.m, r.n, r.k, r.batch, r.type, default_accumulator(r.type)};
    const gemm_estimate e = best_gemm(catalog::find(r.gpu), p);
    const double predicted = in_teraflops(e.throughput);
    char line[256];
    std::snprintf(
        line, sizeof line, "| %s | %s | %lldx%lldx%lld | %.0f | %.1f | %.1f | %+.0f %% | ",
        std::string(r.gpu).c_str(), std::string(name(r.type)).c_str(), r.m, r.n, r.k,
        p.work().value() / 1e9, r.tflops, predicted, 100 * (predicted - r.tflops) / r.tflops);
    std::cout << line << tile_text(e.tile) << " | " << miss.mechanism << " | " << r.source
              << " |\n";
  }
  CHECK(!by_group.empty());
}

TEST_CASE("known misses are still missed, each for its stated reason", "[gemm][evidence]") {
  for (const test::gemm_miss& miss : test::gemm_known_misses) {
    const test::gemm_measurement& r = miss.row;
    const gemm_problem p{r.m, r.n, r.k, r.batch, r.type, default_accumulator(r.type)};
    const double predicted = in_teraflops(best_gemm(catalog::find(r.gpu), p).throughput);
    INFO(r.gpu << " " << r.m << "x" << r.n << "x" << r.k << ": predicted " << predicted
               << ", measured " << r.tflops << " (" << r.source << "; " << miss.mechanism << ")");
    CHECK(!miss.mechanism.empty());
    // The model assumes a well-tuned library; each of these runs further below it than the
    // evidence test's 75 % allows.
    CHECK(predicted > 1.75 * r.tflops);
  }
}
