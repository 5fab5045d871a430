// `dlperf speedup` as a typed request and report (dlperf/app/speedup_report.hpp).
#include <dlperf/app/speedup_report.hpp>

#include <fmt/format.h>
#include <array>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/stacked.hpp>
#include <type_traits>
#include <variant>

namespace dlperf::app {
namespace {

// Every keyword of a speedup request that is not a run field, and the option it sets: one list
// for speedup_request_from_keywords and speedup_keywords.
constexpr std::array<text_keyword<speedup_options>, 5> pair_fields{
    {{"from", &speedup_options::from},
     {"to", &speedup_options::to},
     {"from_device", &speedup_options::from_device},
     {"to_device", &speedup_options::to_device},
     {"preset", &speedup_options::preset}}};
constexpr auto pair_keywords = keyword_names(pair_fields, std::array<std::string_view, 0>{});

// The GPU of --X ID or --X-device FILE (exactly one).
device_choice side(const std::string& id, const std::string& file, const std::string& flag) {
  if (id.empty() == file.empty())
    throw request_error("give exactly one of " + flag + " ID and " + flag + "-device FILE");
  return select_device(id, file);
}

// What a side shows of GPU @p g.
template <class G>
speedup_side side_of(const G& g, const std::string& file) {
  speedup_side s;
  s.id = std::string(g.id());
  s.name = std::string(g.name());
  s.dram = g.memory(tier::global).throughput;
  s.maker = g.arch().vendor;
  s.device_file = file;
  return s;
}

template <class From, class To>
speedup_report compare(const speedup_request& q, const From& from, const To& to) {
  speedup_report out;
  out.from = side_of(from, q.from_device);
  out.to = side_of(to, q.to_device);
  // The guide's rule where it applies; with a model the model answers where it does not (a GPU
  // without tensor cores: Pascal, a Mac), and the rule says why it is left out.
  try {
    out.rule = speedup_by_rule(from, to);
  } catch (const unsupported& e) {
    if (!q.model) throw request_error(std::string("--from/--to: ") + e.what());
    out.no_rule = e.what();
  }
  if (!q.model) return out;
  out.model = q.model;
  out.run = q.run;
  run_config r = q.run;
  // The stack figures each side's device file measured, if any.
  auto from_held = calibration_store();
  auto to_held = calibration_store();
  const software_stack from_stack =
      stack_on_device(r.stack, q.from_device, *from_held, &out.from.measured);
  const software_stack to_stack = stack_on_device(r.stack, q.to_device, *to_held, &out.to.measured);
  if ((out.from.measured != nullptr || out.to.measured != nullptr) && from.id() == to.id())
    throw request_error(fmt::format(
        "--from-device/--to-device: both sides are GPU '{}', so the {} figures measured in {} "
        "cannot apply to one side only (give one file's GPU another id in its \"facts\")",
        from.id(), name(r.stack), out.from.measured != nullptr ? q.from_device : q.to_device));
  std::vector<measured_stack> measured;
  if (out.from.measured != nullptr) measured.push_back({from.id(), &from_stack});
  if (out.to.measured != nullptr) measured.push_back({to.id(), &to_stack});
  r.measured_stacks = measured;
  for (const auto& [id, runs] :
       {std::pair{std::string(from.id()), from.supports(r.type, default_accumulator(r.type))},
        std::pair{std::string(to.id()), to.supports(r.type, default_accumulator(r.type))}})
    if (!runs)
      throw request_error("--dtype: " + id + " cannot run " + std::string(name(r.type)) +
                          " (give a --dtype both GPUs run, e.g. fp16)");
  out.modelled = speedup_by_model(from, to, *q.model, r);
  out.from.fit = check_fit(from, *q.model, r);
  out.to.fit = check_fit(to, *q.model, r);
  if (r.stack != stack_id::ceiling) {  // the hardware model's ratio, shown beside the stack's
    run_config bare = r;
    bare.stack = stack_id::ceiling;
    out.ceiling = speedup_by_model(from, to, *q.model, bare);
  }
  out.from.calibrations = std::move(from_held);
  out.to.calibrations = std::move(to_held);
  return out;
}

}  // namespace

speedup_request make_speedup_request(const speedup_options& o) {
  speedup_request q{side(o.from, o.from_device, "--from"),
                    side(o.to, o.to_device, "--to"),
                    o.from_device,
                    o.to_device,
                    std::nullopt,
                    {}};
  if (std::holds_alternative<host_device>(q.from) || std::holds_alternative<host_device>(q.to))
    throw request_error("--from-device/--to-device: speedup compares GPUs, not a host CPU");
  if (!o.preset.empty()) {
    q.model = presets::find(o.preset);
    q.run = make_run(o.run);
  }
  return q;
}

std::span<const std::string_view> speedup_keywords() { return pair_keywords; }

speedup_request speedup_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  const speedup_options o =
      options_from_keywords(fields, pair_fields, "speedup",
                            [](speedup_options& s, std::string_view k, const std::string& value) {
                              apply_model_run_keyword(s.run, k, value, "speedup");
                              return true;
                            });
  return make_speedup_request(o);
}

speedup_report estimate(const speedup_request& q) {
  refuse_null_gpu(q.from, "speedup");
  refuse_null_gpu(q.to, "speedup");
  return visit_device(q.from, [&](const auto& f) -> speedup_report {
    return visit_device(q.to, [&](const auto& t) -> speedup_report {
      if constexpr (gemm_device<std::decay_t<decltype(f)>> &&
                    gemm_device<std::decay_t<decltype(t)>>)
        return compare(q, f, t);
      else
        throw request_error("--from-device/--to-device: speedup compares GPUs, not a host CPU");
    });
  });
}

}  // namespace dlperf::app
