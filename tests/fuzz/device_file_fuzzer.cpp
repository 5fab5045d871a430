// libFuzzer harness for the device-file loader (docs/calibration.md, "Device files"). The
// loader's contract: any byte string gives either a device whose every derived figure is finite
// and positive, or dlperf's own invalid_argument naming the field. Anything else aborts: another
// exception escaping, a figure that is infinite, NaN, zero or negative.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <variant>

#include <dlperf/dlperf.hpp>
#include <dlperf/io/device_file.hpp>

namespace {

using namespace dlperf;

[[noreturn]] void broken(const char* what, double value) {
  std::fprintf(stderr, "device file contract broken: %s = %g\n", what, value);
  std::abort();
}

void require_positive(const char* what, double v) {
  if (!(v > 0.0) || !detail::is_finite(v)) broken(what, v);
}

void require_non_negative(const char* what, double v) {
  if (!(v >= 0.0) || !detail::is_finite(v)) broken(what, v);
}

// Every figure the estimators derive from a device: tier bandwidths, peaks per supported type,
// rooflines of a compute- and a memory-bound workload.
template <class D>
void check_device(const D& d) {
  for (tier m : all_tiers) {
    const tier_spec s = d.memory(m);
    require_non_negative("tier bandwidth", s.throughput.value());
    require_non_negative("tier capacity", s.capacity.value());
    if (m == tier::global || s.capacity.value() > 0)
      require_positive("tier bandwidth", s.throughput.value());
  }
  for (dtype t : all_dtypes)
    for (accumulator a : enum_values<accumulator>)
      for (sparsity s : enum_values<sparsity>) {
        if (!d.supports(t, a, s)) continue;
        require_positive("peak", d.peak(t, a, s).value());
        for (double moved : {1e3, 1e12}) {
          const workload w =
              workload{}.compute(t, flops(1e12), a, s).move(tier::global, bytes(moved));
          const roofline_result r = roofline(d, w);
          require_positive("roofline time", r.time.value());
          require_positive("roofline attainable", r.attainable.value());
        }
      }
}

// And for a GPU, the best GEMM on a few shapes for every supported datatype.
void check_gpu(const measured_device& d) {
  check_device(d);
  require_positive("sm clock", d.sm_clock().value());
  require_positive("launch overhead", d.launch_overhead().value());
  for (dtype t : all_dtypes) {
    const accumulator a = default_accumulator(t);
    if (!d.supports(t, a, sparsity::dense)) continue;
    require_positive("gemm efficiency", d.gemm_efficiency(t));
    for (const auto& [m, n, k] : {std::array<long long, 3>{1, 1, 1},
                                  {512, 512, 512},
                                  {8192, 8192, 8192},
                                  {1, 16384, 4096}}) {
      gemm_problem p{m, n, k, 1, t};
      p.acc = a;
      const gemm_estimate e = best_gemm(d, p);
      require_positive("best_gemm time", e.time.value());
      require_positive("best_gemm throughput", e.throughput.value());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<calibrate::any_device> d;
  try {
    d.emplace(calibrate::parse_device(text));
  } catch (const dlperf::invalid_argument&) {
    return 0;  // the contract's other half: dlperf's own error
  }
  // Any exception from here on escapes, and libFuzzer reports it as a crash.
  if (const auto* g = std::get_if<measured_device>(&*d))
    check_gpu(*g);
  else
    check_device(std::get<host_device>(*d));
  return 0;
}
