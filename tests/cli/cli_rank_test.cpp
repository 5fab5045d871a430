// `dlperf rank` (docs/buying.md, "Ranking and performance per dollar").
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;
using dlperf_test::run_result;

namespace {

// A price file with @p text, removed when the holder goes.
struct price_file {
  std::string path;
  explicit price_file(const std::string& text) {
    char name[] = "/tmp/dlperf_prices_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
    std::ofstream(path) << text;
  }
  ~price_file() { std::remove(path.c_str()); }
  price_file(const price_file&) = delete;
  price_file& operator=(const price_file&) = delete;
};

}  // namespace

TEST_CASE(
    "dlperf rank --json: RTX 4090 at 0.33 of an H100 SXM in 8-bit inference (Dettmers "
    "2023: H100 about 3x faster), best per dollar first",
    "[cli][rank]") {
  const run_result r = run_dlperf("rank --task infer8 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() > 10);
  double last = 1e300;
  for (const auto& e : j) {
    for (const char* key :
         {"id", "relative_performance", "system_cost_usd", "perf_per_dollar", "memory_gb"})
      CHECK(e.contains(key));
    CHECK(e["perf_per_dollar"].get<double>() <= last);
    last = e["perf_per_dollar"].get<double>();
    if (e["id"] == "rtx_4090")
      CHECK(e["relative_performance"].get<double>() == Approx(0.33).epsilon(0.05));
    if (e["id"] == "h100_sxm") CHECK(e["relative_performance"].get<double>() == Approx(1.0));
  }
}

TEST_CASE("dlperf rank: human table, host share, price file and memory filter", "[cli][rank]") {
  const run_result table = run_dlperf("rank --task train16");
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("rtx_3080") != std::string::npos);
  CHECK(table.out.find("host $") != std::string::npos);

  const price_file prices(R"({"gpus": {"rtx_4090": 1799}, "host": {"2": 3000}})");
  const run_result r =
      run_dlperf("rank --task infer16 --gpus 2 --min-memory 20 --json --prices " + prices.path);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  bool seen = false;
  for (const auto& e : j) {
    CHECK(e["memory_gb"].get<double>() >= 20 / 1.073741824);
    if (e["id"] == "rtx_4090") {
      seen = true;
      CHECK(e["system_cost_usd"].get<double>() == Approx(1799 + 3000 / 2.0));
    }
  }
  CHECK(seen);
}

TEST_CASE("dlperf rank --task PRESET uses the run flags", "[cli][rank]") {
  const run_result r =
      run_dlperf("rank --task bert_base --infer --batch 8 --seq 128 --dtype fp16 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(!j.empty());
  for (const auto& e : j) CHECK(e["dtype"] == "fp16");
}

TEST_CASE("dlperf rank rejects bad input with one line naming the field", "[cli][rank]") {
  require_usage_error("rank --task train32", "--task: unknown task 'train32'");
  require_usage_error("rank --task infer8 --gpus 0", "--gpus");
  require_usage_error("rank --task infer8 --gpus 3", "--gpus: hosts are priced for 1, 2, 4 or 8");
  require_usage_error("rank --task infer8 --min-memory -4", "--min-memory");
  require_usage_error("rank --task infer8 --prices /nonexistent/prices.json",
                      "--prices: cannot read");
  const price_file negative(R"({"gpus": {"rtx_4090": -5}})");
  require_usage_error("rank --task infer8 --prices " + negative.path,
                      "gpus.rtx_4090: must be in [0, 1e+07], got -5");
  const price_file invalid("{\"gpus\": ");
  require_usage_error("rank --task infer8 --prices " + invalid.path, "malformed JSON");
  const price_file unknown(R"({"gpus": {"rtx_9090": 1}})");
  require_usage_error("rank --task infer8 --prices " + unknown.path,
                      "gpus.rtx_9090: unknown GPU id");
}

TEST_CASE("dlperf rank --prices-at market ranks at dated resale prices", "[cli][rank][prices]") {
  const auto price_of = [](const nlohmann::json& list, const char* id) {
    const auto e = std::find_if(list.begin(), list.end(),
                                [&](const nlohmann::json& x) { return x["id"] == id; });
    REQUIRE(e != list.end());
    return (*e)["gpu_price_usd"].get<double>();
  };
  // The guide's comparisons take launch prices; the market basis takes the RTX 3090's used
  // price of July 2026 (GPU Poet, $990) and keeps the RTX 2080 Ti's launch price (none sourced).
  const nlohmann::json launch = dlperf_test::json_of("rank --task infer16 --json");
  const nlohmann::json market =
      dlperf_test::json_of("rank --task infer16 --prices-at market --json");
  CHECK(price_of(launch, "rtx_3090") == 1499);
  CHECK(price_of(market, "rtx_3090") == 990);
  CHECK(price_of(market, "rtx_2080_ti") == price_of(launch, "rtx_2080_ti"));
  CHECK(market.front()["price_basis"] == "market");
  dlperf_test::require_usage_error("rank --task infer16 --prices-at msrp", "msrp");
}

TEST_CASE("dlperf rank --device ranks the file's GPU with the catalog", "[cli][rank][device]") {
  // The shipped H100 PCIe device file under an id of its own and with a price of its own.
  std::ifstream in(std::string(DLPERF_SOURCE_DIR) + "/examples/devices/h100_pcie_measured.json");
  nlohmann::json device = nlohmann::json::parse(in);
  device["facts"]["id"] = "my_h100";
  device["facts"]["price"] = {{"kind", "street"}, {"usd", 20000.0}, {"year", 2025}, {"month", 6}};
  const price_file file(device.dump());  // a temporary file holding the device
  const run_result r = run_dlperf("rank --task infer16 --device " + file.path + " --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  double mine = 0, catalog_h100_pcie = 0;
  for (const auto& e : j) {
    CHECK(e["memory_bytes"].get<double>() > 0);
    if (e["id"] == "my_h100") mine = e["relative_performance"].get<double>();
    if (e["id"] == "h100_pcie") catalog_h100_pcie = e["relative_performance"].get<double>();
  }
  // The same board's facts (its measured GEMM efficiencies aside): close to the catalog entry.
  CHECK(mine > 0.5 * catalog_h100_pcie);
  CHECK(mine < 2.0 * catalog_h100_pcie);
  // A device file that is no device file is rejected with one line naming the file's problem.
  const price_file bad(R"({"kind": "gpu"})");
  const run_result rejected = run_dlperf("rank --task infer16 --device " + bad.path);
  CHECK(rejected.exit_code == 2);
  CHECK(std::count(rejected.err.begin(), rejected.err.end(), '\n') == 1);
  require_usage_error("rank --task infer16 --device /nonexistent.json", "/nonexistent.json");
}

#endif
