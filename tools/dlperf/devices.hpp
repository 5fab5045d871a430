// What the commands say about their devices: a power limit, the stacks a device file measured
// and the GPUs a buying command compares.
#pragma once

#include <deque>
#include <dlperf/app/device.hpp>
#include <dlperf/hardware/measured_device.hpp>
#include <dlperf/stack/stack.hpp>
#include <dlperf/stack/stack_calibration.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlperf::cli {

/// The line for people: "power limit 500 W of 700 W: SM clock 1.77 GHz, 89.4 % of its speed at
/// full power ...".
std::string power_limit_text(const app::power_limit_info& p);

/// The line for people: "clock: a long job's tensor work holds 1.47 GHz, 80.3 % of the 1.83 GHz
/// its peak is quoted at ...".
std::string sustained_clock_text(const app::sustained_clock_info& s);

/// The stacks that device files measured, for the runs of the commands that compare devices
/// (run_config::measured_stacks): each file's figures for the run's stack, bound to the id of
/// the file's GPU. Runs point into it, so it is neither copied nor moved.
class device_stacks {
 public:
  device_stacks() = default;
  device_stacks(const device_stacks&) = delete;
  device_stacks& operator=(const device_stacks&) = delete;
  ~device_stacks() = default;
  device_stacks(device_stacks&&) = delete;
  device_stacks& operator=(device_stacks&&) = delete;

  /// Adds what device file @p file measured for stack @p id on its GPU, whose id is @p device;
  /// nothing for no file (empty), the ceiling, or a stack the file did not measure. Returns the
  /// calibration applied, if any (it lives as long as this object).
  const stack_calibration* add(const std::string& file, std::string_view device, stack_id id);
  /// What a run takes as run_config::measured_stacks.
  [[nodiscard]] std::span<const measured_stack> entries() const { return entries_; }
  /// The calibration applied on the GPU of id @p device; null when none was.
  [[nodiscard]] const stack_calibration* on(std::string_view device) const;
  /// One `describe_measured` line per calibration applied, in the order added, each naming its
  /// GPU and file ("measured on rtx_4090 (FILE): ...").
  [[nodiscard]] std::vector<std::string> describe() const;

 private:
  // A calibration applied: its GPU's id, the file it came from, and the calibration itself.
  struct applied_stack {
    std::string device, file;
    const stack_calibration* calibration = nullptr;
  };
  std::deque<std::vector<stack_calibration>> held_;  // each file's calibrations
  std::deque<software_stack> stacks_;                // the stacks applied
  std::deque<applied_stack> applied_;  // what was applied, where (entries_ name these ids)
  std::vector<measured_stack> entries_;
};

/// "measured on @p where: gemm_efficiency 0.700 (torch.matmul ...), host_overhead 21.0 µs
/// (...)": calibration @p c for the text output.
std::string describe_measured(const stack_calibration& c, std::string_view where);

/// The GPUs a buying command compares (rank, advise): the catalog, and with --device FILE the
/// file's GPU too, in place of the catalog entry of the same id. Not copyable: `list` points into
/// `device`.
struct candidate_gpus {
  std::optional<measured_device> device;  ///< the device file's GPU, if one was given
  std::vector<const gpu_spec*> list;      ///< what is compared
  /// The catalog plus the GPU of @p device_file (none when empty); @p command names the command
  /// in the error a host-CPU file gets.
  candidate_gpus(const std::string& device_file, std::string_view command);
  candidate_gpus(const candidate_gpus&) = delete;
  candidate_gpus& operator=(const candidate_gpus&) = delete;
};

}  // namespace dlperf::cli
