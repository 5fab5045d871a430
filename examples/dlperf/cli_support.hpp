// Shared pieces of the dlperf tool: the error that maps to exit code 2, amount parsing, and the
// catalog peaks reported by several commands.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <dlperf/dlperf.hpp>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dlperf::cli {

/// Bad input on the command line: reported as one line on stderr with exit code 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses a non-negative, finite amount such as "1e12", "4096", "2G" or "1.5Gi": an optional
/// decimal (k, M, G, T, P) or binary (Ki, Mi, Gi, Ti) multiplier may follow the number. Throws
/// usage_error naming @p option for anything else (negative, NaN, inf, trailing text).
double parse_amount(std::string_view option, std::string_view text);

/// Parses a positive whole count such as "4096" or "8Ki" (same multipliers as parse_amount).
/// Throws usage_error naming @p option for zero, fractions and anything parse_amount rejects.
long long parse_count(std::string_view option, std::string_view text);

/// Parses an accumulator name (fp16, fp32, int32). Throws usage_error naming the input.
accumulator parse_accumulator(std::string_view text);

/// Datatypes reported in `dlperf gpus`, in column order.
inline constexpr std::array<dtype, 6> reported_dtypes{dtype::fp32, dtype::tf32,     dtype::fp16,
                                                      dtype::bf16, dtype::fp8_e4m3, dtype::int8};

/// Dense peak of @p g for @p t with its default accumulator in TFLOP/s, or null where the GPU
/// has no path for it.
nlohmann::json peak_tflops_or_null(const gpu_spec& g, dtype t);

/// Registers the `gpus` subcommand.
void add_gpus_command(CLI::App& app);
/// Registers the `roofline` subcommand.
void add_roofline_command(CLI::App& app);
/// Registers the `gemm` subcommand.
void add_gemm_command(CLI::App& app);
/// Registers the `cycles` subcommand.
void add_cycles_command(CLI::App& app);

}  // namespace dlperf::cli
