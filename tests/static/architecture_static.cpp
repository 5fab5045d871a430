// Compile-time tests: architecture facts and capability concepts.
#include <dlperf/hardware/architectures.hpp>

using namespace dlperf;

static_assert(architecture<ampere_ga100> && architecture<hopper_gh100> && !architecture<int>);
static_assert(tensor_cores_support<hopper_gh100, fp8_e4m3_tag>);
static_assert(tensor_cores_support<ada_ad10x, fp8_e5m2_tag, accumulator::fp16>);
static_assert(!tensor_cores_support<ampere_ga100, fp8_e4m3_tag>, "no FP8 on Ampere");
static_assert(!tensor_cores_support<pascal_gp10x, fp16_tag>, "no tensor cores on Pascal");
static_assert(!tensor_cores_support<turing_tu11x, fp16_tag>, "no tensor cores on GTX 16");
static_assert(tensor_cores_support<turing_tu10x, int4_tag>);
static_assert(!tensor_cores_support<hopper_gh100, int4_tag>, "Hopper dropped INT4");
static_assert(tensor_cores_support<blackwell_gb100, fp4_e2m1_tag>);
static_assert(tensor_fma_per_clock<ampere_ga100, fp16_tag>() == 1024, "A100 whitepaper");
static_assert(tensor_fma_per_clock<volta_gv100, fp16_tag, accumulator::fp16>() == 512);
static_assert(fits_shared_memory_per_block<ampere_ga100, 160 * 1024>(),
              "a 160 KiB tile fits A100's shared memory");
static_assert(ampere_ga100::spec.sm.shared_per_sm > ampere_ga10x::spec.sm.shared_per_sm,
              "GA100 and GA10x differ");
static_assert(hopper_gh100::spec.sm.max_threads_per_sm() == 2048);
static_assert(turing_tu10x::spec.sm.max_threads_per_sm() == 1024);
static_assert(compute_capability_of(find_architecture("ada_ad10x")).minor == 9);
