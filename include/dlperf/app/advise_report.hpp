/// @file
/// `dlperf advise` as typed requests and reports: GPUs to buy for a model's run or a use case,
/// each system that fits ranked by cost, time or performance per dollar, with its reasons
/// (buying/advice.hpp; docs/buying.md, "Advice"), and with `--rent` GPUs to rent, cheapest per
/// million tokens first (buying/rent.hpp; docs/buying.md, "Renting"). The tool prints a report,
/// and its JSON (report_json.hpp) is the one every front end reads (docs/layers.md, "The
/// application layer").
#pragma once

#include <dlperf/app/run_request.hpp>
#include <dlperf/buying/advice.hpp>
#include <dlperf/buying/rent.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// Advice as the tool's flags (`dlperf advise --preset ...`) and Python's keywords state it;
/// numbers stay text until make_advise_request or make_rent_request reads them, so that a bad one
/// is named by its flag.
struct advise_options_text {
  std::string preset;           ///< --preset NAME (or use)
  std::optional<use_case> use;  ///< --use-case NAME (or preset)
  std::string task;             ///< --task train16|infer16|infer8 (empty: the preset's run)
  std::string budget;           ///< --budget USD, the whole system
  std::string gpus;             ///< --gpus 1|2|4|8 (empty: the fewest that fit)
  std::string prices;           ///< --prices FILE
  std::string top = "10";       ///< --top K, the recommendations the text shows
  std::string host_cost;        ///< --host-cost USD
  std::string device;           ///< --device FILE
  std::string years;            ///< --years (empty: ownership_terms')
  std::string utilization;      ///< --utilization (empty: ownership_terms')
  std::string kwh_price;        ///< --kwh-price USD (empty: a desk's and a data centre's)
  std::string dataset_tokens;   ///< --dataset-tokens N: a training job to time and price
  std::string epochs;           ///< --epochs (with --dataset-tokens)
  advice_order order = advice_order::cost;      ///< --by
  price_basis prices_at = price_basis::market;  ///< --prices-at
  run_options run;                              ///< the preset's run (and --stack)
  bool dtype_given = false;      ///< --dtype given (else each GPU runs its best 16-bit type)
  bool by_given = false;         ///< --by given (which --rent refuses)
  bool prices_at_given = false;  ///< --prices-at given (which --rent refuses)
};

/// What to advise on: buying/advice.hpp's request, the device file's GPU that joins the
/// candidates, and how many recommendations a reader shows.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct advise_request {
  advice_request advice;                  ///< the model or use case, prices, terms and order
  std::optional<measured_device> device;  ///< a device file's GPU, in its catalog entry's place
  std::string device_file;                ///< the file it came from, or empty
  stack_id stack = stack_id::ceiling;     ///< the stack the runs run under
  long long top = 10;                     ///< the recommendations the text shows (JSON: all)
};

/// The advice of an advise_request, best first.
struct advise_report {
  /// The request as advised on, without its runs' measured stacks (measured_on names them).
  advice_request request;
  advice_task task;                    ///< the unit of work priced and timed
  std::vector<recommendation> advice;  ///< best first
  stack_id stack = stack_id::ceiling;  ///< the stack the runs ran under
  long long top = 10;                  ///< the recommendations the text shows
  /// The device file's GPU, shared so that the recommendations' pointers stay valid as the
  /// report is copied; null without one.
  std::shared_ptr<const measured_device> device;
  std::string device_file;  ///< the file it came from, or empty
  /// The calibrations of the device file, which the stack's sources refer to.
  std::shared_ptr<const std::vector<stack_calibration>> calibrations;
  const stack_calibration* measured = nullptr;  ///< the one applied to the file's GPU, if any

  /// The calibration applied on the GPU of id @p gpu_id; null when none was.
  [[nodiscard]] const stack_calibration* measured_on(std::string_view gpu_id) const {
    return device && device->id() == gpu_id ? measured : nullptr;
  }
};

/// What to rent: a model's run, priced at each GPU's cloud price.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct rent_request {
  model_spec model;    ///< the model (a preset)
  run_config run;      ///< its run
  price_table prices;  ///< cloud prices: a price file's cloud_hourly over the built-in offers
  /// The types tried: as given (--dtype), else each GPU's best 16-bit type.
  precision_choice precision = precision_choice::sixteen_bit;
  std::optional<training_job> job;  ///< a training job to time and price, if any
  long long top = 10;               ///< the rentals the text shows (JSON: all)
};

/// The rentals of a rent_request, cheapest per million tokens first.
struct rent_report {
  model_spec model;                 ///< the model priced
  run_config run;                   ///< its run
  std::vector<rental> ranked;       ///< cheapest per million tokens first
  std::optional<training_job> job;  ///< the training job timed and priced, if any
  long long top = 10;               ///< the rentals the text shows
};

/// The advice request @p o states. Throws request_error naming the flag at fault (exactly one of
/// --preset and --use-case, --gpus, --budget, --top, the price file, --years, --utilization,
/// --kwh-price, the job's --dataset-tokens and --epochs, --task, a device file of a host CPU),
/// and dlperf's errors for an unknown preset or a bad device file.
advise_request make_advise_request(const advise_options_text& o);

/// The rent request @p o states (`advise --rent`). Throws request_error naming the flag at fault:
/// no --preset, a flag renting does not take (--use-case, --budget, --task, --gpus, --device,
/// --host-cost, --years, --utilization, --kwh-price, --by, --prices-at), --top, the price file,
/// the job's --dataset-tokens and --epochs; dlperf's errors for an unknown preset.
rent_request make_rent_request(const advise_options_text& o);

/// The keywords an advise request takes besides the run fields: preset, use_case, task,
/// budget, gpus, prices, top, host_cost, device, years, utilization, kwh_price, dataset_tokens,
/// epochs, by, prices_at.
std::span<const std::string_view> advise_keywords();

/// The advise options keyword and value pairs @p fields state, as Python's `dlperf.advise`
/// gives them: advise_keywords() and the run fields of the preset's run (`dtype` among them
/// counts as given). Throws request_error for an unknown or repeated keyword and a bad
/// enumerator.
advise_options_text advise_options_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// The advice request @p fields state (advise_options_from_keywords, make_advise_request).
advise_request advise_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// The rent request @p fields state (advise_options_from_keywords, make_rent_request).
rent_request rent_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Advises on @p q (buying/advice.hpp's advise over the catalog, the device file's GPU in its
/// entry's place and on the stack figures the file measured).
advise_report estimate(const advise_request& q);

/// Ranks the rentals of @p q (buying/rent.hpp's rank_rentals over the catalog). Throws
/// request_error for a run renting cannot price (a model that generates no token).
rent_report estimate(const rent_request& q);

}  // namespace dlperf::app
