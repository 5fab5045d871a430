// `dlperf gemm --gpu ID --m M --n N --k K [--batch B] [--dtype T] [--sparse] [--json]`: the best
// tiling of one GEMM and its time, traffic and binding resource (tile-reuse model).
#include <fmt/format.h>
#include <cmath>
#include <memory>
#include <optional>

#include "cli_support.hpp"

namespace dlperf::cli {
namespace {

struct gemm_options {
  std::string gpu, device, m, n, k, batch = "1";
  dtype type = dtype::fp16;
  std::optional<accumulator> acc;
  bool sparse = false;
  bool json = false;
};

void run(const gemm_options& o) {
  const cli_device dev = select_device(o.gpu, o.device);
  gemm_problem p{parse_plausible_count("--m", o.m), parse_plausible_count("--n", o.n),
                 parse_plausible_count("--k", o.k), parse_plausible_count("--batch", o.batch),
                 o.type};
  p.acc = o.acc.value_or(default_accumulator(p.input));
  p.sparse_a = o.sparse;
  struct gpu_summary {
    gemm_estimate estimate;
    std::string name, arch;
    double peak;  // FLOP/s of the datatype, accumulator and sparsity
  };
  const sparsity s = p.sparse_a ? sparsity::sparse_2_4 : sparsity::dense;
  const gpu_summary run_on = visit_device(dev, [&](const auto& d) -> gpu_summary {
    if constexpr (gemm_device<std::decay_t<decltype(d)>>)
      return {best_gemm(d, p), std::string(d.name()), std::string(d.arch().name),
              d.peak(p.input, p.acc, s).value()};
    else
      throw usage_error("gemm needs a GPU: device file '" + o.device + "' describes a host CPU");
  });
  const gemm_estimate& e = run_on.estimate;
  if (o.json) {
    const nlohmann::json out = {
        {"gpu", device_label(dev)},
        {"device_file", o.device.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.device)},
        {"dtype", name(p.input)},
        {"accumulator", name(p.acc)},
        {"sparse", p.sparse_a},
        {"m", p.m},
        {"n", p.n},
        {"k", p.k},
        {"batch", p.batch},
        {"time_s", e.time.value()},
        {"tflops", in_teraflops(e.throughput)},
        {"bound", name(e.bound)},
        {"tile",
         {{"m", e.tile.block_m},
          {"n", e.tile.block_n},
          {"k", e.tile.block_k},
          {"warp_m", e.tile.warp_m},
          {"warp_n", e.tile.warp_n},
          {"stages", e.tile.stages},
          {"split_k", e.tile.split_k}}},
        {"blocks_per_sm", e.blocks_per_sm},
        {"tiles", e.tiles},
        {"waves", e.waves},
        {"wave_efficiency", e.wave_efficiency},
        {"l2_hit_rate", e.l2_hit_rate},
        {"bytes",
         {{"dram", e.dram_bytes.value()},
          {"l2", e.l2_bytes.value()},
          {"shared", e.shared_bytes.value()}}},
        {"time_breakdown_s",
         {{"compute", e.compute_time.value()},
          {"dram", e.dram_time.value()},
          {"l2", e.l2_time.value()},
          {"shared", e.shared_time.value()},
          {"latency", e.latency_time.value()}}},
    };
    print_json(std::move(out));
    return;
  }
  fmt::print("{} ({}): {} x {} x {}{} {} GEMM{}\n", run_on.name, run_on.arch, p.m, p.n, p.k,
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
             format_si(e.throughput.value(), "FLOP/s"),
             format_percent(e.throughput.value(), run_on.peak), format_si(run_on.peak, "FLOP/s"),
             describe(e.bound));
}

}  // namespace

void add_gemm_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "gemm", "Best tiling, time and traffic of a GEMM on one GPU (tile-reuse model)");
  auto o = command_options<gemm_options>(cmd);
  add_device_options(cmd, o->gpu, o->device);
  cmd->add_option("--m", o->m, "Rows of A and C")->required();
  cmd->add_option("--n", o->n, "Columns of B and C")->required();
  cmd->add_option("--k", o->k, "Reduction dimension")->required();
  cmd->add_option("--batch", o->batch, "GEMMs of this shape")->capture_default_str();
  add_datatype_options(cmd, o->type, o->acc, o->sparse);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
