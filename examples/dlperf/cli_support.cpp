#include "cli_support.hpp"

#include <dlperf/io/price_json.hpp>
#include <dlperf/model/number_text.hpp>

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>
#include <variant>

namespace dlperf::cli {

double parse_amount(std::string_view option, std::string_view text) {
  const auto fail = [&](std::string_view why) {
    throw usage_error(fmt::format("{} '{}' {}", option, text, why));
  };
  double value = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, ec] = detail::double_from_chars(first, last, value);
  if (ec != std::errc{} || end == first) fail("is not a number");
  if (std::isnan(value) || std::isinf(value)) fail("must be finite");

  static constexpr auto multipliers =
      std::to_array<std::pair<std::string_view, double>>({{"", 1.0},
                                                          {"k", 1e3},
                                                          {"K", 1e3},
                                                          {"M", 1e6},
                                                          {"G", 1e9},
                                                          {"T", 1e12},
                                                          {"P", 1e15},
                                                          {"Ki", 1024.0},
                                                          {"Mi", 1048576.0},
                                                          {"Gi", 1073741824.0},
                                                          {"Ti", 1099511627776.0}});
  const std::string_view suffix(end, static_cast<std::size_t>(last - end));
  for (const auto& [name, scale] : multipliers) {
    if (suffix == name) {
      value *= scale;
      if (value < 0.0) fail("must not be negative");
      if (std::isinf(value)) fail("is too large");
      return value;
    }
  }
  fail(
      "has an unknown suffix (use a number, optionally followed by k, M, G, T, P, Ki, Mi, Gi "
      "or Ti)");
  return 0.0;  // unreachable: fail throws
}

long long parse_count(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value < 1.0 || value != std::floor(value) || value > 9.0e15)
    throw usage_error(fmt::format("{} '{}' must be a positive whole number", option, text));
  return static_cast<long long>(value);
}

long long parse_tokens(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value != std::floor(value) || value > 9.0e15)
    throw usage_error(fmt::format("{} '{}' must be a whole number of tokens", option, text));
  return static_cast<long long>(value);
}

double parse_fraction(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value > 1.0) throw usage_error(fmt::format("{} '{}' must be in [0, 1]", option, text));
  return value;
}

// Each range is wide enough for any machine one buys (a rack of GPUs, the dearest grid) and
// narrow enough that sums over it stay readable; docs/buying.md, "Plausible inputs", says why
// for each.
const std::vector<plausible_range> plausible_ranges{
    {"--budget", 0, 1e8, true, "USD"},          {"--host-cost", 0, 1e7, false, "USD"},
    {"--min-memory", 0, 1e4, false, "GiB"},     {"--count", 1, 16, false, "GPUs"},
    {"--rest-watts", 0, 1e4, false, "W"},       {"--gpu-watts", 0, 1e5, false, "W"},
    {"--other-watts", 0, 1e4, false, "W"},      {"--kwh-price", 0, 10, false, "USD per kWh"},
    {"--system-price", 0, 1e8, false, "USD"},   {"--cloud-hourly", 0, 1e4, false, "USD per hour"},
    {"--days", 0, 36500, true, "days"},         {"--grid-kg-per-kwh", 0, 2, false, "kg per kWh"},
    {"--ratio", 1e-3, 1e3, false, ""},          {"--batch-from", 1, 16777216, false, ""},
    {"--batch-to", 1, 16777216, false, ""},     {"--gpus-from", 1, 1048576, false, "GPUs"},
    {"--gpus-to", 1, 1048576, false, "GPUs"},   {"--bucket", 0, 1e11, true, "bytes"},
    {"--utilization", 1e-3, 1, false, ""},      {"--flops", 1, 1e30, false, "FLOP", true},
    {"--bytes", 1, 1e21, false, "bytes", true}, {"--overhead", 0, 1e13, false, "bytes"},
};

const plausible_range& plausible_range_of(std::string_view flag) {
  for (const plausible_range& r : plausible_ranges)
    if (r.flag == flag) return r;
  throw std::logic_error("no plausible range for " + std::string(flag));
}

namespace {
[[noreturn]] void outside(const plausible_range& r, std::string_view text) {
  throw usage_error(fmt::format("{} '{}' must be {}in {}{}, {}]{}{}", r.flag, text,
                                r.or_zero ? "0 or " : "", r.low_open ? "(" : "[", r.low, r.high,
                                r.unit.empty() ? "" : " ", r.unit));
}
}  // namespace

double parse_plausible(std::string_view flag, std::string_view text) {
  const plausible_range& r = plausible_range_of(flag);
  const double v = parse_amount(flag, text);
  if (r.or_zero && v == 0.0) return v;
  if (r.low_open ? !(v > r.low) : !(v >= r.low)) outside(r, text);
  if (v > r.high) outside(r, text);
  return v;
}

long long parse_plausible_count(std::string_view flag, std::string_view text) {
  const plausible_range& r = plausible_range_of(flag);
  const double v = parse_amount(flag, text);
  if (v < r.low || v > r.high) outside(r, text);
  return parse_count(flag, text);
}

CLI::Validator gpu_id_validator() {
  return {[](std::string& input) -> std::string {
            try {
              (void)catalog::find(input);
              return {};
            } catch (const not_found& e) {
              return e.what();
            }
          },
          "ID", "GPU id"};
}

price_table read_price_file(const std::string& file, const std::string& host_cost) {
  price_table p;
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) throw usage_error("--prices: cannot read '" + file + "'");
    std::stringstream text;
    text << in.rdbuf();
    try {
      p = io::prices_from_text(text.str());
    } catch (const error& e) {
      throw usage_error("--prices: " + file + ": " + e.what());
    }
  }
  if (!host_cost.empty()) {
    const money host = dollars(parse_plausible("--host-cost", host_cost));
    p.host = {host, host, host, host};
  }
  return p;
}

void write_text(const std::string& text, const std::string& out) {
  if (out.empty()) {
    fmt::print("{}", text);
    return;
  }
  std::ofstream stream(out);
  if (!stream) throw usage_error("cannot write --out '" + out + "'");
  stream << text;
  if (!stream) throw usage_error("failed writing --out '" + out + "'");
  fmt::print(stderr, "dlperf: wrote {}\n", out);
}

namespace {
// Where print_json stores its JSON on this thread instead of printing it (json_capture).
thread_local nlohmann::json* captured_json = nullptr;
}  // namespace

void print_json(nlohmann::json j) {
  if (captured_json != nullptr)
    *captured_json = std::move(j);
  else
    fmt::print("{}\n", j.dump(2));
}

json_capture::json_capture(nlohmann::json& into) : previous_(captured_json) {
  captured_json = &into;
}

json_capture::~json_capture() { captured_json = previous_; }

void write_json(const nlohmann::json& j, const std::string& out) {
  if (out.empty())
    print_json(j);
  else
    write_text(j.dump(2) + "\n", out);
}

cli_device select_device(const std::string& gpu_id, const std::string& device_file) {
  if (gpu_id.empty() == device_file.empty())
    throw usage_error("give exactly one of --gpu ID and --device FILE");
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
    throw usage_error(
        fmt::format("{} '{}' must be in [{}, {}] W, a fifth of the board power of {} to all of it",
                    flag, text, detail::figure_text(lowest_power_limit(tdp).value()),
                    detail::figure_text(tdp.value()), id));
  return limit;
}

cli_device with_power_limit(cli_device d, const std::string& text,
                            std::optional<power_limit_info>* applied) {
  if (applied != nullptr) applied->reset();
  if (text.empty()) return d;
  if (std::holds_alternative<host_device>(d))
    throw usage_error(
        "--power-limit: the device file describes a host CPU, which has no GPU "
        "power limit");
  return visit_device(d, [&](const auto& g) -> cli_device {
    if constexpr (gemm_device<std::decay_t<decltype(g)>>) {
      const power tdp = g.facts().tdp;
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

nlohmann::json power_limit_json(const std::optional<power_limit_info>& p) {
  if (!p) return nullptr;
  return {{"watts", p->limit.value()},
          {"board_watts", p->tdp.value()},
          {"clock_fraction", p->clock_fraction},
          {"sm_clock_hz", p->clock.value()}};
}

std::string power_limit_text(const power_limit_info& p) {
  return fmt::format(
      "power limit {} W of {} W: SM clock {} GHz, {} of its speed at full power ((limit / "
      "board power)^(1/3)); DRAM keeps its speed",
      three_digits(p.limit.value()), three_digits(p.tdp.value()),
      three_digits(p.clock.value() / 1e9), format_percent(p.clock_fraction, 1.0));
}

void add_power_limit_option(CLI::App* cmd, std::string& limit) {
  cmd->add_option("--power-limit", limit,
                  "Watts each GPU is limited to (nvidia-smi -pl), a fifth of its board power to "
                  "all of it: the SM clock falls to (limit / board power)^(1/3), DRAM keeps its "
                  "speed (docs/buying.md, Power)");
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

const stack_calibration* device_stacks::add(const std::string& file, std::string_view device,
                                            stack_id id) {
  if (file.empty() || id == stack_id::ceiling) return nullptr;
  std::vector<stack_calibration>& held = held_.emplace_back();
  const stack_calibration* applied = nullptr;
  software_stack s = stack_on_device(id, file, held, &applied);
  if (applied == nullptr) return nullptr;
  stacks_.push_back(s);
  applied_.push_back({std::string(device), file, applied});
  entries_.push_back({applied_.back().device, &stacks_.back()});
  return applied;
}

const stack_calibration* device_stacks::on(std::string_view device) const {
  for (const applied_stack& a : applied_)
    if (a.device == device) return a.calibration;
  return nullptr;
}

std::vector<std::string> device_stacks::describe() const {
  std::vector<std::string> lines;
  for (const applied_stack& a : applied_)
    lines.push_back(describe_measured(*a.calibration, fmt::format("{} ({})", a.device, a.file)));
  return lines;
}

nlohmann::json measured_figures_json(const stack_calibration* c) {
  if (c == nullptr) return nullptr;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [figure, m] : c->figures)
    out[std::string(name(figure))] = {{"value", m.value}, {"method", m.method}};
  return out;
}

std::string describe_measured(const stack_calibration& c, std::string_view where) {
  std::string text;
  for (const auto& [figure, m] : c.figures) {
    text += fmt::format("{}{} {} ({})", text.empty() ? "" : ", ", name(figure),
                        is_host_time(figure) ? format_duration(m.value) : three_digits(m.value),
                        m.method);
  }
  return fmt::format("measured on {}: {}", where, text);
}

std::string device_label(const cli_device& d) {
  if (const auto* g = std::get_if<const gpu_spec*>(&d)) return std::string((*g)->id());
  if (const auto* m = std::get_if<measured_device>(&d)) return std::string(m->id());
  return std::string(std::get<host_device>(d).name());
}

measured_device gpu_device_file(std::string_view flag, std::string_view command,
                                const std::string& file) {
  cli_device d = select_device("", file);
  auto* m = std::get_if<measured_device>(&d);
  if (m == nullptr)
    throw usage_error(
        fmt::format("{}: {} needs a GPU; '{}' describes a host CPU", flag, command, file));
  return std::move(*m);
}

candidate_gpus::candidate_gpus(const std::string& device_file, std::string_view command)
    : list(catalog::all.begin(), catalog::all.end()) {
  if (device_file.empty()) return;
  device.emplace(gpu_device_file("--device", command, device_file));
  const gpu_spec* mine = &device->nominal();
  std::erase_if(list, [mine](const gpu_spec* g) { return g->id() == mine->id(); });
  list.push_back(mine);
}

void add_device_options(CLI::App* cmd, std::string& gpu_id, std::string& device_file) {
  auto* gpu = cmd->add_option("--gpu", gpu_id, "GPU id from `dlperf gpus`, e.g. rtx_4090")
                  ->check(gpu_id_validator());
  auto* file = cmd->add_option("--device", device_file,
                               "Device file (from `dlperf calibrate` or `dlperf export`) instead "
                               "of --gpu");
  gpu->excludes(file);
}

void add_datatype_options(CLI::App* cmd, dtype& type, std::optional<accumulator>& acc,
                          bool& sparse) {
  add_enum_option<dtype>(cmd, "--dtype", type, "Operand datatype")
      ->default_str(std::string(name(type)));
  add_enum_option<accumulator>(cmd, "--accumulator", acc,
                               "Accumulation datatype; default: fp32 for floating types, int32 "
                               "for integers");
  cmd->add_flag("--sparse", sparse, "Operands are 2:4 structured sparse (Ampere and later)");
}

}  // namespace dlperf::cli
