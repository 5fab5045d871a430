// The dlperf tool's figures for people (tools/dlperf/human_format.hpp): three significant
// digits, the unit chosen after rounding.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "../../tools/dlperf/human_format.hpp"

using namespace dlperf::cli;

TEST_CASE("durations take ns, µs, ms or s with three significant digits", "[cli][format]") {
  CHECK(format_duration(0) == "0 s");
  CHECK(format_duration(0.5e-9) == "0.500 ns");
  CHECK(format_duration(1e-9) == "1.00 ns");
  CHECK(format_duration(12.34e-9) == "12.3 ns");
  CHECK(format_duration(999.4e-9) == "999 ns");
  // Rounding decides the unit: 999.5 ns is 1.00 µs, not "1000 ns".
  CHECK(format_duration(999.5e-9) == "1.00 µs");
  CHECK(format_duration(1e-6) == "1.00 µs");
  CHECK(format_duration(9.996e-6) == "10.0 µs");
  CHECK(format_duration(99.95e-6) == "100 µs");
  CHECK(format_duration(999.5e-6) == "1.00 ms");
  CHECK(format_duration(1.5e-3) == "1.50 ms");
  CHECK(format_duration(999.5e-3) == "1.00 s");
  CHECK(format_duration(2) == "2.00 s");
  CHECK(format_duration(3599) == "3600 s");
  CHECK(format_duration(-1.5e-3) == "-1.50 ms");
  CHECK(format_duration(std::numeric_limits<double>::infinity()) == "inf s");
}

TEST_CASE("rates and sizes take an SI prefix with three significant digits", "[cli][format]") {
  CHECK(format_si(1.5e12, "FLOP/s") == "1.50 TFLOP/s");
  CHECK(format_si(989.4e12, "FLOP/s") == "989 TFLOP/s");
  CHECK(format_si(999.5e12, "FLOP/s") == "1.00 PFLOP/s");
  CHECK(format_si(512, "B") == "512 B");
  CHECK(format_si(4096, "B") == "4.10 kB");
  CHECK(format_si(3.35e12, "B/s") == "3.35 TB/s");
  CHECK(format_si(0, "B") == "0 B");
  CHECK(format_si(0.25, "B") == "0.250 B");
  CHECK(three_digits(0.5) == "0.500");
  CHECK(three_digits(1234) == "1230");
}

TEST_CASE("memory sizes take binary units labelled as such", "[cli][format][units]") {
  // A card sold as "24 GB" holds 24 GiB and reads so (docs/catalog.md, "Memory in GiB").
  CHECK(format_bytes(24.0 * 0x1p30) == "24.0 GiB");
  CHECK(format_bytes(80.0 * 0x1p30) == "80.0 GiB");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1536) == "1.50 KiB");
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(1023.9 * 0x1p10) == "1.00 MiB");  // rounds into the next unit
  CHECK(format_bytes(2.0 * 0x1p40) == "2.00 TiB");
  CHECK(format_bytes(-11.2 * 0x1p30) == "-11.2 GiB");  // a shortfall keeps its sign
  // Read back, every figure is the size to three significant digits, in a unit it reads >= 1 in.
  const std::array<std::pair<std::string_view, double>, 6> units{{{"PiB", 0x1p50},
                                                                  {"TiB", 0x1p40},
                                                                  {"GiB", 0x1p30},
                                                                  {"MiB", 0x1p20},
                                                                  {"KiB", 0x1p10},
                                                                  {"B", 1.0}}};
  for (double b = 1.0; b < 1e17; b *= 1.37) {
    const std::string text = format_bytes(b);
    const std::size_t space = text.find(' ');
    const double figure = std::stod(text.substr(0, space));
    const std::string_view unit = std::string_view(text).substr(space + 1);
    const auto u =
        std::find_if(units.begin(), units.end(), [&](const auto& x) { return x.first == unit; });
    INFO(b << " bytes printed as " << text);
    REQUIRE(u != units.end());
    CHECK(figure >= 1.0);
    CHECK(figure * u->second == Approx(b).epsilon(0.005));
  }
}

TEST_CASE("a month reads as a person writes it", "[cli][format]") {
  CHECK(format_month(2026, 9) == "September 2026");
  CHECK(format_month(2022, 1) == "January 2022");
  CHECK(format_month(2025, 13) == "2025-13");  // not a month: shown as given
}

TEST_CASE("a share of a whole is a percentage with three significant digits", "[cli][format]") {
  CHECK(format_percent(45.6, 100) == "45.6 %");
  CHECK(format_percent(1, 3) == "33.3 %");
  CHECK(format_percent(1, 1) == "100 %");
  CHECK(format_percent(0.0004, 1) == "0.0400 %");
  CHECK(format_percent(1, 0) == "-");
}

TEST_CASE("dollars print whole with thousands separators, cents below ten dollars",
          "[cli][format]") {
  CHECK(format_usd(2311.2) == "$2,311");
  CHECK(format_usd(27500) == "$27,500");
  CHECK(format_usd(1234567.4) == "$1,234,567");
  CHECK(format_usd(999) == "$999");
  CHECK(format_usd(7.704) == "$7.70");
  CHECK(format_usd(0.1944) == "$0.19");
  CHECK(format_usd(-1500) == "-$1,500");
}

TEST_CASE("a figure by its unit is written as the text output writes that unit", "[cli][format]") {
  CHECK(format_value("s", 1.5e-3) == format_duration(1.5e-3));
  CHECK(format_value("s", 1.5e-3) == "1.50 ms");
  CHECK(format_value("%", 0.456) == "45.6 %");
  CHECK(format_value("", 41.94) == "41.9");
  CHECK(format_value("B", 16106127360.0) == "15.0 GiB");
  CHECK(format_value("$", 2311.2) == "$2,311");
  CHECK(format_value("FLOP/s", 1.5e12) == "1.50 TFLOP/s");
  CHECK(format_value("W", 450) == "450 W");
}
