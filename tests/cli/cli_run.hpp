// Running the built dlperf tool from a test: its stdout, stderr and exit code. For the CLI test
// files (cli_test.cpp and the buying commands' tests); only when the build defines
// DLPERF_CLI_PATH.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace dlperf_test {

struct run_result {
  int exit_code;
  std::string out;
  std::string err;
};

// Runs the built dlperf binary with @p args (a shell-quoted string).
inline run_result run_dlperf(const std::string& args) {
  // A file of its own per run: ctest runs test cases in parallel processes.
  char err_template[] = "/tmp/dlperf_cli_test_XXXXXX";
  const int fd = mkstemp(err_template);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string err_file = err_template;
  const std::string command = std::string(DLPERF_CLI_PATH) + " " + args + " 2>" + err_file;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  std::ifstream err_stream(err_file);
  std::stringstream err;
  err << err_stream.rdbuf();
  std::remove(err_file.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, err.str()};
}

// Bad input: exit code 2 and exactly one line on stderr that matches @p message.
inline void require_usage_error(const std::string& args, const std::string& message) {
  const run_result r = run_dlperf(args);
  INFO("dlperf " << args << "\nstderr: " << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find(message) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

// Writes a device file of a host CPU (no GPU) to @p path, for the commands that need a GPU to
// refuse.
inline void write_host_device_file(const std::string& path) {
  std::ofstream out(path);
  out << R"({"schema": "dlperf-device", "version": 2, "kind": "host", "name": "cpu",
      "clock_mhz": {"value": 3000, "method": "m"}, "fp32_tflops": {"value": 1, "method": "m"},
      "dram": {"capacity_bytes": 1e10, "bandwidth_gbps": {"value": 50, "method": "m"},
               "latency_ns": {"value": 90, "method": "m"}},
      "cache": {"capacity_bytes": 1e7, "bandwidth_gbps": {"value": 500, "method": "m"},
                "latency_ns": {"value": 10, "method": "m"}}})";
}

// The JSON `dlperf @p args` prints; the test fails unless it exits with 0.
inline nlohmann::json json_of(const std::string& args) {
  const run_result r = run_dlperf(args);
  INFO("dlperf " << args << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace dlperf_test
