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
