// dlperf._dlperf: runs one of the tool's commands through the application layer
// (dlperf/app/keyword_reports.hpp), or its command line (tools/dlperf/commands.cpp), and returns
// its JSON as plain Python objects. The Python package (python/dlperf/__init__.py) passes named
// arguments as keyword pairs, and takes the command line only where the layer refuses a request
// (for the tool's message), so Python gets exactly the numbers `dlperf ... --json` prints. A sweep
// calls the application layer itself (dlperf/app/sweep.hpp): no command line per point, every core,
// and the figures `dlperf model --json` gives, bit for bit. The GIL is released while the model
// runs.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <nanobind/stl/pair.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/model_shape.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/report_writer.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/app/serve_report.hpp>
#include <dlperf/app/sweep.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli_support.hpp"

namespace nb = nanobind;

namespace {

// A report written as Python objects (report_writer.hpp): dict (keys in the JSON's order, which
// sorts them), list, str, int, float, bool, None. Built with CPython's own calls; keys, and the
// short strings that recur (operator, bound and stack names), are made once and kept for the
// module's life, so that a call makes no key again (docs/python.md, "Where a call's time goes").
class python_writer final : public dlperf::app::report_writer {
 public:
  nb::object result() { return std::move(root_); }

  void null() override { put(nb::none()); }
  void boolean(bool b) override { put(nb::bool_(b)); }
  void integer(std::int64_t i) override { put(nb::steal(PyLong_FromLongLong(i))); }
  void number(double x) override { put(nb::steal(PyFloat_FromDouble(x))); }
  void string(std::string_view s) override {
    if (s.size() <= kept_string_size && kept_store().strings.size() < kept_strings_most)
      return put(nb::borrow(kept(s).object));
    put(nb::str(s.data(), s.size()));
  }
  void key(std::string_view k) override { key_ = &kept(k); }
  void begin_object() override { open(false); }
  void begin_array() override { open(true); }
  void end_object() override {
    frame& f = frames_[--depth_];
    // The members as the JSON orders them: by key (each key is written once in an object).
    const auto by_key = [](const member& a, const member& b) {
      return a.key->prefix != b.key->prefix ? a.key->prefix < b.key->prefix
                                            : a.key->text < b.key->text;
    };
    if (!std::is_sorted(f.members.begin(), f.members.end(), by_key))
      std::sort(f.members.begin(), f.members.end(), by_key);
    nb::dict d;
    for (member& m : f.members)
      if (PyDict_SetItem(d.ptr(), m.key->object, m.value.ptr()) != 0) throw nb::python_error();
    f.members.clear();
    key_ = f.at_key;
    put(std::move(d));
  }
  void end_array() override {
    frame& f = frames_[--depth_];
    nb::object l = std::move(f.list);
    key_ = f.at_key;
    put(std::move(l));
  }

 private:
  // A string made once: its text and its Python str (never freed: the module keeps it), and its
  // first 8 bytes as a big-endian number, which orders strings as their texts do unless equal.
  struct kept_str {
    std::string text;
    PyObject* object;
    std::uint64_t prefix;
  };
  struct member {
    const kept_str* key;
    nb::object value;
  };
  // An object or array open; frames are kept for reuse, so a call allocates none after the
  // first.
  struct frame {
    bool array = false;
    const kept_str* at_key = nullptr;  // the key it is put at in the object around it
    nb::object list;
    std::vector<member> members;
  };
  // Strings longer than this (a model file's name, a reason) are made each time, and values
  // once this many strings are kept (keys are always kept).
  static constexpr std::size_t kept_string_size = 40;
  static constexpr std::size_t kept_strings_most = 1 << 16;

  struct kept_strings {
    std::deque<kept_str> strings;
    std::unordered_map<std::string_view, const kept_str*> index;  // views of strings' texts
  };
  static kept_strings& kept_store() {
    // Never freed: the strings outlive every call and the interpreter's last collection.
    static auto& store = *new kept_strings;
    return store;
  }

  static const kept_str& kept(std::string_view s) {
    // A report's keys are mostly literals, at the same address on every call: one written
    // lately at the same address, with the same text, is found without hashing.
    struct slot {
      const char* data = nullptr;
      const kept_str* str = nullptr;
    };
    static std::array<slot, 1024> recent{};
    slot& r = recent[(reinterpret_cast<std::uintptr_t>(s.data()) / 8 + s.size()) % recent.size()];
    if (r.str != nullptr && r.data == s.data() && r.str->text == s) return *r.str;
    kept_strings& k = kept_store();
    auto it = k.index.find(s);
    if (it == k.index.end()) {
      PyObject* o = PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
      if (o == nullptr) throw nb::python_error();
      PyUnicode_InternInPlace(&o);
      std::uint64_t prefix = 0;
      for (std::size_t i = 0; i < 8; ++i)
        prefix = prefix << 8 | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0U);
      const kept_str& made = k.strings.emplace_back(kept_str{std::string(s), o, prefix});
      it = k.index.emplace(made.text, &made).first;
    }
    r = {s.data(), it->second};
    return *it->second;
  }

  void open(bool array) {
    if (depth_ == frames_.size()) frames_.emplace_back();
    frame& f = frames_[depth_];
    f.array = array;
    f.at_key = key_;
    if (array) f.list = nb::steal(PyList_New(0));
    ++depth_;
  }

  void put(nb::object v) {
    if (!v.is_valid()) throw nb::python_error();
    if (depth_ == 0) {
      root_ = std::move(v);
      return;
    }
    frame& f = frames_[depth_ - 1];
    if (f.array) {
      if (PyList_Append(f.list.ptr(), v.ptr()) != 0) throw nb::python_error();
      return;
    }
    f.members.push_back({key_, std::move(v)});
  }

  nb::object root_;
  std::vector<frame> frames_;
  std::size_t depth_ = 0;
  const kept_str* key_ = nullptr;  // the next member's key
};

// A JSON value as Python objects, as a report is written (python_writer).
nb::object to_python(const nlohmann::json& j) {
  python_writer w;
  dlperf::app::write_value(w, j);
  return w.result();
}

using point = dlperf::app::sweep_point;

// A figure of a point as Python has it: None where the JSON has null.
template <class T>
nb::object figure(const std::optional<T>& v) {
  if (!v) return nb::none();
  if constexpr (std::is_same_v<T, double>)
    return nb::steal(PyFloat_FromDouble(*v));
  else
    return nb::steal(PyLong_FromLongLong(static_cast<long long>(*v)));
}

// A point's error (None for a point that ran) and whether it fits (None for one that did not).
nb::object error_of(const point& p) {
  return p.error.empty() ? nb::object(nb::none()) : nb::object(nb::str(p.error.c_str()));
}
nb::object fits_of(const point& p) {
  return p.error.empty() ? nb::object(nb::bool_(p.fits)) : nb::none();
}

// The figures of SWEEP_FIGURES between fits and max_batch, in its order.
constexpr std::array sweep_numbers{std::pair{"step_time_s", &point::step_time_s},
                                   std::pair{"samples_per_s", &point::samples_per_s},
                                   std::pair{"tokens_per_s", &point::tokens_per_s},
                                   std::pair{"tflops", &point::tflops},
                                   std::pair{"mfu", &point::mfu},
                                   std::pair{"prefill_s", &point::prefill_s},
                                   std::pair{"decode_s_per_token", &point::decode_s_per_token},
                                   std::pair{"prompt_tokens_per_s", &point::prompt_tokens_per_s},
                                   std::pair{"decode_tokens_per_s", &point::decode_tokens_per_s},
                                   std::pair{"memory_bytes", &point::memory_bytes},
                                   std::pair{"capacity_bytes", &point::capacity_bytes},
                                   std::pair{"communication_s", &point::communication_s}};

// A column of optional numbers as a Python list (None where the JSON has null).
template <class T>
nb::object column(const std::vector<dlperf::app::sweep_point>& rows,
                  std::optional<T> dlperf::app::sweep_point::*member) {
  nb::object l = nb::steal(PyList_New(static_cast<Py_ssize_t>(rows.size())));
  if (!l.is_valid()) throw nb::python_error();
  Py_ssize_t i = 0;
  for (const auto& row : rows) {
    PyList_SET_ITEM(l.ptr(), i++, figure(row.*member).release().ptr());
  }
  return l;
}

using dlperf::app::keyword_fields;

// The report @p estimate makes of keyword pairs @p fields (its request through the application
// layer), estimated without the GIL and written as Python objects; None for a request the layer
// refuses (the package then runs the tool's command line, whose message names why).
nb::object report_from_keywords(const keyword_fields& fields,
                                dlperf::app::pending_report (*estimate)(const keyword_fields&)) {
  dlperf::app::pending_report report;
  {
    const nb::gil_scoped_release unlocked;
    try {
      report = estimate(fields);
    } catch (const dlperf::app::request_error&) {  // the tool's path names it
    } catch (const dlperf::error&) {
    }
  }
  if (!report) return nb::none();
  python_writer w;
  report(w);
  return w.result();
}

// dlperf.Error: what the tool rejects with exit code 2, with its one-line message. Made when
// the module is (NB_MODULE), and kept as long as it is.
nb::object& error_type() {
  static nb::object type;
  return type;
}

// Raises dlperf.Error with @p message.
[[noreturn]] void raise_error(const std::string& message) {
  PyErr_SetString(error_type().ptr(), message.c_str());
  throw nb::python_error();
}

// The tool itself: run for its JSON (`run`) or as the command line (`main`).
void bind_tool(nb::module_& m) {
  m.def(
      "run",
      [](const std::vector<std::string>& args) -> nb::object {
        nlohmann::json result;
        std::string failure;
        {
          const nb::gil_scoped_release unlocked;
          try {
            result = dlperf::cli::run_json(args);
          } catch (const dlperf::cli::usage_error& e) {
            failure = dlperf::cli::one_line(e.what());
          } catch (const dlperf::error& e) {
            failure = dlperf::cli::one_line(e.what());
          }
        }
        if (!failure.empty()) raise_error(failure);
        return to_python(result);
      },
      nb::arg("args"),
      "Runs the dlperf command line `args` (no program name) and returns its JSON as Python "
      "objects; raises Error with the tool's message for bad input.");
  m.def(
      "main",
      [](const std::vector<std::string>& args) -> int {
        const nb::gil_scoped_release unlocked;
        const int code = dlperf::cli::run_tool(args);
        // The tool writes through C's streams: flushed here, before Python writes again.
        (void)std::fflush(stdout);
        (void)std::fflush(stderr);
        return code;
      },
      nb::arg("args"),
      "Runs the dlperf tool on `args` (no program name) as the dlperf command does, printing on "
      "stdout and stderr; returns its exit code. `python -m dlperf` calls it.");
}

// Every command the application layer runs from keywords (dlperf/app/keyword_reports.hpp):
// `<name>_json(fields)`, its report's JSON for keyword pairs; None for a request it refuses.
void bind_keyword_commands(nb::module_& m) {
  // The names and docstrings live as long as the module: kept here, not in temporaries.
  static std::deque<std::string> texts;
  for (const dlperf::app::keyword_command& c : dlperf::app::keyword_commands()) {
    const std::string& function = texts.emplace_back(std::string(c.name) + "_json");
    const std::string& doc = texts.emplace_back(
        "`dlperf " + std::string(c.command_line) +
        " --json` for keyword and value pairs, through the application layer; None for a "
        "request it refuses (the dlperf package then runs the tool's command line for its "
        "message).");
    m.def(
        function.c_str(),
        [estimate = c.estimate](const keyword_fields& fields) {
          return report_from_keywords(fields, estimate);
        },
        nb::arg("fields"), doc.c_str());
  }
}

// The vocabulary the package builds its keyword arguments and text from.
void bind_vocabulary(nb::module_& m) {
  m.def(
      "serve_keywords",
      [] {
        std::vector<std::string> out;
        for (const std::string_view k : dlperf::app::serve_keywords()) out.emplace_back(k);
        return out;
      },
      "The keywords a serving request takes besides a model request's: rate, block_size, "
      "kv_fraction, step_tokens, max_seqs, concurrency, prompt_min, generate_min.");
  m.def(
      "request_keywords",
      [] {
        std::vector<std::string> out;
        for (const std::string_view k : dlperf::app::request_keywords()) out.emplace_back(k);
        for (const std::string_view k : dlperf::app::shape_keywords()) out.emplace_back(k);
        for (const dlperf::app::run_field& f : dlperf::app::run_fields())
          out.emplace_back(f.keyword);
        return out;
      },
      "Every keyword a model request takes: the model (or its shape), the device, power_limit, "
      "link, mode and the run fields.");
  m.def(
      "run_fields", [] { return to_python(dlperf::app::to_json(dlperf::app::run_fields())); },
      "The run's fields, the list the tool's run flags come from: one dict each with keyword, "
      "flag, kind (\"text\", \"choice\" or \"toggle\"), job_layout, help, default and "
      "names.");
  m.def(
      "format_value",
      [](const std::string& unit, double value) { return dlperf::cli::format_value(unit, value); },
      nb::arg("unit"), nb::arg("value"),
      "`value` as the tool's text output writes a figure of `unit`: \"s\" a duration (\"1.50 "
      "ms\"), \"%\" a fraction as a percentage, \"B\" a memory size (\"15.0 GiB\"), \"$\" "
      "US dollars, \"\" three significant digits, any other unit with an SI prefix.");
}

// A grid's axes: (keyword, [value text, ...]), the last fastest.
using sweep_axes = std::vector<std::pair<std::string, std::vector<std::string>>>;

// A grid's points, estimated without the GIL; a grid the layer refuses raises dlperf.Error.
std::vector<point> run_sweep(const sweep_axes& axes, unsigned threads) {
  std::vector<dlperf::app::sweep_axis> grid;
  for (const auto& [keyword, values] : axes) grid.push_back({keyword, values});
  std::vector<point> rows;
  std::string failure;
  {
    const nb::gil_scoped_release unlocked;
    try {
      rows = dlperf::app::sweep(grid, threads);
    } catch (const dlperf::app::request_error& e) {
      failure = dlperf::cli::one_line(e.what());
    }
  }
  if (!failure.empty()) raise_error(failure);
  return rows;
}

// The grid's figures by column.
nb::dict sweep_columns(const sweep_axes& axes, unsigned threads) {
  const std::vector<point> rows = run_sweep(axes, threads);
  nb::dict out;
  nb::list error, fits;
  for (const point& row : rows) {
    error.append(error_of(row));
    fits.append(fits_of(row));
  }
  out["error"] = error;
  out["fits"] = fits;
  for (const auto& [key, member] : sweep_numbers) out[key] = column(rows, member);
  out["max_batch"] = column(rows, &point::max_batch);
  return out;
}

// The grid as one dict a point: the axes' labels, then the figures.
nb::list sweep_rows(const sweep_axes& axes, const std::vector<nb::list>& labels, unsigned threads) {
  if (labels.size() != axes.size())
    throw nb::value_error("sweep_rows: one list of labels for each axis");
  for (std::size_t k = 0; k < axes.size(); ++k)
    if (labels[k].size() != axes[k].second.size())
      throw nb::value_error("sweep_rows: one label for each value of an axis");
  const std::vector<point> rows = run_sweep(axes, threads);
  // The keys, made once: the axes' names, then SWEEP_FIGURES' order.
  std::vector<nb::str> keys;
  for (const auto& axis : axes) keys.emplace_back(axis.first.c_str());
  const nb::str error_key("error"), fits_key("fits"), max_batch_key("max_batch");
  std::vector<nb::str> number_keys;
  for (const auto& figure : sweep_numbers) number_keys.emplace_back(figure.first);
  nb::object out = nb::steal(PyList_New(static_cast<Py_ssize_t>(rows.size())));
  if (!out.is_valid()) throw nb::python_error();
  std::vector<std::size_t> choice(axes.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t k = axes.size(), rest = i; k-- > 0;) {  // the last axis fastest
      choice[k] = rest % axes[k].second.size();
      rest /= axes[k].second.size();
    }
    nb::dict row;
    for (std::size_t k = 0; k < axes.size(); ++k) row[keys[k]] = labels[k][choice[k]];
    const point& p = rows[i];
    row[error_key] = error_of(p);
    row[fits_key] = fits_of(p);
    for (std::size_t f = 0; f < sweep_numbers.size(); ++f)
      row[number_keys[f]] = figure(p.*sweep_numbers[f].second);
    row[max_batch_key] = figure(p.max_batch);
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), row.release().ptr());
  }
  return nb::borrow<nb::list>(out);
}

void bind_sweep(nb::module_& m) {
  m.def("sweep", &sweep_columns, nb::arg("axes"), nb::arg("threads") = 0,
        "Runs the grid of `axes` ([(keyword, [value text, ...]), ...], the last fastest) on "
        "`threads` threads (0: every core) and returns its figures by column; use dlperf.sweep.");
  m.def("sweep_rows", &sweep_rows, nb::arg("axes"), nb::arg("labels"), nb::arg("threads") = 0,
        "Runs the grid of `axes` as sweep() does and returns one dict a point: each axis's name "
        "with the point's entry of `labels` (one list per axis, beside its values), then "
        "SWEEP_FIGURES; use dlperf.sweep.");
}

}  // namespace

NB_MODULE(_dlperf, m) {
  m.doc() = "dlperf's commands, run for their JSON (use the dlperf package, not this module)";
  error_type() = nb::steal(PyErr_NewExceptionWithDoc(
      "dlperf.Error", "Bad input: the message is the dlperf tool's one line on stderr.",
      PyExc_ValueError, nullptr));
  m.attr("Error") = error_type();
  m.attr("version") = dlperf::version;
  bind_tool(m);
  bind_keyword_commands(m);
  bind_vocabulary(m);
  bind_sweep(m);
}
