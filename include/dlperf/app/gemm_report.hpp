/// @file
/// `dlperf gemm` as a typed request and report: the best tiling of one GEMM on one GPU, a catalog
/// GPU or a device file's, and its time, traffic and binding resource (the tile-reuse model,
/// estimate/tile_search.hpp; docs/gemm.md). The tool prints a report, and its JSON
/// (report_json.hpp) is the one every front end reads (docs/layers.md, "The application layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/app/operand_types.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// What to estimate: @p problem on @p gpu.
struct gemm_request {
  device_choice gpu;              ///< the GPU (a host CPU is refused)
  std::string device_file;        ///< the device file the GPU came from, or empty
  gemm_problem problem{1, 1, 1};  ///< the shape, batch, datatypes and sparsity
};

/// The estimate of a gemm_request, with what each front end shows of it.
struct gemm_report {
  std::string gpu;                ///< the GPU's label: a catalog id or the file's device name
  std::string gpu_name;           ///< the GPU's name, "NVIDIA H100 SXM5 80GB"
  std::string arch;               ///< its architecture's name, "hopper"
  std::string device_file;        ///< the device file the GPU came from, or empty
  gemm_problem problem{1, 1, 1};  ///< the GEMM estimated
  gemm_estimate estimate;         ///< the best tiling's time, traffic and bound
  flop_rate peak{};               ///< the GPU's peak for the problem's datatypes and sparsity
};

/// A GEMM as the tool's flags (`dlperf gemm --gpu ... --m ...`) and Python's keywords state it;
/// the sizes stay text until make_gemm_request reads them, so that a bad one is named by its
/// flag.
struct gemm_options {
  std::string gpu;          ///< --gpu ID
  std::string device;       ///< --device FILE, instead of --gpu
  std::string m;            ///< --m (required)
  std::string n;            ///< --n (required)
  std::string k;            ///< --k (required)
  std::string batch = "1";  ///< --batch
  operand_types operands;   ///< --dtype, --accumulator, --sparse
};

/// The request @p o states. Throws request_error naming the flag at fault (both or neither of
/// --gpu and --device, a missing or implausible size), and dlperf's errors for an unknown GPU or
/// a bad device file.
gemm_request make_gemm_request(const gemm_options& o);

/// The keywords a GEMM request takes: gpu, device, m, n, k, batch, dtype, accumulator, sparse.
std::span<const std::string_view> gemm_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.gemm` gives them,
/// each value as the tool reads its flag. Throws request_error for an unknown or repeated keyword
/// and as make_gemm_request does.
gemm_request gemm_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Estimates @p q (best_gemm). Throws request_error for a host CPU or a null GPU, and the
/// library's errors for a problem the GPU cannot run (a datatype it lacks, sparsity before
/// Ampere).
gemm_report estimate(const gemm_request& q);

}  // namespace dlperf::app
