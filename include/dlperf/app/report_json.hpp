/// @file
/// The one JSON form of the application layer's reports, in SI units with stable keys: the tool
/// prints it (`--json`), Python and the page read it (docs/layers.md, "The application layer";
/// README, "JSON output").
#pragma once

#include <dlperf/app/advise_report.hpp>
#include <dlperf/app/cluster_report.hpp>
#include <dlperf/app/debias_report.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/gemm_report.hpp>
#include <dlperf/app/model_report.hpp>
#include <dlperf/app/power_report.hpp>
#include <dlperf/app/rank_report.hpp>
#include <dlperf/app/report_writer.hpp>
#include <dlperf/app/roofline_report.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/app/serve_report.hpp>
#include <dlperf/app/speedup_report.hpp>
#include <dlperf/app/tco_report.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/model/error_bands.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

namespace dlperf::app {

/// `dlperf model --json`: the model, run, device, stack, per-operator times, the stack's and
/// the ceiling's figures, memory and fit, the job's collectives and the error bands.
nlohmann::json to_json(const model_report& r);

/// Writes report @p r, as to_json gives it, to @p w: Python's objects and the JSON from one
/// writing. The model's report is written member by member (the one a sweep or a notebook asks
/// for most); the others are written from their JSON.
void write(report_writer& w, const model_report& r);
/// Writes `to_json(r)` of a cluster report to @p w.
void write(report_writer& w, const cluster_report& r);
/// Writes `to_json(r)` of a gemm report to @p w.
void write(report_writer& w, const gemm_report& r);
/// Writes `to_json(r)` of a roofline report to @p w.
void write(report_writer& w, const roofline_report& r);
/// Writes `to_json(r)` of a power report to @p w.
void write(report_writer& w, const power_report& r);
/// Writes `to_json(r)` of a debias report to @p w.
void write(report_writer& w, const debias_report& r);
/// Writes `to_json(r)` of a tco report to @p w.
void write(report_writer& w, const tco_report& r);
/// Writes `to_json(r)` of a rank report to @p w.
void write(report_writer& w, const rank_report& r);
/// Writes `to_json(r)` of a speedup report to @p w.
void write(report_writer& w, const speedup_report& r);
/// Writes `to_json(r)` of an advise report to @p w.
void write(report_writer& w, const advise_report& r);
/// Writes `to_json(r)` of a rent report to @p w.
void write(report_writer& w, const rent_report& r);
/// Writes `to_json(r)` of a serve report to @p w.
void write(report_writer& w, const serve_report& r);

/// `dlperf cluster --json`: the job's GPUs, link, step and its parts, collectives, rate, speed-up
/// and efficiency, memory and fit, the stack and its training band.
nlohmann::json to_json(const cluster_report& r);

/// `dlperf gemm --json`: the GPU, the problem, the best tile, its waves, traffic, time and bound,
/// and the time each resource alone would take.
nlohmann::json to_json(const gemm_report& r);

/// `dlperf roofline --json`: the device, the datatypes, the attainable and peak rates, the bound,
/// the arithmetic intensity (null without DRAM traffic), the ridge point and the times.
nlohmann::json to_json(const roofline_report& r);

/// `dlperf power --json`: the boards, the system, the PSU, the limit and what it saves and costs,
/// the compute share it slows, the warnings, and the stack whose estimate gave the share.
nlohmann::json to_json(const power_report& r);

/// `dlperf debias --json`: the reported and de-biased ratios, the workload kind, and the batch
/// and GPU factors with each side's efficiency.
nlohmann::json to_json(const debias_report& r);

/// `dlperf tco --json`: the utilisation, period and billing, the energy and its cost, the cloud's
/// and the desktop's costs, the break-even, the carbon, and the machine and prices costed.
nlohmann::json to_json(const tco_report& r);

/// `dlperf rank --json`: one object per GPU ranked, best per dollar first: its id, type,
/// relative performance, system cost and performance per dollar, memory, GPUs and splits, the
/// reference, its price and host share, the stack and the figures a device file measured for it.
nlohmann::json to_json(const rank_report& r);

/// `dlperf speedup --json`: the two GPUs and their bandwidths, the guide's rule (or why it does
/// not apply), and with a model the modelled ratio, the steps, the fits, the run, the stack's
/// measured figures on each side and the hardware model's ratio beside a stack.
nlohmann::json to_json(const speedup_report& r);

/// `dlperf advise --json`: one entry per GPU, best first: whether its system fits and is within
/// budget, its cost, relative performance, scaling, power, reasons and verdict, the cost and
/// time per task, the training job's, the split a model runs at, the price used and the figures
/// a device file measured for the stack.
nlohmann::json to_json(const advise_report& r);

/// `dlperf advise --rent --json`: one entry per GPU, cheapest per million tokens first: its split,
/// type, stack, hourly prices, tokens per second, cost per million tokens, the training job's
/// time and cost, and the cloud offer priced at.
nlohmann::json to_json(const rent_report& r);

/// `dlperf model --serve --json`: the saturation estimate under the stack (concurrency, steps,
/// throughput; at the rate, TTFT and TPOT), the model, run, device and engine settings, the
/// figures a device file measured for the stack, the ceiling's figures under the same schedule
/// and the stack's serving band.
nlohmann::json to_json(const serve_report& r);

/// The run's fields (run_fields()) for a front end that lays out a form: one object each with its
/// keyword, flag, kind ("text", "choice" or "toggle"), whether it lays out a job over GPUs, its
/// help line, its default as text ("" where a text or choice field is not given) and the names
/// it takes or reads.
nlohmann::json to_json(std::span<const run_field> fields);

/// "device_file": the device file a report's device came from, or null for a catalog GPU.
nlohmann::json device_file_json(const std::string& file);

/// "power_limit": {"watts", "board_watts", "clock_fraction", "sm_clock_hz"}, or null.
nlohmann::json power_limit_json(const std::optional<power_limit_info>& p);
/// "sustained_clock": {"clock_fraction", "sm_clock_hz", "tensor_clock_hz"}, or null.
nlohmann::json sustained_clock_json(const std::optional<sustained_clock_info>& s);

/// A training job's collectives and its servers as `model --json` and `cluster --json` give
/// them: {"network", "gpus_per_node", "nodes", "grad_accumulation", "pp", "virtual_stages", "cp",
/// "ep" (GPUs the experts are spread over), "expert_dispatch", "async_tp" (the tensor split's
/// collectives pipelined with their GEMMs), "shard_group" (GPUs ZeRO shards
/// over), "pipeline_bubble_s", "exposed_communication_s", "collectives": [{"name", "collective",
/// "bytes", "calls", "time_s", "exposed_s", "sms" (the SMs NCCL's channels hold while it runs;
/// 0 where no count is published), "slowed_s" (of exposed_s, the computation it overlaps slowed
/// by them)}]}.
nlohmann::json job_collectives_json(const cluster_estimate& c);

/// Where published training runs on several GPUs under @p run's stack, on boards of class
/// @p boards, fell against the multi-GPU model (model/error_bands.hpp, training_scaling_band),
/// applied to a job of @p samples_per_s and @p tokens_per_s: the rates the middle 80 % of them
/// would give, in SI units, with the class ("boards"), or null where the stack has no band on that
/// class, the job's GPUs are of several classes (no @p boards) or the job is not a language
/// model's (@p tokens_per_s 0: the published runs are all of decoders).
nlohmann::json training_band_json(const run_config& run, long long seq,
                                  std::optional<board_class> boards, double samples_per_s,
                                  double tokens_per_s);

/// Where published serving runs of the same engine on the same vendor's boards of the same
/// class fell against the serving model (model/error_bands.hpp, serving_band), applied to an
/// estimate of @p output_tokens_per_s: {"stack", "vendor", "boards", "rows", "banded",
/// "median_abs_error", "bias", "coverage", "measured_over_predicted": [low, high],
/// "output_tokens_per_s": [low, high], "several_gpus", "gpus_per_row": 1, or null where the
/// rows split one model copy over several GPUs}; "banded" is false for a group of too
/// few rows to be a band (its figures are still what those rows measured). Null without a row.
nlohmann::json serving_band_json(const std::optional<serving_band>& band,
                                 double output_tokens_per_s);

/// The figures calibration @p c measured, by name: {"gemm_efficiency": {"value", "method"},
/// ...}; null for none (the stack runs on its own figures). JSON "stack_measured".
nlohmann::json measured_figures_json(const stack_calibration* c);

}  // namespace dlperf::app
