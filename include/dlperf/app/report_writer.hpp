/// @file
/// Where a report is written: one sink, `report_writer`, that a report's JSON (the tool's
/// `--json`, the page) and Python's objects both implement, so that each report is written once
/// and each front end builds its own values directly, with no JSON in between for Python
/// (docs/layers.md, "The application layer"; docs/python.md, "Where a call's time goes").
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// A sink for one JSON value, written in order: an object or array is opened, its members
/// written (in an object, each member's key before its value) and closed. Keys may come in any
/// order; a sink keeps them in JSON's order (sorted), as the tool prints them.
class report_writer {
 public:
  virtual ~report_writer() = default;
  virtual void null() = 0;                      ///< JSON null
  virtual void boolean(bool b) = 0;             ///< true or false
  virtual void integer(std::int64_t i) = 0;     ///< a whole number
  virtual void number(double x) = 0;            ///< a number written as a double
  virtual void string(std::string_view s) = 0;  ///< a string
  virtual void begin_object() = 0;              ///< opens an object
  virtual void key(std::string_view k) = 0;     ///< the next member's key, inside an object
  virtual void end_object() = 0;                ///< closes the innermost object
  virtual void begin_array() = 0;               ///< opens an array
  virtual void end_array() = 0;                 ///< closes the innermost array

 protected:
  report_writer() = default;                                 ///< a sink is made as its own type
  report_writer(const report_writer&) = default;             ///< copied as its own type only
  report_writer(report_writer&&) = default;                  ///< moved as its own type only
  report_writer& operator=(const report_writer&) = default;  ///< copied as its own type only
  report_writer& operator=(report_writer&&) = default;       ///< moved as its own type only
};

/// Writes @p j, a JSON value, to @p w (a value built as JSON, such as a price file's offer).
void write_value(report_writer& w, const nlohmann::json& j);

/// null.
inline void write_value(report_writer& w, std::nullptr_t) { w.null(); }
/// true or false.
inline void write_value(report_writer& w, bool b) { w.boolean(b); }
/// A whole number.
template <std::integral I>
requires(!std::same_as<I, bool>) void write_value(report_writer& w, I i) {
  w.integer(static_cast<std::int64_t>(i));
}
/// A number, as a double.
template <std::floating_point F>
void write_value(report_writer& w, F x) {
  w.number(static_cast<double>(x));
}
/// A string.
inline void write_value(report_writer& w, std::string_view s) { w.string(s); }
/// A string.
inline void write_value(report_writer& w, const char* s) { w.string(s); }
/// A string.
inline void write_value(report_writer& w, const std::string& s) { w.string(s); }
/// The value, or null without one.
template <class T>
void write_value(report_writer& w, const std::optional<T>& v) {
  if (v)
    write_value(w, *v);
  else
    w.null();
}
/// A value that @p write writes (an object or array of its own).
template <std::invocable<report_writer&> F>
void write_value(report_writer& w, F&& write) {
  std::forward<F>(write)(w);
}
/// An array of numbers: [a, b, ...].
inline void write_value(report_writer& w, std::initializer_list<double> xs) {
  w.begin_array();
  for (const double x : xs) w.number(x);
  w.end_array();
}

/// One member of the open object: @p key, then @p value as write_value writes it.
template <class T>
void write_field(report_writer& w, std::string_view key, T&& value) {
  w.key(key);
  write_value(w, std::forward<T>(value));
}
/// One member of the open object: @p key, then @p value where @p has, else null.
template <class T>
void write_field_if(report_writer& w, std::string_view key, bool has, const T& value) {
  w.key(key);
  if (has)
    write_value(w, value);
  else
    w.null();
}
/// One member of the open object whose value is an array of numbers: key: [a, b, ...].
inline void write_field(report_writer& w, std::string_view key, std::initializer_list<double> xs) {
  w.key(key);
  write_value(w, xs);
}

/// A report_writer that builds a JSON value.
class json_writer final : public report_writer {
 public:
  void null() override;
  void boolean(bool b) override;
  void integer(std::int64_t i) override;
  void number(double x) override;
  void string(std::string_view s) override;
  void begin_object() override;
  void key(std::string_view k) override;
  void end_object() override;
  void begin_array() override;
  void end_array() override;

  /// The value written.
  nlohmann::json& result() { return root_; }

 private:
  // Puts @p v where the writer stands and returns it there.
  nlohmann::json& put(nlohmann::json v);

  nlohmann::json root_;
  std::vector<nlohmann::json*> open_;  // the objects and arrays open, innermost last
  std::string key_;
};

/// The JSON value @p write writes.
template <std::invocable<report_writer&> F>
nlohmann::json json_of(F&& write) {
  json_writer w;
  std::forward<F>(write)(w);
  return std::move(w.result());
}

/// A report estimated and kept until it is written: the estimate and the writing apart, so that
/// Python estimates without its interpreter's lock and builds its objects with it.
using pending_report = std::function<void(report_writer&)>;

}  // namespace dlperf::app
