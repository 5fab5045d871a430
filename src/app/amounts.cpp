// Numbers as people type them, and their plausible ranges (dlperf/app/amounts.hpp).
#include <dlperf/app/amounts.hpp>

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <cmath>
#include <dlperf/app/request_error.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/model/number_text.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/model/serve.hpp>
#include <dlperf/model/transformer.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace dlperf::app {

double parse_amount(std::string_view option, std::string_view text) {
  const auto fail = [&](std::string_view why) {
    throw request_error(fmt::format("{} '{}' {}", option, text, why));
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
    throw request_error(fmt::format("{} '{}' must be a positive whole number", option, text));
  return static_cast<long long>(value);
}

double parse_fraction(std::string_view option, std::string_view text) {
  const double value = parse_amount(option, text);
  if (value > 1.0) throw request_error(fmt::format("{} '{}' must be in [0, 1]", option, text));
  return value;
}

// Each range is wide enough for any machine one buys (a rack of GPUs, the dearest grid) and
// narrow enough that sums over it stay readable; docs/buying.md, "Plausible inputs", says why
// for each. A count's upper end is the limit of the library field it sets (run_config::limits,
// transformer_config::limits, ...), so the flag is rejected by name before the library would
// reject the field.
namespace {
constexpr double as_double(long long n) { return static_cast<double>(n); }
using run_limits = run_config::limits;
using shape_limits = transformer_config::limits;
using serve_limits = serve_config::limits;
constexpr double most_tokens = as_double(run_limits::tokens);
constexpr double most_gpus = as_double(run_limits::gpus);
constexpr double widest = as_double(shape_limits::width);
constexpr double widest_ffn = as_double(shape_limits::ffn);
constexpr double most_layers = as_double(shape_limits::layers);
constexpr double widest_head = as_double(shape_limits::head_dim);
constexpr double longest_gemm = as_double(gemm_problem::max_extent);

constexpr auto range_table = std::to_array<plausible_range>({
    {"--budget", 0, 1e8, true, "USD"},
    {"--host-cost", 0, 1e7, false, "USD"},
    {"--min-memory", 0, 1e4, false, "GiB"},
    {"--count", 1, 16, false, "GPUs"},
    {"--rest-watts", 1, 1e4, false, "W", true},
    {"--gpu-watts", 1, 1e5, false, "W", true},
    {"--other-watts", 1, 1e4, false, "W", true},
    {"--kwh-price", 0, 10, false, "USD per kWh"},
    {"--system-price", 0, 1e8, false, "USD"},
    {"--cloud-hourly", 0, 1e4, false, "USD per hour"},
    {"--days", 1, 36500, false, "days"},
    {"--years", 0.1, 20, false, "years"},
    {"--dataset-tokens", 1, 1e15, false, "tokens"},
    {"--epochs", 0.01, 1e4, false, "epochs"},
    {"--grid-kg-per-kwh", 1e-3, 2, false, "kg per kWh", true},
    {"--ratio", 1e-3, 1e3, false, ""},
    {"--batch-from", 1, 16777216, false, ""},
    {"--batch-to", 1, 16777216, false, ""},
    {"--gpus-from", 1, 1048576, false, "GPUs"},
    {"--gpus-to", 1, 1048576, false, "GPUs"},
    {"--bucket", 1024, 1e11, false, "bytes"},
    {"--utilization", 1e-3, 1, false, ""},
    {"--flops", 1, 1e30, false, "FLOP", true},
    {"--bytes", 1, 1e21, false, "bytes", true},
    {"--overhead", 0, 1e13, false, "bytes"},
    {"--efficiency-from", 0.01, 1, false, ""},
    {"--efficiency-to", 0.01, 1, false, ""},
    {"--top", 1, 1e4, false, ""},
    {"--compute-share", 0.01, 1, false, "", true},
    // A run (run_config::limits).
    {"--batch", 1, as_double(run_limits::batch), false, ""},
    {"--seq", 1, most_tokens, false, "tokens", true},
    {"--prompt", 1, most_tokens, false, "tokens", true},
    {"--generate", 1, most_tokens, false, "tokens", true},
    {"--doc-tokens", 1, most_tokens, false, "tokens", true},
    {"--image", 1, as_double(run_limits::image), false, "pixels"},
    {"--gpus", 1, most_gpus, false, "GPUs"},
    {"--tp", 1, most_gpus, false, "GPUs"},
    {"--pp", 1, most_gpus, false, "stages"},
    {"--vpp", 1, as_double(run_limits::virtual_stages), false, "chunks"},
    {"--cp", 1, most_gpus, false, "GPUs"},
    {"--ep", 1, most_gpus, false, "GPUs"},
    {"--shard-group", 1, most_gpus, false, "GPUs", true},
    {"--grad-accum", 1, as_double(run_limits::grad_accumulation), false, "micro-batches"},
    {"--gpus-per-node", 1, as_double(run_limits::gpus_per_node), false, "GPUs"},
    {"--lora", 1, as_double(run_limits::lora_rank), false, ""},
    {"--gpu-layers", 1, as_double(run_limits::gpu_layers), false, "layers", true},
    // A model's shape (transformer_config::limits); 0 is each optional size's default.
    {"--layers", 1, most_layers, false, ""},
    {"--hidden", 1, widest, false, ""},
    {"--heads", 1, widest, false, ""},
    {"--vocab", 1, widest_ffn, false, "tokens"},
    {"--max-seq", 1, as_double(shape_limits::context), false, "tokens"},
    {"--kv-heads", 1, widest, false, "", true},
    {"--head-dim", 1, widest_head, false, "", true},
    {"--ffn", 1, widest_ffn, false, "", true},
    {"--token-types", 1, widest_ffn, false, "", true},
    {"--experts", 1, most_layers, false, "", true},
    {"--experts-per-token", 1, most_layers, false, "", true},
    {"--expert-ffn", 1, widest_ffn, false, "", true},
    {"--shared-expert-ffn", 1, widest_ffn, false, "", true},
    {"--dense-layers", 1, most_layers, false, "", true},
    {"--q-lora-rank", 1, widest, false, "", true},
    {"--kv-lora-rank", 1, widest, false, "", true},
    {"--rope-head-dim", 1, widest_head, false, "", true},
    {"--v-head-dim", 1, widest_head, false, "", true},
    // One GEMM (gemm_problem::max_extent); its --batch is the run's.
    {"--m", 1, longest_gemm, false, ""},
    {"--n", 1, longest_gemm, false, ""},
    {"--k", 1, longest_gemm, false, ""},
    // Serving (serve_config::limits).
    {"--block-size", 1, as_double(serve_limits::block_tokens), false, "tokens"},
    {"--step-tokens", 1, as_double(serve_limits::step_tokens), false, "tokens"},
    {"--max-seqs", 1, as_double(serve_limits::max_sequences), false, "sequences", true},
    {"--rate", 1e-3, 1e6, false, "requests per second"},
    {"--concurrency", 1, as_double(serve_limits::max_sequences), false, "requests"},
    {"--prompt-min", 1, most_tokens, false, "tokens"},
    {"--generate-min", 1, most_tokens, false, "tokens"},
    {"--kv-fraction", 0.01, 1, false, ""},
});
}  // namespace

const std::span<const plausible_range> plausible_ranges{range_table};

const plausible_range& plausible_range_of(std::string_view flag) {
  for (const plausible_range& r : plausible_ranges)
    if (r.flag == flag) return r;
  throw std::logic_error("no plausible range for " + std::string(flag));
}

namespace {
[[noreturn]] void outside(const plausible_range& r, std::string_view text) {
  throw request_error(fmt::format("{} '{}' must be {}in {}{}, {}]{}{}", r.flag, text,
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
  if (v != std::floor(v))
    throw request_error(fmt::format("{} '{}' must be a whole number{}{}", flag, text,
                                    r.unit.empty() ? "" : " of ", r.unit));
  if (r.or_zero && v == 0.0) return 0;
  if (v < r.low || v > r.high) outside(r, text);
  return static_cast<long long>(v);  // exact: the range ends below 2^53
}

bool parse_switch(std::string_view flag, std::string_view value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  throw request_error(fmt::format("{} '{}' is a switch: give true or false", flag, value));
}

void refuse_repeated_keyword(const std::vector<std::pair<std::string, std::string>>& fields,
                             std::size_t i) {
  for (std::size_t j = 0; j < i; ++j)
    if (fields[j].first == fields[i].first)
      throw request_error("keyword '" + fields[i].first + "' given twice");
}

}  // namespace dlperf::app
