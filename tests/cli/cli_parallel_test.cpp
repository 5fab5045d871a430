// The tool over several GPUs for inference (docs/parallel.md): --split, --link, the JSON of a
// split, and advise and rank choosing the split the stack runs.
#include <catch2/catch.hpp>
#include <dlperf/model/error_bands.hpp>
#include <string>

#include "cli_run.hpp"

using namespace dlperf_test;

namespace {

const std::string llama_70b_q4 =
    "model --preset llama3_70b --infer --weights q4_k_m --dtype fp16 --no-flash --prompt 512 "
    "--generate 128 --stack llama.cpp ";

double communication_ops(const nlohmann::json& j) {
  double t = 0;
  for (const auto& op : j["ops"])
    if (op["kind"] == "communication") t += op["time_s"].get<double>();
  return t;
}

}  // namespace

TEST_CASE("model: llama.cpp puts one model over the --gpus by layers", "[cli][parallel]") {
  const nlohmann::json one = json_of(llama_70b_q4 + "--gpu rtx_3090 --json");
  const nlohmann::json two = json_of(llama_70b_q4 + "--gpu rtx_3090 --gpus 2 --json");
  CHECK(one["pp"] == 1);
  CHECK(one["split"].is_null());
  CHECK(one["link"].is_null());
  CHECK(one["communication_s"].get<double>() == 0);
  CHECK(two["pp"] == 2);
  CHECK(two["tp"] == 1);
  CHECK(two["split"] == "layer");
  CHECK(two["link"] == "pcie4_x16");
  CHECK(two["staged_through_host"] == true);
  CHECK(two["communication_s"].get<double>() > 0);
  CHECK(communication_ops(two) > 0);
  // The cards take turns: a token is never faster than one card running the whole model, and
  // each holds half the layers.
  CHECK(two["decode_s_per_token"].get<double>() > one["decode_s_per_token"].get<double>());
  CHECK(two["memory"]["weights_bytes"].get<double>() ==
        Approx(one["memory"]["weights_bytes"].get<double>() / 2));
  CHECK(one["fits"] == false);
  CHECK(two["fits"] == true);
  // The text says how the model is split and over what.
  const run_result text = run_dlperf(llama_70b_q4 + "--gpu rtx_3090 --gpus 2");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("split: 2 GPUs by layers") != std::string::npos);
  CHECK(text.out.find("staged through host memory") != std::string::npos);
  CHECK(text.out.find("link-bound") != std::string::npos);
  // The bracketed ceiling says it is the ceiling of the stack's own kernels, which a
  // `--stack ceiling` run of the same command need not equal; without a stack there is none.
  CHECK(text.out.find("in brackets, the hardware model's ceiling of the kernels this stack runs") !=
        std::string::npos);
  const run_result bare =
      run_dlperf("model --preset llama3_70b --infer --weights q4_k_m --gpu rtx_3090 --gpus 2");
  REQUIRE(bare.exit_code == 0);
  CHECK(bare.out.find("in brackets") == std::string::npos);
}

TEST_CASE("model: --split and --link override the stack's and the system's", "[cli][parallel]") {
  // --split tensor under llama.cpp: --tp GPUs hold one copy, the rest are replicas.
  const nlohmann::json replicas =
      json_of(llama_70b_q4 + "--gpu rtx_a6000 --gpus 2 --split tensor --json");
  CHECK(replicas["pp"] == 1);
  CHECK(replicas["tp"] == 1);
  CHECK(replicas["split"].is_null());
  const nlohmann::json tensor =
      json_of(llama_70b_q4 + "--gpu rtx_a6000 --gpus 2 --tp 2 --split tensor --json");
  CHECK(tensor["split"] == "tensor");
  CHECK(tensor["staged_through_host"] == false);  // a workstation card: peer to peer
  // but NCCL's all-reduce crosses the CPU's host bridge through host memory
  CHECK(tensor["collectives_through_host"] == true);
  CHECK(json_of(llama_70b_q4 + "--gpu rtx_a6000 --gpus 2 --tp 2 --split tensor --link nvlink3 "
                               "--json")["collectives_through_host"] == false);
  const run_result tensor_text =
      run_dlperf(llama_70b_q4 + "--gpu rtx_a6000 --gpus 2 --tp 2 --split tensor");
  REQUIRE(tensor_text.exit_code == 0);
  CHECK(tensor_text.out.find("staged through host memory (NCCL takes no peer-to-peer across a "
                             "CPU's host bridge)") != std::string::npos);
  // A slower link never makes the split faster.
  const nlohmann::json x16 = json_of(llama_70b_q4 + "--gpu rtx_3090 --gpus 4 --json");
  const nlohmann::json x4 =
      json_of(llama_70b_q4 + "--gpu rtx_3090 --gpus 4 --link pcie3_x4 --json");
  CHECK(x4["link"] == "pcie3_x4");
  CHECK(x4["communication_s"].get<double>() > x16["communication_s"].get<double>());
  CHECK(x4["step_time_s"].get<double>() > x16["step_time_s"].get<double>());
  // vLLM on eight H100s: its own all-reduce over NVLink for the small decode messages.
  const nlohmann::json vllm = json_of(
      "model --preset llama3_70b --gpu h100_sxm --infer --prompt 512 --generate 128 --gpus 8 "
      "--tp 8 --stack vllm --json");
  CHECK(vllm["link"] == "nvlink4");
  bool engines_own = false;
  for (const auto& op : vllm["ops"])
    if (op["phase"] == "decode" && op["name"] == "tp all-reduce (engine's own)") engines_own = true;
  CHECK(engines_own);
  // Serving: the eight GPUs of one copy hold its sequences together, not each.
  const run_result serving = run_dlperf(
      "model --preset llama3_70b --gpu h100_sxm --infer --prompt 1000 --generate 1000 --gpus 8 "
      "--tp 8 --stack vllm --serve");
  REQUIRE(serving.exit_code == 0);
  CHECK(serving.out.find("sequences per model copy (8 GPUs)") != std::string::npos);
}

TEST_CASE("model --train --gpus N steps as dlperf cluster prices the job", "[cli][parallel]") {
  // One multi-GPU model: the step of `model` on N GPUs is the cluster's, communication included.
  const std::string run = "--preset gpt2 --batch 8 --dtype fp16 --optimizer sgd --json";
  const nlohmann::json model = json_of("model --gpu rtx_3090 --train --gpus 4 " + run);
  const nlohmann::json cluster = json_of("cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16 " + run);
  CHECK(model["step_time_s"].get<double>() ==
        Approx(cluster["step_time_s"].get<double>()).epsilon(1e-12));
  CHECK(model["link"] == "pcie4_x16");
  CHECK(model["cluster"]["exposed_allreduce_s"].get<double>() ==
        Approx(cluster["exposed_allreduce_s"].get<double>()).epsilon(1e-12));
  CHECK(model["communication_s"].get<double>() ==
        Approx(cluster["exposed_allreduce_s"].get<double>()).epsilon(1e-12));
  CHECK(model["cluster"]["speedup"].get<double>() ==
        Approx(cluster["speedup"].get<double>()).epsilon(1e-12));
  // A slower link costs the job more; one GPU has no cluster.
  const nlohmann::json slow =
      json_of("model --gpu rtx_3090 --train --gpus 4 --link pcie3_x4 " + run);
  CHECK(slow["step_time_s"].get<double>() > model["step_time_s"].get<double>());
  CHECK(json_of("model --gpu rtx_3090 --train " + run)["cluster"].is_null());
}

TEST_CASE("model: bad splits and links are rejected by name", "[cli][parallel][errors]") {
  require_usage_error("model --preset llama3_8b --gpu rtx_4090 --train --gpus 2 --split layer",
                      "--split layer is for --infer");
  require_usage_error("model --preset llama3_8b --gpu rtx_4090 --infer --gpus 2 --split rows",
                      "--split");
  require_usage_error("model --preset llama3_8b --gpu rtx_4090 --infer --gpus 2 --link nvlink9",
                      "--link");
  require_usage_error(
      "model --preset resnet50 --gpu rtx_4090 --infer --gpus 2 --stack pytorch-eager",
      "a layer split (pp 2) is modelled for transformers");
  require_usage_error(
      "model --preset llama3_2_1b --gpu rtx_4090 --infer --gpus 32 --stack llama.cpp",
      "needs as many layers");
}

TEST_CASE("advise and rank split by the stack's mode", "[cli][parallel]") {
  // Under llama.cpp two cards hold a 70B by layers, never by tensors.
  const nlohmann::json advice = json_of(
      "advise --preset llama3_70b --infer --weights q4_k_m --gpus 2 --stack llama.cpp "
      "--top 5 --json");
  int split_seen = 0;
  for (const auto& item : advice) {
    if (!item.contains("split")) continue;
    const auto& s = item["split"];
    CHECK(s["tp"] == 1);
    CHECK(s["tp"].get<long long>() * s["pp"].get<long long>() *
              s["data_parallel"].get<long long>() ==
          s["gpus"].get<long long>());
    if (s["pp"] == 2) ++split_seen;
  }
  CHECK(split_seen > 0);
  // Under vLLM the same question splits by tensors.
  const nlohmann::json ranked =
      json_of("rank --task llama3_70b --infer --weights q4_k_m --gpus 2 --stack vllm --json");
  REQUIRE(!ranked.empty());
  for (const auto& e : ranked)
    for (const auto& s : e["splits"]) CHECK(s["pp"] == 1);
}

TEST_CASE("model --cp splits each training sequence over GPUs, as cluster prices it",
          "[cli][parallel]") {
  // Llama 3.1 8B over 8 GPUs, 128K tokens a sequence: 4 GPUs a sequence, 2 replicas.
  const std::string run =
      "--preset llama3_1_8b --gpu h100_sxm --gpus 8 --batch 1 --seq 131072 --zero 3 "
      "--checkpointing --dtype bf16 --optimizer adam --json ";
  const nlohmann::json cp = json_of("model --train --cp 4 " + run);
  const nlohmann::json cluster = json_of("cluster --link nvlink4 --cp 4 " + run);
  CHECK(cp["cp"] == 4);
  CHECK(cp["seq"] == 131072);  // the whole sequence, not a GPU's share
  CHECK(cluster["data_parallel"] == 2);
  CHECK(cluster["cp"] == 4);
  CHECK(cp["cluster"]["job"]["cp"] == 4);
  CHECK(cp["step_time_s"].get<double>() ==
        Approx(cluster["step_time_s"].get<double>()).epsilon(1e-12));
  int rings = 0;
  for (const auto& c : cp["cluster"]["job"]["collectives"])
    if (c["name"].get<std::string>().find("context-parallel ring") != std::string::npos) {
      ++rings;
      CHECK(c["collective"] == "send-recv");
      // K and V of a GPU's 32768 tokens: 2 x 32768 x 8 key/value heads x 128 x 2 bytes.
      CHECK(c["bytes"].get<double>() == 2.0 * 32768 * 8 * 128 * 2);
      CHECK(c["exposed_s"].get<double>() <= c["time_s"].get<double>());
    }
  CHECK(rings == 3);  // forward, its recomputation (full checkpointing) and backward
  CHECK(cp["tokens_per_s"].get<double>() ==
        Approx(cluster["tokens_per_s"].get<double>()).epsilon(1e-12));
  // The same job's tokens without the split: each GPU runs whole sequences, and a GPU's
  // activations are cp times what they are under it.
  const nlohmann::json whole = json_of("model --train " + run);
  CHECK(whole["cp"] == 1);
  CHECK(whole["memory"]["activations_bytes"].get<double>() >
        3.9 * cp["memory"]["activations_bytes"].get<double>());
}

TEST_CASE("model: bad context-parallel splits are rejected by name", "[cli][parallel][errors]") {
  const std::string llama = "model --preset llama3_1_8b --gpu h100_sxm ";
  require_usage_error(llama + "--train --gpus 8 --cp 3", "--tp 1 x --pp 1 x --cp 3 must divide");
  require_usage_error(llama + "--infer --gpus 2 --cp 2", "--cp splits a training sequence");
  require_usage_error(llama + "--train --gpus 8 --cp 8 --seq 1000", "must be a multiple of 16");
  require_usage_error("model --preset bert_base --gpu h100_sxm --train --gpus 2 --cp 2",
                      "is modelled for a decoder's causal self-attention");
  require_usage_error("model --preset resnet50 --gpu h100_sxm --train --gpus 2 --cp 2",
                      "a CNN has none");
  require_usage_error(llama + "--train --gpus 2 --cp 2 --seq 8192 --doc-tokens 1024 --packing",
                      "padding or packing");
  require_usage_error(llama + "--train --gpus 2 --cp 2 --seq 8192 --no-flash",
                      "runs fused attention");
}

TEST_CASE("model: --max-seq beside a preset extends its context for the run", "[cli][parallel]") {
  // torchtitan trains Llama 3.1 8B (released at 128K tokens) at 256K over 8 GPUs of cp 8.
  const nlohmann::json extended = json_of(
      "model --preset llama3_1_8b --max-seq 262144 --gpu h100_sxm --train --gpus 8 --cp 8 --seq "
      "262144 --zero 3 --checkpointing --json");
  const nlohmann::json released = json_of("model --preset llama3_1_8b --gpu h100_sxm --json");
  CHECK(extended["seq"] == 262144);
  CHECK(extended["parameters"] == released["parameters"]);  // rotary positions: no table
  require_usage_error("model --preset llama3_1_8b --gpu h100_sxm --seq 262144",
                      "exceeds the model's context (131072)");
  // GPT-2's learned positions grow with its context: one row of 768 a position.
  const double gpt2 = json_of("model --preset gpt2 --gpu h100_sxm --json")["parameters"];
  const double longer =
      json_of("model --preset gpt2 --max-seq 2048 --gpu h100_sxm --json")["parameters"];
  CHECK(longer - gpt2 == 1024.0 * 768.0);
  require_usage_error("model --preset resnet50 --max-seq 4096 --gpu h100_sxm",
                      "--max-seq extends a transformer's context; resnet50 is a CNN");
  require_usage_error("model --preset gpt2 --max-seq 4096 --hidden 512 --gpu h100_sxm",
                      "--hidden describes a model by its shape");
  require_usage_error("model --preset gpt2 --max-seq 64 --gpu h100_sxm",
                      "--max-seq (64) is below gpt2's context (1024)");
}

TEST_CASE("model --shard-group shards within groups and all-reduces across them",
          "[cli][parallel]") {
  const std::string job =
      "model --preset llama3_1_8b --gpu h100_sxm --train --gpus 64 --zero 3 --batch 2 --seq "
      "8192 ";
  const std::string run = job + "--json ";
  const nlohmann::json full = json_of(run);
  const nlohmann::json node = json_of(run + "--shard-group 8");
  CHECK(full["cluster"]["job"]["shard_group"] == 64);
  CHECK(node["cluster"]["job"]["shard_group"] == 8);
  CHECK(node["memory"]["total_bytes"].get<double>() > full["memory"]["total_bytes"].get<double>());
  bool across = false;
  for (const auto& c : node["cluster"]["job"]["collectives"])
    across = across || c["name"] == "gradient all-reduce across shard groups";
  CHECK(across);
  // Its all-reduce across groups runs over NVLink 4 and NDR, whose channels are published.
  const run_result text = run_dlperf(job + "--shard-group 8");
  CHECK(text.out.find("gradient all-reduce across shard groups") != std::string::npos);
  CHECK(text.out.find("no published count") == std::string::npos);
  require_usage_error(run + "--shard-group 7", "the shard group (7) must divide");
  require_usage_error(run + "--shard-group 1", "a shard group of one GPU shards nothing");
  require_usage_error(
      "model --preset llama3_1_8b --gpu h100_sxm --train --gpus 64 --zero 1 --shard-group 8",
      "--shard-group is hybrid sharding of a training job's gradients");
}

TEST_CASE("model --ep spreads a mixture of experts' experts, as cluster prices it",
          "[cli][parallel]") {
  const std::string run =
      "--preset qwen3_30b_a3b --gpu h100_sxm --gpus 16 --batch 1 --seq 4096 --zero 1 "
      "--dtype bf16 --optimizer adam --stack megatron --json ";
  const nlohmann::json ep = json_of("model --train --ep 16 " + run);
  const nlohmann::json cluster = json_of("cluster --link nvlink4 --ep 16 " + run);
  CHECK(ep["ep"] == 16);
  CHECK(cluster["ep"] == 16);
  CHECK(ep["cluster"]["job"]["ep"] == 16);
  CHECK(ep["step_time_s"].get<double>() ==
        Approx(cluster["step_time_s"].get<double>()).epsilon(1e-12));
  int exchanges = 0;
  for (const auto& c : ep["cluster"]["job"]["collectives"])
    if (c["name"].get<std::string>().find("expert all-to-all") != std::string::npos) {
      ++exchanges;
      CHECK(c["collective"] == "all-to-all");
      CHECK(c["bytes"].get<double>() == 4096.0 * 8 * 2048 * 2);
    }
  CHECK(exchanges == 2);  // forward and backward
  CHECK(ep["expert_dispatch"] == "per-expert");
  // DeepEP's once-a-GPU dispatch sends fewer bytes across the two servers.
  const nlohmann::json once = json_of("model --train --ep 16 --ep-dispatch per-gpu " + run);
  CHECK(once["cluster"]["job"]["expert_dispatch"] == "per-gpu");
  CHECK(once["step_time_s"].get<double>() < ep["step_time_s"].get<double>());
  // Its band is the expert-parallel jobs' own of its sequences' class, not the dense jobs'.
  const nlohmann::json dense = json_of("model --train " + run);
  CHECK(dense["ep"] == 1);
  const auto experts = dlperf::training_scaling_band_of(dlperf::stack_id::megatron, true,
                                                        dlperf::sequence_class::short_sequences,
                                                        dlperf::board_class::hbm);
  REQUIRE(experts.has_value());
  CHECK(ep["training_band"]["rows"] == experts->rows);
  CHECK(ep["training_band"]["sequences"] == "short");
  CHECK(ep["training_band"]["boards"] == "hbm");
  const auto dense_band = dlperf::training_scaling_band_of(dlperf::stack_id::megatron, false,
                                                           dlperf::sequence_class::short_sequences,
                                                           dlperf::board_class::hbm);
  if (dense_band)
    CHECK(dense["training_band"]["rows"] == dense_band->rows);
  else
    CHECK(dense["training_band"].is_null());
  // Each GPU holds an eighth of the experts' weights: far less than all of them.
  CHECK(ep["memory"]["weights_bytes"].get<double>() <
        0.2 * dense["memory"]["weights_bytes"].get<double>());
  const run_result text = run_dlperf("model --train --ep 16 " + run.substr(0, run.size() - 7));
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("ep 16") != std::string::npos);
  CHECK(text.out.find("of mixtures of experts over ep GPUs") != std::string::npos);
  // An efficiency above 100 % says why, and only then.
  CHECK((text.out.find("above 100 %: one GPU would read every expert's weights") !=
         std::string::npos) == (ep["cluster"]["efficiency"].get<double>() > 1.0));
  const std::string superlinear =
      "model --preset gpt_oss_120b --gpu h100_sxm --train --stack megatron --gpus 64 --pp 4 "
      "--ep 8 --zero 1 --grad-accum 80 --seq 4096 --batch 1";
  const nlohmann::json over = json_of(superlinear + " --json");
  CHECK(over["cluster"]["efficiency"].get<double>() > 1.0);
  CHECK(over["mfu"].get<double>() <= 1.0);  // a stage's own layers' work (pipeline)
  const run_result over_text = run_dlperf(superlinear);
  REQUIRE(over_text.exit_code == 0);
  CHECK(over_text.out.find("above 100 %: one GPU would read every expert's weights") !=
        std::string::npos);
}

TEST_CASE("model: bad expert-parallel splits are rejected by name", "[cli][parallel][errors]") {
  const std::string moe = "model --preset qwen3_30b_a3b --gpu h100_sxm ";
  require_usage_error(moe + "--train --gpus 8 --ep 3", "must divide the GPUs of a pipeline stage");
  require_usage_error(moe + "--infer --gpus 8 --ep 8", "--ep spreads a training job's experts");
  require_usage_error(moe + "--train --gpus 8 --ep 8 --zero 3", "with sharded gradients (zero 3)");
  require_usage_error("model --preset llama3_1_8b --gpu h100_sxm --train --gpus 8 --ep 8",
                      "this model has no experts");
  require_usage_error(moe + "--train --gpus 48 --ep 48", "must divide the model's experts (128)");
  require_usage_error(moe + "--train --gpus 8 --ep-dispatch per-gpu", "give --ep 2 or more");
}

TEST_CASE("cluster: each collective says the SMs NCCL holds and what they cost the computation",
          "[cli][parallel]") {
  // FSDP over one A100 server: NCCL's ring holds 24 of the 108 SMs (stack/nccl.hpp), and the
  // per-layer gathers and reduce-scatters run beside the passes they overlap.
  const std::string run =
      "cluster --preset llama3_1_8b --train --gpus 8 --zero 3 --batch 2 --seq 4096 --dtype bf16 ";
  const nlohmann::json a100 = json_of(run + "--gpu a100_sxm4_80gb --link nvlink3 --json");
  double slowed = 0;
  for (const auto& c : a100["job"]["collectives"]) {
    CHECK(c["sms"] == 24);
    CHECK(c["slowed_s"].get<double>() >= 0.0);
    CHECK(c["slowed_s"].get<double>() <= c["exposed_s"].get<double>());
    slowed += c["slowed_s"].get<double>();
  }
  CHECK(slowed > 0.0);
  const run_result text = run_dlperf(run + "--gpu a100_sxm4_80gb --link nvlink3");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("slowed by the 24 SMs NCCL holds") != std::string::npos);
  // One GPU alone updates every parameter, each of the 8 an eighth: a step may beat 8x, and
  // the tool says why where it does.
  if (a100["efficiency"].get<double>() > 1.0)
    CHECK(text.out.find("above 100 %: each GPU updates 1/8 of the parameters (ZeRO)") !=
          std::string::npos);
  else
    CHECK(text.out.find("above 100 %") == std::string::npos);
  // No log of NCCL's ring over NVLink 5 is published: nothing is taken, and the tool says so.
  const nlohmann::json b200 = json_of(run + "--gpu b200 --link nvlink5 --json");
  for (const auto& c : b200["job"]["collectives"]) {
    CHECK(c["sms"] == 0);
    CHECK(c["slowed_s"].get<double>() == 0.0);
  }
  const std::string unpublished = "no published count of NCCL's channels over nvlink5";
  CHECK(run_dlperf(run + "--gpu b200 --link nvlink5").out.find(unpublished) != std::string::npos);
  CHECK(text.out.find("no published count") == std::string::npos);
}

TEST_CASE("a multi-GPU training band is its class of board's: none for GeForce jobs",
          "[cli][parallel]") {
  // Every published multi-GPU training run ran on HBM boards (model/error_bands.hpp,
  // training_scaling_band): the same job on eight H100s carries their band, on eight RTX 4090s
  // over PCIe none, and the tool says where the runs ran rather than lend the data centre's.
  const std::string job =
      "--preset llama3_2_1b --train --gpus 8 --zero 3 --batch 1 --seq 2048 --stack pytorch-eager ";
  const auto hbm = dlperf::training_scaling_band_of(dlperf::stack_id::pytorch_eager, false,
                                                    dlperf::sequence_class::short_sequences,
                                                    dlperf::board_class::hbm);
  REQUIRE(hbm.has_value());
  const nlohmann::json h100 = json_of("model --gpu h100_sxm " + job + "--json");
  CHECK(h100["training_band"]["rows"] == hbm->rows);
  CHECK(h100["training_band"]["boards"] == "hbm");
  const nlohmann::json geforce = json_of("model --gpu rtx_4090 " + job + "--json");
  CHECK(geforce["training_band"].is_null());
  CHECK(!dlperf::training_scaling_band_of(dlperf::stack_id::pytorch_eager, false,
                                          dlperf::sequence_class::short_sequences,
                                          dlperf::board_class::consumer));
  const run_result text = run_dlperf("model --gpu rtx_4090 " + job);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("no published multi-GPU pytorch-eager training runs of sequences under "
                      "8192 tokens on GeForce and Radeon boards, no band (the " +
                      std::to_string(hbm->rows) + " published ran on boards with HBM memory)") !=
        std::string::npos);
  const run_result on_h100 = run_dlperf("model --gpu h100_sxm " + job);
  CHECK(on_h100.out.find("training runs of sequences under 8192 tokens on boards with HBM memory "
                         "measured") != std::string::npos);
  // A job over GPUs of two classes has no one class, and no band.
  const std::string mixed = "cluster --gpu h100_sxm,rtx_4090 --link pcie4_x16 " + job;
  CHECK(json_of(mixed + "--json")["training_band"].is_null());
  CHECK(run_dlperf(mixed).out.find(
            "on a job of several classes of board, no band (the " + std::to_string(hbm->rows) +
            " published ran on boards with HBM memory)") != std::string::npos);
}
