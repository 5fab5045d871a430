// How the dlperf tool writes figures for a person (every non --json output goes through these):
// three significant digits in a unit a person reads without counting zeros. JSON output keeps
// plain SI numbers (README.md, "The dlperf tool", shows both).
#pragma once

#include <string>
#include <string_view>

namespace dlperf::cli {

/// @p value rounded to three significant digits and printed without an exponent: "1.00", "12.3",
/// "999", "0.500". Values of 1000 and more print whole, still rounded ("1234" is "1230"); 0 is
/// "0".
std::string three_digits(double value);

/// A duration in ns, µs, ms or s with three significant digits, the unit chosen after rounding:
/// 999.5 ns is "1.00 µs", 1.5e-3 s is "1.50 ms", 2 s is "2.00 s", 0 is "0 s". Below 1 ns stays
/// in ns ("0.500 ns"); 1000 s and more print whole seconds ("3600 s"). Not finite: "inf s".
/// Negative durations keep their sign.
std::string format_duration(double seconds);

/// @p value with an SI prefix (k, M, G, T, P, E) and @p unit, three significant digits:
/// (1.5e12, "FLOP/s") is "1.50 TFLOP/s", (4096, "B") is "4.10 kB", (512, "B") is "512 B".
std::string format_si(double value, std::string_view unit);

/// A size of memory in bytes with a binary prefix (KiB, MiB, GiB, TiB, PiB), three significant
/// digits: a card sold as "24 GB" holds 24 GiB and prints "24.0 GiB", as llama.cpp prints model
/// sizes (docs/catalog.md, "Memory in GiB"); 512 is "512 B", 1536 is "1.50 KiB". Memory capacities
/// and footprints use it; traffic and bandwidth stay decimal (GB/s), as vendors state them.
std::string format_bytes(double bytes);

/// A month as a person writes it: (2026, 9) is "September 2026".
std::string format_month(int year, int month);

/// US dollars as a buyer reads them: whole dollars with thousands separators from $10 up
/// ("$2,311", "$27,500"), cents below ("$7.70", "$0.19"); negative amounts keep their sign.
std::string format_usd(double dollars);

/// @p value for a person by its @p unit, as the text output writes it: "s" a duration
/// (format_duration), "%" a fraction as a percentage, "" three significant digits, "B" a memory
/// size in binary units (format_bytes), "$" US dollars (format_usd), any other unit an SI prefix
/// before it (format_si). The page's figures and Python's notebook tables are written by it.
std::string format_value(std::string_view unit, double value);

/// @p part as a percentage of @p whole with three significant digits: (45.6, 100) is "45.6 %".
/// A whole of 0 gives "-".
std::string format_percent(double part, double whole);

}  // namespace dlperf::cli
