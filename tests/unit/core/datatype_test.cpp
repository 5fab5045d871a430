// Datatypes: published format figures, names, loss scaling and its rejections.
#include <catch2/catch.hpp>
#include <dlperf/core/datatype.hpp>

using namespace dlperf;

// Published maxima: IEEE 754 binary16 65504; bfloat16 3.3895e38; OCP OFP8 v1.0 Table 1: E4M3
// 448, E5M2 57344; OCP MX v1.0: FP4 E2M1 6.0; TF32 (A100 whitepaper) as FP32's range.
TEST_CASE("max finite values match the format specifications", "[datatype]") {
  CHECK(traits(dtype::fp16).max_finite() == 65504.0);
  CHECK(traits(dtype::bf16).max_finite() == Approx(3.3895313892515355e38));
  CHECK(traits(dtype::fp8_e4m3).max_finite() == 448.0);
  CHECK(traits(dtype::fp8_e5m2).max_finite() == 57344.0);
  CHECK(traits(dtype::fp4_e2m1).max_finite() == 6.0);
  CHECK(traits(dtype::fp32).max_finite() == Approx(3.4028234663852886e38));
  CHECK(traits(dtype::tf32).max_finite() == Approx((2 - 0x1p-10) * 0x1p127));  // 3.4012e38
  CHECK(traits(dtype::int8).max_finite() == 127.0);
  CHECK(traits(dtype::int4).max_finite() == 7.0);
}

TEST_CASE("min normal, subnormal and epsilon follow the bit layout", "[datatype]") {
  CHECK(traits(dtype::fp16).min_normal() == Approx(6.103515625e-5));
  CHECK(traits(dtype::fp16).min_subnormal() == Approx(5.960464477539063e-8));
  CHECK(traits(dtype::fp16).epsilon() == Approx(9.765625e-4));
  CHECK(traits(dtype::bf16).epsilon() == 0.0078125);
  CHECK(traits(dtype::bf16).min_normal() == Approx(1.1754943508222875e-38));
  CHECK(traits(dtype::fp8_e4m3).min_normal() == 0.015625);        // 2^-6
  CHECK(traits(dtype::fp8_e4m3).min_subnormal() == 0.001953125);  // 2^-9
  CHECK(traits(dtype::fp8_e5m2).min_normal() == Approx(6.103515625e-5));
  CHECK(traits(dtype::fp4_e2m1).min_subnormal() == 0.5);
  CHECK(traits(dtype::tf32).epsilon() == traits(dtype::fp16).epsilon());  // 10-bit mantissa
}

TEST_CASE("storage sizes", "[datatype]") {
  CHECK(traits(dtype::tf32).storage_bits == 32);  // stored as FP32 in memory
  CHECK(traits(dtype::tf32).mantissa_bits == 10);
  CHECK(traits(dtype::bf16).storage().value() == 2.0);
  CHECK(traits(dtype::fp8_e4m3).storage().value() == 1.0);
  CHECK(traits(dtype::fp4_e2m1).storage().value() == 0.5);
  CHECK(traits(dtype::int4).storage().value() == 0.5);
  CHECK(!traits(dtype::fp8_e4m3).has_infinity());
  CHECK(traits(dtype::fp8_e5m2).has_infinity());
}

TEST_CASE("names round-trip and unknown names are rejected by name", "[datatype]") {
  for (dtype t : all_dtypes) CHECK(parse_dtype(name(t)) == t);
  CHECK(parse_dtype("fp4") == dtype::fp4_e2m1);
  CHECK_THROWS_AS(parse_dtype("fp7"), not_found);
  CHECK_THROWS_WITH(parse_dtype("fp7"),
                    Catch::Contains("unknown dtype 'fp7'") && Catch::Contains("fp8_e4m3"));
}

// docs/model.md#model_datatypes: FP16 gradients outside +-65504 overflow, small ones underflow:
// loss scaling; BF16 has FP32's range and needs none.
TEST_CASE("loss scaling is needed exactly outside the normal range", "[datatype][model]") {
  CHECK(needs_loss_scaling(dtype::fp16, 1e-6));
  CHECK(needs_loss_scaling(dtype::fp16, 7e4));
  CHECK(!needs_loss_scaling(dtype::fp16, 1e-3));
  CHECK(!needs_loss_scaling(dtype::bf16, 1e-6));
  CHECK(!needs_loss_scaling(dtype::bf16, 1e30));
  CHECK(!needs_loss_scaling(dtype::fp32, 1e-30));
  CHECK(needs_loss_scaling(dtype::fp8_e4m3, 1e-3));
  CHECK(!needs_loss_scaling(dtype::fp16, 0.0));
}

TEST_CASE("loss scaling rejects bad magnitudes and integer types", "[datatype][errors]") {
  CHECK_THROWS_AS(needs_loss_scaling(dtype::fp16, -1.0), invalid_argument);
  CHECK_THROWS_AS(needs_loss_scaling(dtype::fp16, std::numeric_limits<double>::quiet_NaN()),
                  invalid_argument);
  CHECK_THROWS_AS(needs_loss_scaling(dtype::fp16, std::numeric_limits<double>::infinity()),
                  invalid_argument);
  CHECK_THROWS_WITH(needs_loss_scaling(dtype::int8, 1.0), Catch::Contains("int8"));
}
