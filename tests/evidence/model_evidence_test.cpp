// Whole-model predictions (model/step.hpp) against published single-GPU measurements
// (docs/models.md, "Evidence", has the table, the summaries and the analysis).
//
// The model predicts a well-tuned kernel sequence on an otherwise idle GPU; the measurements are
// whole frameworks (data pipeline, optimizer, per-kernel launch and framework overhead, batch
// norm in several kernels, unfused attention). It is expected to be optimistic on the CNN and
// BERT training rows and close on bandwidth-bound LLM decode. What the tests below hold is not
// an accuracy goal but the state measured when the table was written, as a regression guard.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/dlperf.hpp>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "evidence_csv.hpp"

using namespace dlperf;
using dlperf::evidence::median;

namespace {

// What the measured figure counts.
enum class rate : std::uint8_t {
  samples,         // images or sequences per second
  tokens,          // generated tokens per second, prefill included (whole batch)
  prefill_tokens,  // prompt tokens per second of the prefill alone
  ttft_ms          // time to the first token, milliseconds
};

constexpr std::string_view unit_name(rate u) {
  switch (u) {
    case rate::samples:
      return "samples/s";
    case rate::tokens:
      return "tok/s";
    case rate::prefill_tokens:
      return "prompt tok/s";
    case rate::ttft_ms:
      return "ms TTFT";
  }
  return "";
}

struct model_row {
  std::string_view label;  // short description of the published row
  std::string_view model;  // preset id
  run_mode mode;
  std::string_view gpu;  // catalog id
  dtype type;
  long long batch;
  long long seq;  // transformers: sequence (encoders) or prompt (decoders); CNNs: image side
  long long generate;
  double measured;
  rate unit;
  std::string_view pair;  // cross-GPU pair key ("" none): one A100 and one V100 row share it
  std::string_view source;
  bool fused_attention = true;  // the measured software fuses attention (FlashAttention-like)
};

constexpr run_mode train_mode = run_mode::train;
constexpr run_mode infer_mode = run_mode::infer;

// Sources (single-GPU rows, verbatim):
// RN50-PyT = github.com/NVIDIA/DeepLearningExamples/blob/master/PyTorch/Classification/ConvNets/
//   resnet50v1.5/README.md (pytorch 21.03 NGC; batches from ConvNets/configs.yml; training
//   includes the data pipeline).
// RN50-TF = github.com/NVIDIA/DeepLearningExamples/blob/master/TensorFlow/Classification/
//   ConvNets/resnet50v1.5/README.md (TF 20.06-tf1; training with XLA; inference without).
// SXT-PyT = github.com/NVIDIA/DeepLearningExamples/blob/master/PyTorch/Classification/ConvNets/
//   se-resnext101-32x4d/README.md (pytorch 21.03 NGC).
// BERT-PyT = github.com/NVIDIA/DeepLearningExamples/blob/master/PyTorch/LanguageModeling/BERT/
//   README.md (pytorch 21.11; pretraining phase 1 seq 128, phase 2 seq 512, SQuAD seq 384; the
//   V100 pretraining micro-batches are the accumulated batch over the accumulation steps).
// BERT-PyT-19 = the same README at commit 23a6382cbe8f77c22b0a7b7d263191ee6b947dfa (pytorch
//   19.07; pretraining on V100 32GB, SQuAD inference on V100 16GB).
// LMD = github.com/InternLM/lmdeploy/blob/main/docs/en/benchmark/a100_fp16.md (lmdeploy
//   v0.1.0a1, A100 80GB, static batch; prompt / output tokens; output tokens per second).
// TRTLLM = github.com/NVIDIA/TensorRT-LLM/blob/release/0.6.1/docs/source/performance.md.
// LCPP = github.com/ggml-org/llama.cpp/pull/4766 (llama-bench tg128 / pp512, F16).
// Unfused attention (fused_attention = false): the 2019-2021 BERT code computes softmax(QK^T)V
// as two batched GEMMs around a softmax kernel.
// Eager execution (run_config::eager, from the source: `eager_source`): PyTorch without a
// compiler and TensorFlow without XLA run batch norm, activations, dropout and residual adds as
// kernels of their own; XLA (the TF training rows) and the LLM engines fuse them.
const std::vector<model_row>& model_rows() {
  static const std::vector<model_row> r{
      // ResNet-50 v1.5, PyTorch
      {"RN50 train TF32 bs256", "resnet50", train_mode, "a100_sxm4_80gb", dtype::tf32, 256, 224, 0,
       938, rate::samples, "rn50-pyt-train-full", "RN50-PyT"},
      {"RN50 train AMP bs256", "resnet50", train_mode, "a100_sxm4_80gb", dtype::fp16, 256, 224, 0,
       2470, rate::samples, "rn50-pyt-train-half", "RN50-PyT"},
      {"RN50 train FP32 bs112", "resnet50", train_mode, "v100_sxm2", dtype::fp32, 112, 224, 0, 367,
       rate::samples, "rn50-pyt-train-full", "RN50-PyT"},
      {"RN50 train AMP bs256", "resnet50", train_mode, "v100_sxm2", dtype::fp16, 256, 224, 0, 1200,
       rate::samples, "rn50-pyt-train-half", "RN50-PyT"},
      {"RN50 infer FP32 bs256", "resnet50", infer_mode, "v100_sxm2", dtype::fp32, 256, 224, 0, 1261,
       rate::samples, "", "RN50-PyT"},
      {"RN50 infer AMP bs64", "resnet50", infer_mode, "v100_sxm2", dtype::fp16, 64, 224, 0, 2984,
       rate::samples, "", "RN50-PyT"},
      {"RN50 infer AMP bs256", "resnet50", infer_mode, "v100_sxm2", dtype::fp16, 256, 224, 0, 3382,
       rate::samples, "", "RN50-PyT"},
      {"RN50 infer FP32 bs64", "resnet50", infer_mode, "t4", dtype::fp32, 64, 224, 0, 428,
       rate::samples, "", "RN50-PyT"},
      {"RN50 infer AMP bs256", "resnet50", infer_mode, "t4", dtype::fp16, 256, 224, 0, 1198,
       rate::samples, "", "RN50-PyT"},
      // ResNet-50 v1.5, TensorFlow (A100 40GB)
      {"RN50 train TF32+XLA bs256", "resnet50", train_mode, "a100_sxm4_40gb", dtype::tf32, 256, 224,
       0, 909, rate::samples, "rn50-tf-train-full", "RN50-TF"},
      {"RN50 train AMP+XLA bs256", "resnet50", train_mode, "a100_sxm4_40gb", dtype::fp16, 256, 224,
       0, 2375, rate::samples, "rn50-tf-train-half", "RN50-TF"},
      {"RN50 train FP32+XLA bs128", "resnet50", train_mode, "v100_sxm2", dtype::fp32, 128, 224, 0,
       412, rate::samples, "rn50-tf-train-full", "RN50-TF"},
      {"RN50 train AMP+XLA bs256", "resnet50", train_mode, "v100_sxm2", dtype::fp16, 256, 224, 0,
       1270, rate::samples, "rn50-tf-train-half", "RN50-TF"},
      {"RN50 infer TF32 bs256", "resnet50", infer_mode, "a100_sxm4_40gb", dtype::tf32, 256, 224, 0,
       1911.96, rate::samples, "rn50-tf-infer-full", "RN50-TF"},
      {"RN50 infer AMP bs64", "resnet50", infer_mode, "a100_sxm4_40gb", dtype::fp16, 64, 224, 0,
       3570.46, rate::samples, "rn50-tf-infer-half", "RN50-TF"},
      {"RN50 infer FP32 bs256", "resnet50", infer_mode, "v100_sxm2", dtype::fp32, 256, 224, 0,
       1348.52, rate::samples, "rn50-tf-infer-full", "RN50-TF"},
      {"RN50 infer AMP bs128", "resnet50", infer_mode, "v100_sxm2", dtype::fp16, 128, 224, 0,
       2770.61, rate::samples, "rn50-tf-infer-half", "RN50-TF"},
      {"RN50 infer FP32 bs128", "resnet50", infer_mode, "t4", dtype::fp32, 128, 224, 0, 429.83,
       rate::samples, "", "RN50-TF"},
      // SE-ResNeXt-101 32x4d, PyTorch
      {"SE-RNXt101 train TF32 bs128", "se_resnext101_32x4d", train_mode, "a100_sxm4_80gb",
       dtype::tf32, 128, 224, 0, 395, rate::samples, "sxt-train-full", "SXT-PyT"},
      {"SE-RNXt101 train AMP bs128", "se_resnext101_32x4d", train_mode, "a100_sxm4_80gb",
       dtype::fp16, 128, 224, 0, 855, rate::samples, "sxt-train-half", "SXT-PyT"},
      {"SE-RNXt101 train FP32 bs64", "se_resnext101_32x4d", train_mode, "v100_sxm2", dtype::fp32,
       64, 224, 0, 132, rate::samples, "sxt-train-full", "SXT-PyT"},
      {"SE-RNXt101 train AMP bs112", "se_resnext101_32x4d", train_mode, "v100_sxm2", dtype::fp16,
       112, 224, 0, 443, rate::samples, "sxt-train-half", "SXT-PyT"},
      {"SE-RNXt101 infer FP32 bs256", "se_resnext101_32x4d", infer_mode, "v100_sxm2", dtype::fp32,
       256, 224, 0, 508, rate::samples, "", "SXT-PyT"},
      {"SE-RNXt101 infer AMP bs256", "se_resnext101_32x4d", infer_mode, "v100_sxm2", dtype::fp16,
       256, 224, 0, 1576, rate::samples, "", "SXT-PyT"},
      {"SE-RNXt101 infer AMP bs256", "se_resnext101_32x4d", infer_mode, "t4", dtype::fp16, 256, 224,
       0, 527, rate::samples, "", "SXT-PyT"},
      // BERT-large, PyTorch
      {"BERT-L pretrain ph1 TF32 bs128", "bert_large", train_mode, "a100_sxm4_80gb", dtype::tf32,
       128, 128, 0, 317, rate::samples, "bert-ph1-full", "BERT-PyT", false},
      {"BERT-L pretrain ph1 AMP bs256", "bert_large", train_mode, "a100_sxm4_80gb", dtype::fp16,
       256, 128, 0, 580, rate::samples, "bert-ph1-half", "BERT-PyT", false},
      {"BERT-L pretrain ph2 TF32 bs16", "bert_large", train_mode, "a100_sxm4_80gb", dtype::tf32, 16,
       512, 0, 110, rate::samples, "", "BERT-PyT", false},
      {"BERT-L pretrain ph2 AMP bs32", "bert_large", train_mode, "a100_sxm4_80gb", dtype::fp16, 32,
       512, 0, 210, rate::samples, "bert-ph2-half", "BERT-PyT", false},
      {"BERT-L SQuAD train TF32 bs32", "bert_large", train_mode, "a100_sxm4_80gb", dtype::tf32, 32,
       384, 0, 61.5, rate::samples, "bert-squad-train-full", "BERT-PyT", false},
      {"BERT-L SQuAD train AMP bs32", "bert_large", train_mode, "a100_sxm4_80gb", dtype::fp16, 32,
       384, 0, 110.5, rate::samples, "bert-squad-train-half", "BERT-PyT", false},
      {"BERT-L pretrain ph1 FP32 bs32", "bert_large", train_mode, "v100_sxm2", dtype::fp32, 32, 128,
       0, 50, rate::samples, "bert-ph1-full", "BERT-PyT", false},
      {"BERT-L pretrain ph1 AMP bs64", "bert_large", train_mode, "v100_sxm2", dtype::fp16, 64, 128,
       0, 224, rate::samples, "bert-ph1-half", "BERT-PyT", false},
      {"BERT-L pretrain ph2 FP32 bs4", "bert_large", train_mode, "v100_sxm2", dtype::fp32, 4, 512,
       0, 19, rate::samples, "", "BERT-PyT", false},
      {"BERT-L pretrain FP32 bs4 (19.07)", "bert_large", train_mode, "v100_sxm2", dtype::fp32, 4,
       512, 0, 8.36, rate::samples, "", "BERT-PyT-19", false},
      {"BERT-L pretrain ph2 AMP bs8", "bert_large", train_mode, "v100_sxm2", dtype::fp16, 8, 512, 0,
       75, rate::samples, "bert-ph2-half", "BERT-PyT", false},
      {"BERT-L SQuAD train FP32 bs8", "bert_large", train_mode, "v100_sxm2", dtype::fp32, 8, 384, 0,
       12, rate::samples, "bert-squad-train-full", "BERT-PyT", false},
      {"BERT-L SQuAD train AMP bs16", "bert_large", train_mode, "v100_sxm2", dtype::fp16, 16, 384,
       0, 52, rate::samples, "bert-squad-train-half", "BERT-PyT", false},
      {"BERT-L SQuAD infer TF32 bs32", "bert_large", infer_mode, "a100_sxm4_80gb", dtype::tf32, 32,
       384, 0, 216, rate::samples, "bert-squad-infer-full", "BERT-PyT", false},
      {"BERT-L SQuAD infer AMP bs32", "bert_large", infer_mode, "a100_sxm4_80gb", dtype::fp16, 32,
       384, 0, 312, rate::samples, "bert-squad-infer-half", "BERT-PyT", false},
      {"BERT-L SQuAD infer FP32 bs4", "bert_large", infer_mode, "v100_sxm2", dtype::fp32, 4, 384, 0,
       37.64, rate::samples, "bert-squad-infer-full", "BERT-PyT-19", false},
      {"BERT-L SQuAD infer AMP bs4", "bert_large", infer_mode, "v100_sxm2", dtype::fp16, 4, 384, 0,
       119.76, rate::samples, "bert-squad-infer-half", "BERT-PyT-19", false},
      // LLM inference
      {"Llama-2-7B decode bs1 1/128", "llama2_7b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 1, 1,
       128, 100.02, rate::tokens, "", "LMD"},
      {"Llama-2-7B decode bs1 128/2048", "llama2_7b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 1,
       128, 2048, 98.92, rate::tokens, "", "LMD"},
      {"Llama-2-7B decode bs16 1/128", "llama2_7b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 16,
       1, 128, 1504.72, rate::tokens, "", "LMD"},
      {"Llama-2-7B decode bs64 1/128", "llama2_7b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 64,
       1, 128, 4154.81, rate::tokens, "", "LMD"},
      {"Llama-2-13B decode bs1 1/128", "llama2_13b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 1,
       1, 128, 57.49, rate::tokens, "", "LMD"},
      {"Llama-2-7B gen bs384 128/128", "llama2_7b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 384,
       128, 128, 5586, rate::tokens, "", "TRTLLM"},
      {"Llama-2-7B TTFT bs1 2048", "llama2_7b", infer_mode, "a100_sxm4_80gb", dtype::fp16, 1, 2048,
       1, 133, rate::ttft_ms, "", "TRTLLM"},
      {"Llama-7B tg128 F16", "llama2_7b", infer_mode, "rtx_4090", dtype::fp16, 1, 1, 128, 61.03,
       rate::tokens, "", "LCPP"},
      {"Llama-7B pp512 F16", "llama2_7b", infer_mode, "rtx_4090", dtype::fp16, 1, 512, 1, 11048.22,
       rate::prefill_tokens, "", "LCPP"},
      {"Llama-7B tg128 F16", "llama2_7b", infer_mode, "rtx_3090", dtype::fp16, 1, 1, 128, 48.52,
       rate::tokens, "", "LCPP"},
  };
  return r;
}

struct prediction {
  double value = 0;  // in the row's unit
  double error = 0;  // predicted rate over measured rate, minus one (+: the model is faster)
  model_estimate estimate;
  // The model FLOPs utilisation the measurement implies: the model's FLOP per step over the
  // measured step time, over the dense peak (above 1: the row cannot be what it says it is).
  [[nodiscard]] double measured_mfu() const { return estimate.mfu() / (1.0 + error); }
};

// Whether the software of a row runs element-wise operations as kernels of their own.
bool eager_source(const model_row& r) {
  return r.source == "RN50-PyT" || r.source == "SXT-PyT" || r.source == "BERT-PyT" ||
         r.source == "BERT-PyT-19" || (r.source == "RN50-TF" && r.mode == run_mode::infer);
}

// The activations' layout (run_config::nchw, rows.csv `layout`): DLE's TensorFlow ResNet-50
// computes in NCHW (utils/cmdline_helper.py defaults --data_format to NCHW, and the README's
// inference_benchmark commands pass none), so cuDNN transposes around every 16-bit tensor-core
// convolution. Its training rows ran under XLA, whose layout the README does not state; DLE's
// PyTorch AMP rows ran NHWC (configs.yml).
bool nchw_source(const model_row& r) { return r.source == "RN50-TF" && r.mode == run_mode::infer; }

// The optimizer a training row's code ran, and its kernels (docs/stacks.md, "The optimizer";
// rows.csv `optimizer`, `optimizer_kernels`): DLE's ConvNets step torch.optim.SGD in PyTorch
// 1.9's for-loop and TensorFlow's MomentumOptimizer per variable (the stack's default); DLE's
// BERT pretraining Apex's FusedLAMB (a fused Adam-like pass), its SQuAD fine-tuning Apex's
// FusedAdam with --fp16 and the per-tensor BertAdam without.
void set_optimizer(const model_row& r, run_config& run) {
  if (r.mode != run_mode::train) return;
  const bool convnet = r.source == "RN50-PyT" || r.source == "SXT-PyT" || r.source == "RN50-TF";
  run.optimizer = convnet ? optimizer_kind::sgd : optimizer_kind::adam;
  if (r.source == "RN50-PyT" || r.source == "SXT-PyT") {
    run.optimizer_kernels = optimizer_kernel::per_tensor;
  } else if (r.source == "BERT-PyT" || r.source == "BERT-PyT-19") {
    const bool squad_full =
        r.label.find("SQuAD") != std::string_view::npos && r.type != dtype::fp16;
    run.optimizer_kernels = squad_full ? optimizer_kernel::per_tensor : optimizer_kernel::fused;
  }
}

// The software stack of a row, from its source (docs/stacks.md, "Evidence by stack").
stack_id stack_of(const model_row& r) {
  if (r.source == "RN50-TF")
    return r.mode == run_mode::train ? stack_id::tensorflow_xla : stack_id::tensorflow;
  if (r.source == "LMD") return stack_id::lmdeploy;
  if (r.source == "TRTLLM") return stack_id::tensorrt_llm;
  if (r.source == "LCPP") return stack_id::llama_cpp;
  return stack_id::pytorch_eager;  // RN50-PyT, SXT-PyT, BERT-PyT, BERT-PyT-19
}

// The prediction of row @p r: the hardware ceiling (the run as the row's software shapes it:
// eager or fused element-wise ops, fused attention or not), or with @p stack, that stack's
// figure (the stack decides the kernel sequence where it fixes it).
// The row's prediction: the hardware model's ceiling of the run as given, or under @p stack its
// figure, or (@p stack_ceiling) the ceiling of the kernels the stack runs.
prediction predict(const model_row& r, const software_stack* stack = nullptr,
                   bool stack_ceiling = false) {
  run_config run;
  run.eager = eager_source(r);
  run.nchw = nchw_source(r);
  run.mode = r.mode;
  run.batch = r.batch;
  run.type = r.type;
  run.flash_attention = r.fused_attention;
  set_optimizer(r, run);
  const model_spec& m = presets::find(r.model);
  if (m.kind == model_kind::cnn) {
    run.image = r.seq;
  } else if (r.generate > 0) {
    run.prompt = r.seq;
    run.generate = r.generate;
  } else {
    run.seq = r.seq;
  }
  prediction p{0, 0,
               stack == nullptr ? estimate_model(catalog::find(r.gpu), m, run)
               : stack_ceiling  ? estimate_model(catalog::find(r.gpu), m, run, *stack).ceiling
                                : estimate_model(catalog::find(r.gpu), m, run, *stack).stack};
  const model_estimate& e = p.estimate;
  switch (r.unit) {
    case rate::samples:
      p.value = e.samples_per_second();
      break;
    case rate::tokens:
      p.value = e.tokens_per_second();
      break;
    case rate::prefill_tokens:
      p.value = static_cast<double>(r.batch * r.seq) / e.prefill_time.value();
      break;
    case rate::ttft_ms:
      p.value = 1e3 * e.prefill_time.value();
      p.error = r.measured / p.value - 1.0;
      return p;
  }
  p.error = p.value / r.measured - 1.0;
  return p;
}

// "resnet50 train" and the like: the group a row's error is summarised in.
std::string group_of(const model_row& r) {
  return std::string(r.model) + " " + std::string(name(r.mode));
}

struct ratio {
  std::string pair;
  const model_row* a100 = nullptr;
  const model_row* v100 = nullptr;
  double predicted = 0, measured = 0, error = 0;
};

// A100 over V100 for every pair key (same model, mode, precision class and source).
std::vector<ratio> cross_gpu_ratios() {
  std::map<std::string, ratio> pairs;
  for (const model_row& r : model_rows()) {
    if (r.pair.empty()) continue;
    ratio& q = pairs[std::string(r.pair)];
    q.pair = r.pair;
    (r.gpu.substr(0, 4) == "a100" ? q.a100 : q.v100) = &r;
  }
  std::vector<ratio> out;
  for (auto& [key, q] : pairs) {
    REQUIRE(q.a100 != nullptr);
    REQUIRE(q.v100 != nullptr);
    q.predicted = predict(*q.a100).value / predict(*q.v100).value;
    q.measured = q.a100->measured / q.v100->measured;
    q.error = q.predicted / q.measured - 1.0;
    out.push_back(q);
  }
  return out;
}

// Rows the model over-predicts by more than a factor of two, each with the mechanism it omits
// (docs/models.md, "Evidence", quantifies them).
struct model_miss {
  std::string_view label, gpu, source;
  std::string_view mechanism;
};
constexpr std::string_view tf_a100_inference =
    "TF 20.06 TF32 inference on A100 without XLA or TensorRT, computed in NCHW: TF32 "
    "convolutions get no NCHW transposes in the model (no published measurement of their cost), "
    "and the benchmark decodes JPEGs on the CPU inside its timed loop (docs/models.md, Evidence)";
// The AMP row of the same run was a miss too (+112 % at the ceiling) until its NCHW transposes
// were priced (+46 %; +15 % under the tensorflow stack).
const std::vector<model_miss>& known_misses() {
  static const std::vector<model_miss> m{
      {"RN50 infer TF32 bs256", "a100_sxm4_40gb", "RN50-TF", tf_a100_inference},
  };
  return m;
}

// Published rows that cannot be what they say: the measurement implies more than the GPU's
// dense peak in the stated precision.
constexpr std::string_view impossible_row = "BERT-L pretrain ph2 FP32 bs4";

const model_row& row_named(std::string_view label, std::string_view gpu, std::string_view source) {
  for (const model_row& r : model_rows())
    if (r.label == label && r.gpu == gpu && r.source == source) return r;
  FAIL("no evidence row " << label << " on " << gpu << " from " << source);
  return model_rows().front();
}

bool is_known_miss(const model_row& r) {
  return std::any_of(known_misses().begin(), known_misses().end(), [&](const model_miss& m) {
    return m.label == r.label && m.gpu == r.gpu && m.source == r.source;
  });
}

// 16-bit rows compare like with like on both GPUs; "full" rows compare A100 TF32 with V100 FP32.
bool half_precision(const ratio& q) { return q.a100->type == dtype::fp16; }

std::vector<double> ratio_errors(bool half_only) {
  std::vector<double> e;
  for (const ratio& q : cross_gpu_ratios())
    if (!half_only || half_precision(q)) e.push_back(std::abs(q.error));
  return e;
}

}  // namespace

// Prints the table of docs/models.md, "Evidence". Hidden: run with
// `dlperf_tests "[model_evidence]"`.
TEST_CASE("whole-model evidence table", "[.][model_evidence]") {
  std::map<std::string, std::vector<double>> by_group;
  std::vector<double> all;
  std::map<std::string, std::vector<double>> by_stack;
  std::vector<double> all_stacked;
  std::cout << "| row | GPU | dtype | batch | seq / image | gen | measured | unit | ceiling | "
               "error | stack | predicted | error | MFU measured / predicted | source |\n"
               "|---|---|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---|\n";
  for (const model_row& r : model_rows()) {
    const prediction p = predict(r);
    const software_stack& stack = stacks::of(stack_of(r));
    const prediction q = predict(r, &stack);
    char line[400];
    std::snprintf(line, sizeof line,
                  "| %s | %s | %s | %lld | %lld | %lld | %.6g | %s | %.4g | %+.1f %% | %s | %.4g | "
                  "%+.1f %% | %.2f / %.2f | %s |\n",
                  std::string(r.label).c_str(), std::string(r.gpu).c_str(),
                  std::string(name(r.type)).c_str(), r.batch, r.seq, r.generate, r.measured,
                  std::string(unit_name(r.unit)).c_str(), p.value, 100 * p.error,
                  std::string(stack.name()).c_str(), q.value, 100 * q.error, q.measured_mfu(),
                  q.estimate.mfu(), std::string(r.source).c_str());
    std::cout << line;
    all.push_back(std::abs(p.error));
    all_stacked.push_back(std::abs(q.error));
    by_group[group_of(r)].push_back(p.error);
    by_stack[std::string(stack.name())].push_back(q.error);
  }
  std::cout << "\n| stack | rows | median abs error | worst error |\n|---|---:|---:|---:|\n";
  for (const auto& [stack, errors] : by_stack) {
    std::vector<double> magnitudes;
    for (const double e : errors) magnitudes.push_back(std::abs(e));
    const double worst = *std::max_element(
        errors.begin(), errors.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    std::printf("| %s | %zu | %.1f %% | %+.1f %% |\n", stack.c_str(), errors.size(),
                100 * median(magnitudes), 100 * worst);
  }
  std::printf("\n- all %zu rows with their stacks: median |error| %.1f %%, worst %.1f %%\n",
              all_stacked.size(), 100 * median(all_stacked),
              100 * *std::max_element(all_stacked.begin(), all_stacked.end()));
  std::cout << "\nCeiling (no stack) by model and mode:\n";
  std::cout << "\n| model mode | rows | median abs error | worst error |\n|---|---:|---:|---:|\n";
  for (const auto& [group, errors] : by_group) {
    std::vector<double> magnitudes;
    for (const double e : errors) magnitudes.push_back(std::abs(e));
    const double worst = *std::max_element(
        errors.begin(), errors.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    std::printf("| %s | %zu | %.1f %% | %+.1f %% |\n", group.c_str(), errors.size(),
                100 * median(magnitudes), 100 * worst);
  }
  std::printf("\n- all %zu rows: median |error| %.1f %%, worst %.1f %%\n", all.size(),
              100 * median(all), 100 * *std::max_element(all.begin(), all.end()));
  std::cout << "\n| pair (A100 / V100) | A100 row | V100 row | measured ratio | predicted ratio | "
               "error |\n|---|---|---|---:|---:|---:|\n";
  std::vector<double> all_ratio_errors;
  for (const ratio& q : cross_gpu_ratios()) {
    std::printf("| %s | %s | %s | %.2f | %.2f | %+.1f %% |\n", q.pair.c_str(),
                std::string(q.a100->label).c_str(), std::string(q.v100->label).c_str(), q.measured,
                q.predicted, 100 * q.error);
    all_ratio_errors.push_back(std::abs(q.error));
  }
  const std::vector<double> half = ratio_errors(true);
  std::printf("\n- %zu cross-GPU ratios: median |error| %.1f %%, worst %.1f %%\n",
              all_ratio_errors.size(), 100 * median(all_ratio_errors),
              100 * *std::max_element(all_ratio_errors.begin(), all_ratio_errors.end()));
  std::printf("- %zu of them in FP16 on both GPUs: median |error| %.1f %%, worst %.1f %%\n",
              half.size(), 100 * median(half), 100 * *std::max_element(half.begin(), half.end()));
  std::cout << "\nKnown misses (more than twice the measured rate):\n\n| row | GPU | source | "
               "measured | predicted | error | mechanism |\n|---|---|---|---:|---:|---:|---|\n";
  for (const model_miss& m : known_misses()) {
    const model_row& r = row_named(m.label, m.gpu, m.source);
    const prediction p = predict(r);
    std::printf("| %s | %s | %s | %.6g | %.4g | %+.0f %% | %s |\n", std::string(r.label).c_str(),
                std::string(r.gpu).c_str(), std::string(r.source).c_str(), r.measured, p.value,
                100 * p.error, std::string(m.mechanism).c_str());
  }
  std::fflush(stdout);
  CHECK(!by_group.empty());
}

TEST_CASE("whole-model evidence: every row is predicted, finite and physical",
          "[model][model_evidence_guard]") {
  CHECK(model_rows().size() >= 24);
  for (const model_row& r : model_rows()) {
    const prediction p = predict(r);
    INFO(r.label << " on " << r.gpu << " (" << r.source << "): predicted " << p.value
                 << ", measured " << r.measured);
    CHECK(std::isfinite(p.value));
    CHECK(p.value > 0);
    // The model never claims more than the GPU's dense peak.
    CHECK(p.estimate.mfu() > 0);
    CHECK(p.estimate.mfu() <= 1.0);
    // Nor does a published row, except the one listed as impossible: BERT-large phase-2
    // pretraining on V100 at 19 sequences/s in FP32 (micro-batch 4, derived from the
    // accumulation steps) is 1.2x V100's FP32 peak; the same README in 2019 gives 8.36.
    if (r.label == impossible_row)
      CHECK(p.measured_mfu() > 1.0);
    else
      CHECK(p.measured_mfu() < 1.0);
  }
}

// Regression guards, not accuracy goals: each bound is the value measured when the table was
// written (docs/models.md, "Evidence") plus a margin, so that a change to the model that moves the
// evidence shows up here and is looked at.
TEST_CASE("whole-model evidence: cross-GPU ratios and misses hold as measured",
          "[model][model_evidence_guard]") {
  const std::vector<ratio> ratios = cross_gpu_ratios();
  CHECK(ratios.size() >= 12);
  // Measured: median |error| 14.4 % over all pairs, 8.2 % over the FP16 pairs.
  CHECK(median(ratio_errors(false)) <= 0.33);
  CHECK(median(ratio_errors(true)) <= 0.20);
  for (const ratio& q : ratios) {
    INFO(q.pair << ": measured A100/V100 " << q.measured << ", predicted " << q.predicted);
    // A100 is faster than V100 in the model as in every measurement.
    CHECK(q.measured > 1.0);
    CHECK(q.predicted > 1.0);
    // The model over-states A100 TF32 against V100 FP32 (TF32 convolutions of the 2020-21 cuDNN
    // run far below the tile model's TF32 throughput; BERT less so than the CNNs): every
    // full-precision pair still shows it by more than 10 % (measured: +10.6 % to +149 %; the
    // BERT pairs were +20 % before eager PyTorch's memory-bound kernels were counted, which
    // A100 speeds up by its bandwidth, not its TF32 peak).
    if (!half_precision(q)) CHECK(q.error > 0.10);
  }
  for (const model_miss& m : known_misses()) {
    const model_row& r = row_named(m.label, m.gpu, m.source);
    const prediction p = predict(r);
    INFO(r.label << " on " << r.gpu << ": predicted " << p.value << ", measured " << r.measured
                 << " (" << m.mechanism << ")");
    CHECK(p.error > 1.0);
  }
  std::vector<double> decode, stacked, stacked_decode;
  for (const model_row& r : model_rows()) {
    const prediction p = predict(r);
    const prediction q = predict(r, &stacks::of(stack_of(r)));
    const prediction c = predict(r, &stacks::of(stack_of(r)), true);
    INFO(r.label << " on " << r.gpu << " (" << r.source << "): ceiling " << p.value << ", "
                 << name(stack_of(r)) << " " << q.value << " (its kernels' ceiling " << c.value
                 << "), measured " << r.measured);
    // The stack never predicts faster than the ceiling of the kernels it runs; nor than the
    // run's own ceiling, unless its library GEMM accumulates in FP16 (llama.cpp's, at twice a
    // GeForce board's FP32-accumulate rate).
    CHECK(q.error <= c.error + 1e-12);
    if (!stacks::of(stack_of(r)).gemm_call.fp16_accumulate) CHECK(q.error <= p.error + 1e-12);
    if (!is_known_miss(r)) {
      // Every other row within a factor of two under its stack (measured: -45 % to +67 %).
      CHECK(q.error <= 1.0);
      CHECK(q.error >= -0.5);
    }
    stacked.push_back(std::abs(q.error));
    if (r.unit == rate::tokens) {
      decode.push_back(std::abs(p.error));
      stacked_decode.push_back(std::abs(q.error));
    }
  }
  // Bandwidth-bound LLM generation: the ceiling is the hardware's (measured median |error|
  // 26 %, all optimistic); the engines' stacks bring it to 2.6 % (lmdeploy, llama.cpp).
  CHECK(median(decode) <= 0.35);
  CHECK(median(stacked_decode) <= 0.10);
  // Every row under its stack: measured median |error| 16.7 % (the ceiling's: 30.9 %).
  CHECK(median(stacked) <= 0.25);
}
