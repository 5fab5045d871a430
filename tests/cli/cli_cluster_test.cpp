// `dlperf cluster` and `dlperf debias` (docs/buying.md: Multi-GPU, De-biasing a vendor
// comparison): their output and every rejection.
#include <catch2/catch.hpp>
#include <cstdio>

#ifdef DLPERF_CLI_PATH
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

using dlperf_test::require_usage_error;
using dlperf_test::run_dlperf;

TEST_CASE("dlperf cluster --json: Dettmers 2020's 3.6-3.8x on 4 GPUs in one machine",
          "[cli][cluster]") {
  const auto r = run_dlperf("cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["speedup"].get<double>() >= 3.6);
  CHECK(j["speedup"].get<double>() <= 3.8);
  CHECK(j["efficiency"].get<double>() == Approx(j["speedup"].get<double>() / 4));
  CHECK(j["step_time_s"].get<double>() > j["single_gpu_step_s"].get<double>());
  CHECK(j["allreduce_s"].get<double>() > j["exposed_allreduce_s"].get<double>());
  CHECK(j["link"] == "pcie4_x16");
  CHECK(j["model"] == "resnet50");  // the typical job
  CHECK(j["batch"] == 64);
  CHECK(j["dtype"] == "fp16");
  CHECK(j["peer_to_peer"] == false);
  CHECK(j["gpus"] == 4);
}

TEST_CASE("dlperf cluster: a human table, mixed GPUs, tensor parallelism", "[cli][cluster]") {
  const auto r = run_dlperf("cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("resnet50 training") != std::string::npos);
  CHECK(r.out.find("through host memory") != std::string::npos);
  CHECK(r.out.find("exposed all-reduce") != std::string::npos);
  CHECK(r.out.find("speed-up") != std::string::npos);
  CHECK(r.out.find(" %") != std::string::npos);

  const auto mixed = run_dlperf(
      "cluster --gpu rtx_3090,rtx_2080_ti --gpus 4 --link pcie4_x16 "
      "--json");
  REQUIRE(mixed.exit_code == 0);
  const auto m = nlohmann::json::parse(mixed.out);
  CHECK(m["gpu"].size() == 4);
  CHECK(m["gpu"][1] == "rtx_2080_ti");

  const auto tp = run_dlperf(
      "cluster --gpu a100_sxm4_80gb --gpus 8 --tp 2 --link nvlink3 "
      "--preset bert_large --seq 512 --batch 8 --json");
  REQUIRE(tp.exit_code == 0);
  const auto t = nlohmann::json::parse(tp.out);
  CHECK(t["tensor_parallel_s"].get<double>() > 0);
  CHECK(t["data_parallel"] == 4);

  // Through an NVSwitch the text gives the link's rate and the bus bandwidth its collectives
  // were measured at (hardware/links.hpp): NVLS among 8 H100s, the ring among 4 (tp 2).
  const std::string h100 = "cluster --gpu h100_sxm --gpus 8 --link nvlink4 --preset gpt2";
  const auto nvls = run_dlperf(h100);
  REQUIRE(nvls.exit_code == 0);
  CHECK_THAT(nvls.out, Catch::Contains("link: 450 GB/s each way; all-reduces at 473 GB/s bus "
                                       "bandwidth, as nccl-tests measured them through its "
                                       "switch among 8 GPUs (NVLS, the switch reducing); other "
                                       "collectives at its ring's 363 GB/s;"));
  const auto ring = run_dlperf(h100 + " --tp 2");
  REQUIRE(ring.exit_code == 0);
  CHECK_THAT(ring.out,
             Catch::Contains("collectives at 363 GB/s bus bandwidth") && Catch::Contains("(ring)"));
  // Across servers the network ports bound the rings, and the text says so apart.
  const auto two =
      run_dlperf("cluster --gpu h100_sxm --gpus 16 --link nvlink4 --network ib_ndr --preset gpt2");
  REQUIRE(two.exit_code == 0);
  CHECK_THAT(two.out, Catch::Contains("473 GB/s bus bandwidth") &&
                          Catch::Contains("400 GB/s across servers (their network ports)"));
}

TEST_CASE("dlperf cluster: across machines 10 GbE collapses, InfiniBand EDR scales",
          "[cli][cluster]") {
  const auto eff = [](const std::string& link) {
    const auto r = run_dlperf("cluster --gpu a100_sxm4_40gb --gpus 16 --link " + link + " --json");
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out)["efficiency"].get<double>();
  };
  CHECK(eff("eth_10g") < 0.5);
  CHECK(eff("ib_edr") > 0.65);
}

TEST_CASE("dlperf cluster rejects zero GPUs, unknown links and GPUs, and bad flags",
          "[cli][cluster]") {
  require_usage_error("cluster --gpu rtx_3090 --gpus 0 --link pcie4_x16", "--gpus");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link pcie9_x16", "--link");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4", "--link");
  require_usage_error("cluster --gpus 4 --link nvlink3", "--gpu");
  require_usage_error("cluster --gpu rtx_9999 --gpus 4 --link nvlink3", "rtx_9999");
  require_usage_error("cluster --gpu rtx_3090,rtx_2080_ti --gpus 3 --link nvlink3", "--gpus");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --batch -2", "--batch");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --bucket 0", "--bucket");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --infer", "--infer");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --tp 2", "--tp");
  require_usage_error("cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --preset gpt5", "--preset");
}

TEST_CASE("dlperf debias --json: Dettmers 2020's 13.6 % per CNN batch doubling", "[cli][cluster]") {
  const auto r =
      run_dlperf("debias --ratio 2.272 --batch-from 128 --batch-to 256 --kind cnn --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ratio"].get<double>() == Approx(2.272));
  CHECK(j["debiased_ratio"].get<double>() == Approx(2.0));
  CHECK(j["factors"]["batch"].get<double>() == Approx(1.136));
  CHECK(j["factors"]["gpus"].get<double>() == Approx(1.0));
}

TEST_CASE("dlperf debias: 8x A100 7.0x against 8x V100 6.67x, efficiency from the model",
          "[cli][cluster]") {
  const auto r = run_dlperf(
      "debias --ratio 2.1 --gpus-from 8 --gpus-to 8 --efficiency-from "
      "0.83375 --efficiency-to 0.875 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["factors"]["gpus"].get<double>() == Approx(7.0 / 6.67));
  const auto model = run_dlperf(
      "debias --ratio 2 --gpus-to 8 --gpu-to a100_sxm4_40gb --link-to nvlink3 --kind cnn");
  REQUIRE(model.exit_code == 0);
  CHECK(model.out.find("multi-GPU model") != std::string::npos);
  CHECK(model.out.find("de-biased ratio") != std::string::npos);
}

TEST_CASE("dlperf debias --device-to: a device file's GPU in the multi-GPU model, as its id's",
          "[cli][cluster]") {
  const std::string file = "dlperf_debias_device_test.json";
  REQUIRE(run_dlperf("export --gpu a100_sxm4_40gb --out " + file).exit_code == 0);
  const std::string side = "debias --ratio 2 --gpus-to 8 --link-to nvlink3 --kind cnn --json ";
  const auto by_id = nlohmann::json::parse(run_dlperf(side + "--gpu-to a100_sxm4_40gb").out);
  const auto by_file = nlohmann::json::parse(run_dlperf(side + "--device-to " + file).out);
  // The exported file describes the same GPU, so the model gives it the same efficiency.
  CHECK(by_file["factors"]["efficiency_to"] == by_id["factors"]["efficiency_to"]);
  CHECK(by_file["factors"]["efficiency_to"].get<double>() < 1.0);
  CHECK(by_file["debiased_ratio"] == by_id["debiased_ratio"]);
  require_usage_error(
      "debias --ratio 2 --gpus-to 8 --link-to nvlink3 --gpu-to a100_sxm4_40gb --device-to " + file,
      "give one of --gpu-to and --device-to");
  require_usage_error("debias --ratio 2 --gpus-from 8 --device-from " + file,
                      "--link-from go together");
  require_usage_error(
      "debias --ratio 2 --gpus-to 8 --efficiency-to 0.9 --link-to nvlink3 "
      "--device-to " +
          file,
      "not both");
  std::remove(file.c_str());
  const std::string host = "dlperf_debias_host_test.json";
  dlperf_test::write_host_device_file(host);
  require_usage_error("debias --ratio 2 --gpus-to 8 --link-to nvlink3 --device-to " + host,
                      "describes a host CPU");
  std::remove(host.c_str());
}

TEST_CASE("dlperf debias rejects a bad ratio, batch, GPU count, efficiency or link",
          "[cli][cluster]") {
  require_usage_error("debias --ratio -1", "--ratio");
  require_usage_error("debias --ratio 0", "--ratio");
  require_usage_error("debias", "--ratio");
  require_usage_error("debias --ratio 2 --batch-from 0", "--batch-from");
  require_usage_error("debias --ratio 2 --gpus-to 0", "--gpus-to");
  require_usage_error("debias --ratio 2 --efficiency-to 1.5", "--efficiency-to");
  require_usage_error("debias --ratio 2 --gpu-to a100_sxm4_40gb", "--link-to");
  require_usage_error("debias --ratio 2 --gpu-to a100_sxm4_40gb --link-to nvlink9", "--link-to");
  require_usage_error("debias --ratio 2 --kind rnn", "--kind");
}

#endif
