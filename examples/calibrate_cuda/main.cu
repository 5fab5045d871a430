// Calibrates the first CUDA GPU and writes it as a dlperf device file:
//   dlperf-calibrate-cuda [--device N] [--gpu CATALOG_ID] [--out FILE]
// then `dlperf roofline --device FILE ...` uses the measured figures anywhere. Without a GPU it
// exits with code 2 and says so.
#include <cstdio>
#include <cstring>
#include <string>

#include <dlperf/calibrate/cuda.hpp>
#include <dlperf/io/device_file.hpp>

int main(int argc, char** argv) {
  int index = 0;
  std::string gpu_id, out = "device.json";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device"))
      index = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--gpu"))
      gpu_id = argv[i + 1];
    else if (!std::strcmp(argv[i], "--out"))
      out = argv[i + 1];
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
    std::fprintf(stderr, "dlperf-calibrate-cuda: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
