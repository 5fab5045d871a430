/// @file
/// `dlperf debias` as a typed request and report: a reported throughput ratio between two setups
/// with the batch and GPU-count advantage taken out, each side's scaling efficiency given, from
/// the multi-GPU model, or linear (buying/debias.hpp; docs/buying.md, "De-biasing a vendor
/// comparison"). The tool prints a report, and its JSON (report_json.hpp) is the one every front
/// end reads (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/buying/debias.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/model/model_spec.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// Where one side's scaling efficiency comes from.
enum class efficiency_basis : std::uint8_t {
  one_gpu,  ///< one GPU: 1
  linear,   ///< several GPUs, no efficiency given: 1 (linear scaling)
  given,    ///< given as a fraction
  model     ///< the multi-GPU model's, for its GPU and link
};

/// One side of a comparison: its batch per GPU, its GPUs, and its efficiency's basis.
// NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 14 flags the implicit special members
struct debias_side {
  long long batch = 1;                                 ///< batch per GPU
  long long gpus = 1;                                  ///< GPUs
  efficiency_basis basis = efficiency_basis::one_gpu;  ///< where the efficiency comes from
  double efficiency = 1;                               ///< the efficiency, when given
  std::optional<device_choice> gpu;                    ///< the modelled GPU (basis model)
  std::string device_file;                             ///< the device file it came from, or empty
  const link_spec* link = nullptr;                     ///< the modelled link (basis model)
};

/// What to de-bias: @p ratio, the "to" side's throughput over the "from" side's.
struct debias_request {
  double ratio = 1;                                 ///< the reported ratio
  workload_kind kind = workload_kind::transformer;  ///< sets the gain per batch doubling
  debias_side from;                                 ///< the "from" side
  debias_side to;                                   ///< the "to" side
  std::optional<model_spec> model;  ///< the model the modelled sides run (their preset)
};

/// A side's efficiency as the report gives it: its value and where it came from.
struct side_efficiency {
  double value = 1;                                    ///< the efficiency used
  efficiency_basis basis = efficiency_basis::one_gpu;  ///< where it came from
  std::string gpu;          ///< the modelled GPU's label (basis model), else empty
  std::string device_file;  ///< the device file it came from, or empty
  std::string link;         ///< the modelled link's id (basis model), else empty
};

/// The estimate of a debias_request.
struct debias_report {
  debias_result result;  ///< the factors and the de-biased ratio
  side_efficiency from;  ///< the "from" side's efficiency
  side_efficiency to;    ///< the "to" side's efficiency
  std::string model;     ///< the modelled sides' model, or empty
};

/// A comparison as the tool's flags (`dlperf debias --ratio ...`) and Python's keywords state it;
/// numbers stay text until make_debias_request reads them, so that a bad one is named by its
/// flag.
struct debias_options {
  std::string ratio;                                ///< --ratio (required)
  std::string batch_from;                           ///< --batch-from (empty: --batch-to's, else 64)
  std::string batch_to;                             ///< --batch-to (empty: --batch-from's, else 64)
  std::string gpus_from = "1";                      ///< --gpus-from
  std::string gpus_to = "1";                        ///< --gpus-to
  std::string efficiency_from;                      ///< --efficiency-from
  std::string efficiency_to;                        ///< --efficiency-to
  std::string gpu_from;                             ///< --gpu-from
  std::string gpu_to;                               ///< --gpu-to
  std::string device_from;                          ///< --device-from
  std::string device_to;                            ///< --device-to
  std::string link_from;                            ///< --link-from
  std::string link_to;                              ///< --link-to
  std::string preset;                               ///< --preset (default: the typical job's)
  workload_kind kind = workload_kind::transformer;  ///< --kind
  debias_options();
};

/// The request @p o states. Throws request_error naming the flag at fault (a ratio, batch or
/// GPU count out of range, an efficiency given beside a model, a GPU without its link, a GPU and
/// a device file on one side, a device file of a host CPU), and dlperf's errors for an unknown
/// GPU, link, preset or device file.
debias_request make_debias_request(const debias_options& o);

/// The keywords a debias request takes: ratio, batch_from, ..., preset, kind.
std::span<const std::string_view> debias_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.debias` gives them.
/// Throws request_error for an unknown or repeated keyword and as make_debias_request does.
debias_request debias_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Estimates @p q (buying/debias.hpp; a modelled side's efficiency from estimate_cluster).
/// Throws request_error for a modelled side without its GPU, link or model, or a host CPU; the
/// library's errors for a ratio, batch or count it cannot take.
debias_report estimate(const debias_request& q);

}  // namespace dlperf::app
