// Every command the application layer runs from keywords (dlperf/app/keyword_reports.hpp).
#include <dlperf/app/keyword_reports.hpp>

#include <array>
#include <dlperf/app/advise_report.hpp>
#include <dlperf/app/cluster_report.hpp>
#include <dlperf/app/debias_report.hpp>
#include <dlperf/app/gemm_report.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/power_report.hpp>
#include <dlperf/app/rank_report.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/roofline_report.hpp>
#include <dlperf/app/serve_report.hpp>
#include <dlperf/app/speedup_report.hpp>
#include <dlperf/app/tco_report.hpp>

namespace dlperf::app {
namespace {

// The JSON of the request that FromKeywords reads from the pairs, estimated.
template <auto FromKeywords>
nlohmann::json json_of(const keyword_fields& fields) {
  return to_json(estimate(FromKeywords(fields)));
}

// The same for a request that may read a model file, whose names its store keeps.
template <auto FromKeywords>
nlohmann::json json_with_model_of(const keyword_fields& fields) {
  io::string_store strings;
  return to_json(estimate(FromKeywords(fields, strings)));
}

constexpr std::array<keyword_command, 12> commands{{
    {"model", "model", &json_with_model_of<&request_from_keywords>},
    {"serve", "model --serve", &json_with_model_of<&serve_request_from_keywords>},
    {"cluster", "cluster", &json_of<&cluster_request_from_keywords>},
    {"gemm", "gemm", &json_of<&gemm_request_from_keywords>},
    {"roofline", "roofline", &json_of<&roofline_request_from_keywords>},
    {"power", "power", &json_of<&power_request_from_keywords>},
    {"debias", "debias", &json_of<&debias_request_from_keywords>},
    {"tco", "tco", &json_of<&tco_request_from_keywords>},
    {"rank", "rank", &json_of<&rank_request_from_keywords>},
    {"speedup", "speedup", &json_of<&speedup_request_from_keywords>},
    {"advise", "advise", &json_of<&advise_request_from_keywords>},
    {"rent", "advise --rent", &json_of<&rent_request_from_keywords>},
}};

}  // namespace

std::span<const keyword_command> keyword_commands() { return commands; }

nlohmann::json report_json(std::string_view name, const keyword_fields& fields) {
  for (const keyword_command& c : commands)
    if (c.name == name) return c.json(fields);
  std::string valid;
  for (const keyword_command& c : commands)
    valid += (valid.empty() ? "" : ", ") + std::string(c.name);
  throw request_error("unknown command '" + std::string(name) + "' (valid: " + valid + ")");
}

}  // namespace dlperf::app
