// The CNN step's operators against the shapes they must have (model/step.hpp).
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <string_view>

using namespace dlperf;

namespace {
// DRAM bytes of the forward global average pooling of @p c at batch 1, FP16, 224 px.
double pooling_bytes(const cnn_config& c) {
  run_config r;
  r.mode = run_mode::infer;
  r.type = dtype::fp16;
  const model_estimate e = estimate_model(catalog::find("a100_sxm4_80gb"), as_model(c), r);
  for (const op_estimate& op : e.forward)
    if (op.name == std::string_view("global average pooling")) return op.dram.value();
  FAIL("no global average pooling");
  return 0;
}
}  // namespace

TEST_CASE("global pooling reads the last block's output, whatever the last stage's length",
          "[model]") {
  // 224 px: stem 112, pooled 56; a second stage of stride 2 outputs 28 x 28 x 512 channels.
  // With one block in that stage, the last run is the strided block itself, whose input side
  // (56) is not its output side.
  const double expected = 512.0 * 28 * 28 * 2;  // elements x FP16 bytes
  for (const int blocks : {1, 2}) {
    INFO(blocks << " block(s) in the last stage");
    const cnn_config c{.stages = {{{3, 64, 1}, {blocks, 128, 2}}}};
    CHECK(pooling_bytes(c) == Approx(expected));
  }
}

namespace cnn_layout_test {
// The transposes' forward and backward DRAM bytes in a step, repeats included.
double transpose_bytes(const model_estimate& m) {
  double b = 0;
  for (step_phase p : enum_values<step_phase>)
    for (const op_estimate& op : m.phase(p))
      if (op.name.rfind("NCHW-NHWC transposes", 0) == 0)
        b += static_cast<double>(op.repeats) * op.dram.value();
  return b;
}

run_config resnet_run(dtype t, bool nchw, run_mode mode = run_mode::train) {
  run_config r;
  r.mode = mode;
  r.type = t;
  r.batch = 64;
  r.nchw = nchw;
  return r;
}
}  // namespace cnn_layout_test

TEST_CASE("NCHW activations transpose around every 16-bit tensor-core convolution",
          "[model][layout]") {
  using namespace cnn_layout_test;
  const gpu_spec& g = catalog::find("a100_sxm4_80gb");
  const model_spec& m = presets::resnet50;
  // The stem alone: batch 64 of 3 x 224 x 224 in, 64 x 112 x 112 out, FP16. Forward: each read
  // and written once; backward: only the weight gradient's input and output gradient (the
  // image has no gradient).
  const cnn_config stem_only{.stages = {{{1, 64, 1}}}};
  const model_estimate s = estimate_model(g, as_model(stem_only), resnet_run(dtype::fp16, true));
  // The stem's transposes are the forward pass's first and the backward pass's last.
  double stem_fwd = 0, stem_bwd = 0;
  for (const op_estimate& op : s.forward)
    if (op.name == "NCHW-NHWC transposes") {
      stem_fwd = op.dram.value();
      break;
    }
  for (const op_estimate& op : s.backward)
    if (op.name == "NCHW-NHWC transposes (backward)") stem_bwd = op.dram.value();
  const double stem_tensors = 64.0 * (3 * 224 * 224 + 64 * 112 * 112) * 2.0;  // FP16 bytes
  CHECK(stem_fwd == Approx(2.0 * stem_tensors));
  CHECK(stem_bwd == Approx(2.0 * stem_tensors));
  // The whole step: slower in NCHW, the convolutions' arithmetic unchanged.
  const model_estimate nhwc = estimate_model(g, m, resnet_run(dtype::fp16, false));
  const model_estimate nchw = estimate_model(g, m, resnet_run(dtype::fp16, true));
  CHECK(transpose_bytes(nhwc) == 0);
  CHECK(transpose_bytes(nchw) > 0);
  CHECK(nchw.time > nhwc.time);
  CHECK(nchw.model_work.value() == nhwc.model_work.value());
  // Inference transposes forward only.
  const model_estimate inference =
      estimate_model(g, m, resnet_run(dtype::fp16, true, run_mode::infer));
  CHECK(inference.backward.size() == 0);
  CHECK(transpose_bytes(inference) > 0);
  // FP32 and TF32 keep their layout: no transposes are modelled (docs/models.md).
  for (dtype t : {dtype::fp32, dtype::tf32}) {
    const model_estimate a = estimate_model(g, m, resnet_run(t, true));
    const model_estimate b = estimate_model(g, m, resnet_run(t, false));
    CHECK(transpose_bytes(a) == 0);
    CHECK(a.time == b.time);
  }
}

TEST_CASE("NCHW slows AMP ResNet-50 training as much as published runs measure",
          "[model][layout]") {
  // Published NHWC over NCHW speed-ups of AMP ResNet-50 training: 1.22x (PaddlePaddle PR
  // #20597, 0.195 against 0.16 s an iteration), 1.31x (PyTorch's channels_last tutorial, batch
  // 200, 0.259 against 0.198 s), about 1.3x (MosaicML Composer's method card, V100 and A100),
  // 1.44x and 1.56x (DeepLearningExamples' NHWC V100 and A100 rows against Lambda's NCHW runs of
  // the same code: 1200 against 833 and 2470 against 1582 img/s). Nothing here is fitted.
  using namespace cnn_layout_test;
  run_config channels_last = resnet_run(dtype::fp16, false);
  channels_last.batch = 200;
  run_config contiguous = channels_last;
  contiguous.nchw = true;
  const gpu_spec& v100 = catalog::find("v100_sxm2");
  const stacked_estimate nhwc =
      estimate_model(v100, presets::resnet50, channels_last, stacks::pytorch_eager);
  const stacked_estimate nchw =
      estimate_model(v100, presets::resnet50, contiguous, stacks::pytorch_eager);
  const double slowdown = nchw.stack.time.value() / nhwc.stack.time.value();
  CHECK(slowdown >= 1.22);
  CHECK(slowdown <= 1.56);
}

TEST_CASE("the NCHW layout is a CNN's: a transformer run with it is rejected",
          "[model][layout][errors]") {
  run_config r;
  r.nchw = true;
  CHECK_THROWS_WITH(estimate_model(catalog::find("h100_sxm"), presets::gpt2, r),
                    Catch::Contains("the NCHW layout is a convolutional network's"));
  CHECK_THROWS_WITH(memory_need(presets::gpt2, r),
                    Catch::Contains("the NCHW layout is a convolutional network's"));
}

#ifdef DLPERF_CLI_PATH
#include "cli_run.hpp"

TEST_CASE("dlperf model --nchw: the layout in JSON, and rejected for a transformer",
          "[cli][layout][errors]") {
  const nlohmann::json a = dlperf_test::json_of(
      "model --preset resnet50 --gpu rtx_4090 --batch 64 --dtype fp16 --stack pytorch-eager "
      "--nchw --json");
  const nlohmann::json b = dlperf_test::json_of(
      "model --preset resnet50 --gpu rtx_4090 --batch 64 --dtype fp16 --stack pytorch-eager "
      "--json");
  CHECK(a.at("nchw") == true);
  CHECK(b.at("nchw") == false);
  CHECK(a.at("step_time_s").get<double>() > b.at("step_time_s").get<double>());
  CHECK(dlperf_test::json_of("model --preset gpt2 --gpu rtx_4090 --json").at("nchw").is_null());
  dlperf_test::require_usage_error("model --preset gpt2 --gpu rtx_4090 --nchw",
                                   "the NCHW layout is a convolutional network's");
}
#endif
