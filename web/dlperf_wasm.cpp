// The dlperf tool's commands compiled to WebAssembly for the page in web/: dlperf_run takes a
// command line as a JSON array of words and returns {"result": <the tool's --json>} or
// {"error": "<the tool's one-line message>"}, computed by the tool's own code
// (examples/dlperf/commands.cpp: run_json), so the page shows the tool's numbers.
#include <emscripten/emscripten.h>

#include <string>
#include <vector>

#include "cli_support.hpp"

extern "C" EMSCRIPTEN_KEEPALIVE const char* dlperf_run(const char* args_json) {
  static std::string reply;  // valid until the next call; the page copies it at once
  nlohmann::json out;
  try {
    const auto args = nlohmann::json::parse(args_json).get<std::vector<std::string>>();
    out["result"] = dlperf::cli::run_json(args);
  } catch (const dlperf::cli::usage_error& e) {
    out["error"] = dlperf::cli::one_line(e.what());
  } catch (const dlperf::error& e) {
    out["error"] = dlperf::cli::one_line(e.what());
  } catch (const std::exception& e) {
    out["error"] = dlperf::cli::one_line(std::string("internal error: ") + e.what());
  }
  reply = out.dump();
  return reply.c_str();
}
