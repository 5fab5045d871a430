// libFuzzer harness for the quantities the tool, Python and the page read (`--bytes 10G`, `--m
// 8Ki`; dlperf/app/amounts.hpp): parse_amount and parse_count either give a finite, non-negative
// value (a positive whole count) or throw request_error (the tool's usage_error); any other
// exception escapes and is reported as a crash.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const double v = dlperf::app::parse_amount("--bytes", text);
    if (!std::isfinite(v) || !(v >= 0.0)) {
      std::fprintf(stderr, "parse_amount gave %g\n", v);
      std::abort();
    }
  } catch (const dlperf::app::request_error&) {
  }
  try {
    const long long n = dlperf::app::parse_count("--m", text);
    if (n < 1) {
      std::fprintf(stderr, "parse_count gave %lld\n", n);
      std::abort();
    }
  } catch (const dlperf::app::request_error&) {
  }
  return 0;
}
