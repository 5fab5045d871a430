// The standard-library fallbacks (core/library_support.hpp) write and read exactly what the
// library functions they stand in for do, so a build that needs them (libc++ 13 under
// emscripten: the web page) prints the same text as g++ and clang++ builds.
#include <array>
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <dlperf/model/number_text.hpp>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string written(bool fallback, double v, std::chars_format format, int precision) {
  std::array<char, 400> buf{};
  const auto [end, ec] =
      fallback ? dlperf::detail::printf_to_chars(buf.data(), buf.data() + buf.size(), v, format,
                                                 precision)
               : std::to_chars(buf.data(), buf.data() + buf.size(), v, format, precision);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("error");
}

// Doubles across the range the tool prints: powers of ten and their neighbours, halves that
// round either way, dollars and bytes.
std::vector<double> samples() {
  std::vector<double> v{0.0,
                        -0.0,
                        0.5,
                        1.5,
                        2.5,
                        999.5,
                        1000.0,
                        1e300,
                        1e-300,
                        123.45,
                        0.125,
                        2311.49,
                        27500.0,
                        6.02e23,
                        1.0 / 3,
                        2.0 / 3,
                        -7.7,
                        0.19,
                        9.995,
                        99.95,
                        16.06e9,
                        1e-9,
                        4.0e-7,
                        -1e21,
                        std::numeric_limits<double>::denorm_min(),
                        std::numeric_limits<double>::max()};
  for (int e = -20; e <= 20; ++e) {
    const double p = std::pow(10.0, e);
    for (double x : {p, std::nextafter(p, 0.0), std::nextafter(p, 2 * p), 1.005 * p, 4.9995 * p})
      v.push_back(x);
  }
  return v;
}

}  // namespace

TEST_CASE("printf_to_chars writes what std::to_chars writes", "[library_support]") {
  for (const double v : samples()) {
    for (const int precision : {0, 1, 3, 6, 17}) {
      for (const auto format :
           {std::chars_format::general, std::chars_format::fixed, std::chars_format::scientific}) {
        INFO("value " << v << ", precision " << precision << ", format "
                      << static_cast<int>(format));
        CHECK(written(true, v, format, precision) == written(false, v, format, precision));
      }
    }
  }
}

TEST_CASE("printf_to_chars reports a buffer too small", "[library_support]") {
  std::array<char, 4> buf{};
  // A value known only at run time, as every value the tool formats is: with a constant, g++ 12
  // at -O3 proves the text longer than the buffer and warns (-Wformat-truncation) about the very
  // case this test makes on purpose.
  volatile double run_time_value = 123456.0;
  const auto r = dlperf::detail::printf_to_chars(buf.data(), buf.data() + buf.size(),
                                                 run_time_value, std::chars_format::fixed, 0);
  CHECK(r.ec == std::errc::value_too_large);
}

TEST_CASE("double_text writes what std::to_chars writes, up to the widest double",
          "[library_support]") {
  for (const double v : samples()) {
    for (const int precision : {0, 3, 6, 17, 40}) {
      for (const auto format :
           {std::chars_format::general, std::chars_format::fixed, std::chars_format::scientific}) {
        INFO("value " << v << ", precision " << precision << ", format "
                      << static_cast<int>(format));
        CHECK(dlperf::detail::double_text(v, format, precision) ==
              written(false, v, format, precision));
      }
    }
  }
  // The largest double in fixed notation: 309 digits and 40 decimals fit.
  CHECK(
      dlperf::detail::double_text(std::numeric_limits<double>::max(), std::chars_format::fixed, 40)
          .size() == 309 + 1 + 40);
  // Beyond the buffer: a visible "?", not a cut-off figure.
  CHECK(dlperf::detail::double_text(std::numeric_limits<double>::max(), std::chars_format::fixed,
                                    100) == "?");
}

TEST_CASE("strtod_from_chars reads what std::from_chars reads", "[library_support]") {
  for (const std::string_view text : {"1",         "1.5",    "-2.25",
                                      "1e3",       "1E-3",   "7.7k",
                                      "12Gi",      "0.1",    "123456789012345678901234",
                                      "1e400",     "-1e400", "inf",
                                      "-infinity", "nan",    "NaN",
                                      "0x10",      "-0x1p3", "+5",
                                      " 5",        "\t5",    "",
                                      "-",         "abc",    ".5",
                                      "5.",        "1e",     "1e+",
                                      "2.5e-3x",   "00012",  "4.9e-324"}) {
    double fallback = 42.0;
    double library = 42.0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto a = dlperf::detail::strtod_from_chars(first, last, fallback);
    const auto b = std::from_chars(first, last, library);
    INFO("text '" << text << "'");
    CHECK(a.ec == b.ec);
    CHECK(a.ptr - first == b.ptr - first);
    if (b.ec == std::errc{}) {
      CHECK((std::isnan(library) ? std::isnan(fallback) : fallback == library));
      CHECK(std::signbit(fallback) == std::signbit(library));
    }
  }
}
