// Compile-time checks of whole models: parameter counts, memory fits and whole-step estimates
// are constant expressions (within g++'s and clang++'s default constant-evaluation limits).
#include <dlperf/dlperf.hpp>

namespace {
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

}  // namespace
