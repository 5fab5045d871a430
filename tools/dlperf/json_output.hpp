// Where a command's JSON and text files go: stdout, a file, or the capture of run_json (the
// Python module and the page).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace dlperf::cli {

/// Writes @p text to the file @p out, or to stdout when @p out is empty. Throws usage_error
/// when the file cannot be written.
void write_text(const std::string& text, const std::string& out);

/// Prints a command's JSON result @p j: on stdout, or into the json_capture active on this thread
/// (run_json: the Python and WebAssembly modules), so that every front end gets the JSON from the
/// same code path. Taken by value: a command hands over its result with std::move, and the capture
/// takes it without a copy (copying `model`'s JSON cost 15 us a call; docs/python.md).
void print_json(nlohmann::json j);

/// While alive, print_json on this thread stores its JSON into @p into instead of printing it.
class json_capture {
 public:
  explicit json_capture(nlohmann::json& into);
  ~json_capture();
  json_capture(const json_capture&) = delete;
  json_capture& operator=(const json_capture&) = delete;

 private:
  nlohmann::json* previous_;
};

/// Writes @p j to @p out, or to stdout (print_json) when @p out is empty. Throws usage_error when
/// the file cannot be written.
void write_json(const nlohmann::json& j, const std::string& out);

}  // namespace dlperf::cli
