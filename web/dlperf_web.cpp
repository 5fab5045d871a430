// The web page's entry points: `dlperf_report` runs a command's request by keywords through the
// application layer (dlperf/app/keyword_reports.hpp, the table Python's module binds too), and
// `dlperf_run` a dlperf command line through the same run_json the Python module uses
// (tools/dlperf/commands.cpp), so the page shows exactly what `dlperf ... --json` prints.
#include <emscripten/emscripten.h>

#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/run_request.hpp>
#include <utility>

#include "cli_support.hpp"
#include "human_format.hpp"

namespace {

// The reply: {"json": the command's JSON} or {"error": the tool's one-line message}.
std::string reply(const char* args_json) {
  nlohmann::json out;
  try {
    const auto args = nlohmann::json::parse(args_json).get<std::vector<std::string>>();
    out["json"] = dlperf::cli::run_json(args);
  } catch (const dlperf::cli::usage_error& e) {  // as the tool: exit code 2
    out["error"] = dlperf::cli::one_line(e.what());
  } catch (const dlperf::error& e) {
    out["error"] = dlperf::cli::one_line(e.what());
  } catch (const std::exception& e) {  // the tool's exit code 1
    out["error"] = "internal error: " + dlperf::cli::one_line(e.what());
  }
  return out.dump();
}

// The reply to command @p command's request by keywords: {"json": `dlperf <command> --json`'s
// JSON} or {"refused": why} (the page then runs the tool's command line, for the tool's own
// message).
std::string report_reply(const char* command, const char* keywords_json) {
  nlohmann::json out;
  try {
    // Parsed into a variable of its own: items() refers into it for the whole loop.
    const nlohmann::json given = nlohmann::json::parse(keywords_json);
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& [keyword, value] : given.items())
      fields.emplace_back(keyword, value.get<std::string>());
    out["json"] = dlperf::app::report_json(command, fields);
  } catch (const dlperf::app::request_error& e) {
    out["refused"] = dlperf::cli::one_line(e.what());
  } catch (const dlperf::error& e) {
    out["refused"] = dlperf::cli::one_line(e.what());
  } catch (const std::exception& e) {  // a reply the page did not build as it should
    out["refused"] = "internal error: " + dlperf::cli::one_line(e.what());
  }
  return out.dump();
}

}  // namespace

/// `dlperf <command> --json` for the keywords of the JSON object @p keywords_json ({"preset":
/// "llama3_8b", "gpu": "rtx_4090", "batch": "8", ...}, every value a string), through the
/// application layer (@p command one of app::keyword_commands: "model", "rank", ...):
/// {"json": ...}, or {"refused": the reason} for a request it refuses. Valid until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* dlperf_report(const char* command,
                                                          const char* keywords_json) {
  static std::string last;
  last = report_reply(command, keywords_json);
  return last.c_str();
}

/// The run's fields, the one list the tool's run flags come from (app::run_fields): each with
/// its keyword, flag, kind, help line, default and the names it takes, so the page's form
/// offers every field the tool does (app::to_json of the fields).
extern "C" EMSCRIPTEN_KEEPALIVE const char* dlperf_fields() {
  static const std::string fields = dlperf::app::to_json(dlperf::app::run_fields()).dump();
  return fields.c_str();
}

/// @p value for a person, as the tool's text output writes it (format_value,
/// tools/dlperf/human_format.hpp): @p unit "s" is a duration ("1.50 ms"), "%" a fraction as a
/// percentage ("45.6 %"), "" three significant digits ("41.9"), "B" a memory size in binary units
/// ("15.0 GiB"), any other unit an SI prefix before it ("1.50 TFLOP/s").
extern "C" EMSCRIPTEN_KEEPALIVE const char* dlperf_format(const char* unit, double value) {
  static std::string last;
  last = dlperf::cli::format_value(unit, value);
  return last.c_str();
}

/// Runs the command line @p args_json (a JSON array of strings, no program name, with "--json")
/// and returns the reply as JSON text, valid until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* dlperf_run(const char* args_json) {
  static std::string last;
  last = reply(args_json);
  return last.c_str();
}
