/// @file
/// `dlperf roofline` as a typed request and report: the time and bound of a workload (FLOP of one
/// datatype over DRAM bytes) on one device, a catalog GPU or a device file's GPU or host CPU (the
/// roofline model, estimate/roofline.hpp; docs/model.md, "Roofline"). The tool prints a report, and
/// its JSON (report_json.hpp) is the one every front end reads (docs/layers.md, "The application
/// layer").
#pragma once

#include <dlperf/app/device.hpp>
#include <dlperf/app/operand_types.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/roofline.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlperf::app {

/// What to estimate: @p work in @p operands over @p traffic bytes of DRAM on @p gpu.
struct roofline_request {
  device_choice gpu;        ///< the device
  std::string device_file;  ///< the device file it came from, or empty
  operand_types operands;   ///< the datatype, accumulation and sparsity of the work
  flop_count work{};        ///< the arithmetic work
  byte_count traffic{};     ///< the DRAM traffic
};

/// The estimate of a roofline_request, with what each front end shows of it.
struct roofline_report {
  std::string gpu;           ///< the device's label: a catalog id or the file's device name
  std::string gpu_name;      ///< the device's name
  std::string device_file;   ///< the device file it came from, or empty
  dtype type = dtype::fp16;  ///< the work's datatype
  accumulator acc = accumulator::fp32;  ///< its accumulation
  bool sparse = false;                  ///< 2:4 structured-sparse operands
  flop_count work{};                    ///< the arithmetic work
  byte_count traffic{};                 ///< the DRAM traffic
  roofline_result result{};             ///< time, attainable rate, bound, ridge point
};

/// A workload as the tool's flags (`dlperf roofline --gpu ... --flops ... --bytes ...`) and
/// Python's keywords state it; the amounts stay text until make_roofline_request reads them.
struct roofline_options {
  std::string gpu;         ///< --gpu ID
  std::string device;      ///< --device FILE, instead of --gpu
  std::string flops;       ///< --flops (required)
  std::string bytes;       ///< --bytes (required)
  operand_types operands;  ///< --dtype, --accumulator, --sparse
};

/// The request @p o states. Throws request_error naming the flag at fault (both or neither of
/// --gpu and --device, a missing or implausible amount), and dlperf's errors for an unknown GPU
/// or a bad device file.
roofline_request make_roofline_request(const roofline_options& o);

/// The keywords a roofline request takes: gpu, device, flops, bytes, dtype, accumulator, sparse.
std::span<const std::string_view> roofline_keywords();

/// The request keyword and value pairs @p fields state, as Python's `dlperf.roofline` gives
/// them. Throws request_error for an unknown or repeated keyword and as make_roofline_request
/// does.
roofline_request roofline_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields);

/// Estimates @p q (roofline). Throws request_error for a workload of no FLOP and no bytes or a
/// null GPU, and dlperf::unsupported, naming architecture and datatype, for a datatype the device
/// has no path for.
roofline_report estimate(const roofline_request& q);

}  // namespace dlperf::app
