// A model request from keywords (dlperf/app/keyword_request.hpp).
#include <dlperf/app/keyword_request.hpp>

#include <algorithm>
#include <array>
#include <dlperf/app/device.hpp>
#include <dlperf/app/model_shape.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/hardware/links.hpp>

namespace dlperf::app {
namespace {

// The model's two keywords, the device's two, then the rest (model_keywords, device_keywords).
constexpr std::array<std::string_view, 7> model_request_keyword_list{
    "preset", "config", "gpu", "device", "power_limit", "link", "mode"};

}  // namespace

bool is_one_of(std::string_view keyword, std::span<const std::string_view> list) {
  return std::find(list.begin(), list.end(), keyword) != list.end();
}

std::span<const std::string_view> request_keywords() { return model_request_keyword_list; }

std::span<const std::string_view> model_keywords() {
  return std::span<const std::string_view>(model_request_keyword_list).subspan(0, 2);
}

std::span<const std::string_view> device_keywords() {
  return std::span<const std::string_view>(model_request_keyword_list).subspan(2, 2);
}

bool is_request_keyword(std::string_view keyword) {
  if (is_one_of(keyword, model_request_keyword_list)) return true;
  return std::any_of(run_fields().begin(), run_fields().end(),
                     [&](const run_field& f) { return f.keyword == keyword; });
}

void apply_run_keyword(run_options& o, run_extras& extras, std::string_view keyword,
                       const std::string& value) {
  if (is_one_of(keyword, model_keywords()) || is_one_of(keyword, device_keywords()))
    throw request_error("'" + std::string(keyword) + "' selects the model or device, not the run");
  if (keyword == "power_limit") {
    extras.power_limit = value;
  } else if (keyword == "link") {
    extras.link = value;
  } else if (keyword == "mode") {
    if (value != "train" && value != "infer")
      throw request_error("mode: expected 'train' or 'infer', got '" + value + "'");
    (value == "train" ? o.train : o.infer) = true;
  } else {
    run_field_of(keyword).set(o, value);
  }
}

void apply_model_run_keyword(run_options& o, std::string_view keyword, const std::string& value,
                             std::string_view command, std::string_view hint) {
  if (keyword == "power_limit" || keyword == "link")
    throw request_error(std::string(command) + ": unknown keyword '" + std::string(keyword) + "'" +
                        (hint.empty() ? std::string() : " (" + std::string(hint) + ")"));
  // The tool's command has no such flag: the buying layer lays out each job itself.
  if (is_one_of(keyword, job_layout_keywords()))
    throw request_error(std::string(command) + ": unknown keyword '" + std::string(keyword) +
                        "' (" + std::string(command) + " lays out each job over its GPUs itself)");
  run_extras unused;  // reached only by the two refused above
  apply_run_keyword(o, unused, keyword, value);
}

run_config make_run(const run_options& o, const run_extras& extras) {
  run_config run = make_run(o);
  if (!extras.link.empty()) run.link = &find_link(extras.link);
  return run;
}

model_request request_from_keywords(const std::vector<std::pair<std::string, std::string>>& fields,
                                    io::string_store& strings) {
  const std::pair<std::string, std::string>* model = nullptr;
  const std::pair<std::string, std::string>* device = nullptr;
  shape_options shape;
  run_options o;
  run_extras extras;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& field = fields[i];
    refuse_repeated_keyword(fields, i);
    const std::string& k = field.first;
    if (is_one_of(k, model_keywords())) {
      if (model != nullptr) throw request_error("give one of preset and config, not both");
      model = &field;
    } else if (is_one_of(k, device_keywords())) {
      if (device != nullptr) throw request_error("give one of gpu and device, not both");
      device = &field;
    } else if (set_shape_keyword(shape, k, field.second)) {
      continue;
    } else {
      apply_run_keyword(o, extras, k, field.second);
    }
  }
  if (model == nullptr && shape.layers.empty())
    throw request_error("give a model (preset, config, or layers with the other shape keywords)");
  if (device == nullptr) throw request_error("give a device (gpu or device)");
  model_request q;
  const std::string none;
  q.model = select_model(model != nullptr && model->first == "preset" ? model->second : none,
                         model != nullptr && model->first == "config" ? model->second : none, shape,
                         strings);
  q.run = make_run(o, extras);
  const bool file = device->first == "device";
  q.device =
      with_power_limit(file ? select_device("", device->second) : select_device(device->second, ""),
                       extras.power_limit, &q.power_limit);
  if (file) q.device_file = device->second;
  return q;
}

}  // namespace dlperf::app
