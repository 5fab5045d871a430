// The device a request runs on (dlperf/app/device.hpp).
#include <dlperf/app/device.hpp>

#include <fmt/format.h>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/estimate/power_limit.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/io/device_file.hpp>
#include <dlperf/model/number_text.hpp>
#include <dlperf/stack/stacks.hpp>
#include <utility>

namespace dlperf::app {

device_choice select_device(const std::string& gpu_id, const std::string& device_file) {
  if (gpu_id.empty() == device_file.empty())
    throw request_error("give exactly one of --gpu ID and --device FILE");
  if (!gpu_id.empty()) return &catalog::find(gpu_id);
  calibrate::any_device d = calibrate::read_device_file(device_file);
  if (auto* m = std::get_if<measured_device>(&d)) return std::move(*m);
  return std::get<host_device>(std::move(d));
}

power parse_power_limit(std::string_view flag, std::string_view text, power tdp,
                        std::string_view id) {
  const power limit = watts(parse_amount(flag, text));
  // The library's range (estimate/power_limit.hpp), named by the flag.
  if (!power_limit_in_range(limit, tdp))
    throw request_error(
        fmt::format("{} '{}' must be in [{}, {}] W, a fifth of the board power of {} to all of it",
                    flag, text, detail::figure_text(lowest_power_limit(tdp).value()),
                    detail::figure_text(tdp.value()), id));
  return limit;
}

device_choice with_power_limit(device_choice d, const std::string& text,
                               std::optional<power_limit_info>* applied) {
  if (applied != nullptr) applied->reset();
  if (text.empty()) return d;
  if (std::holds_alternative<host_device>(d))
    throw request_error(
        "--power-limit: the device file describes a host CPU, which has no GPU "
        "power limit");
  return visit_device(d, [&](const auto& g) -> device_choice {
    if constexpr (gemm_device<std::decay_t<decltype(g)>>) {
      const power tdp = g.facts().tdp;
      if (g.facts().form == form_factor::integrated)
        throw request_error("--power-limit: " + std::string(g.name()) +
                            " is a system-on-chip's GPU, with no power limit to set");
      const power limit = parse_power_limit("--power-limit", text, tdp, g.id());
      measured_device limited = under_power_limit(measured_device(g), limit);
      if (applied != nullptr)
        *applied = power_limit_info{limit, tdp, clock_fraction(limit, tdp), limited.sm_clock()};
      return limited;
    } else {
      return d;  // not reached: a host CPU is refused above
    }
  });
}

software_stack stack_on_device(stack_id id, const std::string& device_file,
                               std::vector<stack_calibration>& held,
                               const stack_calibration** applied) {
  if (applied != nullptr) *applied = nullptr;
  const software_stack& named = stacks::of(id);
  if (device_file.empty() || id == stack_id::ceiling) return named;
  held = calibrate::read_stack_calibrations(device_file);
  for (const stack_calibration& c : held)
    if (c.stack == id) {
      if (applied != nullptr) *applied = &c;
      return c.apply_to(named);
    }
  return named;
}

std::shared_ptr<std::vector<stack_calibration>> calibration_store() {
  return std::make_shared<std::vector<stack_calibration>>();
}

void refuse_null_gpu(const device_choice& d, std::string_view command) {
  if (const auto* g = std::get_if<const gpu_spec*>(&d); g != nullptr && *g == nullptr)
    throw request_error(std::string(command) + ": the request names a null GPU");
}

std::vector<const gpu_spec*> catalog_with(const gpu_spec* mine) {
  std::vector<const gpu_spec*> list(catalog::all.begin(), catalog::all.end());
  if (mine == nullptr) return list;
  std::erase_if(list, [mine](const gpu_spec* g) { return g->id() == mine->id(); });
  list.push_back(mine);
  return list;
}

candidate_gpus candidates_with(const std::optional<measured_device>& device,
                               const std::string& device_file, stack_id id) {
  candidate_gpus out;
  auto held = calibration_store();
  if (device) {
    out.device = std::make_shared<const measured_device>(*device);
    auto record = std::make_shared<const software_stack>(
        stack_on_device(id, device_file, *held, &out.measured));
    if (out.measured != nullptr) {
      out.stack = record;
      out.measured_stacks.push_back({out.device->id(), out.stack.get()});
    }
  }
  out.calibrations = std::move(held);
  out.list = catalog_with(out.device ? &out.device->nominal() : nullptr);
  return out;
}

std::string device_label(const device_choice& d) {
  if (const auto* g = std::get_if<const gpu_spec*>(&d)) return std::string((*g)->id());
  if (const auto* m = std::get_if<measured_device>(&d)) return std::string(m->id());
  return std::string(std::get<host_device>(d).name());
}

measured_device gpu_device_file(std::string_view flag, std::string_view command,
                                const std::string& file) {
  device_choice d = select_device("", file);
  auto* m = std::get_if<measured_device>(&d);
  if (m == nullptr)
    throw request_error(
        fmt::format("{}: {} needs a GPU; '{}' describes a host CPU", flag, command, file));
  return std::move(*m);
}

}  // namespace dlperf::app
