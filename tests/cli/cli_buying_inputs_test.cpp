// The buying commands' inputs: workloads the H100 cannot fit, splits over several GPUs, prices
// that are missing, the host cost, device files, tco from a GPU, and the plausible range of
// every number (docs/buying.md, "Plausible inputs").
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "cli_run.hpp"

using dlperf_test::json_of;
using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;
using dlperf_test::run_result;

namespace {

const nlohmann::json& entry(const nlohmann::json& list, const std::string& id) {
  for (const auto& e : list)
    if (e["id"] == id) return e;
  FAIL("no entry " << id);
  return list;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("advise and rank take a workload the H100 cannot fit, against the GPU that runs it",
          "[cli][buyinputs]") {
  const run_result a = run_dlperf("advise --preset llama2_7b --budget 2000");
  INFO(a.err);
  CHECK(a.exit_code == 0);
  CHECK(a.out.find(" 1. ") != std::string::npos);

  const nlohmann::json r = json_of("rank --task llama2_7b --gpus 1 --json");
  REQUIRE(!r.empty());
  const std::string ref = r.front()["reference"];
  CHECK(ref != "h100_sxm");
  for (const auto& e : r) {
    CHECK(e["reference"] == ref);
    CHECK(e["relative_performance"].get<double>() <= 1.0 + 1e-9);  // the reference is the best
  }
  const run_result table = run_dlperf("rank --task llama2_7b --gpus 1");
  CHECK(table.out.find("(" + ref + " = 1)") != std::string::npos);
}

TEST_CASE("advise --gpus 2 splits Llama-2-70B in 4-bit over two RTX 3090s with tp 2",
          "[cli][buyinputs]") {
  const nlohmann::json a =
      json_of("advise --preset llama2_70b --infer --weights int4 --gpus 2 --json");
  const nlohmann::json& r3090 = entry(a, "rtx_3090");
  CHECK(r3090["fits"] == true);
  CHECK(r3090["gpus"] == 2);
  REQUIRE(r3090.contains("split"));
  CHECK(r3090["split"]["tp"] == 2);
  bool said = false;
  for (const auto& reason : r3090["reasons"])
    if (reason.get<std::string>().find("split: 2 GPUs, tp 2") != std::string::npos) said = true;
  CHECK(said);
  // Without --gpus: the fewest GPUs that fit, per GPU.
  const nlohmann::json s = json_of("advise --preset llama2_70b --infer --weights int4 --json");
  CHECK(entry(s, "rtx_3090")["gpus"] == 2);
  CHECK(entry(s, "h100_sxm")["gpus"] == 1);
}

TEST_CASE("model --gpus N that does not fit says when --tp would make it fit", "[cli][buyinputs]") {
  const run_result r =
      run_dlperf("model --preset llama2_70b --infer --weights int4 --gpus 2 --gpu rtx_3090");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("does NOT fit") != std::string::npos);
  CHECK(r.out.find("with --tp 2") != std::string::npos);
  const nlohmann::json j =
      json_of("model --preset llama2_70b --infer --weights int4 --gpus 2 --gpu rtx_3090 --json");
  CHECK(j["fits_with_tp"] == 2);
}

TEST_CASE("advise --json: a GPU without a price is never within budget", "[cli][buyinputs]") {
  const nlohmann::json a = json_of("advise --use-case kaggle --budget 100000 --json");
  bool seen = false;
  for (const auto& e : a)
    if (e["system_cost_usd"].is_null()) {
      seen = true;
      CHECK(e["within_budget"] == false);
    }
  CHECK(seen);
}

TEST_CASE("cluster says when the model does not fit", "[cli][buyinputs]") {
  const run_result r =
      run_dlperf("cluster --preset llama2_7b --gpu rtx_4090 --gpus 2 --link pcie4_x16");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("does NOT fit rtx_4090") != std::string::npos);
  // The verdict comes before any time, and says what the times are.
  CHECK(r.out.find("does NOT fit rtx_4090") < r.out.find("gradient all-reduce"));
  CHECK(r.out.find("every time below is hypothetical") != std::string::npos);
  const nlohmann::json j =
      json_of("cluster --preset llama2_7b --gpu rtx_4090 --gpus 2 --link pcie4_x16 --json");
  CHECK(j["fits"] == false);
  CHECK(j["memory_need_bytes"].get<double>() > j["memory_capacity_bytes"].get<double>());
  CHECK(json_of("cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16 --json")["fits"] == true);
}

TEST_CASE("the host cost is shown apart and --host-cost 0 leaves it out", "[cli][buyinputs]") {
  const nlohmann::json with = json_of("rank --task infer16 --gpus 2 --json");
  const nlohmann::json& e = entry(with, "rtx_4090");
  CHECK(e["host_share_usd"].get<double>() == Approx(750));
  CHECK(e["system_cost_usd"].get<double>() ==
        Approx(e["gpu_price_usd"].get<double>() + e["host_share_usd"].get<double>()));
  const nlohmann::json without = json_of("rank --task infer16 --gpus 2 --host-cost 0 --json");
  CHECK(entry(without, "rtx_4090")["system_cost_usd"].get<double>() ==
        Approx(e["gpu_price_usd"].get<double>()));
  // advise: a $3000 budget buys a 4090 system only without the host.
  const nlohmann::json a = json_of("advise --use-case kaggle --budget 3000 --json");
  CHECK(entry(a, "rtx_4090")["host_cost_usd"].get<double>() == Approx(1500));
  CHECK(entry(a, "rtx_4090")["within_budget"] == false);
  const nlohmann::json b = json_of("advise --use-case kaggle --budget 3000 --host-cost 0 --json");
  CHECK(entry(b, "rtx_4090")["host_cost_usd"].get<double>() == 0);
  CHECK(entry(b, "rtx_4090")["within_budget"] == true);
}

TEST_CASE("tco --gpu rents at the built-in cloud price, and says which", "[cli][buyinputs]") {
  const std::string common = " --utilization 0.5 --kwh-price 0.15 --json";
  const nlohmann::json j = json_of("tco --gpu rtx_4090" + common);
  // RunPod's RTX 4090, Community Cloud, $0.34 an hour (September 2026).
  CHECK(j["cloud_usd_per_hour"].get<double>() == Approx(0.34));
  CHECK(j["cloud_price_source"]["provider"] == "RunPod");
  CHECK(j["cloud_price_source"]["year"] == 2026);
  // Eight GPUs rent eight times over.
  CHECK(json_of("tco --gpu rtx_4090 --count 8" + common)["cloud_usd_per_hour"].get<double>() ==
        Approx(8 * 0.34));
  // A flag or a price file overrides it, and then no built-in source is named.
  const nlohmann::json flag = json_of("tco --gpu rtx_4090 --cloud-hourly 0.5" + common);
  CHECK(flag["cloud_usd_per_hour"].get<double>() == Approx(0.5));
  CHECK(flag["cloud_price_source"].is_null());
  const run_result text = run_dlperf("tco --gpu h100_sxm --utilization 0.5 --kwh-price 0.15");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("cloud price built in: RunPod H100 SXM, Secure Cloud, September 2026") !=
        std::string::npos);
  // No offer lists an RTX 4070: the sum needs a price, and the message names the GPU.
  require_usage_error("tco --gpu rtx_4070 --utilization 0.5 --kwh-price 0.15",
                      "no cloud price is built in for rtx_4070");
}

TEST_CASE("tco --gpu takes the board power and the price from the catalog", "[cli][buyinputs]") {
  // RTX 3090: 350 W, $1,499 launch price; the guide's host $1,500 and 250 W for the rest.
  const std::string common = " --utilization 0.15 --kwh-price 0.12 --cloud-hourly 2.14 --json";
  const nlohmann::json one = json_of("tco --gpu rtx_3090" + common);
  CHECK(one["gpu_watts"].get<double>() == Approx(350));
  CHECK(one["other_watts"].get<double>() == Approx(250));
  CHECK(one["system_price_usd"].get<double>() == Approx(1499 + 1500));
  const nlohmann::json two = json_of("tco --gpu rtx_3090 --count 2 --host-cost 1000" + common);
  CHECK(two["gpu_watts"].get<double>() == Approx(700));
  CHECK(two["system_price_usd"].get<double>() == Approx(2 * 1499 + 1000));
  // Explicit flags override.
  const nlohmann::json set =
      json_of("tco --gpu rtx_3090 --gpu-watts 300 --other-watts 100 --system-price 2200" + common);
  CHECK(set["gpu_watts"].get<double>() == Approx(300));
  CHECK(set["system_price_usd"].get<double>() == Approx(2200));
  CHECK(set["days"].get<double>() == Approx(365));
}

TEST_CASE("power, speedup and tco take --device FILE as they take a GPU id", "[cli][buyinputs]") {
  char path[] = "/tmp/dlperf_device_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  REQUIRE(run_dlperf(std::string("export --gpu rtx_3090 --out ") + path).exit_code == 0);
  const nlohmann::json by_id = json_of("power --gpu rtx_3090 --count 4 --json");
  const nlohmann::json by_file =
      json_of(std::string("power --device ") + path + " --count 4 --json");
  CHECK(by_file["system_watts"] == by_id["system_watts"]);
  const nlohmann::json s_id = json_of("speedup --from rtx_2080_ti --to rtx_3090 --json");
  const nlohmann::json s_file =
      json_of(std::string("speedup --from rtx_2080_ti --to-device ") + path + " --json");
  CHECK(s_file["rule"]["low"].get<double>() == Approx(s_id["rule"]["low"].get<double>()));
  const std::string common = " --utilization 0.15 --kwh-price 0.12 --cloud-hourly 2.14 --json";
  CHECK(json_of(std::string("tco --device ") + path + common)["system_price_usd"] ==
        json_of("tco --gpu rtx_3090" + common)["system_price_usd"]);
  const nlohmann::json c_id = json_of("cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16 --json");
  const nlohmann::json c_file =
      json_of(std::string("cluster --device ") + path + " --gpus 4 --link pcie4_x16 --json");
  CHECK(c_file["speedup"].get<double>() == Approx(c_id["speedup"].get<double>()));
  CHECK(c_file["peer_to_peer"] == false);  // the file's GeForce segment, as the catalog's
  require_usage_error(std::string("power --gpu rtx_3090 --device ") + path, "--gpu");
  require_usage_error(std::string("cluster --gpu rtx_3090 --device ") + path + " --link nvlink3",
                      "--gpu");
  require_usage_error("speedup --to rtx_3090", "give exactly one of --from ID and --from-device");
  std::remove(path);
}

TEST_CASE("a decoder run that generates nothing has no time per token", "[cli][buyinputs]") {
  const std::string args =
      "model --preset llama2_7b --gpu h100_sxm --infer --prompt 0 --generate 0";
  const run_result r = run_dlperf(args);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("per output token") == std::string::npos);
  CHECK(r.out.find("prefill only") != std::string::npos);
  CHECK(json_of(args + " --json")["decode_s_per_token"].is_null());
}

TEST_CASE("plot rank fits its labels, has no blank half and names the run", "[cli][buyinputs]") {
  const std::string svg_path = "/tmp/dlperf_buyinputs_rank.svg";
  const run_result r = run_dlperf(
      "plot rank --task llama2_7b --infer --batch 1 --prompt 512 --generate 256 --top 5 --out " +
      svg_path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string svg = read_text(svg_path);
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex("width=\"([0-9.]+)\" height=\"([0-9.]+)\"")));
  const double width = std::stod(m[1]), height = std::stod(m[2]);
  // Every note (font-size 11) ends inside the canvas: at most 0.6 em per character.
  const std::regex note("<text x=\"([0-9.]+)\" y=\"[0-9.]+\" font-size=\"11\">([^<]*)</text>");
  int notes = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), note); it != std::sregex_iterator();
       ++it, ++notes)
    CHECK(std::stod((*it)[1]) + 0.6 * 11 * static_cast<double>((*it)[2].length()) <= width);
  CHECK(notes == 5);
  // The last bar ends in the lower part of the canvas: no blank half below the bars.
  double last_bar = 0;
  const std::regex bar("<rect class=\"bar\" x=\"[0-9.]+\" y=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator();
       ++it)
    last_bar = std::stod((*it)[1]);
  CHECK(last_bar > 0.5 * height);
  CHECK(svg.find("<title>Performance per dollar: llama2_7b inference, batch 1, prompt 512 + 256 "
                 "generated tokens") != std::string::npos);
  std::remove(svg_path.c_str());
}

TEST_CASE("every buying input outside its plausible range is rejected naming its flag",
          "[cli][buyinputs]") {
  const std::string tco =
      "tco --other-watts 100 --utilization 0.5 --kwh-price 0.1 --system-price 2000 "
      "--cloud-hourly 1 ";
  require_usage_error(
      "tco --gpu-watts 1e300 --other-watts 1 --utilization 0.5 --kwh-price 0.1 "
      "--system-price 1 --cloud-hourly 1 --days 1e300",
      "--gpu-watts '1e300' must be 0 or in [1, 100000] W");
  require_usage_error(tco + "--gpu-watts 350 --days 1e300", "--days '1e300' must be in [1, 36500]");
  require_usage_error(tco + "--gpu-watts 350 --days 0", "--days '0' must be in [1, 36500]");
  // Just above zero, a share, a power or a carbon intensity once printed -nan W or 1e-305 kg.
  require_usage_error(tco + "--gpu-watts 1e-308",
                      "--gpu-watts '1e-308' must be 0 or in [1, 100000] W");
  require_usage_error(tco + "--gpu-watts 350 --grid-kg-per-kwh 1e-308",
                      "--grid-kg-per-kwh '1e-308' must be 0 or in [0.001, 2]");
  require_usage_error("power --gpu rtx_4090 --compute-share 1e-308",
                      "--compute-share '1e-308' must be 0 or in [0.01, 1]");
  require_usage_error("debias --ratio 2 --efficiency-from 1e-308",
                      "--efficiency-from '1e-308' must be in [0.01, 1]");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16 --bucket 1e-308",
                      "--bucket '1e-308' must be in [1024, 100000000000] bytes");
  // A run flag where nothing reads it is rejected by name, not ignored with its value unseen.
  require_usage_error("rank --task infer8 --batch nan",
                      "--batch: the run flags describe --task PRESET's run");
  require_usage_error("power --gpu rtx_4090 --seq 4096",
                      "--seq: the run flags describe --preset's run");
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 2e4 --utilization 0.5 --kwh-price 0.1 "
      "--system-price 2000 --cloud-hourly 1",
      "--other-watts");
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 100 --utilization 0.5 --kwh-price 50 "
      "--system-price 2000 --cloud-hourly 1",
      "--kwh-price '50' must be in [0, 10]");
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 100 --utilization 0.5 --kwh-price 0.1 "
      "--system-price 1e9 --cloud-hourly 1",
      "--system-price");
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 100 --utilization 0.5 --kwh-price 0.1 "
      "--system-price 2000 --cloud-hourly 1e5",
      "--cloud-hourly");
  require_usage_error(tco + "--gpu-watts 350 --grid-kg-per-kwh 30", "--grid-kg-per-kwh");
  require_usage_error(
      "tco --gpu rtx_3090 --count 17 --utilization 0.5 --kwh-price 0.1 "
      "--cloud-hourly 1",
      "--count '17' must be in [1, 16]");
  require_usage_error(
      "tco --gpu rtx_3090 --count 3 --utilization 0.5 --kwh-price 0.1 "
      "--cloud-hourly 1",
      "--count: hosts are priced for 1, 2, 4 or 8 GPUs");
  require_usage_error("tco --gpu mi250x --utilization 0.5 --kwh-price 0.1 --cloud-hourly 1",
                      "--system-price: no price known for mi250x");
  require_usage_error(
      "tco --utilization 0.5 --kwh-price 0.1 --cloud-hourly 1 --other-watts 1 "
      "--system-price 1",
      "--gpu-watts is required without --gpu ID or --device FILE");
  // Just above zero is as absurd as far above: 1e-308 of utilisation once printed a break-even of
  // inf days and 2.25e-305 kg of CO2.
  require_usage_error(
      "tco --gpu-watts 350 --other-watts 100 --utilization 1e-308 --kwh-price 0.1 "
      "--system-price 2000 --cloud-hourly 1",
      "--utilization '1e-308' must be in [0.001, 1]");
  require_usage_error("power --gpu rtx_4090 --limit 1e-308",
                      "--limit '1e-308' must be in [90, 450] W");
  require_usage_error("power --gpu rtx_4090 --limit 500", "--limit '500' must be in [90, 450] W");
  require_usage_error("debias --ratio 1e308 --batch-to 1e12", "--ratio '1e308' must be in");
  require_usage_error("debias --ratio 2 --batch-to 1e12", "--batch-to '1e12' must be in");
  require_usage_error("debias --ratio 2 --batch-from 1e12", "--batch-from");
  require_usage_error("debias --ratio 2 --gpus-from 1e7", "--gpus-from");
  require_usage_error("debias --ratio 2 --gpus-to 1e7", "--gpus-to");
  require_usage_error("power --gpu rtx_3090 --count 1000000",
                      "--count '1000000' must be in [1, 16]");
  require_usage_error("power --gpu rtx_3090 --rest-watts 1e6", "--rest-watts");
  require_usage_error("advise --use-case kaggle --budget 1e300", "--budget '1e300' must be in");
  require_usage_error("advise --use-case kaggle --host-cost 1e300", "--host-cost");
  require_usage_error("rank --task infer8 --host-cost -1", "--host-cost");
  require_usage_error("rank --task infer8 --min-memory 1e9", "--min-memory '1e9' must be in");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --bucket 1e15", "--bucket");
}

#endif
