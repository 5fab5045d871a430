// `dlperf export --gpu ID [--out FILE]`: a catalog GPU's complete description (architecture and
// board) as a device file, to stdout without --out; `--device FILE` reads it back to the same
// estimates, and a copy can be edited to describe a GPU the catalog lacks.
#include <memory>

#include "cli_support.hpp"

namespace dlperf::cli {

void add_export_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "export", "Write a catalog GPU's complete description as a device file (for --device)");
  // The flags: --gpu ID, --out FILE.
  struct export_options {
    std::string gpu, out;
  };
  auto o = command_options<export_options>(cmd);
  cmd->add_option("--gpu", o->gpu, "GPU id from `dlperf gpus`, e.g. h100_pcie")
      ->required()
      ->check(gpu_id_validator());
  cmd->add_option("--out", o->out, "Write the device file here (default: stdout)");
  cmd->callback([o] { write_json(calibrate::to_json(catalog::find(o->gpu)), o->out); });
}

}  // namespace dlperf::cli
