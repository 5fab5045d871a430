/// @file
/// JSON for dlperf's descriptions from one field table per type: `field_table<T>` lists each
/// field once, with its JSON key (units are part of the key), the member it maps to, the scale
/// from the member's SI value to the key's unit, and the rule a read value must obey. The same
/// table writes (`to_json`) and reads (`from_json`), so a field cannot be written and not read
/// back, or read under another name. Enums go through their enumerator lists (`name(e)`,
/// `parse<E>`), nested types through their own tables. Optional header: it needs nlohmann_json.
///
/// Reading is strict: a missing required field, an unknown key (a figure in another unit has
/// another name), a wrong type, a value breaking its rule or an unknown enumerator throws
/// `io::json_error`, a `dlperf::invalid_argument` whose message starts with the field's path
/// ("facts.host_link.generation: must be a whole number").
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/plausible.hpp>
#include <dlperf/core/provenance.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/architecture.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/interconnect.hpp>
#include <dlperf/model/number_text.hpp>

namespace dlperf::io {

using json = nlohmann::json;  ///< the JSON value type

/// A JSON document that does not describe what it should. The message starts with the path of
/// the offending field.
class json_error : public invalid_argument {
 public:
  /// Error at field @p path (empty: the document itself).
  json_error(const std::string& path, const std::string& what)
      : invalid_argument((path.empty() ? std::string("(top level)") : path) + ": " + what) {}
};

/// Throws json_error for field @p path.
[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  throw json_error(path, what);
}

/// Path of member @p key of the object at @p path ("facts" + "sms" = "facts.sms").
inline std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

namespace detail {
/// Where the parser is: one frame per open object (the last key) or array (the next index).
struct parse_frame {
  bool array = false;
  std::size_t index = 0;
  std::string key;
};

inline std::string parse_path(const std::vector<parse_frame>& frames) {
  std::string path;
  for (const parse_frame& f : frames) {
    if (f.array) {
      path += '[';
      path += std::to_string(f.index);
      path += ']';
    } else {
      path = join(path, f.key);
    }
  }
  return path;
}

}  // namespace detail

/// The document in @p text, for every reader of JSON (device files, model files, price files).
/// Throws json_error: malformed JSON names the byte; a number no double holds (1e400) names its
/// field (nlohmann_json throws out_of_range for it, which must not escape).
inline json parse_json(std::string_view text) {
  std::vector<detail::parse_frame> frames;
  const auto track = [&](int, json::parse_event_t event, json& parsed) {
    using ev = json::parse_event_t;
    if (event == ev::key && !frames.empty()) frames.back().key = parsed.get<std::string>();
    if (event == ev::object_start || event == ev::array_start)
      frames.push_back({event == ev::array_start, 0, {}});
    if (event == ev::object_end || event == ev::array_end) frames.pop_back();
    if ((event == ev::value || event == ev::object_end || event == ev::array_end) &&
        !frames.empty() && frames.back().array)
      ++frames.back().index;
    return true;
  };
  try {
    return json::parse(text, track);
  } catch (const json::parse_error& e) {
    fail("(text)", "malformed JSON near byte " + std::to_string(e.byte));
  } catch (const json::out_of_range&) {
    fail(detail::parse_path(frames), "number out of range (it overflows a double)");
  }
}

/// What a read value must satisfy, in the key's unit (before scaling to SI): any value, or a
/// plausibility range [low, high] ((low, high] when @p low_open), optionally also exactly 0 where
/// 0 means "absent" (no last-level cache, no base clock quoted). Ranges are wide enough for every
/// GPU and host dlperf knows and narrow enough that every figure derived from them stays finite
/// and positive (docs/calibration.md, "Device files", lists them).
struct rule {
  double low = -std::numeric_limits<double>::infinity();  ///< least value admitted
  double high = std::numeric_limits<double>::infinity();  ///< greatest value admitted
  bool low_open = false;                                  ///< whether low itself is excluded
  bool or_zero = false;                                   ///< whether 0 is admitted too

  /// Whether @p v obeys the rule.
  [[nodiscard]] constexpr bool admits(double v) const {
    return (or_zero && v == 0.0) || ((low_open ? v > low : v >= low) && v <= high);
  }
  static const rule any;           ///< any finite value
  static const rule positive;      ///< > 0
  static const rule non_negative;  ///< >= 0
};
inline constexpr rule rule::any{};
inline constexpr rule rule::positive{0.0, std::numeric_limits<double>::infinity(), true};
inline constexpr rule rule::non_negative{0.0};

/// The range [low, high].
constexpr rule in(double low, double high) { return rule{low, high}; }
/// The range (low, high].
constexpr rule above(double low, double high) { return rule{low, high, true}; }
/// 0 (absent) or the range [low, high].
constexpr rule zero_or(double low, double high) { return rule{low, high, false, true}; }

/// Whether a field must be present when read (an absent optional field keeps its default).
enum class presence : std::uint8_t { required, optional };

/// One field of type @p T: its JSON key, the member, the scale from the member's SI value to the
/// key's unit (1e6 for a frequency written in MHz), the rule and whether it is required.
template <class T, class M>
struct field {
  std::string_view key;  ///< JSON key, with the unit in it
  M T::*member;          ///< the member
  double scale;          ///< member SI value = JSON value x scale
  rule check;            ///< what a read value must satisfy
  presence need;         ///< required or optional

  /// A field. Constructor rather than aggregate: clang 14 has no aggregate deduction.
  constexpr field(std::string_view k, M T::*m, double s = 1.0, rule r = rule::any,
                  presence p = presence::required)
      : key(k), member(m), scale(s), check(r), need(p) {}
};

/// The field table of @p T: `static constexpr std::tuple fields{field{...}, ...}`. Specialised
/// below for every serialised type.
template <class T>
struct field_table;

/// Satisfied by types with a field table.
template <class T>
concept tabled = requires {
  field_table<T>::fields;
};

/// Storage for the strings a read value's `std::string_view` members point into (a deque, so
/// earlier strings never move).
using string_store = std::deque<std::string>;

namespace detail {

template <class Q>
concept quantity = requires(const Q& q) {
  { q.value() } -> std::convertible_to<double>;
  Q::from_value(1.0);
};

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

/// A bound as text ("1e+06", "0.5"), as printf's general format writes it, in any locale.
inline std::string bound_text(double v) {
  return dlperf::detail::double_text(v, std::chars_format::general, 6);
}

/// What @p r admits, in words ("must be in [100, 10000]").
inline std::string describe(const rule& r) {
  if (r.low == 0.0 && r.high == std::numeric_limits<double>::infinity())
    return r.low_open ? "must be positive" : "must be >= 0";
  std::string s = "must be ";
  if (r.or_zero) s += "0 or ";
  s += "in ";
  s += r.low_open ? "(" : "[";
  return s + bound_text(r.low) + ", " + bound_text(r.high) + "]";
}

/// Throws json_error at @p path unless @p v obeys @p r.
inline void check(double v, const rule& r, const std::string& path) {
  if (!r.admits(v)) fail(path, describe(r) + ", got " + bound_text(v));
}

inline double number(const json& j, const std::string& path, rule r) {
  if (!j.is_number()) fail(path, "must be a number");
  const double v = j.get<double>();
  if (!::dlperf::detail::is_finite(v)) fail(path, "must be finite");
  check(v, r, path);
  return v;
}

inline const json& object_at(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "must be a JSON object");
  return j;
}

inline std::string text(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "must be a string");
  return j.get<std::string>();
}

}  // namespace detail

template <tabled T>
json to_json(const T& value);
template <tabled T>
T from_json(const json& j, const std::string& path, string_store& strings, T init = T{});

/// One member as JSON: nested tables as objects, enums by name, quantities and numbers divided
/// by @p scale, arrays of tabled values as JSON arrays without their empty (default) entries.
template <class M>
json encode(const M& v, double scale = 1.0) {
  if constexpr (tabled<M>) {
    return to_json(v);
  } else if constexpr (listed_enum<M>) {
    return std::string(name(v));
  } else if constexpr (std::is_same_v<M, std::string_view> || std::is_same_v<M, std::string>) {
    return std::string(v);
  } else if constexpr (std::is_same_v<M, bool>) {
    return v;
  } else if constexpr (std::is_integral_v<M>) {
    return static_cast<long long>(v);
  } else if constexpr (std::is_floating_point_v<M>) {
    return scale == 1.0 ? static_cast<double>(v) : static_cast<double>(v) / scale;
  } else if constexpr (detail::quantity<M>) {
    return scale == 1.0 ? v.value() : v.value() / scale;
  } else {
    static_assert(detail::is_std_array<M>::value, "dlperf::io: no JSON form for this member type");
    using element = typename M::value_type;
    const json empty = encode(element{}, scale);
    json out = json::array();
    for (const element& e : v) {
      json item = encode(e, scale);
      if (item != empty) out.push_back(std::move(item));
    }
    return out;
  }
}

/// One member read from JSON at @p path (the inverse of encode), checked against @p r.
template <class M>
M decode(const json& j, const std::string& path, double scale, rule r, string_store& strings) {
  if constexpr (std::is_same_v<M, measured_value>) {
    // A measured figure: the field's range applies to its value.
    M m = from_json<M>(j, path, strings);
    detail::check(m.value, r, join(path, "value"));
    return m;
  } else if constexpr (tabled<M>) {
    return from_json<M>(j, path, strings);
  } else if constexpr (listed_enum<M>) {
    const std::string s = detail::text(j, path);
    try {
      return parse<M>(s);
    } catch (const not_found& e) {
      fail(path, e.what());
    }
  } else if constexpr (std::is_same_v<M, std::string_view>) {
    return strings.emplace_back(detail::text(j, path));
  } else if constexpr (std::is_same_v<M, std::string>) {
    return detail::text(j, path);
  } else if constexpr (std::is_same_v<M, bool>) {
    if (!j.is_boolean()) fail(path, "must be true or false");
    return j.get<bool>();
  } else if constexpr (std::is_integral_v<M>) {
    // The range first: casting a double that M cannot hold (1e300) is undefined behaviour.
    const double v = detail::number(j, path, rule::any);
    constexpr double lowest = std::max(-1e9, static_cast<double>(std::numeric_limits<M>::lowest()));
    constexpr double highest = std::min(1e9, static_cast<double>(std::numeric_limits<M>::max()));
    if (!(v >= lowest && v <= highest) || v != std::floor(v))
      fail(path, "must be a whole number in [" + detail::bound_text(lowest) + ", " +
                     detail::bound_text(highest) + "], got " + detail::bound_text(v));
    detail::check(v, r, path);
    return static_cast<M>(v);
  } else if constexpr (std::is_floating_point_v<M>) {
    const double v = detail::number(j, path, r);
    return static_cast<M>(scale == 1.0 ? v : v * scale);
  } else if constexpr (detail::quantity<M>) {
    const double v = detail::number(j, path, r);
    return M::from_value(scale == 1.0 ? v : v * scale);
  } else {
    static_assert(detail::is_std_array<M>::value, "dlperf::io: no JSON form for this member type");
    if (!j.is_array()) fail(path, "must be an array");
    M out{};
    if (j.size() > out.size())
      fail(path, "has " + std::to_string(j.size()) + " entries, at most " +
                     std::to_string(out.size()) + " are allowed");
    for (std::size_t i = 0; i < j.size(); ++i)
      out[i] = decode<typename M::value_type>(j[i], path + "[" + std::to_string(i) + "]", scale, r,
                                              strings);
    return out;
  }
}

/// @p value as a JSON object with one key per field of its table.
template <tabled T>
json to_json(const T& value) {
  json out = json::object();
  std::apply(
      [&](const auto&... f) {
        ((out[std::string(f.key)] = encode(value.*(f.member), f.scale)), ...);
      },
      field_table<T>::fields);
  return out;
}

/// Whether @p key is a field of @p T's table.
template <tabled T>
bool has_field(std::string_view key) {
  return std::apply([&](const auto&... f) { return ((f.key == key) || ...); },
                    field_table<T>::fields);
}

/// Reads a @p T from the object @p j at @p path, starting from @p init (what absent optional
/// fields keep). String views point into @p strings. Throws json_error naming the field.
template <tabled T>
T from_json(const json& j, const std::string& path, string_store& strings, T init) {
  detail::object_at(j, path);
  for (const auto& [key, v] : j.items())
    if (!has_field<T>(key)) fail(join(path, key), "unknown field (check its name and unit)");
  std::apply(
      [&](const auto&... f) {
        (
            [&] {
              using member = std::remove_cvref_t<decltype(init.*(f.member))>;
              const auto it = j.find(std::string(f.key));
              if (it == j.end()) {
                if (f.need == presence::required) fail(join(path, f.key), "missing");
                return;
              }
              init.*(f.member) = decode<member>(*it, join(path, f.key), f.scale, f.check, strings);
            }(),
            ...);
      },
      field_table<T>::fields);
  return init;
}

// --- the field tables ---------------------------------------------------------------------
// Each numeric field carries its plausibility range, in the key's unit (docs/calibration.md,
// "Device files"): a figure outside it is a typo or a broken measurement, and computing with it
// would give infinite or NaN times and peaks. 0 is admitted only where it means "absent".

inline constexpr double mega = 1e6;                       ///< MHz
inline constexpr double giga = 1e9;                       ///< GB/s
inline constexpr double mebi = 1024.0 * 1024.0;           ///< MiB
inline constexpr double gibi = 1024.0 * 1024.0 * 1024.0;  ///< GiB
inline constexpr double kibi = 1024.0;                    ///< KiB
inline constexpr auto if_present = presence::optional;    ///< shorthand for the tables

/// A measured figure: {"value", "method", "spread"}.
template <>
struct field_table<measured_value> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"value", &measured_value::value, 1.0, rule::positive},
      field{"method", &measured_value::method},
      field{"spread", &measured_value::spread, 1.0, rule::non_negative, if_present}};
};

/// A link: {"kind", "generation", "bandwidth_gbps"}.
template <>
struct field_table<interconnect> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"kind", &interconnect::kind},
      field{"generation", &interconnect::generation, 1.0, in(0, 10)},
      field{"bandwidth_gbps", &interconnect::throughput, giga, zero_or(0.1, 1e5)}};
};

/// A price: {"usd", "year", "month", "kind"}.
template <>
struct field_table<price_point> {
  /// The fields.
  static constexpr std::tuple fields{field{"usd", &price_point::amount, 1.0, zero_or(1, 1e7)},
                                     field{"year", &price_point::year, 1.0, zero_or(1990, 2100)},
                                     field{"month", &price_point::month, 1.0, zero_or(1, 12)},
                                     field{"kind", &price_point::kind}};
};

/// A board's datasheet facts.
template <>
struct field_table<gpu_facts> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"id", &gpu_facts::id},
      field{"name", &gpu_facts::name},
      field{"segment", &gpu_facts::segment},
      field{"year", &gpu_facts::year, 1.0, zero_or(1990, 2100)},
      field{"sms", &gpu_facts::sms, 1.0, in(1, 1000)},
      field{"base_clock_mhz", &gpu_facts::base_clock, mega, zero_or(100, 1e4), if_present},
      field{"boost_clock_mhz", &gpu_facts::boost_clock, mega, in(100, 1e4)},
      field{"tensor_clock_mhz", &gpu_facts::tensor_clock, mega, zero_or(100, 1e4), if_present},
      field{"memory_gib", &gpu_facts::memory, gibi, in(0.125, 1e4)},
      field{"memory_type", &gpu_facts::memory_type},
      field{"bus_width_bits", &gpu_facts::bus_width_bits, 1.0, in(8, 16384)},
      field{"data_rate_gbps", &gpu_facts::data_rate_gbps, 1.0, in(0.1, 100)},
      field{"l2_mib", &gpu_facts::l2, mebi, in(0.0625, 4096)},
      field{"llc_mib", &gpu_facts::llc, mebi, zero_or(1, 1e5), if_present},
      field{"llc_bandwidth_gbps", &gpu_facts::llc_bandwidth, giga, zero_or(1, 1e5), if_present},
      field{"tdp_w", &gpu_facts::tdp, 1.0, in(1, 1e4)},
      field{"host_link", &gpu_facts::host_link},
      field{"peer_link", &gpu_facts::peer_link, 1.0, rule::any, if_present},
      field{"price", &gpu_facts::price, 1.0, rule::any, if_present},
      field{"street_price", &gpu_facts::street_price, 1.0, rule::any, if_present},
      field{"source", &gpu_facts::source, 1.0, rule::any, if_present},
      field{"gemm_efficiency", &gpu_facts::gemm_efficiency, 1.0, zero_or(0.01, 1.0), if_present},
      field{"sustained_tensor_clock_mhz", &gpu_facts::sustained_tensor_clock, mega,
            zero_or(100, 1e4), if_present},
      field{"sustained_fp8_tensor_clock_mhz", &gpu_facts::sustained_fp8_tensor_clock, mega,
            zero_or(100, 1e4), if_present},
      field{"form_factor", &gpu_facts::form, 1.0, rule::any, if_present},
      field{"unified_memory_gib", &gpu_facts::unified_memory, gibi, zero_or(1, 1e5), if_present}};
};

/// Per-SM resources.
template <>
struct field_table<sm_resources> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"registers_per_sm", &sm_resources::registers_per_sm, 1.0, in(1024, 1 << 22)},
      field{"max_registers_per_thread", &sm_resources::max_registers_per_thread, 1.0, in(16, 1024)},
      field{"max_warps_per_sm", &sm_resources::max_warps_per_sm, 1.0, in(1, 256)},
      field{"max_threads_per_block", &sm_resources::max_threads_per_block, 1.0, in(32, 4096)},
      field{"max_blocks_per_sm", &sm_resources::max_blocks_per_sm, 1.0, in(1, 256)},
      field{"shared_per_sm_kib", &sm_resources::shared_per_sm, kibi, in(1, 4096)},
      field{"shared_per_block_kib", &sm_resources::shared_per_block, kibi, in(1, 4096)},
      field{"l1_and_shared_kib", &sm_resources::l1_and_shared, kibi, in(1, 8192)},
      field{"simd_width", &sm_resources::simd_width, 1.0, in(1, 128)},
      field{"shared_reserved_per_block_kib", &sm_resources::shared_reserved_per_block, kibi,
            in(0, 64)}};
};

/// A math rate per (input, accumulator).
template <>
struct field_table<math_rate> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"dtype", &math_rate::input}, field{"accumulator", &math_rate::acc},
      field{"fma_per_clock", &math_rate::fma_per_clock, 1.0, in(0, 1e5)},
      field{"consumer_fma_per_clock", &math_rate::consumer_fma_per_clock, 1.0, in(0, 1e5)}};
};

/// Latencies per tier, in cycles.
template <>
struct field_table<latency_cycles> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"global", &latency_cycles::global, 1.0, in(1, 1e5)},
      field{"l2", &latency_cycles::l2, 1.0, in(1, 1e5)},
      field{"llc", &latency_cycles::llc, 1.0, zero_or(1, 1e5), if_present},
      field{"l1", &latency_cycles::l1, 1.0, in(1, 1e4)},
      field{"shared", &latency_cycles::shared, 1.0, in(1, 1e4)},
      field{"ffma", &latency_cycles::ffma, 1.0, in(1, 1000)}};
};

/// The matrix instruction shape.
template <>
struct field_table<mma_shape> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"m", &mma_shape::m, 1.0, in(1, 1024)},
      field{"n", &mma_shape::n, 1.0, in(1, 1024)},
      field{"k_bits", &mma_shape::k_bits, 1.0, in(1, 1 << 16)},
      field{"warps", &mma_shape::warps, 1.0, in(1, 64)},
      field{"operands_from_shared", &mma_shape::operands_from_shared},
      field{"accumulators_in_tensor_memory", &mma_shape::accumulators_in_tensor_memory}};
};

/// Large-GEMM efficiency of one input type.
template <>
struct field_table<gemm_efficiency_entry> {
  /// The fields.
  static constexpr std::tuple fields{field{"dtype", &gemm_efficiency_entry::input},
                                     field{"fraction", &gemm_efficiency_entry::fraction, 1.0,
                                           in(plausible::min_fraction, plausible::max_fraction)}};
};

/// An architecture: every parameter the estimators read.
template <>
struct field_table<architecture_spec> {
  /// The fields.
  static constexpr std::tuple fields{
      field{"name", &architecture_spec::name},
      field{"vendor", &architecture_spec::vendor},
      field{"family", &architecture_spec::family},
      field{"chips", &architecture_spec::chips},
      field{"isa", &architecture_spec::isa},
      field{"sm", &architecture_spec::sm},
      field{"tensor_cores_per_sm", &architecture_spec::tensor_cores_per_sm, 1.0, in(0, 64)},
      field{"sparse_2_4", &architecture_spec::sparse_2_4},
      field{"tensor", &architecture_spec::tensor},
      field{"vector", &architecture_spec::vector},
      field{"shared_bytes_per_clock", &architecture_spec::shared_bytes_per_clock, 1.0, in(1, 4096)},
      field{"l2_bytes_per_clock", &architecture_spec::l2_bytes_per_clock, 1.0, in(1, 1e5)},
      field{"latency_cycles", &architecture_spec::latency},
      field{"mma", &architecture_spec::mma},
      field{"tensor_memory_per_sm_kib", &architecture_spec::tensor_memory_per_sm, kibi, in(0, 4096),
            if_present},
      field{"gemm_efficiency_default", &architecture_spec::gemm_efficiency_default, 1.0,
            in(plausible::min_fraction, plausible::max_fraction)},
      field{"gemm_efficiency", &architecture_spec::gemm_efficiency},
      field{"warp_mma_share", &architecture_spec::warp_mma_share, 1.0,
            in(plausible::min_fraction, plausible::max_fraction), if_present}};
};

/// Dense peak of @p g for @p t with its default accumulator in TFLOP/s, or null where the GPU
/// has no path for it.
inline json peak_tflops_or_null(const gpu_spec& g, dtype t) {
  const accumulator a = default_accumulator(t);
  if (!g.supports(t, a, sparsity::dense)) return nullptr;
  return in_teraflops(g.peak(t, a, sparsity::dense));
}

/// A catalog GPU as `dlperf gpus --json` lists it: its facts through their field table (the keys
/// of device files) and what the listing derives: architecture, family, vendor, the clock the
/// tensor peaks are quoted at, DRAM bandwidth and the dense peak per datatype. The listing's
/// earlier keys stay, since scripts read them: `memory_gb`, `l2_mb` and `llc_mb` (binary
/// units, as vendors write "GB"; `memory_bytes` gives the DRAM in bytes) and `price_usd`,
/// `price_kind`, `price_date` (the launch price), with `street_price_usd` and `street_price_date`
/// for a later market price (null without one).
inline json catalog_entry(const gpu_spec& g) {
  const gpu_facts& f = g.facts();
  json out = to_json(f);
  json peaks = json::object();
  for (dtype t : enum_values<dtype>) peaks[std::string(name(t))] = peak_tflops_or_null(g, t);
  const auto usd = [](const price_point& p) {
    return p.kind == price_kind::none ? json(nullptr) : json(p.amount.value());
  };
  const auto date = [](const price_point& p) {
    return p.kind == price_kind::none ? json(nullptr)
                                      : json(std::to_string(p.year) + (p.month < 10 ? "-0" : "-") +
                                             std::to_string(p.month));
  };
  out.update(json{
      {"arch", g.arch().name},
      {"family", name(g.arch().family)},
      {"vendor", name(g.arch().vendor)},
      {"tensor_clock_mhz", in_megahertz(g.tensor_clock())},
      {"bandwidth_gbps", in_gigabytes_per_second(g.memory_bandwidth())},
      {"peak_tflops", peaks},
      {"memory_gb", in_gibibytes(f.memory)},
      {"memory_bytes", f.memory.value()},
      {"l2_mb", in_mebibytes(f.l2)},
      {"llc_mb", in_mebibytes(f.llc)},
      {"price_usd", usd(f.price)},
      {"price_kind", name(f.price.kind)},
      {"price_date", date(f.price)},
      {"street_price_usd", usd(f.street_price)},
      {"street_price_date", date(f.street_price)},
      {"street_price_kind",
       f.street_price.kind == price_kind::none ? json(nullptr) : json(name(f.street_price.kind))},
  });
  return out;
}

}  // namespace dlperf::io
