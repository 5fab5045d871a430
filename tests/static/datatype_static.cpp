// Compile-time tests: datatype traits are constant expressions with the published values.
#include <dlperf/core/datatype.hpp>

using namespace dlperf;

static_assert(traits(dtype::fp16).max_finite() == 65504.0, "IEEE binary16 max");
static_assert(traits(dtype::fp8_e4m3).max_finite() == 448.0, "OCP OFP8 E4M3 max");
static_assert(traits(dtype::fp8_e5m2).max_finite() == 57344.0, "OCP OFP8 E5M2 max");
static_assert(traits(dtype::fp4_e2m1).max_finite() == 6.0, "OCP MX FP4 E2M1 max");
static_assert(traits(dtype::bf16).max_finite() > 3.38e38 &&
              traits(dtype::bf16).max_finite() < 3.40e38);
static_assert(traits(dtype::tf32).storage_bits == 32 && traits(dtype::tf32).mantissa_bits == 10);
static_assert(fp16_tag::traits.exponent_bits == 5);
static_assert(bf16_tag::traits.exponent_bits == traits(dtype::fp32).exponent_bits,
              "BF16 has FP32's exponent, hence its range");
static_assert(datatype_tag<fp8_e4m3_tag> && !datatype_tag<int>);
static_assert(needs_loss_scaling(dtype::fp16, 1e-7) && !needs_loss_scaling(dtype::bf16, 1e-7));
static_assert(default_accumulator(dtype::int8) == accumulator::int32);
static_assert(default_accumulator(dtype::fp16) == accumulator::fp32);
static_assert(dtype(fp16) == dtype::fp16, "tags convert to the run-time id");
