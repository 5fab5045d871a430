// FP8 training's casts (model/step/builder.hpp, fp8_cast; docs/stacks.md "FP8 casts"): where a
// stack runs them as kernels of their own (Transformer Engine's cast_transpose), every FP8
// linear casts its input forward and its output gradient backward, 2 bytes read and two 8-bit
// copies written an element; nowhere else.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <string_view>

using namespace dlperf;

namespace {

run_config fp8_training(stack_id stack, dtype type = dtype::fp8_e4m3) {
  run_config r;
  r.batch = 2;
  r.seq = 4096;
  r.type = type;
  r.zero = 1;
  r.stack = stack;
  return r;
}

// DRAM bytes and launches of the operators of @p ops named @p name, repeats included.
struct named_total {
  double bytes = 0;
  long long runs = 0;
};
named_total total_of(const op_sequence& ops, std::string_view name) {
  named_total t;
  for (const op_estimate& op : ops)
    if (op.name == name) {
      t.bytes += static_cast<double>(op.repeats) * op.dram.value();
      t.runs += op.repeats;
    }
  return t;
}

}  // namespace

TEST_CASE(
    "Transformer Engine casts every FP8 linear's input and output gradient, 4 bytes an "
    "element",
    "[model][fp8_casts]") {
  // Llama 3 8B: per layer the QKV, output, gate+up and down projections take inputs h, q, h and
  // f wide and give outputs q + 2 kv, h, 2 f and h wide; T tokens a micro-batch.
  const transformer_config& t = presets::llama3_8b.transformer;
  const double h = static_cast<double>(t.hidden), f = static_cast<double>(t.ffn);
  const double q = static_cast<double>(t.heads * t.head_dim());
  const double kv = static_cast<double>(t.kv_heads * t.head_dim());
  const double layers = static_cast<double>(t.layers);
  const run_config r = fp8_training(stack_id::megatron);
  const double tokens = static_cast<double>(r.batch * r.seq);
  const model_estimate e = estimate_run(catalog::h100_sxm, presets::llama3_8b, r);
  const named_total in = total_of(e.forward, "FP8 input cast");
  const named_total grad = total_of(e.backward, "FP8 gradient cast");
  CHECK(in.runs == static_cast<long long>(4.0 * layers));
  CHECK(grad.runs == static_cast<long long>(4.0 * layers));
  CHECK(in.bytes == Approx(4.0 * layers * tokens * (h + q + h + f)).epsilon(1e-12));
  CHECK(grad.bytes ==
        Approx(4.0 * layers * tokens * (q + 2.0 * kv + h + 2.0 * f + h)).epsilon(1e-12));
}

TEST_CASE("a mixture of experts casts its experts' token copies, not its router's input",
          "[model][fp8_casts]") {
  // Qwen3-30B-A3B: each MoE layer's QKV, output, expert up and expert down linears cast; the
  // router (kept out of FP8 by Megatron) does not.
  const run_config r = fp8_training(stack_id::megatron);
  const model_estimate e = estimate_run(catalog::h100_sxm, presets::qwen3_30b_a3b, r);
  const auto layers = presets::qwen3_30b_a3b.transformer.layers;
  CHECK(total_of(e.forward, "FP8 input cast").runs == 4 * layers);
  CHECK(total_of(e.backward, "FP8 gradient cast").runs == 4 * layers);
}

TEST_CASE("FP8 casts run only in FP8 training under a stack that runs them apart",
          "[model][fp8_casts]") {
  const auto casts = [](const run_config& r) {
    const model_estimate e = estimate_run(catalog::h100_sxm, presets::llama3_8b, r);
    return total_of(e.forward, "FP8 input cast").runs +
           total_of(e.backward, "FP8 gradient cast").runs;
  };
  CHECK(casts(fp8_training(stack_id::megatron)) > 0);
  CHECK(casts(fp8_training(stack_id::pytorch_eager)) > 0);
  // BF16 training casts nothing; torch-compile's and the ceiling's casts ride in other kernels.
  CHECK(casts(fp8_training(stack_id::megatron, dtype::bf16)) == 0);
  CHECK(casts(fp8_training(stack_id::torch_compile)) == 0);
  CHECK(casts(fp8_training(stack_id::ceiling)) == 0);
  // Inference casts nothing here: serving engines quantise activations in their own kernels.
  run_config infer = fp8_training(stack_id::pytorch_eager);
  infer.mode = run_mode::infer;
  CHECK(casts(infer) == 0);
}

TEST_CASE("FP8 casts only ever add time, on every NVIDIA GPU with FP8 tensor cores",
          "[model][fp8_casts]") {
  // The same stack with its casts switched off: every other kernel the same.
  software_stack folded = stacks::megatron;
  folded.fp8_casts = fp8_cast_kernels{};
  CHECK_FALSE(same_kernel_choices(folded, stacks::megatron));
  const run_config r = fp8_training(stack_id::megatron);
  int boards = 0;
  for (const gpu_spec* g : catalog::all) {
    if (g->arch().vendor != vendor::nvidia ||
        !g->supports(dtype::fp8_e4m3, default_accumulator(dtype::fp8_e4m3), sparsity::dense))
      continue;
    INFO(g->name());
    ++boards;
    const duration with = estimate_model(*g, presets::llama3_8b, r, stacks::megatron).stack.time;
    const duration without = estimate_model(*g, presets::llama3_8b, r, folded).stack.time;
    CHECK(with > without);
    CHECK(std::isfinite(with.value()));
  }
  CHECK(boards >= 4);  // Ada, Hopper and Blackwell boards
}
