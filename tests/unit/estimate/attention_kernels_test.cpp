// Fused attention kernels against their published throughputs (docs/stacks.md, "Attention
// kernels"): each kernel's figure and the instruction share of the architecture it runs on.
// The benchmark shape of both papers: 16k tokens a batch (batch = 16384 / seq), hidden 2048 in
// heads of dimension 128 (16 heads), FP16, causal; forward FLOP 4 b h s^2 d / 2, backward 2.5 x.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string>
#include <utility>
#include <vector>

#ifdef DLPERF_CLI_PATH
#include "cli_run.hpp"
#endif

using namespace dlperf;

namespace {

// TFLOP/s of @p s's fused attention on @p g at @p seq tokens: the forward, or forward and
// backward together as the papers count them; causal unless @p causal is false.
double attention_tflops(const gpu_spec& g, const software_stack& s, long long seq, bool backward,
                        bool causal = true) {
  const attention_problem p{16384 / seq, 16, seq, seq, 128, dtype::fp16, causal};
  stack_op_context c;
  c.warp_mma_share = g.arch().warp_mma_share;
  double flop =
      4.0 * static_cast<double>(p.batch * p.heads * seq * seq * 128) * (causal ? 0.5 : 1.0);
  double t = apply_stack(s, estimate_attention_fused(g, p), c).time.value();
  if (backward) {
    t += apply_stack(s, estimate_attention_fused_backward(g, p), c).time.value();
    flop *= 3.5;
  }
  return flop / t / 1e12;
}

struct published_kernel {
  const char* what;
  const gpu_spec* gpu;
  software_stack stack;
  long long seq;
  bool backward;
  double tflops;  // as published
};

// torch.compile running FlashAttention-2 or -3, as the papers' benchmarks call them.
const software_stack fa2 = stacks::with_attention(stacks::torch_compile, attention_kernel::flash2);
const software_stack fa3 = stacks::with_attention(stacks::torch_compile, attention_kernel::flash3);

}  // namespace

TEST_CASE("fused attention kernels come within 30 % of their published throughputs",
          "[attention_kernels]") {
  const software_stack triton =
      stacks::with_attention(stacks::pytorch_eager, attention_kernel::flash_triton);
  const gpu_spec& h100 = catalog::h100_sxm;
  const gpu_spec& a100 = catalog::a100_sxm4_80gb;
  // Shah et al. 2024 (FlashAttention-3), Fig. 5, forward, head dimension 128, causal, as the
  // image assets/flash3_fp16_fwd.png of github.com/Dao-AILab/flash-attention prints it; cuDNN
  // is Transformer Engine's kernel on Hopper (megatron). Dao 2023 (FlashAttention-2), Fig. 4
  // (A100 80GB) and Fig. 7 (H100 SXM5), forward and backward, causal, head dimension 128
  // (assets/flash2_a100_fwd_bwd_benchmark.png, assets/flash2_h100_fwd_bwd_benchmark.png).
  const published_kernel rows[] = {
      {"FlashAttention-2 forward, H100, 8k", &h100, fa2, 8192, false, 333},
      {"FlashAttention-2 forward, H100, 16k", &h100, fa2, 16384, false, 335},
      {"cuDNN forward, H100, 8k", &h100, stacks::megatron, 8192, false, 529},
      {"cuDNN forward, H100, 16k", &h100, stacks::megatron, 16384, false, 539},
      {"FlashAttention-3 forward, H100, 8k", &h100, fa3, 8192, false, 602},
      {"FlashAttention-3 forward, H100, 16k", &h100, fa3, 16384, false, 616},
      {"FlashAttention-2 forward and backward, H100, 8k", &h100, fa2, 8192, true, 308},
      {"FlashAttention-2 forward and backward, H100, 16k", &h100, fa2, 16384, true, 328},
      {"FlashAttention-2 forward and backward, A100, 8k", &a100, fa2, 8192, true, 182},
      {"FlashAttention-2 forward and backward, A100, 16k", &a100, fa2, 16384, true, 189},
      {"Triton kernel forward and backward, A100, 8k", &a100, triton, 8192, true, 78},
      {"Triton kernel forward and backward, A100, 16k", &a100, triton, 16384, true, 80},
  };
  for (const published_kernel& k : rows) {
    const double model = attention_tflops(*k.gpu, k.stack, k.seq, k.backward);
    INFO(k.what << ": model " << model << " TFLOP/s, published " << k.tflops);
    CHECK(std::isfinite(model));
    CHECK(std::abs(model / k.tflops - 1.0) <= 0.30);
  }
}

TEST_CASE("a fused kernel's rate grows with the sequence as FlashAttention-2's measured rates do",
          "[attention_kernels]") {
  // The rate at each length over the rate at 16k tokens, the papers' shape (16k tokens a batch,
  // 16 heads of dimension 128). Dao 2023 (arXiv 2307.08691), forward and backward: Fig. 4 (b),
  // (d) on A100 80 GB, where the tile's fixed cost is fitted (flash_tile_fixed_blocks), and
  // Fig. 7 (b), (d) on H100 SXM, held out (assets/flash2_a100_fwd_bwd_benchmark.png,
  // assets/flash2_h100_fwd_bwd_benchmark.png; the A100's non-causal 512 and 1k bars are hidden
  // under the legend). Held out as well: the forward measured on a lent H100, BF16
  // (tests/data/measured/h100_sxm_attention_2026-11-27.json, 16k: 313 causal, 357 not), and
  // FlashAttention-3's forward on H100 (Shah et al. 2024, arXiv 2407.08608, Fig. 5 (c), (d), the
  // image assets/flash3_fp16_fwd.png; its 1k non-causal bar is hidden). The same figure's
  // FlashAttention-2 forward falls less at short sequences than the share gives (0.78 of its 16k
  // rate at 1k causal, the model 0.66), and cuDNN's, which pays no tile cost in the model, less
  // but not by nothing: docs/stacks.md, "Attention kernels", lists both as misses.
  struct sweep {
    const char* what;
    const gpu_spec* gpu;
    const software_stack* stack;
    bool backward;
    bool causal;
    double at_16k;
    std::vector<std::pair<long long, double>> rates;  // tokens, TFLOP/s
    double within;  // of the 16k rate: the fitted bars closer than the held-out ones
  };
  const sweep sweeps[] = {
      {"A100 causal (fitted)",
       &catalog::a100_sxm4_80gb,
       &fa2,
       true,
       true,
       189,
       {{512, 99}, {1024, 133}, {2048, 155}, {4096, 173}, {8192, 182}},
       0.025},
      {"A100 not causal (fitted)",
       &catalog::a100_sxm4_80gb,
       &fa2,
       true,
       false,
       203,
       {{2048, 187}, {4096, 196}, {8192, 201}},
       0.025},
      {"H100 causal",
       &catalog::h100_sxm,
       &fa2,
       true,
       true,
       328,
       {{512, 163}, {1024, 221}, {2048, 265}, {4096, 294}, {8192, 308}},
       0.05},
      {"H100 not causal",
       &catalog::h100_sxm,
       &fa2,
       true,
       false,
       338,
       {{512, 248}, {1024, 294}, {2048, 320}, {4096, 326}, {8192, 335}},
       0.05},
      {"lent H100 forward causal",
       &catalog::h100_sxm,
       &fa2,
       false,
       true,
       313.45,
       {{2048, 260.29}, {4096, 288.07}, {8192, 315.24}},
       0.05},
      {"lent H100 forward not causal",
       &catalog::h100_sxm,
       &fa2,
       false,
       false,
       357.26,
       {{2048, 326.41}, {4096, 347.72}, {8192, 351.46}},
       0.05},
      {"FlashAttention-3 forward causal",
       &catalog::h100_sxm,
       &fa3,
       false,
       true,
       616,
       {{512, 292}, {1024, 423}, {2048, 521}, {4096, 579}, {8192, 602}},
       0.05},
      {"FlashAttention-3 forward not causal",
       &catalog::h100_sxm,
       &fa3,
       false,
       false,
       648,
       {{512, 467}, {2048, 625}, {4096, 638}, {8192, 646}},
       0.05},
  };
  for (const sweep& w : sweeps) {
    const double model_16k = attention_tflops(*w.gpu, *w.stack, 16384, w.backward, w.causal);
    double previous = 0;
    for (const auto& [seq, published] : w.rates) {
      const double model = attention_tflops(*w.gpu, *w.stack, seq, w.backward, w.causal);
      INFO(w.what << " at " << seq << ": model " << model / model_16k << " of its 16k rate, "
                  << "measured " << published / w.at_16k);
      CHECK(std::abs(model / model_16k - published / w.at_16k) <= w.within);
      CHECK(model > previous);  // the rate grows with the sequence
      previous = model;
    }
  }
}

TEST_CASE("a tile's share of its loop is in (0, 1), grows with its blocks, and needs one",
          "[attention_kernels]") {
  double previous = 0;
  for (double blocks : {0.5, 1.0, 2.0, 8.0, 64.0, 1024.0}) {
    const double share = flash_tile_share(blocks, true);
    CHECK(share > previous);
    CHECK(share < 1.0);
    CHECK(flash_tile_share(blocks, false) > share);  // no masked diagonal block
    previous = share;
  }
  CHECK(flash_tile_share(4.0, false) == Approx(4.0 / (4.0 + flash_tile_fixed_blocks)));
  CHECK_THROWS_AS(flash_tile_share(0.0, true), invalid_argument);
  CHECK_THROWS_WITH(flash_tile_share(-1.0, false), Catch::Contains("at least part of a block"));
  CHECK_THROWS_WITH(flash_tile_share(std::nan(""), false),
                    Catch::Contains("at least part of a block"));
}

TEST_CASE("only a stack running FlashAttention's kernels pays their tile cost",
          "[attention_kernels]") {
  // 512 tokens, causal: two visible blocks a tile, a share of 2 / 4.
  const attention_problem short_seq{32, 16, 512, 512, 128, dtype::fp16, true};
  const op_estimate op = estimate_attention_fused(catalog::a100_sxm4_80gb, short_seq);
  REQUIRE(op.tile_floor > op.time);
  REQUIRE(fa2.flash_tiles);
  const op_estimate floored = apply_stack(fa2, op);
  CHECK(floored.time.value() == Approx(op.tile_floor.value() / fa2.attention_efficiency.value));
  CHECK(floored.bound == bound::compute);
  // cuDNN's kernel (megatron) and the ceiling run at the fused time.
  CHECK_FALSE(stacks::megatron.flash_tiles);
  CHECK(apply_stack(stacks::megatron, op).time.value() ==
        Approx(op.time.value() / stacks::megatron.attention_efficiency.value));
  CHECK(apply_stack(stacks::ceiling, op).time.value() == Approx(op.time.value()));
  // A run's kernel choice carries the kernel's tiling.
  CHECK(stacks::with_attention(stacks::megatron, attention_kernel::flash3).flash_tiles);
  CHECK(stacks::with_attention(stacks::megatron, attention_kernel::flash_triton).flash_tiles);
  CHECK_FALSE(stacks::with_attention(stacks::pytorch_eager, attention_kernel::unfused).flash_tiles);
  // Long sequences: the floor nears the fused time (64 blocks a tile, a share of 64 / 66).
  const attention_problem long_seq{1, 16, 16384, 16384, 128, dtype::fp16, true};
  const op_estimate big = estimate_attention_fused(catalog::a100_sxm4_80gb, long_seq);
  CHECK(big.tile_floor.value() / big.time.value() == Approx(66.0 / 64.0).epsilon(0.01));
  // Other operators carry no floor.
  CHECK(
      estimate_attention_unfused(catalog::a100_sxm4_80gb, short_seq).begin()->tile_floor.value() ==
      0.0);
}

TEST_CASE("on Hopper FlashAttention-2 issues mma.sync at 2/3 of the peak, elsewhere it is native",
          "[attention_kernels]") {
  CHECK(catalog::h100_sxm.arch().warp_mma_share == Approx(2.0 / 3.0));
  CHECK(catalog::a100_sxm4_80gb.arch().warp_mma_share == 1.0);
  CHECK(catalog::rtx_4090.arch().warp_mma_share == 1.0);
  // The published ordering on H100: FlashAttention-3 > cuDNN > FlashAttention-2.
  const double h_fa2 = attention_tflops(catalog::h100_sxm, fa2, 8192, false);
  const double h_cudnn = attention_tflops(catalog::h100_sxm, stacks::megatron, 8192, false);
  const double h_fa3 = attention_tflops(catalog::h100_sxm, fa3, 8192, false);
  CHECK(h_fa3 > h_cudnn);
  CHECK(h_cudnn > h_fa2);
  // The share scales a compute-bound attention operator only: a decode step's attention reads
  // the KV cache and is the same under either instruction.
  const attention_problem decode{8, 32, 1, 4096, 128, dtype::fp16, true, 8};
  const op_estimate op = estimate_attention_fused(catalog::h100_sxm, decode);
  REQUIRE(op.bound != bound::compute);
  stack_op_context hopper;
  hopper.warp_mma_share = 2.0 / 3.0;
  CHECK(apply_stack(fa2, op, hopper).time.value() == Approx(apply_stack(fa2, op).time.value()));
  // A stack whose attention is not FlashAttention-2's kind is not scaled.
  const attention_problem prefill{2, 16, 8192, 8192, 128, dtype::fp16, true};
  const op_estimate big = estimate_attention_fused(catalog::h100_sxm, prefill);
  REQUIRE(big.bound == bound::compute);
  CHECK(apply_stack(stacks::megatron, big, hopper).time.value() ==
        Approx(apply_stack(stacks::megatron, big).time.value()));
  CHECK(apply_stack(fa2, big, hopper).time.value() ==
        Approx(apply_stack(fa2, big).time.value() * 1.5));
}

TEST_CASE("a run's attention kernel replaces the stack's, with that kernel's figure",
          "[attention_kernels]") {
  const software_stack t =
      stacks::with_attention(stacks::pytorch_eager, attention_kernel::flash_triton);
  // Computed from the FlashAttention-2 paper's two measurements, not typed in.
  CHECK(t.attention_efficiency.value ==
        Approx(stacks::pytorch_eager.attention_efficiency.value * 78.0 / 182.0));
  CHECK(t.warp_mma_attention);
  const software_stack f3 = stacks::with_attention(stacks::pytorch_eager, attention_kernel::flash3);
  CHECK_FALSE(f3.warp_mma_attention);
  CHECK(f3.attention_efficiency.value > stacks::pytorch_eager.attention_efficiency.value);
  // The ceiling keeps its efficiencies of 1.
  const software_stack c = stacks::with_attention(stacks::ceiling, attention_kernel::flash_triton);
  CHECK(c.attention_efficiency.value == 1.0);
  CHECK_FALSE(c.warp_mma_attention);
  CHECK(stacks::with_attention(stacks::vllm, attention_kernel::as_run).attention ==
        stacks::vllm.attention);
  // The model's step follows the kernel: Triton slower than FlashAttention-2, -3 faster on H100.
  run_config r{.batch = 1, .seq = 8192};
  r.stack = stack_id::pytorch_eager;
  const auto step = [&](attention_kernel k) {
    run_config x = r;
    x.attention = k;
    return estimate_run(catalog::h100_sxm, presets::llama3_1_8b, x).time.value();
  };
  CHECK(step(attention_kernel::flash_triton) > step(attention_kernel::as_run));
  CHECK(step(attention_kernel::as_run) == Approx(step(attention_kernel::flash2)));
  CHECK(step(attention_kernel::flash3) < step(attention_kernel::flash2));
}

TEST_CASE("attention kernels a run cannot take are refused with the reason",
          "[attention_kernels]") {
  CHECK_THROWS_WITH(stacks::with_attention(stacks::pytorch_eager, attention_kernel::vendor),
                    Catch::Contains("an engine's own"));
  run_config r{.batch = 1, .seq = 2048};
  r.stack = stack_id::pytorch_eager;
  r.attention = attention_kernel::flash3;
  CHECK_THROWS_AS(estimate_run(catalog::a100_sxm4_80gb, presets::llama3_8b, r), unsupported);
  CHECK_THROWS_WITH(estimate_run(catalog::a100_sxm4_80gb, presets::llama3_8b, r),
                    Catch::Contains("runs on Hopper GPUs (sm_90) only"));
  r.attention = attention_kernel::flash2;
  r.flash_attention = false;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("is fused, but flash_attention is off"));
  r.flash_attention = true;
  r.attention = attention_kernel::vendor;
  CHECK_THROWS_WITH(r.validate(), Catch::Contains("an engine's own"));
}

#ifdef DLPERF_CLI_PATH
TEST_CASE("dlperf model --attention names the kernel in JSON and refuses what a run cannot take",
          "[attention_kernels][cli]") {
  const std::string run =
      "model --preset llama3_8b --gpu h100_sxm --batch 1 --seq 4096 --stack pytorch-eager";
  const nlohmann::json own = dlperf_test::json_of(run + " --json");
  const nlohmann::json flash3 = dlperf_test::json_of(run + " --attention flash-attention-3 --json");
  CHECK(own.at("attention") == "as-run");
  CHECK(flash3.at("attention") == "flash-attention-3");
  CHECK(flash3.at("step_time_s").get<double>() < own.at("step_time_s").get<double>());
  dlperf_test::require_usage_error(run + " --attention vendor",
                                   "--attention vendor is an engine's own kernel");
  dlperf_test::require_usage_error(run + " --attention flash-attention-2 --no-flash",
                                   "is a fused kernel, but --no-flash asks for unfused attention");
  dlperf_test::require_usage_error(run + " --attention flash-attention-4", "--attention");
  // FlashAttention-3 off Hopper: the tool's one line, exit 2.
  dlperf_test::require_usage_error(
      "model --preset llama3_8b --gpu a100_sxm4_80gb --attention flash-attention-3",
      "runs on Hopper GPUs (sm_90) only");
}
#endif

TEST_CASE("FlashAttention-2 and cuDNN attention measured on a lent H100: the model's misses",
          "[attention_kernels]") {
  // PyTorch 2.11's scaled_dot_product_attention on an H100 SXM, BF16, causal, the papers' shape
  // (tools/measure/attention.py, 2026-11-27;
  // tests/data/measured/h100_sxm_attention_2026-11-27.json, docs/calibration.md). A second source
  // for the published rows above: FlashAttention-2 measured 315 / 313 TFLOP/s forward at 8k / 16k
  // (published 333 / 335) and 272 / 299 forward and backward (published 308 / 328); cuDNN 570 / 600
  // forward (published 529 / 539).
  const gpu_spec& h100 = catalog::h100_sxm;
  // Within 30 %: both forwards (FlashAttention-2 15-19 % fast, cuDNN +1 % and -4 %). Forward and
  // backward together is a known miss, 25-33 % fast (363 and 374 modelled at 8k and 16k).
  CHECK(std::abs(attention_tflops(h100, fa2, 8192, false) / 315 - 1) <= 0.30);
  CHECK(std::abs(attention_tflops(h100, fa2, 16384, false) / 313 - 1) <= 0.30);
  CHECK(std::abs(attention_tflops(h100, stacks::megatron, 8192, false) / 570 - 1) <= 0.30);
  CHECK(std::abs(attention_tflops(h100, stacks::megatron, 16384, false) / 600 - 1) <= 0.30);
  for (const auto& [seq, measured] : {std::pair{8192LL, 272.0}, std::pair{16384LL, 299.0}}) {
    const double model = attention_tflops(h100, fa2, seq, true);
    INFO("forward and backward at " << seq << ": model " << model << ", measured " << measured);
    CHECK(model / measured > 1.2);  // 1.33 at 8k, 1.25 at 16k
    CHECK(model / measured < 1.5);
  }
}
