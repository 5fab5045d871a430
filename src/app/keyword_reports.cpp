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
#include <memory>

namespace dlperf::app {
namespace {

// The report of the request that FromKeywords reads from the pairs, estimated, kept to write
// (shared, as a pending report is copied).
template <auto FromKeywords>
pending_report estimate_of(const keyword_fields& fields) {
  return [report = std::make_shared<const decltype(estimate(FromKeywords(fields)))>(
              estimate(FromKeywords(fields)))](report_writer& w) { write(w, *report); };
}

// The same for a request that may read a model file, whose names its store keeps: the report
// keeps the store.
template <auto FromKeywords>
pending_report estimate_with_model_of(const keyword_fields& fields) {
  auto strings = std::make_shared<io::string_store>();
  using report_type = decltype(estimate(FromKeywords(fields, *strings)));
  return [strings, report = std::make_shared<const report_type>(estimate(
                       FromKeywords(fields, *strings)))](report_writer& w) { write(w, *report); };
}

constexpr std::array<keyword_command, 12> commands{{
    {"model", "model", &estimate_with_model_of<&request_from_keywords>},
    {"serve", "model --serve", &estimate_with_model_of<&serve_request_from_keywords>},
    {"cluster", "cluster", &estimate_of<&cluster_request_from_keywords>},
    {"gemm", "gemm", &estimate_of<&gemm_request_from_keywords>},
    {"roofline", "roofline", &estimate_of<&roofline_request_from_keywords>},
    {"power", "power", &estimate_of<&power_request_from_keywords>},
    {"debias", "debias", &estimate_of<&debias_request_from_keywords>},
    {"tco", "tco", &estimate_of<&tco_request_from_keywords>},
    {"rank", "rank", &estimate_of<&rank_request_from_keywords>},
    {"speedup", "speedup", &estimate_of<&speedup_request_from_keywords>},
    {"advise", "advise", &estimate_of<&advise_request_from_keywords>},
    {"rent", "advise --rent", &estimate_of<&rent_request_from_keywords>},
}};

}  // namespace

std::span<const keyword_command> keyword_commands() { return commands; }

nlohmann::json report_json(std::string_view name, const keyword_fields& fields) {
  for (const keyword_command& c : commands)
    if (c.name == name) return json_of(c.estimate(fields));
  std::string valid;
  for (const keyword_command& c : commands)
    valid += (valid.empty() ? "" : ", ") + std::string(c.name);
  throw request_error("unknown command '" + std::string(name) + "' (valid: " + valid + ")");
}

}  // namespace dlperf::app
