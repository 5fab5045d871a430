// The vocabulary layer: enumerator lists (names, parsing, array sizes), bounds that name their
// tier, interconnect bandwidths derived from the PCIe specifications, and the FNUZ FP8 formats.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <string>

using namespace dlperf;

namespace {
// An enum whose list is not in value order, for enum_index's search (the catalog's enums are
// dense, enum_is_dense).
enum class sparse_enum : int { low = -3, high = 40, middle = 7 };
}  // namespace

template <>
struct dlperf::enum_list<sparse_enum> {
  static constexpr std::string_view kind = "test value";
  static constexpr std::array values{enumerator{sparse_enum::high, "high"},
                                     enumerator{sparse_enum::low, "low"},
                                     enumerator{sparse_enum::middle, "middle"}};
};

TEST_CASE("every enumerator has a distinct name that parses back to it", "[vocabulary]") {
  const auto round_trip = []<listed_enum E>(E) {
    for (std::size_t i = 0; i < enum_count<E>; ++i) CHECK(enum_index(enum_values<E>[i]) == i);
    for (E e : enum_values<E>) {
      CHECK(parse<E>(name(e)) == e);
      for (E other : enum_values<E>)
        if (other != e) CHECK(name(other) != name(e));
    }
  };
  round_trip(dtype{});
  round_trip(accumulator{});
  round_trip(sparsity{});
  round_trip(tier{});
  round_trip(bound{});
  round_trip(family{});
  round_trip(vendor{});
  round_trip(segment{});
  round_trip(memory_kind{});
  round_trip(price_kind{});
  round_trip(provenance{});
  round_trip(interconnect_kind{});
  round_trip(rank_task{});
  round_trip(precision_choice{});
  round_trip(sparse_enum{});
  // The dense lists' positions are their values; a sparse list is searched.
  STATIC_REQUIRE(enum_is_dense<dtype>);
  STATIC_REQUIRE(enum_is_dense<tier>);
  STATIC_REQUIRE_FALSE(enum_is_dense<sparse_enum>);
  STATIC_REQUIRE(enum_index(sparse_enum::middle) == 2);
  CHECK_THROWS_AS(name(static_cast<sparse_enum>(8)), invalid_argument);
}

TEST_CASE("unknown names are rejected listing the valid ones", "[vocabulary]") {
  CHECK_THROWS_AS(parse<tier>("l3"), not_found);
  CHECK_THROWS_WITH(parse<tier>("l3"),
                    "unknown memory tier 'l3' (valid: registers, shared, l2, llc, global)");
  CHECK_THROWS_WITH(parse<vendor>("intel"), "unknown vendor 'intel' (valid: nvidia, amd, apple)");
  CHECK(enum_names<sparsity>("|") == "dense|2:4");
  // A value outside the list (a cast from a bad integer) is an error, not an out-of-range read.
  CHECK_THROWS_AS(name(static_cast<tier>(200)), invalid_argument);
  CHECK_THROWS_AS(name(static_cast<tier>(5)), invalid_argument);  // one past the last
  CHECK_THROWS_WITH(name(static_cast<dtype>(255)), "dlperf: invalid dtype enumerator");
}

TEST_CASE("arrays indexed by an enum are sized by its list", "[vocabulary]") {
  STATIC_REQUIRE(enum_count<dtype> == all_dtypes.size());
  STATIC_REQUIRE(per_tier<int>::size() == 5);
  per_tier<int> a{};
  a[tier::llc] = 7;
  CHECK(a[tier::llc] == 7);
  CHECK(a[tier::l2] == 0);
}

TEST_CASE("each memory bound names its tier explicitly", "[vocabulary]") {
  for (tier t : all_tiers) CHECK(tier_of(bound_of(t)) == t);
  CHECK(bound_of(tier::global) == bound::global);
  CHECK(bound_of(tier::llc) == bound::llc);
  CHECK_FALSE(tier_of(bound::compute).has_value());
  CHECK_FALSE(tier_of(bound::latency).has_value());
  CHECK(describe(bound::global) == "DRAM-bound");
}

TEST_CASE("PCIe bandwidth follows from transfer rate, encoding and lanes", "[vocabulary]") {
  // PCI-SIG: 3.0 is 8 GT/s and 4.0 16 GT/s per lane, 128b/130b: x16 moves 15.75 / 31.5 GB/s
  // each way, the figures NVIDIA's datasheets quote as 32 / 64 GB/s both ways.
  CHECK(in_gigabytes_per_second(pcie_link(3, 16).throughput) == Approx(31.5).epsilon(0.001));
  CHECK(in_gigabytes_per_second(pcie_link(4, 16).throughput) == Approx(63.0).epsilon(0.001));
  CHECK(in_gigabytes_per_second(pcie_link(4, 4).throughput) ==
        Approx(in_gigabytes_per_second(pcie_link(4, 16).throughput) / 4));
  CHECK(pcie_link(5, 16).kind == interconnect_kind::pcie);
  CHECK_THROWS_WITH(pcie_link(7, 16), "PCIe generation must be 1-5, got 7");
  CHECK_THROWS_WITH(pcie_link(4, 3), "PCIe lanes must be 1, 2, 4, 8 or 16, got 3");
}

TEST_CASE("FNUZ FP8 formats: one larger bias, no infinity", "[vocabulary][datatype]") {
  // AMD CDNA 3 ISA reference / ONNX float8 types: E4M3FNUZ max 240, min normal 2^-7;
  // E5M2FNUZ max 57344, min normal 2^-15.
  CHECK(traits(dtype::fp8_e4m3_fnuz).max_finite() == 240.0);
  CHECK(traits(dtype::fp8_e4m3_fnuz).min_normal() == 1.0 / 128);
  CHECK(traits(dtype::fp8_e5m2_fnuz).max_finite() == 57344.0);
  CHECK(traits(dtype::fp8_e5m2_fnuz).min_normal() == 1.0 / 32768);
  CHECK_FALSE(traits(dtype::fp8_e4m3_fnuz).has_infinity());
  CHECK(traits(dtype::fp8_e4m3_fnuz).storage_bits == 8);
}

TEST_CASE("an absent last-level cache costs what DRAM costs", "[vocabulary][catalog]") {
  for (const gpu_spec* g : catalog::all) {
    if (g->facts().llc.value() > 0) continue;
    INFO(g->id());
    const tier_spec llc = g->memory(tier::llc);
    CHECK(llc.capacity.value() == 0);
    CHECK(llc.throughput == g->memory(tier::global).throughput);
    // Traffic there is priced at DRAM speed; no traffic costs nothing.
    const auto w = workload{}.compute(dtype::fp32, flops(1)).move(tier::llc, bytes(1e9));
    CHECK(roofline(*g, w).bound == bound::llc);
    CHECK(roofline(*g, w).time.value() == Approx(1e9 / g->memory(tier::global).throughput.value()));
  }
}

TEST_CASE("NVIDIA compute capability comes from the ISA target", "[vocabulary][architecture]") {
  CHECK(compute_capability_of(hopper_gh100::spec).major == 9);
  CHECK(compute_capability_of(blackwell_gb100::spec).major == 10);
  CHECK(compute_capability_of(ada_ad10x::spec).minor == 9);
  for (const architecture_spec& a : all_architectures) {
    INFO(a.name);
    CHECK(a.sm.simd_width > 0);
    CHECK(a.sm.max_threads_per_sm() == a.sm.max_warps_per_sm * a.sm.simd_width);
    if (a.vendor == vendor::nvidia) {
      CHECK(a.sm.simd_width == 32);
      CHECK(a.isa.substr(0, 3) == "sm_");
    }
  }
}

TEST_CASE("an enumerator's label is the word prose uses, its name where it has none",
          "[vocabulary]") {
  // board_class::hbm reads "HBM" in the serving bands' text ("NVIDIA HBM boards"); the others
  // have no label and read as their stable names.
  static_assert(label(board_class::hbm) == "HBM");
  static_assert(label(board_class::consumer) == name(board_class::consumer));
  static_assert(label(sparse_enum::middle) == "middle");
  for (const board_class b : enum_values<board_class>) {
    CHECK(!label(b).empty());
    CHECK(parse<board_class>(name(b)) == b);  // the label never replaces the stable name
  }
}
