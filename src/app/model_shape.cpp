// A transformer described by its shape (dlperf/app/model_shape.hpp).
#include <dlperf/app/model_shape.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/model/presets.hpp>
#include <utility>

namespace dlperf::app {
namespace {

// @p flag without its leading dashes ("--max-seq": "max-seq"); keywords then spell `-` as `_`.
constexpr std::string_view keyword_chars(std::string_view flag) { return flag.substr(2); }

// The text fields every shape names, by flag; the first is --layers.
constexpr std::array<std::pair<std::string_view, std::string shape_options::*>, 5> shape_texts{{
    {"--layers", &shape_options::layers},
    {"--hidden", &shape_options::hidden},
    {"--heads", &shape_options::heads},
    {"--vocab", &shape_options::vocab},
    {"--max-seq", &shape_options::max_seq},
}};

// Every shape keyword, in shape_keywords' order: the text fields, the three enumerators, the
// sizes and the switches.
struct keyword_list {
  std::array<std::string, shape_texts.size() + 3 + shape_sizes.size() + shape_switches.size()>
      owned;
  std::array<std::string_view, shape_texts.size() + 3 + shape_sizes.size() + shape_switches.size()>
      views;
  keyword_list() {
    std::size_t i = 0;
    const auto add = [&](std::string_view flag) {
      std::string k(keyword_chars(flag));
      for (char& c : k)
        if (c == '-') c = '_';
      owned[i] = std::move(k);
      views[i] = owned[i];
      ++i;
    };
    for (const auto& field : shape_texts) add(field.first);
    for (const std::string_view flag : {"--ffn-kind", "--arch", "--norm"}) add(flag);
    for (const shape_size_field& f : shape_sizes) add(f.flag);
    for (const shape_switch_field& f : shape_switches) add(f.flag);
  }
};

const keyword_list& keywords() {
  static const keyword_list list;
  return list;
}

// The flag of keyword @p k (shape_keywords' order), for a message and first_given.
std::string_view flag_of(std::size_t k) {
  if (k < shape_texts.size()) return shape_texts[k].first;
  k -= shape_texts.size();
  if (k < 3) return std::array<std::string_view, 3>{"--ffn-kind", "--arch", "--norm"}[k];
  k -= 3;
  if (k < shape_sizes.size()) return shape_sizes[k].flag;
  return shape_switches[k - shape_sizes.size()].flag;
}

}  // namespace

std::span<const std::string_view> shape_keywords() { return keywords().views; }

bool refused_beside_model(std::string_view flag) {
  return flag != "--layers" && flag != "--max-seq";
}

bool set_shape_keyword(shape_options& o, std::string_view keyword, const std::string& value) {
  const auto& list = keywords().views;
  const auto* at = std::find(list.begin(), list.end(), keyword);
  if (at == list.end()) return false;
  std::size_t k = static_cast<std::size_t>(at - list.begin());
  const std::string_view flag = flag_of(k);
  if (refused_beside_model(flag) && o.first_given.empty()) o.first_given = std::string(flag);
  if (k < shape_texts.size()) {
    o.*(shape_texts[k].second) = value;
    return true;
  }
  k -= shape_texts.size();
  if (k == 0) {
    o.ffn_type = parse_named<ffn_kind>(flag, value);
  } else if (k == 1) {
    o.kind = parse_named<transformer_kind>(flag, value);
  } else if (k == 2) {
    o.norm = parse_named<norm_kind>(flag, value);
  } else if (k - 3 < shape_sizes.size()) {
    o.sizes[k - 3] = value;
  } else {
    o.switches[k - 3 - shape_sizes.size()] = parse_switch(flag, value);
  }
  return true;
}

model_spec model_of_shape(const shape_options& o) {
  for (const auto& [flag, member] : shape_texts)
    if ((o.*member).empty()) throw request_error(std::string(flag) + " is required with --layers");
  transformer_config t;
  t.kind = o.kind;
  t.layers = parse_plausible_count("--layers", o.layers);
  t.hidden = parse_plausible_count("--hidden", o.hidden);
  t.heads = parse_plausible_count("--heads", o.heads);
  t.ffn_type = o.ffn_type;
  t.vocab = parse_plausible_count("--vocab", o.vocab);
  t.max_seq = parse_plausible_count("--max-seq", o.max_seq);
  t.norm = o.norm;
  for (std::size_t i = 0; i < shape_sizes.size(); ++i)
    t.*shape_sizes[i].member = parse_plausible_count(shape_sizes[i].flag, o.sizes[i]);
  for (std::size_t i = 0; i < shape_switches.size(); ++i)
    if (o.switches[i]) t.*shape_switches[i].member = shape_switches[i].value;
  if (t.kind == transformer_kind::encoder_decoder) t.decoder_layers = t.layers;
  t.validate();
  return as_model(t);
}

model_spec with_context(model_spec m, const std::string& max_seq) {
  if (m.kind != model_kind::transformer)
    throw request_error("--max-seq extends a transformer's context; " + std::string(m.name) +
                        " is a CNN");
  const long long context = parse_plausible_count("--max-seq", max_seq);
  if (context < m.transformer.max_seq)
    throw request_error(fmt::format(
        "--max-seq ({}) is below {}'s context ({}): beside a model it extends the context; "
        "shorter sequences take --seq",
        context, m.name, m.transformer.max_seq));
  m.transformer.max_seq = context;
  m.transformer.validate();
  return m;
}

model_spec select_model(const std::string& preset, const std::string& config,
                        const shape_options& shape, io::string_store& strings) {
  const int sources =
      (preset.empty() ? 0 : 1) + (config.empty() ? 0 : 1) + (shape.layers.empty() ? 0 : 1);
  if (sources != 1)
    throw request_error(
        "give exactly one of --preset NAME, --config FILE and the shape flags "
        "(--layers, --hidden, --heads, --vocab, --max-seq)");
  if (shape.layers.empty() && !shape.first_given.empty())
    throw request_error(shape.first_given +
                        " describes a model by its shape: give it with --layers " +
                        "and the other shape flags, not with --preset or --config");
  if (shape.layers.empty() && !shape.max_seq.empty())
    return with_context(
        preset.empty() ? io::read_model_file(config, strings) : presets::find(preset),
        shape.max_seq);
  if (!preset.empty()) return presets::find(preset);
  if (!config.empty()) return io::read_model_file(config, strings);
  return model_of_shape(shape);
}

}  // namespace dlperf::app
