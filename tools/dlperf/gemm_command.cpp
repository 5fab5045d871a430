// `dlperf gemm --gpu ID --m M --n N --k K [--batch B] [--dtype T] [--sparse] [--json]`: the best
// tiling of one GEMM and its time, traffic and binding resource (tile-reuse model). The command
// maps its flags to the application layer's request (dlperf/app/gemm_report.hpp) and prints the
// report.
#include <fmt/format.h>
#include <dlperf/app/gemm_report.hpp>
#include <memory>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct gemm_flags {
  app::gemm_options request;
  bool json = false;
};

void print_report(const app::gemm_report& r) {
  const gemm_problem& p = r.problem;
  const gemm_estimate& e = r.estimate;
  const double peak = r.peak.value();
  fmt::print("{} ({}): {} x {} x {}{} {} GEMM{}\n", r.gpu_name, r.arch, p.m, p.n, p.k,
             p.batch > 1 ? fmt::format(" x {} batch", p.batch) : std::string(), name(p.input),
             p.sparse_a ? " (2:4 sparse A)" : "");
  fmt::print("  best tile      {}x{}x{}, warp {}x{}, {} stages, split-K {}, {} block(s)/SM\n",
             e.tile.block_m, e.tile.block_n, e.tile.block_k, e.tile.warp_m, e.tile.warp_n,
             e.tile.stages, e.tile.split_k, e.blocks_per_sm);
  fmt::print("  waves          {} ({} tiles, {} efficient)\n", e.waves, e.tiles,
             format_percent(e.wave_efficiency, 1.0));
  fmt::print("  traffic        DRAM {}, L2 {} (hit rate {}), shared {}\n",
             format_si(e.dram_bytes.value(), "B"), format_si(e.l2_bytes.value(), "B"),
             format_percent(e.l2_hit_rate, 1.0), format_si(e.shared_bytes.value(), "B"));
  fmt::print("  time           {}, {} ({} of peak {}), {}\n", format_duration(e.time.value()),
             format_si(e.throughput.value(), "FLOP/s"), format_percent(e.throughput.value(), peak),
             format_si(peak, "FLOP/s"), describe(e.bound));
}

}  // namespace

void add_gemm_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "gemm", "Best tiling, time and traffic of a GEMM on one GPU (tile-reuse model)");
  auto o = command_options<gemm_flags>(cmd);
  app::gemm_options& q = o->request;
  add_device_options(cmd, q.gpu, q.device);
  cmd->add_option("--m", q.m, "Rows of A and C")->required();
  cmd->add_option("--n", q.n, "Columns of B and C")->required();
  cmd->add_option("--k", q.k, "Reduction dimension")->required();
  cmd->add_option("--batch", q.batch, "GEMMs of this shape")->capture_default_str();
  add_datatype_options(cmd, q.operands.type, q.operands.acc, q.operands.sparse);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] {
    const app::gemm_report r = app::estimate(app::make_gemm_request(o->request));
    if (o->json)
      print_json(app::to_json(r));
    else
      print_report(r);
  });
}

}  // namespace dlperf::cli
