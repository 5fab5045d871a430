// The cycle model of docs/gemm.md#gemm_cycles, from its general formulas.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>

using namespace dlperf;

TEST_CASE("the guide's worked example: 392 and 221 cycles", "[cycles][model]") {
  const cycle_breakdown plain = cycles_without_tensor_cores(dettmers_example, dettmers_2020);
  CHECK(plain.global == 200);
  CHECK(plain.shared == 8 * 20);
  CHECK(plain.math == 8 * 4);
  CHECK(plain.total() == 392);
  const cycle_breakdown tensor = cycles_with_tensor_cores(dettmers_example, dettmers_2020);
  CHECK(tensor.global == 200);
  CHECK(tensor.shared == 20);
  CHECK(tensor.math == 1);
  CHECK(tensor.total() == 221);
}

TEST_CASE("the same formulas take the 2023 and per-architecture latencies", "[cycles]") {
  CHECK(cycles_without_tensor_cores(dettmers_example, dettmers_2023).total() == 380 + 8 * (34 + 4));
  CHECK(cycles_with_tensor_cores(dettmers_example, dettmers_2023).total() == 380 + 34 + 1);
  const latency_set a100 = latencies_of(ampere_ga100::spec);
  CHECK(cycles_with_tensor_cores(dettmers_example, a100).total() ==
        ampere_ga100::spec.latency.global + ampere_ga100::spec.latency.shared + 1);
}

TEST_CASE("more work than the slice can do in one pass takes more passes", "[cycles]") {
  cycle_scenario bigger = dettmers_example;
  bigger.n = 128;  // 16384 outputs over 2048 threads x 8: one pass; 64x64 4x4 blocks over 64 TCs
  const cycle_breakdown tensor = cycles_with_tensor_cores(bigger, dettmers_2020);
  CHECK(tensor.math == 16);          // (128/4)^2 = 1024 operations / 64 tensor cores
  CHECK(tensor.global == 200 * 16);  // 2 x 128^2 elements / 2048 loaders
  cycle_scenario fewer = dettmers_example;
  fewer.sms = 1;  // 1 SM x 8 warps x 32 = 256 threads: 1024 outputs / (256 x 8) = 1 pass
  CHECK(cycles_without_tensor_cores(fewer, dettmers_2020).global == 200 * 8);
}

TEST_CASE("bad scenarios are rejected", "[cycles][errors]") {
  cycle_scenario s = dettmers_example;
  s.n = 0;
  CHECK_THROWS_AS(cycles_without_tensor_cores(s, dettmers_2020), invalid_argument);
  s = dettmers_example;
  s.tensor_cores_per_sm = 0;
  CHECK_THROWS_WITH(cycles_with_tensor_cores(s, dettmers_2020),
                    "cycle model: the scenario has no tensor cores");
  s.warps_per_sm = -1;
  CHECK_THROWS_AS(cycles_without_tensor_cores(s, dettmers_2020), invalid_argument);
}

TEST_CASE("hardware without tensor cores has no tensor-core figure", "[cycles][errors]") {
  for (const architecture_spec* arch : {&pascal_gp100::spec, &turing_tu11x::spec}) {
    const latency_set l = latencies_of(*arch);
    CHECK(l.tensor == 0);
    CHECK(cycles_without_tensor_cores(dettmers_example, l).total() ==
          arch->latency.global + 8 * (arch->latency.shared + arch->latency.ffma));
    CHECK_THROWS_WITH(cycles_with_tensor_cores(dettmers_example, l),
                      "cycle model: latency set '" + std::string(arch->name) +
                          "' has no tensor cores, so there is no tensor-core figure");
  }
  CHECK(latencies_of(volta_gv100::spec).tensor == 1);
}
