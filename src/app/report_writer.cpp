// The JSON sink of the application layer's reports (dlperf/app/report_writer.hpp).
#include <dlperf/app/report_writer.hpp>

namespace dlperf::app {

void write_value(report_writer& w, const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object:
      w.begin_object();
      for (auto it = j.begin(); it != j.end(); ++it) {
        w.key(it.key());
        write_value(w, it.value());
      }
      w.end_object();
      return;
    case nlohmann::json::value_t::array:
      w.begin_array();
      for (const nlohmann::json& x : j) write_value(w, x);
      w.end_array();
      return;
    case nlohmann::json::value_t::string:
      w.string(j.get_ref<const std::string&>());
      return;
    case nlohmann::json::value_t::boolean:
      w.boolean(j.get<bool>());
      return;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      w.integer(j.get<std::int64_t>());
      return;
    case nlohmann::json::value_t::number_float:
      w.number(j.get<double>());
      return;
    default:  // null, and the binary values a report never holds
      w.null();
      return;
  }
}

nlohmann::json& json_writer::put(nlohmann::json v) {
  if (open_.empty()) return root_ = std::move(v);
  nlohmann::json& into = *open_.back();
  if (into.is_array()) return into.emplace_back(std::move(v));
  return into[key_] = std::move(v);
}

void json_writer::null() { put(nullptr); }
void json_writer::boolean(bool b) { put(b); }
void json_writer::integer(std::int64_t i) { put(i); }
void json_writer::number(double x) { put(x); }
void json_writer::string(std::string_view s) { put(s); }
void json_writer::key(std::string_view k) { key_.assign(k); }
// An object or array open is written into until it closes: no other value is put beside it
// meanwhile, so the pointer to it stays valid.
void json_writer::begin_object() { open_.push_back(&put(nlohmann::json::object())); }
void json_writer::begin_array() { open_.push_back(&put(nlohmann::json::array())); }
void json_writer::end_object() { open_.pop_back(); }
void json_writer::end_array() { open_.pop_back(); }

}  // namespace dlperf::app
