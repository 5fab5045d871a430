// Compile-time checks of whole models: parameter counts, memory fits and whole-step estimates
// are constant expressions (within g++'s and clang++'s default constant-evaluation limits).
#include <dlperf/dlperf.hpp>

namespace model_static {  // named: the unity build shares one anonymous namespace per batch
using namespace dlperf;

// Parameter counts come from the descriptions (the published figures: docs/models.md).
static_assert(presets::gpt2.parameters() == 124439808);
static_assert(presets::llama3_8b.parameters() == 8030261248);
static_assert(presets::resnet50.parameters() == 25557032);
static_assert(presets::find("mixtral_8x7b").transformer.active_parameters() == 12879925248);

// The README's questions. Llama-2-7B in BF16 does not fit a 24 GB card for full fine-tuning with
// Adam (16 B/parameter), but does for inference with 4-bit weights.
static_assert(!check_fit(catalog::rtx_4090, presets::llama2_7b, run_config{.seq = 512}).fits);
static_assert(check_fit(catalog::rtx_4090, presets::llama2_7b,
                        run_config{.mode = run_mode::infer,
                                   .prompt = 1024,
                                   .generate = 256,
                                   .weights = weight_format::int4_weights})
                  .fits);
// Mixed-precision Adam: 16 bytes per parameter (ZeRO).
static_assert(memory_need(presets::gpt2, run_config{.seq = 64, .overhead_bytes = 0}).optimizer ==
              12.0 * presets::gpt2.parameters() * bytes(1));

// Whole-step estimates are constant expressions where std::vector is (an operator sequence is one:
// core/library_support.hpp): a BERT-large training step on H100 is
// compute-bound in its GEMMs (the README's third question), and GPT-2 XL's step estimates too.
#if defined(__cpp_lib_constexpr_vector)
static_assert(estimate_model(catalog::h100_sxm, presets::bert_large,
                             run_config{.batch = 32, .seq = 512})
                  .bound_share(op_kind::gemm, bound::compute) > 0.9);
static_assert(
    estimate_model(catalog::h100_sxm, presets::gpt2_xl, run_config{.batch = 8, .seq = 1024}).mfu() >
    0.2);
// Decoder inference: a token's decode step is shorter than the 512-token prefill.
constexpr bool decode_shorter_than_prefill() {
  const model_estimate e =
      estimate_model(catalog::a100_sxm4_80gb, presets::gpt2_xl,
                     run_config{.mode = run_mode::infer, .prompt = 512, .generate = 64});
  return e.decode_per_token < e.prefill_time && e.decode_per_token > duration{};
}
static_assert(decode_shorter_than_prefill());
#endif

}  // namespace model_static
