// `dlperf calibrate --backend host|cuda|hip [--gpu ID] [--out FILE]`: measure a device and write
// it as a device file (to stdout without --out), for `--device FILE` in the other commands.
#include <fmt/format.h>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include <dlperf/calibrate/host.hpp>

#include "cli_support.hpp"
#include "hip_backend.hpp"

namespace dlperf::cli {

#ifndef DLPERF_CLI_WITH_CUDA
nlohmann::json run_cuda_calibration(int /*index*/, const std::string& /*gpu_id*/,
                                    const calibrate::protocol& /*p*/,
                                    calibrate::calibration_log& /*log*/) {
  throw usage_error(
      "this dlperf was built without CUDA: reconfigure with -DDLPERF_WITH_CUDA=ON (needs nvcc) "
      "to calibrate a GPU");
}
#endif
#ifndef DLPERF_CLI_WITH_HIP
measured_device calibrate_hip_device(int /*index*/, const std::string& /*gpu_id*/,
                                     const calibrate::protocol& /*p*/,
                                     calibrate::calibration_log& /*log*/) {
  throw usage_error(
      "this dlperf was built without HIP: reconfigure with -DDLPERF_WITH_HIP=ON "
      "-DCMAKE_CXX_COMPILER=clang++-15 (needs hipcc) to calibrate an AMD GPU");
}
#endif

nlohmann::json run_hip_calibration(int index, const std::string& gpu_id,
                                   const calibrate::protocol& p, calibrate::calibration_log& log) {
  return calibrate::to_json(calibrate_hip_device(index, gpu_id, p, log));
}

namespace {

using gpu_calibration = nlohmann::json (*)(int, const std::string&, const calibrate::protocol&,
                                           calibrate::calibration_log&);

struct calibrate_options {
  std::string backend;
  std::string gpu;
  std::string out;
  int repetitions = 15;
  int cuda_device = 0;
  int hip_device = 0;
};

// Every backend, once: the --backend choices, its help, the runner and the option holding its
// device index (none for the host).
struct backend {
  const char* name;
  const char* help;
  gpu_calibration run;
  int calibrate_options::*device;
};
constexpr std::array<backend, 3> backends{{
    {"host", "CPU probes, any machine", nullptr, nullptr},
    {"cuda", "NVIDIA GPU, needs DLPERF_WITH_CUDA", run_cuda_calibration,
     &calibrate_options::cuda_device},
    {"hip", "AMD GPU, needs DLPERF_WITH_HIP; no GEMM probes", run_hip_calibration,
     &calibrate_options::hip_device},
}};

const backend& find_backend(const std::string& name) {
  for (const backend& b : backends)
    if (name == b.name) return b;
  throw usage_error("unknown --backend '" + name + "'");  // CLI11 checks the choice first
}

// The output, opened before any probe runs so that an unwritable path fails in a moment rather
// than after minutes of measuring, and written so that a failed calibration leaves nothing: a
// regular file is written as FILE.partial and renamed onto FILE only when complete (the partial
// file is removed on any failure); a device or pipe (/dev/stdout) is written in place. Opening is
// not enough (/dev/full opens, then refuses every byte): a leading newline, which JSON ignores, is
// written and flushed at once to prove it.
class pending_output {
 public:
  explicit pending_output(std::string out) : out_(std::move(out)) {
    if (out_.empty()) return;
    std::error_code ec;
    direct_ = std::filesystem::exists(out_, ec) && !std::filesystem::is_regular_file(out_, ec);
    path_ = direct_ ? out_ : out_ + ".partial";
    stream_.open(path_);
    if (stream_) stream_ << '\n' << std::flush;
    if (!stream_) {
      discard();
      throw usage_error("cannot write --out '" + out_ + "'");
    }
  }
  pending_output(const pending_output&) = delete;
  pending_output& operator=(const pending_output&) = delete;
  pending_output(pending_output&&) = delete;
  pending_output& operator=(pending_output&&) = delete;
  ~pending_output() {
    if (!committed_) discard();
  }

  // Writes @p file to the output (stdout without --out) and puts it in place.
  void commit(const nlohmann::json& file) {
    if (out_.empty()) {
      fmt::print("{}\n", file.dump(2));
      return;
    }
    stream_ << file.dump(2) << "\n";
    stream_.close();
    if (!stream_) throw usage_error("failed writing --out '" + out_ + "'");
    if (!direct_) {
      std::error_code ec;
      std::filesystem::rename(path_, out_, ec);
      if (ec) throw usage_error("cannot write --out '" + out_ + "': " + ec.message());
    }
    committed_ = true;
    fmt::print(stderr, "dlperf: wrote {}\n", out_);
  }

 private:
  void discard() {
    stream_.close();
    std::error_code ec;
    if (!direct_ && !path_.empty()) std::filesystem::remove(path_, ec);
  }

  std::string out_, path_;
  std::ofstream stream_;
  bool direct_ = false, committed_ = false;
};

// A host figure in the unit its report names, written for a person: "14.8 GB/s", "3.99 GFLOP/s",
// "369 ns".
std::string in_si(double value, std::string_view unit) {
  if (unit == "ns") return format_duration(value * 1e-9);
  if (unit == "GB/s") return format_si(value * 1e9, "B/s");
  if (unit == "TFLOP/s") return format_si(value * 1e12, "FLOP/s");
  return three_digits(value) + " " + std::string(unit);
}

void run(const calibrate_options& o) {
  if (o.repetitions < 1) throw usage_error("--repetitions must be at least 1");
  const calibrate::protocol p{std::min(3, o.repetitions), o.repetitions};
  const backend& b = find_backend(o.backend);
  if (b.run == nullptr && !o.gpu.empty())
    throw usage_error("--gpu applies to --backend cuda or hip only");
  if (!o.gpu.empty()) (void)catalog::find(o.gpu);  // an unknown id fails before any probe
  pending_output output(o.out);
  if (b.run == nullptr) {  // the host
    const calibrate::host_info info = calibrate::probe_host();
    const calibrate::host_plan plan = calibrate::plan_for(info);
    fmt::print(stderr, "dlperf: calibrating the host ({} threads, {:.0f} MiB DRAM buffer)...\n",
               plan.threads, in_mebibytes(plan.dram_buffer));
    int done = 0;
    const host_device host = calibrate::calibrate_host(
        info, plan, p,
        [&done](std::string_view figure, std::string_view unit, const measured_value& v) {
          fmt::print(stderr, "dlperf: [{}/{}] {} {} (spread {})\n", ++done,
                     calibrate::host_probe_count, figure, in_si(v.value, unit),
                     format_percent(v.spread, 1.0));
          if (const std::string w = calibrate::spread_warning(figure, v); !w.empty())
            fmt::print(stderr, "dlperf: warning: {}\n", w);
        });
    output.commit(calibrate::to_json(host));
    return;
  }
  // Each probe's line is printed as it finishes: a GPU calibration takes minutes.
  calibrate::calibration_log log;
  log.on_line = [](const std::string& line) { fmt::print(stderr, "dlperf: {}\n", line); };
  const nlohmann::json file = b.run(o.*b.device, o.gpu, p, log);
  output.commit(file);
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "calibrate", "Measure this machine's CPU (host) or a GPU (cuda, hip) into a device file");
  auto o = command_options<calibrate_options>(cmd);
  std::vector<std::string> names;
  std::string help = "Backend:";
  for (const backend& b : backends) {
    names.emplace_back(b.name);
    help += fmt::format(" {} ({});", b.name, b.help);
  }
  help.pop_back();
  cmd->add_option("--backend", o->backend, help)->required()->check(CLI::IsMember(names));
  cmd->add_option("--gpu", o->gpu,
                  "Catalog id of the GPU being measured (cuda, hip; default: guessed "
                  "from its name)");
  cmd->add_option("--cuda-device", o->cuda_device, "CUDA device index (cuda)")
      ->capture_default_str();
  cmd->add_option("--hip-device", o->hip_device, "HIP device index (hip)")->capture_default_str();
  cmd->add_option("--out", o->out, "Write the device file here (default: stdout)");
  cmd->add_option("--repetitions", o->repetitions, "Timed repetitions per probe")
      ->capture_default_str();
  cmd->callback([o] { run(*o); });
}

}  // namespace dlperf::cli
