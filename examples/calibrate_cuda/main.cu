// Calibrates a CUDA GPU and writes it as a dlperf device file:
//   dlperf-calibrate-cuda [--cuda-device N] [--gpu CATALOG_ID] [--out FILE]
// then `dlperf roofline --device FILE ...` uses the measured figures anywhere. (`--device` in
// dlperf means a device file, hence `--cuda-device` for the GPU index.) Without a GPU, or with
// bad input, it exits with code 2 and one line saying why.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include <dlperf/calibrate/cuda.hpp>
#include <dlperf/io/device_file.hpp>

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "dlperf-calibrate-cuda: error: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Calibrate a CUDA GPU into a dlperf device file", "dlperf-calibrate-cuda"};
  int index = 0;
  std::string gpu_id;
  std::string out = "device.json";
  app.add_option("--cuda-device", index, "CUDA device index")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--gpu", gpu_id,
                 "Catalog id of the GPU being measured (default: guessed from its name)")
      ->check(CLI::Validator(
          [](std::string& id) -> std::string {
            try {
              (void)dlperf::catalog::find(id);
              return {};
            } catch (const dlperf::not_found& e) {
              return e.what();
            }
          },
          "ID", "GPU id"));
  app.add_option("--out", out, "Device file to write")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  namespace cal = dlperf::calibrate;
  try {
    const cal::cuda::device_info info = cal::cuda::query(index);
    dlperf::measured_device start = gpu_id.empty()
                                        ? cal::cuda::guess_nominal(info)
                                        : dlperf::measured_device(dlperf::catalog::find(gpu_id));
    cal::cuda::calibration_log log;
    const dlperf::measured_device measured = cal::cuda::calibrate_gpu(index, start, {}, &log);
    for (const std::string& line : log.lines) std::printf("%s\n", line.c_str());
    cal::write_device_file(measured, out);
    std::printf("wrote %s\n", out.c_str());
  } catch (const dlperf::error& e) {
    return fail(e.what());
  }
  return 0;
}
