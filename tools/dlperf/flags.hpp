// The flags several commands share, each checked as it is read: enumerators by their one list,
// GPU ids, device files, links, datatypes, power limits and price files.
#pragma once

#include <CLI/CLI.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/core/datatype.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <optional>
#include <string>

namespace dlperf::cli {

/// A CLI11 check that accepts the names of @p E's enumerators, built from its enumerator list so
/// help text and errors cannot drift from it: help shows "{fp32|tf32|...}", a bad value fails
/// with the list's own message ("--dtype: unknown dtype 'fp7' (valid: fp32, ...)").
template <listed_enum E>
CLI::Validator enum_validator() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        try {
          (void)parse<E>(input);
          return {};
        } catch (const not_found& e) {
          return e.what();
        }
      },
      "{" + enum_names<E>("|") + "}", std::string(enum_list<E>::kind));
}

/// Adds option @p flag that sets @p target (an E or a std::optional<E>) from an enumerator name of
/// @p E, checked by enum_validator.
template <listed_enum E, class Target>
CLI::Option* add_enum_option(CLI::App* cmd, const std::string& flag, Target& target,
                             const std::string& description) {
  return cmd
      ->add_option_function<std::string>(
          flag, [&target](const std::string& text) { target = parse<E>(text); }, description)
      ->check(enum_validator<E>());
}

/// A CLI11 check that accepts catalog GPU ids (`catalog::find`'s error names the valid ones).
CLI::Validator gpu_id_validator();

/// Adds --power-limit W to @p cmd.
void add_power_limit_option(CLI::App* cmd, std::string& limit);

/// Adds the mutually exclusive --gpu ID and --device FILE options to @p cmd.
void add_device_options(CLI::App* cmd, std::string& gpu_id, std::string& device_file);

/// Adds --dtype, --accumulator and --sparse (shared by roofline and gemm), their help listing the
/// valid names from the enumerator lists.
void add_datatype_options(CLI::App* cmd, dtype& type, std::optional<accumulator>& acc,
                          bool& sparse);

/// A CLI11 check that accepts the ids of hardware/links.hpp (`find_link`'s error names them).
CLI::Validator link_validator();
/// The ids of hardware/links.hpp for a help text: "pcie3_x4|...|eth_100g".
std::string link_ids();

}  // namespace dlperf::cli
