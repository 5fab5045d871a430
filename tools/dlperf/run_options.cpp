// The run flags shared by the model-estimating commands (run_options.hpp).
#include "run_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <dlperf/model/presets.hpp>
#include <dlperf/model/transformer_shapes.hpp>
#include <dlperf/stack/stacks.hpp>

#include "cli_support.hpp"

namespace dlperf::cli {

CLI::Option* add_preset_option(CLI::App* cmd, std::string& preset) {
  std::string preset_names;
  for (const model_spec& m : presets::all)
    preset_names += (preset_names.empty() ? "" : "|") + std::string(m.name);
  return cmd->add_option("--preset", preset, "A model preset: {" + preset_names + "}")
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            try {
              (void)presets::find(input);
              return {};
            } catch (const not_found& e) {
              return e.what();
            }
          },
          "PRESET", "preset"));
}

std::string first_given_run_flag(const CLI::App& cmd,
                                 std::initializer_list<std::string_view> except) {
  for (const app::run_field& f : app::run_fields()) {
    if (std::find(except.begin(), except.end(), f.flag) != except.end()) continue;
    const CLI::Option* given = cmd.get_option_no_throw(std::string(f.flag));
    if (given != nullptr && given->count() > 0) return std::string(f.flag);
  }
  return {};
}

void reject_run_flags_beside_guide_task(const CLI::App& cmd, const std::string& task) {
  if (const std::string flag = first_given_run_flag(cmd, {"--stack", "--gpus"});
      app::is_guide_task(task) && !flag.empty())
    throw usage_error(fmt::format(
        "{}: the run flags describe --task PRESET's run; the guide's task {} fixes its own", flag,
        task));
}

void add_run_options(CLI::App* cmd, run_options& o, bool parallel) {
  // The flags are the application layer's run fields (app::run_fields): one list for the tool,
  // Python's keywords and the page's form.
  for (const app::run_field& f : app::run_fields()) {
    if (f.job_layout && !parallel) continue;
    const std::string flag(f.flag);
    const std::vector<std::string> names = f.names();
    switch (f.kind) {
      case app::run_field_kind::toggle:
        cmd->add_flag_callback(
            flag, [&o, &f] { f.set(o, "true"); }, std::string(f.help));
        break;
      case app::run_field_kind::choice:
        // A bad name is the field's own error (app::parse_named: "--dtype: unknown dtype ...").
        cmd->add_option_function<std::string>(
               flag, [&o, &f](const std::string& v) { f.set(o, v); }, std::string(f.help))
            ->type_name(fmt::format("TEXT:{{{}}}", fmt::join(names, "|")));
        break;
      case app::run_field_kind::text: {
        std::string help(f.help);
        if (!names.empty()) help += fmt::format(": {{{}}}", fmt::join(names, "|"));
        CLI::Option* option = cmd->add_option_function<std::string>(
            flag, [&o, &f](const std::string& v) { f.set(o, v); }, help);
        if (const std::string given = f.get(run_options{}); !given.empty())
          option->default_str(given);
        break;
      }
    }
  }
}

std::string describe_stack(stack_id s) {
  if (s == stack_id::ceiling)
    return "software stack: none (--stack picks one); the times are the hardware model's: "
           "well-tuned kernels, no host overhead";
  return fmt::format("software stack: {} ({})", name(s), description(s));
}

std::string describe_stack_builds(stack_id s) {
  std::vector<std::string> builds;
  for (const vendor v : enum_values<vendor>)
    if (const stack_id own = stacks::build_for(s, v); own != s)
      builds.push_back(fmt::format("{} GPUs run {}", description(v), name(own)));
  if (builds.empty()) return describe_stack(s);
  return fmt::format("{}; {}, its build{} for them", describe_stack(s), fmt::join(builds, " and "),
                     builds.size() > 1 ? "s" : "");
}

std::string ceiling_bracket_note(stack_id s) {
  if (s == stack_id::ceiling) return {};
  return "; in brackets, the hardware model's ceiling of the kernels this stack runs (its fusion, "
         "attention, norm, GEMM-call, FP8-cast and prompt-layer choices kept; --stack ceiling "
         "runs the command's own)";
}

std::string describe_shape(const model_spec& m, const run_config& r) {
  if (m.kind != model_kind::transformer)
    return fmt::format("batch {} x {}x{} px", r.batch, r.image, r.image);
  const detail::transformer_shapes s = detail::transformer_shapes::of(m.transformer, r);
  const long long seq = s.seq;
  if (!r.training() && m.transformer.generates())
    return fmt::format("batch {}, prompt {} + {} generated tokens", r.batch, seq, r.generate);
  if (r.cp > 1)  // seq is one GPU's share of each sequence
    return fmt::format("batch {} x {} tokens, {} a GPU (cp {})", r.batch, s.whole_seq(), seq, r.cp);
  if (r.document == 0 || r.document == seq)
    return fmt::format("batch {} x {} tokens", r.batch, seq);
  const double per = static_cast<double>(seq) / static_cast<double>(r.document);
  if (r.packing)
    return fmt::format("batch {} x {} tokens, documents of {} packed ({} a sequence)", r.batch, seq,
                       r.document, three_digits(per));
  return fmt::format("batch {} x {} tokens, each a document of {} padded ({} real)", r.batch, seq,
                     r.document, format_percent(1.0, per));
}

}  // namespace dlperf::cli
