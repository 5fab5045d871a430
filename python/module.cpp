// dlperf._dlperf: runs one of the tool's command lines (tools/dlperf/commands.cpp) and returns
// its JSON as plain Python objects. The Python package (python/dlperf/__init__.py) turns named
// arguments into the command line, so Python gets exactly the numbers `dlperf ... --json`
// prints. A sweep calls the application layer itself (dlperf/app/sweep.hpp): no command line per
// point, every core, and the figures `dlperf model --json` gives, bit for bit. The GIL is
// released while the model runs.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <nanobind/stl/pair.h>

#include <cstdio>
#include <deque>
#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/model_shape.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/serve_report.hpp>
#include <dlperf/app/sweep.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cli_support.hpp"

namespace nb = nanobind;

namespace {

// A JSON value as Python objects: dict (keys in the JSON's order), list, str, int, float, bool,
// None. Built with CPython's own calls (a list of its final size, PyDict_SetItem): this runs over
// every value of a command's JSON on every call (docs/python.md, "Where a call's time goes").
nb::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      nb::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const nb::str k(key.c_str(), key.size());
        if (PyDict_SetItem(d.ptr(), k.ptr(), to_python(it.value()).ptr()) != 0)
          throw nb::python_error();
      }
      return d;
    }
    case nlohmann::json::value_t::array: {
      nb::object l = nb::steal(PyList_New(static_cast<Py_ssize_t>(j.size())));
      if (!l.is_valid()) throw nb::python_error();
      Py_ssize_t i = 0;
      for (const auto& value : j) PyList_SET_ITEM(l.ptr(), i++, to_python(value).release().ptr());
      return l;
    }
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      return nb::str(s.c_str(), s.size());
    }
    case nlohmann::json::value_t::boolean:
      return nb::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return nb::int_(j.get<long long>());
    case nlohmann::json::value_t::number_unsigned:
      return nb::int_(j.get<unsigned long long>());
    case nlohmann::json::value_t::number_float:
      return nb::steal(PyFloat_FromDouble(j.get<double>()));
    default:
      return nb::none();
  }
}

// A column of optional numbers as a Python list (None where the JSON has null).
template <class T>
nb::object column(const std::vector<dlperf::app::sweep_point>& rows,
                  std::optional<T> dlperf::app::sweep_point::*member) {
  nb::object l = nb::steal(PyList_New(static_cast<Py_ssize_t>(rows.size())));
  if (!l.is_valid()) throw nb::python_error();
  Py_ssize_t i = 0;
  for (const auto& row : rows) {
    const std::optional<T>& v = row.*member;
    nb::object x = nb::none();
    if (v && std::is_same_v<T, double>)
      x = nb::steal(PyFloat_FromDouble(static_cast<double>(*v)));
    else if (v)
      x = nb::steal(PyLong_FromLongLong(static_cast<long long>(*v)));
    PyList_SET_ITEM(l.ptr(), i++, x.release().ptr());
  }
  return l;
}

using dlperf::app::keyword_fields;

// The JSON of the report @p build makes of keyword pairs @p fields (its request through the
// application layer, estimated), computed without the GIL, as Python objects; None for a request
// the layer refuses (the package then runs the tool's command line, whose message names why).
template <class Build>
nb::object report_from_keywords(const keyword_fields& fields, Build build) {
  nlohmann::json result;
  bool ran = false;
  {
    const nb::gil_scoped_release unlocked;
    try {
      result = build(fields);
      ran = true;
    } catch (const dlperf::app::request_error&) {  // the tool's path names it
    } catch (const dlperf::error&) {
    }
  }
  return ran ? to_python(result) : nb::none();
}

}  // namespace

NB_MODULE(_dlperf, m) {
  m.doc() = "dlperf's commands, run for their JSON (use the dlperf package, not this module)";
  // dlperf.Error: what the tool rejects with exit code 2, with its one-line message.
  static nb::object error_type = nb::steal(PyErr_NewExceptionWithDoc(
      "dlperf.Error", "Bad input: the message is the dlperf tool's one line on stderr.",
      PyExc_ValueError, nullptr));
  m.attr("Error") = error_type;
  m.attr("version") = dlperf::version;
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
        if (!failure.empty()) {
          PyErr_SetString(error_type.ptr(), failure.c_str());
          throw nb::python_error();
        }
        return to_python(result);
      },
      nb::arg("args"),
      "Runs the dlperf command line `args` (no program name) and returns its JSON as Python "
      "objects; raises Error with the tool's message for bad input.");
  // Every command the application layer runs from keywords (dlperf/app/keyword_reports.hpp):
  // `<name>_json(fields)`, its report's JSON for keyword pairs; None for a request it refuses.
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
        [json = c.json](const keyword_fields& fields) {
          return report_from_keywords(fields, json);
        },
        nb::arg("fields"), doc.c_str());
  }
  m.def(
      "serve_keywords",
      [] {
        std::vector<std::string> out;
        for (const std::string_view k : dlperf::app::serve_keywords()) out.emplace_back(k);
        return out;
      },
      "The keywords a serving request takes besides a model request's: rate, block_size, "
      "kv_fraction, step_tokens, max_seqs.");
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
      "format_value",
      [](const std::string& unit, double value) { return dlperf::cli::format_value(unit, value); },
      nb::arg("unit"), nb::arg("value"),
      "`value` as the tool's text output writes a figure of `unit`: \"s\" a duration (\"1.50 "
      "ms\"), \"%\" a fraction as a percentage, \"B\" a memory size (\"15.0 GiB\"), \"$\" "
      "US dollars, \"\" three significant digits, any other unit with an SI prefix.");
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
  m.def(
      "sweep",
      [](const std::vector<std::pair<std::string, std::vector<std::string>>>& axes,
         unsigned threads) -> nb::dict {
        std::vector<dlperf::app::sweep_axis> grid;
        for (const auto& [keyword, values] : axes) grid.push_back({keyword, values});
        std::vector<dlperf::app::sweep_point> rows;
        std::string failure;
        {
          const nb::gil_scoped_release unlocked;
          try {
            rows = dlperf::app::sweep(grid, threads);
          } catch (const dlperf::app::request_error& e) {
            failure = dlperf::cli::one_line(e.what());
          }
        }
        if (!failure.empty()) {
          PyErr_SetString(error_type.ptr(), failure.c_str());
          throw nb::python_error();
        }
        using point = dlperf::app::sweep_point;
        nb::dict out;
        nb::list error, fits;
        for (const point& row : rows) {
          error.append(row.error.empty() ? nb::object(nb::none())
                                         : nb::object(nb::str(row.error.c_str())));
          fits.append(row.error.empty() ? nb::object(nb::bool_(row.fits)) : nb::none());
        }
        out["error"] = error;
        out["fits"] = fits;
        for (const auto& [key, member] :
             {std::pair{"step_time_s", &point::step_time_s},
              std::pair{"samples_per_s", &point::samples_per_s},
              std::pair{"tokens_per_s", &point::tokens_per_s}, std::pair{"tflops", &point::tflops},
              std::pair{"mfu", &point::mfu}, std::pair{"prefill_s", &point::prefill_s},
              std::pair{"decode_s_per_token", &point::decode_s_per_token},
              std::pair{"prompt_tokens_per_s", &point::prompt_tokens_per_s},
              std::pair{"decode_tokens_per_s", &point::decode_tokens_per_s},
              std::pair{"memory_bytes", &point::memory_bytes},
              std::pair{"capacity_bytes", &point::capacity_bytes},
              std::pair{"communication_s", &point::communication_s}})
          out[key] = column(rows, member);
        out["max_batch"] = column(rows, &point::max_batch);
        return out;
      },
      nb::arg("axes"), nb::arg("threads") = 0,
      "Runs the grid of `axes` ([(keyword, [value text, ...]), ...], the last fastest) on "
      "`threads` threads (0: every core) and returns its figures by column; use dlperf.sweep.");
}
