/// @file
/// A model request from keywords, as Python's `dlperf.model(preset=..., gpu=..., batch=8)` and a
/// sweep's points state it: `preset` or `config`, `gpu` or `device`, `power_limit`, `link`, `mode`
/// and every run field (run_request.hpp), each with its value as text the tool would read
/// (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/amounts.hpp>
#include <dlperf/app/model_report.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/io/model_json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// The keywords of a model request that are not run fields: the model (`preset`, `config`), the
/// device (`gpu`, `device`), `power_limit`, `link` and `mode` ("train" or "infer").
std::span<const std::string_view> request_keywords();

/// The keywords that name the model, `preset` and `config` (one of them is given).
std::span<const std::string_view> model_keywords();

/// The keywords that name the device, `gpu` and `device` (one of them is given).
std::span<const std::string_view> device_keywords();

/// Whether @p keyword is in @p list (request_keywords(), model_keywords(), device_keywords()).
bool is_one_of(std::string_view keyword, std::span<const std::string_view> list);

/// Whether @p keyword is one a model request takes: a request keyword or a run field's.
bool is_request_keyword(std::string_view keyword);

/// What a request's run keywords set beyond run_options: the power limit and the link, as text.
struct run_extras {
  std::string power_limit;  ///< `power_limit` (empty: the board power)
  std::string link;         ///< `link` (empty: the system's)
};

/// Applies @p keyword = @p value, a run field, `power_limit`, `link` or `mode`, to @p o and
/// @p extras. Throws request_error naming the keyword or the flag for a bad value, and for a
/// model or device keyword (those select what the run is of, not how it runs).
void apply_run_keyword(run_options& o, run_extras& extras, std::string_view keyword,
                       const std::string& value);

/// Applies run field @p keyword = @p value to @p o, for a request whose run is its model's
/// (power, rank, speedup, advise). Such a run has no power limit or link of its own, so
/// `power_limit` and `link` are refused as unknown keywords of @p command, with @p hint in
/// brackets when given; nor a layout over GPUs (job_layout_keywords), which the command chooses.
/// Throws request_error as apply_run_keyword does otherwise.
void apply_model_run_keyword(run_options& o, std::string_view keyword, const std::string& value,
                             std::string_view command, std::string_view hint = {});

/// The run @p o and @p extras state (make_run, and the link when one is named). Throws
/// request_error naming the flag for a bad value; dlperf's error for an unknown link.
run_config make_run(const run_options& o, const run_extras& extras);

/// The request that keyword and value pairs @p fields state. A model file's names are kept in
/// @p strings. Throws request_error for an unknown or repeated keyword, a missing or doubled
/// model or device, and any value the tool would refuse; dlperf's errors for an unknown preset,
/// GPU or link.
model_request request_from_keywords(const std::vector<std::pair<std::string, std::string>>& fields,
                                    io::string_store& strings);

}  // namespace dlperf::app
