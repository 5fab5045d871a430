// Operators beyond GEMM: element-wise, reductions, fusion, attention, convolution, layers.
#include <array>
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>

using namespace dlperf;

TEST_CASE("an element-wise op is memory-bound and moves inputs plus outputs", "[ops]") {
  const op_estimate add =
      estimate_elementwise(catalog::a100_sxm4_40gb, 1LL << 28, dtype::fp16, {"add", 1, 1});
  CHECK(add.bound == bound::global);
  CHECK(add.dram.value() == 3.0 * (1LL << 28) * 2);
  CHECK(add.time.value() ==
        Approx(add.dram.value() / 1555.2e9 + catalog::a100_sxm4_40gb.launch_overhead().value()));
}

// docs/model.md#model_hierarchy: fusion lowers the bytes moved; on a memory-bound chain it is the
// speed-up.
TEST_CASE("fusing an element-wise chain saves the intermediate round trips", "[ops][model]") {
  const std::array<elementwise_stage, 3> chain{
      {{"bias add", 1, 1}, {"gelu", 8, 0}, {"dropout scale", 1, 0}}};
  const long long n = 1LL << 26;
  const op_estimate unfused = estimate_chain(catalog::h100_sxm, n, dtype::bf16, chain, false);
  const op_estimate fused = estimate_chain(catalog::h100_sxm, n, dtype::bf16, chain, true);
  // Unfused: (2+1) + 2 + 2 tensors; fused: input + bias + output = 3.
  CHECK(unfused.dram.value() == 7.0 * n * 2);
  CHECK(fused.dram.value() == 3.0 * n * 2);
  CHECK(unfused.kernels == 3);
  CHECK(fused.kernels == 1);
  CHECK(unfused.time / fused.time > 2.0);
  CHECK(fused.work == unfused.work);
}

TEST_CASE("flash-style attention moves far less DRAM traffic than unfused", "[ops]") {
  const attention_problem p{8, 32, 4096, 4096, 128, dtype::bf16, false};
  const op_sequence unfused = estimate_attention_unfused(catalog::h100_sxm, p);
  const op_estimate fused = estimate_attention_fused(catalog::h100_sxm, p);
  REQUIRE(unfused.size() == 3);
  // Unfused writes and re-reads S and P: b h Sq Skv elements each, 2 bytes.
  CHECK(unfused.dram().value() > 4.0 * 8 * 32 * 4096.0 * 4096 * 2);
  CHECK(fused.dram.value() == Approx(4.0 * 8 * 32 * 4096 * 128 * 2));
  CHECK(fused.time < unfused.time());
  CHECK(fused.work.value() == Approx(4.0 * 8 * 32 * 4096.0 * 4096 * 128));
  attention_problem causal = p;
  causal.causal = true;
  CHECK(estimate_attention_fused(catalog::h100_sxm, causal).work.value() ==
        Approx(fused.work.value() / 2));
}

// ops/attention.hpp: decode kernels (FlashAttention-2's one-token path, TensorRT-LLM's XQA,
// FlashInfer) serve the g query heads of a group from one read of its K and V; prefill reads them
// once per 128-row tile of every query head.
TEST_CASE("decode attention reads each key/value group once, prefill once per query head tile",
          "[ops]") {
  // Llama 3 70B's attention (64 query heads, 8 key/value heads, d = 128): one decode step of 16
  // sequences at 2048 cached tokens, and a 4096-token prefill.
  const attention_problem decode{16, 64, 1, 2048, 128, dtype::bf16, true, 8};
  CHECK(attention_tiling_of(decode).readers == 16 * 8);
  CHECK(attention_tiling_of(decode).tiles == 1);
  attention_problem mha = decode;
  mha.kv_heads = 0;
  CHECK(attention_tiling_of(mha).readers == 16 * 64);
  CHECK(attention_tiling_of(mha).tiles == 1);
  // Speculative decoding's few query tokens still fit one tile with their group: 8 x 16 rows.
  attention_problem draft = decode;
  draft.seq_q = 16;
  CHECK(attention_tiling_of(draft).readers == 16 * 8);
  CHECK(attention_tiling_of(draft).tiles == 1);
  // Prefill: a reader per query head, one tile per 128 query rows, grouped or not.
  attention_problem prefill = decode;
  prefill.seq_q = prefill.seq_kv = 4096;
  CHECK(attention_tiling_of(prefill).readers == 16 * 64);
  CHECK(attention_tiling_of(prefill).tiles == 32);
  attention_problem prefill_mha = prefill;
  prefill_mha.kv_heads = 0;
  CHECK(attention_tiling_of(prefill_mha).readers == attention_tiling_of(prefill).readers);
  CHECK(attention_tiling_of(prefill_mha).tiles == attention_tiling_of(prefill).tiles);
  CHECK_THROWS_WITH(attention_tiling_of({1, 8, 1, 8, 64, dtype::fp16, false, 3}),
                    Catch::Contains("kv_heads (3) must divide heads (8)"));

  for (const gpu_spec* g : catalog::all) {
    INFO(g->name());
    const double bandwidth = g->memory(tier::global).throughput.value();
    const double launch = g->launch_overhead().value();
    // Decode with groups of 8 is never slower than multi-head attention reading 8 x the bytes,
    // and is as fast as multi-head attention over the same K/V bytes (8 query heads), but for
    // the 8 x Q and O it reads: all of it DRAM-bound.
    attention_problem gqa{64, 64, 1, 4096, 128, dtype::fp16, true, 8};
    attention_problem all_heads = gqa;
    all_heads.kv_heads = 0;
    attention_problem same_kv = gqa;
    same_kv.heads = 8;
    const op_estimate t_gqa = estimate_attention_fused(*g, gqa);
    const op_estimate t_mha = estimate_attention_fused(*g, all_heads);
    const op_estimate t_same_kv = estimate_attention_fused(*g, same_kv);
    CHECK(t_gqa.time <= t_mha.time);
    CHECK(t_gqa.bound == bound::global);
    CHECK(t_same_kv.bound == bound::global);
    const double q_o_extra = 2.0 * 64 * (64 - 8) * 128 * 2;
    CHECK(t_gqa.time.value() == Approx(t_same_kv.time.value() + q_o_extra / bandwidth));
    // It reads the KV cache once from DRAM: time = (Q + O + K + V) / bandwidth + launch.
    const double kv_cache = 2.0 * 64 * 8 * 4096 * 128 * 2;
    CHECK(t_gqa.dram.value() == Approx(kv_cache + 2.0 * 64 * 64 * 128 * 2));
    CHECK(t_gqa.time.value() == Approx(t_gqa.dram.value() / bandwidth + launch));
  }
}

TEST_CASE("convolution runs as an implicit GEMM of im2col shape", "[ops]") {
  // ResNet-50 conv2_x 3x3: N=32, 64 -> 64 channels, 56x56, pad 1.
  const conv2d_problem c{32, 64, 56, 56, 64, 3, 3, 1, 1, dtype::fp16};
  CHECK(c.p() == 56);
  CHECK(c.q() == 56);
  const gemm_problem g = c.as_gemm();
  CHECK(g.m == 32 * 56 * 56);
  CHECK(g.n == 64);
  CHECK(g.k == 64 * 9);
  CHECK(g.a_dram_bytes == 32.0 * 64 * 56 * 56 * 2);  // the input, not its 9x im2col
  const op_estimate e = estimate_conv2d(catalog::a100_sxm4_40gb, "conv", c);
  CHECK(e.work.value() == Approx(2.0 * 32 * 56 * 56 * 64 * 64 * 9));
  const conv2d_problem strided{32, 64, 56, 56, 128, 3, 3, 2, 1, dtype::fp16};
  CHECK(strided.p() == 28);
}

TEST_CASE("a transformer layer runs faster fused, op by op", "[ops][model]") {
  const transformer_layer l{8, 2048, 4096, 32};
  const op_sequence unfused = estimate_transformer_layer(catalog::a100_sxm4_80gb, l, false);
  const op_sequence fused = estimate_transformer_layer(catalog::a100_sxm4_80gb, l, true);
  CHECK(unfused.size() == 12);
  CHECK(fused.size() == 7);
  CHECK(fused.time() < unfused.time());
  CHECK(fused.dram() < unfused.dram());
  CHECK(fused.kernels() < unfused.kernels());
  // The GEMMs do 2 x tokens x (3h h + h h + 2 x 4h h) = 24 tokens h^2 FLOP.
  double gemm_work = 0;
  for (const op_estimate& op : fused)
    if (op.name != "attention (fused)" && op.name.find("layer norm") == std::string_view::npos)
      gemm_work += op.work.value();
  CHECK(gemm_work == Approx(24.0 * 8 * 2048 * 4096.0 * 4096));
}

TEST_CASE("a ResNet bottleneck block, op by op", "[ops]") {
  const bottleneck_block b{64, 256, 56, 56, 64, 1, dtype::fp16};
  const op_sequence unfused = estimate_bottleneck(catalog::v100_sxm2, b, false);
  const op_sequence fused = estimate_bottleneck(catalog::v100_sxm2, b, true);
  CHECK(unfused.size() == 6);  // 3 convolutions + 2 BN/ReLU + add/ReLU
  CHECK(fused.size() == 3);
  CHECK(fused.time() < unfused.time());
  const bottleneck_block down{64, 256, 56, 56, 128, 2, dtype::fp16};
  CHECK(estimate_bottleneck(catalog::v100_sxm2, down, true).size() == 4);  // + shortcut conv
}

TEST_CASE("a sequence holds any number of operators", "[ops]") {
  const op_estimate add =
      estimate_elementwise(catalog::a100_sxm4_40gb, 1LL << 20, dtype::fp16, {"add", 1, 1});
  op_sequence s;
  for (int i = 0; i < 1000; ++i) s.add(add);
  CHECK(s.size() == 1000);
  CHECK(s[999].name == "add");
  CHECK(s.kernels() == 1000);
  CHECK(s.time().value() == Approx(1000 * add.time.value()));
  CHECK(s.dram().value() == 1000 * add.dram.value());
}

// 80 layers of width 8192, 64 heads and FFN width 28672: the depth and widths of Llama 2 70B
// (config.json of meta-llama/Llama-2-70b-hf: num_hidden_layers 80, hidden_size 8192,
// num_attention_heads 64, intermediate_size 28672), its grouped-query attention and SwiGLU aside.
TEST_CASE("a model of 80 repeated layers costs exactly 80 times one layer", "[ops]") {
  const transformer_layer l{1, 4096, 8192, 64, 28672};
  const op_sequence layer = estimate_transformer_layer(catalog::h100_sxm, l, true);
  const op_sequence model = layer.repeat(80);
  CHECK(model.size() == layer.size());  // held once, not copied
  for (const op_estimate& op : model) CHECK(op.repeats == 80);
  CHECK(model.time() == 80.0 * layer.time());
  CHECK(model.work() == 80.0 * layer.work());
  CHECK(model.dram() == 80.0 * layer.dram());
  CHECK(model.kernels() == 80 * layer.kernels());
  // The same built by appending, or in two steps.
  op_sequence stacked;
  stacked.add(layer, 80);
  CHECK(stacked.time() == model.time());
  CHECK(layer.repeat(2).repeat(40).time() == model.time());
  // And, to rounding, the same as 80 copies of the layer.
  op_sequence copies;
  for (int i = 0; i < 80; ++i) copies.add(layer);
  CHECK(copies.size() == 80 * layer.size());
  CHECK(copies.time().value() == Approx(model.time().value()).epsilon(1e-12));
  // A block appended to itself runs twice.
  op_sequence twice = layer;
  twice.add(twice);
  CHECK(twice.size() == 2 * layer.size());
  CHECK(twice.time().value() == Approx(2.0 * layer.time().value()).epsilon(1e-12));
}

TEST_CASE("repeat counts below one or beyond 2^40 are rejected", "[ops][errors]") {
  op_sequence s;
  s.add(op_estimate{"step", seconds(1e-3)});
  CHECK_THROWS_WITH(s.repeat(0), "op_sequence: repeats must be positive, got 0");
  CHECK_THROWS_WITH(s.repeat(-3), "op_sequence: repeats must be positive, got -3");
  CHECK_THROWS_WITH(op_sequence{}.add(s, 0), "op_sequence: repeats must be positive, got 0");
  op_estimate never{"never"};
  never.repeats = 0;
  CHECK_THROWS_WITH(op_sequence{}.add(never), "op_sequence: repeats must be positive, got 0");
  CHECK_THROWS_WITH(s.repeat(1LL << 41),
                    "op_sequence: repeats must be at most 2^40, got 2199023255552");
  CHECK_THROWS_WITH(s.repeat(1LL << 20).repeat(1LL << 21),
                    "op_sequence: step would run more than 2^40 times");
  CHECK_THROWS_AS(s.repeat(0), invalid_argument);
  // A block with an operator that would overflow is refused before any of it is appended.
  op_sequence block;
  block.add(op_estimate{"small", seconds(1e-3)});
  block.add(s.repeat(1LL << 20));
  op_sequence target;
  target.add(op_estimate{"first", seconds(1e-3)});
  CHECK_THROWS_WITH(target.add(block, 1LL << 21),
                    "op_sequence: step would run more than 2^40 times");
  CHECK(target.size() == 1);
  CHECK(target.time() == seconds(1e-3));
}

TEST_CASE("bad operator inputs are rejected, naming the field", "[ops][errors]") {
  const auto& g = catalog::rtx_4090;
  CHECK_THROWS_WITH(estimate_elementwise(g, 0, dtype::fp16, {"x", 1, 0}),
                    "elementwise: element count must be positive, got 0");
  CHECK_THROWS_AS(estimate_elementwise(g, 10, dtype::fp16, {"x", -1, 0}), invalid_argument);
  CHECK_THROWS_AS(estimate_chain(g, 10, dtype::fp16, std::span<const elementwise_stage>{}, true),
                  invalid_argument);
  CHECK_THROWS_AS(estimate_row_reduction(g, "sum", 4, 8, dtype::fp16, 1, 9), invalid_argument);
  CHECK_THROWS_WITH(estimate_attention_fused(g, {1, 0, 8, 8, 64}),
                    "attention: heads must be positive, got 0");
  CHECK_THROWS_WITH(conv2d_problem({1, 3, 2, 2, 8, 7, 7, 1, 0}).as_gemm(),
                    "conv2d: the filter is larger than the padded input");
  CHECK_THROWS_WITH(conv2d_problem({1, 3, 8, 8, 8, 3, 3, 0, 1}).as_gemm(),
                    "conv2d: stride must be positive, got 0");
  CHECK_THROWS_WITH(estimate_transformer_layer(g, {1, 16, 100, 3}, true),
                    "transformer layer: hidden must be a multiple of heads");
  CHECK_THROWS_WITH(estimate_transformer_layer(g, {1, 0, 128, 4}, true),
                    "transformer layer: seq must be positive, got 0");
  CHECK_THROWS_WITH(estimate_transformer_layer(g, {1, 16, 128, 4, -1}, true),
                    "transformer layer: ffn must be >= 0 (0: 4 x hidden)");
  CHECK_THROWS_WITH(estimate_bottleneck(g, {1, 64, 8, 8, 0}, true),
                    "bottleneck block: channels_mid must be positive, got 0");
  CHECK_THROWS_WITH(estimate_bottleneck(g, {1, 64, 8, 8, 16, -2}, true),
                    "bottleneck block: stride must be positive, got -2");
  CHECK_THROWS_AS(
      estimate_attention_fused(catalog::a100_sxm4_40gb, {1, 1, 8, 8, 64, dtype::fp8_e4m3}),
      unsupported);
}
