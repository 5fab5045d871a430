/// @file
/// Physical quantities of dlperf: FLOP, bytes, seconds, rates, watts, energy and US dollars.
///
/// Everything is a Boost.Units quantity in one coherent system (SI metre, kilogram and second, a
/// FLOP base dimension, Boost's byte and a US-dollar base dimension), so that FLOP / (FLOP/s) is a
/// time and FLOP / byte is an arithmetic intensity, checked by the compiler. All arithmetic is
/// `constexpr` and usable in `static_assert`.
#pragma once

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/derived_dimension.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/physical_dimensions/energy.hpp>
#include <boost/units/physical_dimensions/frequency.hpp>
#include <boost/units/physical_dimensions/information.hpp>
#include <boost/units/physical_dimensions/power.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/systems/information/byte.hpp>
#include <boost/units/systems/si/base.hpp>
#include <boost/units/unit.hpp>
#include <concepts>

namespace dlperf {

/// Unit system, base dimensions and units behind dlperf's quantities.
namespace units {

namespace bu = boost::units;

/// Base dimension "amount of arithmetic work". Ordinals of custom base dimensions must be unique
/// and positive (Boost.Units reserves the negative ones); 1729 and 1730 are dlperf's.
struct flop_base_dimension : bu::base_dimension<flop_base_dimension, 1729> {};
/// Dimension of a FLOP count.
using flop_dimension = flop_base_dimension::dimension_type;

/// Base unit: one floating-point (or integer multiply-add half) operation.
struct flop_base_unit : bu::base_unit<flop_base_unit, flop_dimension, 1729> {
  /// Long name.
  static constexpr const char* name() { return "floating-point operation"; }
  /// Symbol.
  static constexpr const char* symbol() { return "FLOP"; }
};

/// Base dimension "money".
struct money_base_dimension : bu::base_dimension<money_base_dimension, 1730> {};
/// Dimension of an amount of money.
using money_dimension = money_base_dimension::dimension_type;

/// Base unit: one US dollar (prices are nominal, in the dollars of the date they carry).
struct usd_base_unit : bu::base_unit<usd_base_unit, money_dimension, 1730> {
  /// Long name.
  static constexpr const char* name() { return "US dollar"; }
  /// Symbol.
  static constexpr const char* symbol() { return "USD"; }
};

/// The dlperf system: SI mechanics plus FLOP, byte and dollar.
using system =
    bu::make_system<bu::si::meter_base_unit, bu::si::kilogram_base_unit, bu::si::second_base_unit,
                    flop_base_unit, bu::information::byte_base_unit, usd_base_unit>::type;

using flop = bu::unit<flop_dimension, system>;             ///< FLOP
using byte = bu::unit<bu::information_dimension, system>;  ///< byte
using second = bu::unit<bu::time_dimension, system>;       ///< second
using hertz = bu::unit<bu::frequency_dimension, system>;   ///< hertz (clock rate)
using watt = bu::unit<bu::power_dimension, system>;        ///< watt
using joule = bu::unit<bu::energy_dimension, system>;      ///< joule
using usd = bu::unit<money_dimension, system>;             ///< US dollar
using flop_per_second = decltype(flop{} / second{});       ///< FLOP/s
using byte_per_second = decltype(byte{} / second{});       ///< byte/s
using flop_per_byte = decltype(flop{} / byte{});           ///< FLOP/byte
using usd_per_joule = decltype(usd{} / joule{});           ///< USD/J (energy price)
using usd_per_second = decltype(usd{} / second{});         ///< USD/s (renting by the hour)

// Scaling by an integer: Boost.Units scales a quantity only by its own value type (`3.0 * q`);
// these let `3 * q`, `q * 3` and `q / 2` mean the same for dlperf's quantities. Found by
// argument-dependent lookup, since the system names this namespace's base units.

/// `n * q`: @p rhs scaled by the integer @p lhs.
template <class Dim, std::integral I>
constexpr bu::quantity<bu::unit<Dim, system>> operator*(I lhs,
                                                        bu::quantity<bu::unit<Dim, system>> rhs) {
  return static_cast<double>(lhs) * rhs;
}
/// `q * n`: @p lhs scaled by the integer @p rhs.
template <class Dim, std::integral I>
constexpr bu::quantity<bu::unit<Dim, system>> operator*(bu::quantity<bu::unit<Dim, system>> lhs,
                                                        I rhs) {
  return lhs * static_cast<double>(rhs);
}
/// `q / n`: @p lhs divided by the integer @p rhs.
template <class Dim, std::integral I>
constexpr bu::quantity<bu::unit<Dim, system>> operator/(bu::quantity<bu::unit<Dim, system>> lhs,
                                                        I rhs) {
  return lhs / static_cast<double>(rhs);
}

}  // namespace units

using flop_count = boost::units::quantity<units::flop>;              ///< amount of work
using byte_count = boost::units::quantity<units::byte>;              ///< amount of data
using duration = boost::units::quantity<units::second>;              ///< time
using frequency = boost::units::quantity<units::hertz>;              ///< clock rate
using power = boost::units::quantity<units::watt>;                   ///< power draw
using energy = boost::units::quantity<units::joule>;                 ///< energy
using money = boost::units::quantity<units::usd>;                    ///< price
using flop_rate = boost::units::quantity<units::flop_per_second>;    ///< throughput
using bandwidth = boost::units::quantity<units::byte_per_second>;    ///< data rate
using intensity = boost::units::quantity<units::flop_per_byte>;      ///< FLOP per byte
using energy_price = boost::units::quantity<units::usd_per_joule>;   ///< price of energy
using hourly_price = boost::units::quantity<units::usd_per_second>;  ///< price of renting

/// Joules in one kilowatt-hour (exact: 1000 W x 3600 s).
inline constexpr double joules_per_kwh = 3.6e6;

/// Builds a quantity of type @p Q from a value in Q's base unit scaled by @p scale.
template <class Q>
constexpr Q make(double value, double scale = 1.0) {
  return Q::from_value(value * scale);
}

/// FLOP count from a number of FLOP.
constexpr flop_count flops(double n) { return make<flop_count>(n); }
/// Byte count from a number of bytes.
constexpr byte_count bytes(double n) { return make<byte_count>(n); }
/// Byte count from binary kibibytes (the unit of on-chip capacities: 164 KiB of shared memory).
constexpr byte_count kibibytes(double n) { return make<byte_count>(n, 1024.0); }
/// Byte count from binary mebibytes (L2 sizes).
constexpr byte_count mebibytes(double n) { return make<byte_count>(n, 1024.0 * 1024.0); }
/// Byte count from binary gibibytes (DRAM sizes).
constexpr byte_count gibibytes(double n) { return make<byte_count>(n, 1024.0 * 1024.0 * 1024.0); }
/// Duration from seconds.
constexpr duration seconds(double s) { return make<duration>(s); }
/// Duration from microseconds (the unit of host launch costs). It divides by 1e6, which is exact,
/// so the result is the double nearest the figure in seconds: `microseconds(7)` is `seconds(7e-6)`.
constexpr duration microseconds(double us) { return make<duration>(us / 1e6); }
/// Frequency from megahertz.
constexpr frequency megahertz(double mhz) { return make<frequency>(mhz, 1e6); }
/// Power from watts.
constexpr power watts(double w) { return make<power>(w); }
/// Energy from kilowatt-hours.
constexpr energy kilowatt_hours(double kwh) { return make<energy>(kwh, joules_per_kwh); }
/// Money from US dollars.
constexpr money dollars(double usd) { return make<money>(usd); }
/// Throughput from TFLOP/s.
constexpr flop_rate teraflops(double t) { return make<flop_rate>(t, 1e12); }
/// Bandwidth from GB/s (decimal gigabytes, as datasheets use).
constexpr bandwidth gigabytes_per_second(double g) { return make<bandwidth>(g, 1e9); }
/// Rental price from US dollars per hour.
constexpr hourly_price dollars_per_hour(double usd) { return make<hourly_price>(usd / 3600.0); }
/// Energy price from US dollars per kilowatt-hour.
constexpr energy_price dollars_per_kwh(double p) { return make<energy_price>(p / joules_per_kwh); }

/// Value of a throughput in TFLOP/s.
constexpr double in_teraflops(flop_rate r) { return r.value() / 1e12; }
/// Value of a bandwidth in GB/s.
constexpr double in_gigabytes_per_second(bandwidth b) { return b.value() / 1e9; }
/// Value of a byte count in decimal gigabytes.
constexpr double in_gigabytes(byte_count b) { return b.value() / 1e9; }
/// Value of a byte count in binary gibibytes (what memory sizes written "GB" mean).
constexpr double in_gibibytes(byte_count b) { return b.value() / (1024.0 * 1024.0 * 1024.0); }
/// Value of a byte count in binary mebibytes.
constexpr double in_mebibytes(byte_count b) { return b.value() / (1024.0 * 1024.0); }
/// Value of a frequency in MHz.
constexpr double in_megahertz(frequency f) { return f.value() / 1e6; }
/// Value of an energy in kWh.
constexpr double in_kilowatt_hours(energy e) { return e.value() / joules_per_kwh; }
/// Value of a rental price in USD per hour.
constexpr double in_dollars_per_hour(const hourly_price& p) { return p.value() * 3600.0; }
/// Value of an energy price in USD per kWh.
constexpr double in_dollars_per_kwh(energy_price p) { return p.value() * joules_per_kwh; }

/// User-defined literals, after `using namespace dlperf::literals;`:
/// - work: `_FLOP`, `_GFLOP`, `_TFLOP`, `_PFLOP`; throughput: `_GFLOPS`, `_TFLOPS`, `_PFLOPS`;
/// - data: `_B`, `_KB`, `_MB`, `_GB`, `_TB` (decimal), `_KiB`, `_MiB`, `_GiB` (binary);
///   bandwidth: `_GBps`, `_TBps`;
/// - time: `_s`, `_ms`, `_us`, `_ns`; clock: `_MHz`, `_GHz`;
/// - power: `_W`, `_kW`; energy: `_J`, `_kWh`; money: `_usd`.
///
/// Example: `312_TFLOPS / 1555_GBps` is an intensity of about 200 FLOP/byte.
namespace literals {

// Every literal exists for integer and floating spellings (`2_ms` and `0.5_ms`). The list in the
// namespace comment above is their documentation.
/// @cond DLPERF_LITERALS
// NOLINTBEGIN(cppcoreguidelines-macro-usage,bugprone-macro-parentheses): generates the literal
// operators; `type` is a type, so it cannot be parenthesised.
#define DLPERF_DEFINE_LITERAL(suffix, type, scale)           \
  constexpr type operator""_##suffix(long double v) {        \
    return make<type>(static_cast<double>(v), (scale));      \
  }                                                          \
  constexpr type operator""_##suffix(unsigned long long v) { \
    return make<type>(static_cast<double>(v), (scale));      \
  }
// NOLINTEND(cppcoreguidelines-macro-usage,bugprone-macro-parentheses)

DLPERF_DEFINE_LITERAL(FLOP, flop_count, 1.0)
DLPERF_DEFINE_LITERAL(GFLOP, flop_count, 1e9)
DLPERF_DEFINE_LITERAL(TFLOP, flop_count, 1e12)
DLPERF_DEFINE_LITERAL(PFLOP, flop_count, 1e15)
DLPERF_DEFINE_LITERAL(GFLOPS, flop_rate, 1e9)
DLPERF_DEFINE_LITERAL(TFLOPS, flop_rate, 1e12)
DLPERF_DEFINE_LITERAL(PFLOPS, flop_rate, 1e15)
DLPERF_DEFINE_LITERAL(B, byte_count, 1.0)
DLPERF_DEFINE_LITERAL(KB, byte_count, 1e3)
DLPERF_DEFINE_LITERAL(MB, byte_count, 1e6)
DLPERF_DEFINE_LITERAL(GB, byte_count, 1e9)
DLPERF_DEFINE_LITERAL(TB, byte_count, 1e12)
DLPERF_DEFINE_LITERAL(KiB, byte_count, 1024.0)
DLPERF_DEFINE_LITERAL(MiB, byte_count, 1024.0 * 1024.0)
DLPERF_DEFINE_LITERAL(GiB, byte_count, 1024.0 * 1024.0 * 1024.0)
DLPERF_DEFINE_LITERAL(GBps, bandwidth, 1e9)
DLPERF_DEFINE_LITERAL(TBps, bandwidth, 1e12)
DLPERF_DEFINE_LITERAL(s, duration, 1.0)
DLPERF_DEFINE_LITERAL(ms, duration, 1e-3)
DLPERF_DEFINE_LITERAL(us, duration, 1e-6)
DLPERF_DEFINE_LITERAL(ns, duration, 1e-9)
DLPERF_DEFINE_LITERAL(MHz, frequency, 1e6)
DLPERF_DEFINE_LITERAL(GHz, frequency, 1e9)
DLPERF_DEFINE_LITERAL(W, power, 1.0)
DLPERF_DEFINE_LITERAL(kW, power, 1e3)
DLPERF_DEFINE_LITERAL(J, energy, 1.0)
DLPERF_DEFINE_LITERAL(kWh, energy, joules_per_kwh)
DLPERF_DEFINE_LITERAL(usd, money, 1.0)

#undef DLPERF_DEFINE_LITERAL
/// @endcond

}  // namespace literals

}  // namespace dlperf
