/// @file
/// Exceptions thrown for bad input and for questions the hardware cannot answer.
///
/// Every run-time rejection in dlperf throws one of these with a message that names what is wrong.
/// In a constant expression the same check is a compile error (a `throw` cannot be constant
/// evaluated), so the compile-time and run-time paths share one implementation.
#pragma once

#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dlperf {

/// Base of every dlperf exception.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An argument is out of its domain: negative, zero where a positive value is needed, NaN.
class invalid_argument : public error {
 public:
  using error::error;
};

/// The hardware cannot do what was asked (a datatype without tensor cores, 2:4 sparsity before
/// Ampere, an accumulator the datatype does not offer).
class unsupported : public error {
 public:
  using error::error;
};

/// A name or id does not exist (an unknown GPU id, datatype or architecture name).
class not_found : public error {
 public:
  using error::error;
};

namespace detail {

// Out of line and non-constexpr on purpose: reaching one of these during constant evaluation is a
// compile error whose note names the function ("throw_unsupported") and the call site.
[[noreturn]] inline void throw_invalid_argument(const std::string& what) {
  throw invalid_argument(what);
}
[[noreturn]] inline void throw_unsupported(const std::string& what) { throw unsupported(what); }
[[noreturn]] inline void throw_not_found(const std::string& what) { throw not_found(what); }

// Whether @p v is a finite number (not NaN, not +-inf). std::isfinite is not constexpr in C++20.
constexpr bool is_finite(double v) {
  return v == v && v <= std::numeric_limits<double>::max() &&
         v >= -std::numeric_limits<double>::max();
}

// Throws invalid_argument "<what> must be positive and finite" unless 0 < v < inf.
constexpr void require_positive_finite(double v, const std::string& what) {
  if (!(v > 0.0) || !is_finite(v)) throw_invalid_argument(what + " must be positive and finite");
}

// Throws invalid_argument "<what>: <field> must be positive, got <v>" unless v > 0: the check
// every problem description (GEMM, attention, convolution) makes of its extents.
constexpr void require_positive(long long v, const char* what, const char* field) {
  if (v <= 0)
    throw_invalid_argument(std::string(what) + ": " + field + " must be positive, got " +
                           std::to_string(v));
}

// A value with the name a message gives it: {"m", m}.
template <class T>
struct named {
  const char* name;
  T value;
};

// require_positive for each of @p fields in turn: the first one that is not positive names
// itself, "gemm: k must be positive, got 0".
constexpr void require_positive(const char* what, std::initializer_list<named<long long>> fields) {
  for (const named<long long>& f : fields) require_positive(f.value, what, f.name);
}

// Throws invalid_argument "<what>: <field> must be positive and finite" for the first of
// @p fields that is not in (0, inf).
constexpr void require_positive_finite(const char* what,
                                       std::initializer_list<named<double>> fields) {
  for (const named<double>& f : fields)
    require_positive_finite(f.value, std::string(what) + ": " + f.name);
}

// Throws invalid_argument "<what>: <field> must be finite" for the first of @p fields that is
// NaN or infinite.
constexpr void require_finite(const char* what, std::initializer_list<named<double>> fields) {
  for (const named<double>& f : fields)
    if (!is_finite(f.value))
      throw_invalid_argument(std::string(what) + ": " + f.name + " must be finite");
}

// Throws not_found for an unknown name, listing the valid ones: "unknown dtype 'fp7' (valid: ...)".
template <class Range, class NameOf>
[[noreturn]] void throw_unknown(std::string_view kind, std::string_view input, const Range& valid,
                                NameOf name_of) {
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + std::string(name_of(v));
  throw_not_found("unknown " + std::string(kind) + " '" + std::string(input) + "' (valid: " + list +
                  ")");
}

}  // namespace detail

}  // namespace dlperf
