/// @file
/// Every command the application layer runs from keywords, in one table: its name, the tool's
/// command line it stands for, and its report for keyword and value pairs, estimated and ready to
/// write (report_writer.hpp). Python's module defines one `<name>_json` per entry, which writes
/// the report as Python's objects, and the page calls report_json by name, so a command added
/// here reaches both (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/report_writer.hpp>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// Keyword and value pairs, each value as the text the tool would read for its flag.
using keyword_fields = std::vector<std::pair<std::string, std::string>>;

/// One command the application layer runs from keywords.
struct keyword_command {
  std::string_view name;          ///< "model", "serve", "rank", "rent", ...
  std::string_view command_line;  ///< the tool's command it stands for: "model --serve"
  /// The request the pairs state, estimated: its report, kept to be written as to_json writes
  /// it. Throws request_error naming what is wrong, and dlperf's errors, as the request's reader
  /// and estimate do.
  pending_report (*estimate)(const keyword_fields& fields);
};

/// Every command the application layer runs from keywords: model, serve, cluster, gemm,
/// roofline, power, debias, tco, rank, speedup, advise and rent.
std::span<const keyword_command> keyword_commands();

/// The JSON of command @p name (keyword_commands) for @p fields. Throws request_error naming
/// an unknown command, and as the command's estimate does.
nlohmann::json report_json(std::string_view name, const keyword_fields& fields);

}  // namespace dlperf::app
