// Compile-time tests: catalog GPUs answer peak and tier questions in constant expressions.
#include <dlperf/dlperf.hpp>

using namespace dlperf;
using namespace dlperf::literals;

static_assert(peak(catalog::h100_sxm, fp8_e4m3) > 1.9_PFLOPS, "H100 FP8 is ~1979 TFLOPS dense");
static_assert(peak(catalog::a100_sxm4_40gb, fp16) > 311_TFLOPS &&
              peak(catalog::a100_sxm4_40gb, fp16) < 313_TFLOPS);
static_assert(peak(catalog::rtx_4090, fp8_e4m3, accumulate_fp16) >
              peak(catalog::rtx_4090, fp8_e4m3, accumulate_fp32));
static_assert(peak(catalog::a100_sxm4_40gb, fp16, accumulate_fp32, sparse_2_4) ==
              2.0 * peak(catalog::a100_sxm4_40gb, fp16));
static_assert(catalog::find("rtx_3090").facts().sms == 82);
static_assert(catalog::h100_sxm.memory(tier::global).throughput > 3.3_TBps);
static_assert(catalog::h100_sxm.memory(l2_cache).capacity == 50_MiB);
static_assert(catalog::rtx_4090.memory(tier::shared).capacity == 128.0 * 100_KiB);
// Every catalog id names one GPU: the list is usable as a table at compile time.
constexpr bool catalog_ids_unique() {
  for (std::size_t i = 0; i < catalog::all.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (catalog::all[i]->id() == catalog::all[j]->id()) return false;
  return true;
}
static_assert(catalog_ids_unique());
static_assert(catalog::index_of("h800_sxm") == catalog::index_of("h100_sxm").value() + 1);
// The L40 runs AD102 at half the L40S's tensor rate: 142 SMs each, 2490 against 2520 MHz.
constexpr double l40_to_l40s_int8 =
    peak(catalog::l40, int8).value() / peak(catalog::l40s, int8).value() * 2.0 * 2520 / 2490;
static_assert(l40_to_l40s_int8 > 1 - 1e-12 && l40_to_l40s_int8 < 1 + 1e-12);
// CDNA 4 runs OCP FP8, which CDNA 3 has no path for.
static_assert(catalog::mi355x.supports(dtype::fp8_e4m3, accumulator::fp32));
static_assert(!tensor_cores_support<cdna3, fp8_e4m3_tag>);

// AMD: MI300X FP8 is FNUZ; OCP FP8 has no path on CDNA 3, CDNA 2 has neither TF32 nor FP8.
static_assert(peak(catalog::mi300x, fp8_e4m3_fnuz) > 2.6_PFLOPS, "MI300X FP8 2614.9 TFLOPS");
static_assert(!catalog::mi300x.supports(dtype::fp8_e4m3, accumulator::fp32));
static_assert(!catalog::mi250x.supports(dtype::tf32, accumulator::fp32));
static_assert(!tensor_cores_support<cdna2, fp8_e4m3_fnuz_tag>);
