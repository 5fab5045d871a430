// `dlperf model ... --serve` as a typed request and report (dlperf/app/serve_report.hpp).
#include <dlperf/app/serve_report.hpp>

#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/device.hpp>
#include <dlperf/app/keyword_fields.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/model/stacked.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf::app {
namespace {

// Every keyword of a serve request that is not a model request's, and the option it sets: one
// list for serve_request_from_keywords and serve_keywords.
constexpr std::array<text_keyword<serve_options_text>, 8> serving_fields{
    {{"rate", &serve_options_text::rate},
     {"block_size", &serve_options_text::block_size},
     {"kv_fraction", &serve_options_text::kv_fraction},
     {"step_tokens", &serve_options_text::step_tokens},
     {"max_seqs", &serve_options_text::max_seqs},
     {"concurrency", &serve_options_text::concurrency},
     {"prompt_min", &serve_options_text::prompt_min},
     {"generate_min", &serve_options_text::generate_min}}};
constexpr auto serving_keywords = keyword_names(serving_fields, std::array<std::string_view, 0>{});

// The engine's settings @p o states, checked.
serve_config serve_settings(const serve_options_text& o) {
  serve_config c;
  c.block_tokens = parse_plausible_count("--block-size", o.block_size);
  c.kv_memory_fraction = parse_plausible("--kv-fraction", o.kv_fraction);
  if (!o.step_tokens.empty()) c.step_tokens = parse_plausible_count("--step-tokens", o.step_tokens);
  if (!o.max_seqs.empty())
    c.max_sequences = parse_plausible_count("--max-seqs", o.max_seqs);  // 0: no cap
  // At least 1: plausible_ranges' --prompt-min and --generate-min start there.
  if (!o.prompt_min.empty())
    c.lengths.prompt_least = parse_plausible_count("--prompt-min", o.prompt_min);
  if (!o.generate_min.empty())
    c.lengths.generate_least = parse_plausible_count("--generate-min", o.generate_min);
  c.validate();
  return c;
}

}  // namespace

serve_request make_serve_request(model_request model, const serve_options_text& o,
                                 bool batch_given) {
  const run_config& r = model.run;
  if (r.training()) throw request_error("--serve is inference: give --infer, not --train");
  if (batch_given)
    throw request_error("--batch: under --serve the KV memory sets the batch (--max-seqs caps it)");
  if (r.generate < 1)
    throw request_error("--serve needs --generate N (tokens per request), N >= 1");
  if (r.gpu_layers >= 0)
    throw request_error(
        "--gpu-layers: --serve keeps every layer on the GPU (a partial offload is "
        "llama.cpp's batch-1 run, not a serving engine's)");
  serve_request q{std::move(model), serve_settings(o), std::nullopt, std::nullopt};
  // The shortest request is no longer than the run's (where the run states its prompt).
  const request_lengths& spread = q.config.lengths;
  if (r.prompt > 0 && spread.prompt_least > r.prompt)
    throw request_error("--prompt-min " + std::to_string(spread.prompt_least) +
                        " is longer than --prompt " + std::to_string(r.prompt) +
                        ": prompts spread from --prompt-min up to --prompt");
  if (spread.generate_least > r.generate)
    throw request_error("--generate-min " + std::to_string(spread.generate_least) +
                        " is longer than --generate " + std::to_string(r.generate) +
                        ": outputs spread from --generate-min up to --generate");
  if (!o.rate.empty()) q.rate = parse_plausible("--rate", o.rate);
  if (!o.concurrency.empty()) {
    // At least 1: plausible_ranges' --concurrency starts there.
    const long long users = parse_plausible_count("--concurrency", o.concurrency);
    const long long copies = q.model.run.data_parallel();
    if (users % copies != 0)
      throw request_error("--concurrency " + std::to_string(users) +
                          " does not spread evenly over " + std::to_string(copies) +
                          " model copies: give a multiple of " + std::to_string(copies));
    q.concurrency = users;
  }
  return q;
}

std::span<const std::string_view> serve_keywords() { return serving_keywords; }

serve_request serve_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields, io::string_store& strings) {
  std::vector<std::pair<std::string, std::string>> model_fields;
  serve_options_text o;
  bool mode_given = false, batch_given = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    refuse_repeated_keyword(fields, i);
    const auto& [keyword, value] = fields[i];
    if (set_text_keyword(o, serving_fields, keyword, value)) continue;
    mode_given = mode_given || keyword == "mode" || keyword == "train" || keyword == "infer";
    batch_given = batch_given || keyword == "batch";
    model_fields.push_back(fields[i]);
  }
  // Serving is inference: a run that names no mode infers, as --serve makes the tool's.
  if (!mode_given) model_fields.emplace_back("mode", "infer");
  return make_serve_request(request_from_keywords(model_fields, strings), o, batch_given);
}

serve_report estimate(const serve_request& q) {
  refuse_null_gpu(q.model.device, "serve");
  const model_spec& m = q.model.model;
  const run_config& r = q.model.run;
  serve_report out;
  out.model = m;
  out.run = r;
  out.device = device_label(q.model.device);
  out.power_limit = q.model.power_limit;
  out.config = q.config;
  out.rate = q.rate;
  out.concurrency = q.concurrency;
  // The stack's own figures, or those the device file measured for it (docs/stacks.md, "Your own
  // measurements").
  auto held = calibration_store();
  out.stack = stack_on_device(r.stack, q.model.device_file, *held, &out.measured);
  out.calibrations = std::move(held);
  const double replicas = static_cast<double>(r.data_parallel());
  visit_device(q.model.device, [&](const auto& d) {
    if constexpr (gemm_device<std::decay_t<decltype(d)>>) {
      // The ceiling runs under the stack's schedule: the bracket compares kernels.
      const serve_config under = q.config.under(out.stack, d);
      const auto one = [&](const software_stack& s) {
        serving_figures f{estimate_serving(d, m, r, s, under), std::nullopt, std::nullopt};
        if (q.rate) f.load = serve_at_rate(d, m, r, s, f.saturation, *q.rate / replicas);
        if (q.concurrency)
          f.held = serve_at_concurrency(d, m, r, s, under, f.saturation,
                                        *q.concurrency / r.data_parallel());
        return f;
      };
      out.at_stack = one(out.stack);
      out.ceiling = one(stacks::ceiling);
      out.gpu_name = std::string(d.name());
      out.capacity = d.memory(tier::global).capacity;
      out.maker = d.arch().vendor;
      out.boards = board_class_of(d);
    } else {
      throw request_error("--serve needs a GPU: the device file describes a host CPU");
    }
  });
  // What the throughput is worth: where the same engine's published runs on the same vendor's
  // boards of the same class fell against this model (docs/evidence.md, "Serving"). The ceiling
  // is no engine, so it has none.
  if (out.stack.id != stack_id::ceiling) {
    out.band = serving_band_of(out.stack.id, out.maker, out.boards, r.model_parallel() > 1);
    if (q.concurrency)
      out.closed_loop_band =
          closed_loop_band_of(out.stack.id, out.maker, out.boards, r.model_parallel() > 1);
  }
  return out;
}

}  // namespace dlperf::app
