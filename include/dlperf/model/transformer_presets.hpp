/// @file
/// The published transformers (docs/models.md), each with its source and its published parameter
/// count, which tests/unit/model/model_test.cpp holds the computed count to. Listed and looked up
/// in model/presets.hpp.
#pragma once

#include <dlperf/model/model_spec.hpp>
#include <dlperf/model/preset_shapes.hpp>
#include <dlperf/model/transformer.hpp>

namespace dlperf::presets {

/// BERT-base: 12 layers, 768 wide, 110M parameters.
inline constexpr model_spec bert_base{"bert_base",
                                      model_kind::transformer,
                                      detail::bert(12, 768, 12),
                                      {},
                                      110e6,
                                      "Devlin et al. 2018, arXiv:1810.04805; "
                                      "huggingface.co/bert-base-uncased config.json"};
/// BERT-large: 24 layers, 1024 wide, 340M parameters.
inline constexpr model_spec bert_large{"bert_large",
                                       model_kind::transformer,
                                       detail::bert(24, 1024, 16),
                                       {},
                                       340e6,
                                       "Devlin et al. 2018, arXiv:1810.04805; "
                                       "huggingface.co/bert-large-uncased config.json"};
/// GPT-2 small: 12 layers, 768 wide, 124M parameters.
inline constexpr model_spec gpt2{"gpt2",
                                 model_kind::transformer,
                                 detail::gpt2(12, 768, 12),
                                 {},
                                 124e6,
                                 "Radford et al. 2019; huggingface.co/openai-community/gpt2 "
                                 "config.json (124,439,808)"};
/// GPT-2 XL: 48 layers, 1600 wide, 1.5B parameters.
inline constexpr model_spec gpt2_xl{"gpt2_xl",
                                    model_kind::transformer,
                                    detail::gpt2(48, 1600, 25),
                                    {},
                                    1.558e9,
                                    "Radford et al. 2019 (1542M, Table 2); "
                                    "huggingface.co/openai-community/gpt2-xl config.json"};
/// MPT-125m as llm-foundry benchmarks it: 12 layers, 768 wide, 12 heads.
inline constexpr model_spec mpt_125m{
    "mpt_125m",
    model_kind::transformer,
    detail::mpt(12, 768, 12),
    {},
    125311488.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-125m.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-350m as llm-foundry benchmarks it: 24 layers, 1024 wide, 16 heads.
inline constexpr model_spec mpt_350m{
    "mpt_350m",
    model_kind::transformer,
    detail::mpt(24, 1024, 16),
    {},
    355985408.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-350m.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-760m as llm-foundry benchmarks it: 24 layers, 1536 wide, 12 heads.
inline constexpr model_spec mpt_760m{
    "mpt_760m",
    model_kind::transformer,
    detail::mpt(24, 1536, 12),
    {},
    760470528.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-760m.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-1B as llm-foundry benchmarks it: 24 layers, 2048 wide, 16 heads.
inline constexpr model_spec mpt_1b{
    "mpt_1b",
    model_kind::transformer,
    detail::mpt(24, 2048, 16),
    {},
    1315950592.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-1b.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-3B as llm-foundry benchmarks it: 32 layers, 2560 wide, 20 heads.
inline constexpr model_spec mpt_3b{
    "mpt_3b",
    model_kind::transformer,
    detail::mpt(32, 2560, 20),
    {},
    2651837440.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-3b.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-7B as llm-foundry benchmarks it: 32 layers, 4096 wide, 32 heads.
inline constexpr model_spec mpt_7b{
    "mpt_7b",
    model_kind::transformer,
    detail::mpt(32, 4096, 32),
    {},
    6658859008.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-7b.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-13B as llm-foundry benchmarks it: 40 layers, 5120 wide, 40 heads.
inline constexpr model_spec mpt_13b{
    "mpt_13b",
    model_kind::transformer,
    detail::mpt(40, 5120, 40),
    {},
    12853954560.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-13b.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-30B as llm-foundry benchmarks it: 48 layers, 7168 wide, 56 heads.
inline constexpr model_spec mpt_30b{
    "mpt_30b",
    model_kind::transformer,
    detail::mpt(48, 7168, 56),
    {},
    29975214080.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-30b.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// MPT-70B as llm-foundry benchmarks it: 80 layers, 8192 wide, 64 heads.
inline constexpr model_spec mpt_70b{
    "mpt_70b",
    model_kind::transformer,
    detail::mpt(80, 8192, 64),
    {},
    64862437376.0,
    "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-70b.yaml; "
    "NumParams of scripts/train/benchmarking/README.md at 2048 tokens"};
/// The Transformer "big" of Vaswani et al. (WMT14 English-German): 6 + 6 layers, 1024 wide,
/// 37000-token shared vocabulary, one embedding matrix for source, target and output.
inline constexpr model_spec transformer_big{
    "transformer_big",
    model_kind::transformer,
    transformer_config{.kind = transformer_kind::encoder_decoder,
                       .layers = 6,
                       .decoder_layers = 6,
                       .hidden = 1024,
                       .heads = 16,
                       .ffn = 4096,
                       .ffn_type = ffn_kind::relu,
                       .vocab = 37000,
                       .max_seq = 1024,
                       .dropout = true},
    {},
    213e6,
    "Vaswani et al. 2017, arXiv:1706.03762, Table 3 (big: 213M) and section 3.4"};
/// Llama 2 7B.
inline constexpr model_spec llama2_7b{
    "llama2_7b",
    model_kind::transformer,
    detail::llama(32, 4096, 32, 32, 11008, 32000, 4096),
    {},
    6.74e9,
    "Touvron et al. 2023, arXiv:2307.09288; huggingface.co/meta-llama/Llama-2-7b-hf"};
/// Llama 2 13B.
inline constexpr model_spec llama2_13b{
    "llama2_13b",
    model_kind::transformer,
    detail::llama(40, 5120, 40, 40, 13824, 32000, 4096),
    {},
    13.0e9,
    "Touvron et al. 2023, arXiv:2307.09288; huggingface.co/meta-llama/Llama-2-13b-hf"};
/// Llama 2 70B (grouped-query attention, 8 key/value heads).
inline constexpr model_spec llama2_70b{
    "llama2_70b",
    model_kind::transformer,
    detail::llama(80, 8192, 64, 8, 28672, 32000, 4096),
    {},
    69.0e9,
    "Touvron et al. 2023, arXiv:2307.09288; huggingface.co/meta-llama/Llama-2-70b-hf"};
/// TinyLlama 1.1B: Llama 2's architecture at 22 layers of 2048, 4 key/value heads.
inline constexpr model_spec tinyllama_1_1b{
    "tinyllama_1_1b",
    model_kind::transformer,
    detail::llama(22, 2048, 32, 4, 5632, 32000, 2048),
    {},
    1.1e9,
    "Zhang et al. 2024, arXiv:2401.02385; "
    "huggingface.co/TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json"};
/// Code Llama 34B (grouped-query attention, 8 key/value heads).
inline constexpr model_spec codellama_34b{
    "codellama_34b",
    model_kind::transformer,
    detail::llama(48, 8192, 64, 8, 22016, 32000, 16384),
    {},
    34e9,
    "Roziere et al. 2023, arXiv:2308.12950; huggingface.co/codellama/CodeLlama-34b-hf config.json"};
/// Llama 3 8B.
inline constexpr model_spec llama3_8b{
    "llama3_8b",
    model_kind::transformer,
    detail::llama(32, 4096, 32, 8, 14336, 128256, 8192),
    {},
    8.03e9,
    "Meta 2024, ai.meta.com/blog/meta-llama-3; huggingface.co/meta-llama/Meta-Llama-3-8B"};
/// Llama 3 70B.
inline constexpr model_spec llama3_70b{
    "llama3_70b",
    model_kind::transformer,
    detail::llama(80, 8192, 64, 8, 28672, 128256, 8192),
    {},
    70.6e9,
    "Meta 2024; huggingface.co/meta-llama/Meta-Llama-3-70B config.json"};
/// Mistral 7B v0.1 (the sliding attention window of 4096 is not modelled).
inline constexpr model_spec mistral_7b{
    "mistral_7b",
    model_kind::transformer,
    detail::llama(32, 4096, 32, 8, 14336, 32000, 32768),
    {},
    7.24e9,
    "Jiang et al. 2023, arXiv:2310.06825; huggingface.co/mistralai/Mistral-7B-v0.1"};
/// Mixtral 8x7B: 8 SwiGLU experts per layer, 2 per token (46.7B parameters, 12.9B active).
inline constexpr model_spec mixtral_8x7b{
    "mixtral_8x7b",
    model_kind::transformer,
    [] {
      transformer_config t = detail::llama(32, 4096, 32, 8, 14336, 32000, 32768);
      t.experts = 8;
      t.experts_per_token = 2;
      return t;
    }(),
    {},
    46.7e9,
    "Jiang et al. 2024, arXiv:2401.04088; mistral.ai/news/mixtral-of-experts (46.7B, 12.9B "
    "active)"};

/// Llama 3.1 8B.
inline constexpr model_spec llama3_1_8b{
    "llama3_1_8b",
    model_kind::transformer,
    detail::llama31(32, 4096, 32, 14336, false),
    {},
    8.03e9,
    "huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json (8.03B params)"};
/// Llama 3.1 70B.
inline constexpr model_spec llama3_1_70b{
    "llama3_1_70b",
    model_kind::transformer,
    detail::llama31(80, 8192, 64, 28672, false),
    {},
    70.6e9,
    "huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json (70.6B params)"};
/// Llama 3.1 405B.
inline constexpr model_spec llama3_1_405b{
    "llama3_1_405b",
    model_kind::transformer,
    detail::llama31(126, 16384, 128, 53248, false),
    {},
    405e9,
    "Llama Team 2024, arXiv:2407.21783, Table 3 (405B); "
    "huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json"};
/// Llama 3.2 1B (tied embeddings).
inline constexpr model_spec llama3_2_1b{
    "llama3_2_1b",
    model_kind::transformer,
    detail::llama31(16, 2048, 32, 8192, true),
    {},
    1.24e9,
    "huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json (1.24B params)"};
/// Llama 3.2 3B (tied embeddings).
inline constexpr model_spec llama3_2_3b{
    "llama3_2_3b",
    model_kind::transformer,
    detail::llama31(28, 3072, 24, 8192, true),
    {},
    3.21e9,
    "huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json (3.21B params)"};
/// Llama 3.3 70B (Llama 3.1 70B's shape).
inline constexpr model_spec llama3_3_70b{
    "llama3_3_70b",
    model_kind::transformer,
    detail::llama31(80, 8192, 64, 28672, false),
    {},
    70.6e9,
    "huggingface.co/meta-llama/Llama-3.3-70B-Instruct/blob/main/config.json (70.6B params)"};
/// Qwen2.5 7B.
inline constexpr model_spec qwen2_5_7b{"qwen2_5_7b",
                                       model_kind::transformer,
                                       detail::qwen25(28, 3584, 28, 4, 18944),
                                       {},
                                       7.61e9,
                                       "Qwen Team 2024, qwenlm.github.io/blog/qwen2.5-llm (7.61B); "
                                       "huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json"};
/// Qwen2.5 14B.
inline constexpr model_spec qwen2_5_14b{
    "qwen2_5_14b",
    model_kind::transformer,
    detail::qwen25(48, 5120, 40, 8, 13824),
    {},
    14.7e9,
    "Qwen Team 2024, qwenlm.github.io/blog/qwen2.5-llm (14.7B, 13.1B non-embedding); "
    "huggingface.co/Qwen/Qwen2.5-14B/blob/main/config.json"};
/// Qwen2.5 32B.
inline constexpr model_spec qwen2_5_32b{
    "qwen2_5_32b",
    model_kind::transformer,
    detail::qwen25(64, 5120, 40, 8, 27648),
    {},
    32.5e9,
    "Qwen Team 2024, qwenlm.github.io/blog/qwen2.5-llm (32.5B, 31.0B non-embedding); "
    "huggingface.co/Qwen/Qwen2.5-32B/blob/main/config.json"};
/// Qwen2.5 72B.
inline constexpr model_spec qwen2_5_72b{
    "qwen2_5_72b",
    model_kind::transformer,
    detail::qwen25(80, 8192, 64, 8, 29568),
    {},
    72.7e9,
    "Qwen Team 2024, qwenlm.github.io/blog/qwen2.5-llm (72.7B); "
    "huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json"};
/// Qwen3 8B.
inline constexpr model_spec qwen3_8b{
    "qwen3_8b",
    model_kind::transformer,
    detail::qwen3(36, 4096, 32, 8, 12288),
    {},
    8.2e9,
    "huggingface.co/Qwen/Qwen3-8B model card (8.2B, 6.95B non-embedding) and config.json"};
/// Qwen3 32B.
inline constexpr model_spec qwen3_32b{
    "qwen3_32b",
    model_kind::transformer,
    detail::qwen3(64, 5120, 64, 8, 25600),
    {},
    32.8e9,
    "huggingface.co/Qwen/Qwen3-32B model card (32.8B, 31.2B non-embedding) and config.json"};
/// Qwen3 30B-A3B: 128 experts 768 wide, 8 per token (30.5B parameters, 3.3B active).
inline constexpr model_spec qwen3_30b_a3b{
    "qwen3_30b_a3b",
    model_kind::transformer,
    detail::moe(detail::qwen3(48, 2048, 32, 4, 6144), 128, 8, 768),
    {},
    30.5e9,
    "huggingface.co/Qwen/Qwen3-30B-A3B model card (30.5B, 3.3B activated) and config.json"};
/// Qwen3 235B-A22B: 94 layers, 128 experts 1536 wide, 8 per token (235B parameters, 22B
/// active).
inline constexpr model_spec qwen3_235b_a22b{
    "qwen3_235b_a22b",
    model_kind::transformer,
    detail::moe(detail::qwen3(94, 4096, 64, 4, 12288), 128, 8, 1536),
    {},
    235e9,
    "huggingface.co/Qwen/Qwen3-235B-A22B model card (235B, 22B activated) and config.json"};
/// Gemma 2 9B.
inline constexpr model_spec gemma2_9b{
    "gemma2_9b",
    model_kind::transformer,
    detail::gemma(42, 3584, 16, 8, 256, 14336, 256000, 8192),
    {},
    9.24e9,
    "Gemma Team 2024, arXiv:2408.00118, Table 2 (8,324,201,984 non-embedding); "
    "huggingface.co/google/gemma-2-9b/blob/main/config.json"};
/// Gemma 2 27B.
inline constexpr model_spec gemma2_27b{
    "gemma2_27b",
    model_kind::transformer,
    detail::gemma(46, 4608, 32, 16, 128, 36864, 256000, 8192),
    {},
    27.2e9,
    "Gemma Team 2024, arXiv:2408.00118, Table 2 (26,047,480,320 non-embedding); "
    "huggingface.co/google/gemma-2-27b/blob/main/config.json"};
/// Gemma 3 27B, its language model (the 417M vision encoder is not counted).
inline constexpr model_spec gemma3_27b{
    "gemma3_27b",
    model_kind::transformer,
    [] {
      transformer_config t = detail::gemma(62, 5376, 32, 16, 128, 21504, 262208, 131072);
      t.qk_norm = true;
      return t;
    }(),
    {},
    27.016e9,
    "Gemma Team 2025, arXiv:2503.19786, Table 1 (1,416M embedding + 25,600M non-embedding); "
    "huggingface.co/google/gemma-3-27b-pt/blob/main/config.json"};
/// Phi-3-mini (4k context).
inline constexpr model_spec phi3_mini{
    "phi3_mini",
    model_kind::transformer,
    detail::llama(32, 3072, 32, 32, 8192, 32064, 4096),
    {},
    3.8e9,
    "Abdin et al. 2024, arXiv:2404.14219 (3.8B); "
    "huggingface.co/microsoft/Phi-3-mini-4k-instruct/blob/main/config.json"};
/// Phi-4.
inline constexpr model_spec phi4{
    "phi4",
    model_kind::transformer,
    detail::llama(40, 5120, 40, 10, 17920, 100352, 16384),
    {},
    14.7e9,
    "Abdin et al. 2024, arXiv:2412.08905; huggingface.co/microsoft/phi-4/blob/main/config.json "
    "(14.7B params)"};
/// gpt-oss-20b: 32 experts, 4 per token (20.91B parameters).
inline constexpr model_spec gpt_oss_20b{
    "gpt_oss_20b",
    model_kind::transformer,
    detail::gpt_oss(24, 32),
    {},
    20.91e9,
    "OpenAI 2025, gpt-oss-120b & gpt-oss-20b model card, Table 1 (20.91B, 3.61B active); "
    "huggingface.co/openai/gpt-oss-20b/blob/main/config.json"};
/// gpt-oss-120b: 128 experts, 4 per token (116.83B parameters).
inline constexpr model_spec gpt_oss_120b{
    "gpt_oss_120b",
    model_kind::transformer,
    detail::gpt_oss(36, 128),
    {},
    116.83e9,
    "OpenAI 2025, gpt-oss-120b & gpt-oss-20b model card, Table 1 (116.83B, 5.13B active); "
    "huggingface.co/openai/gpt-oss-120b/blob/main/config.json"};
/// DeepSeek-V3: multi-head latent attention, 256 routed experts 2048 wide (8 per token) and one
/// shared, the first 3 layers dense (671B parameters, 37B active; the multi-token-prediction
/// module's 14B is not counted).
inline constexpr model_spec deepseek_v3{
    "deepseek_v3",
    model_kind::transformer,
    [] {
      transformer_config t = detail::llama(61, 7168, 128, 0, 18432, 129280, 163840);
      t.head_size = 192;
      t.q_lora_rank = 1536;
      t.kv_lora_rank = 512;
      t.rope_head_dim = 64;
      t.v_head_dim = 128;
      t = detail::moe(t, 256, 8, 2048);
      t.shared_expert_ffn = 2048;
      t.dense_layers = 3;
      return t;
    }(),
    {},
    671e9,
    "DeepSeek-AI 2024, arXiv:2412.19437 (671B, 37B activated); "
    "huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json"};

// DeepSeek-R1's distilled models: open models fine-tuned on samples DeepSeek-R1 generated, each
// with its base's architecture (DeepSeek-AI 2025, arXiv:2501.12948, and the DeepSeek-R1 README's
// "DeepSeek-R1-Distill Models" table). Their config.json files differ from their bases' only in
// fields the model does not use (token ids, rope base and context of the 7B), so each takes its
// base's description; the counts are Hugging Face's safetensors totals of the distills.
/// DeepSeek-R1-Distill-Qwen-7B (base: Qwen2.5-Math-7B, Qwen2.5-7B's shape).
inline constexpr model_spec r1_distill_qwen_7b{
    "r1_distill_qwen_7b",
    model_kind::transformer,
    qwen2_5_7b.transformer,
    {},
    7.62e9,
    "DeepSeek-AI 2025, arXiv:2501.12948; "
    "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-7B (7.62B params)"};
/// DeepSeek-R1-Distill-Qwen-14B (base: Qwen2.5-14B).
inline constexpr model_spec r1_distill_qwen_14b{
    "r1_distill_qwen_14b",
    model_kind::transformer,
    qwen2_5_14b.transformer,
    {},
    14.8e9,
    "DeepSeek-AI 2025, arXiv:2501.12948; "
    "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-14B (14.8B params)"};
/// DeepSeek-R1-Distill-Qwen-32B (base: Qwen2.5-32B).
inline constexpr model_spec r1_distill_qwen_32b{
    "r1_distill_qwen_32b",
    model_kind::transformer,
    qwen2_5_32b.transformer,
    {},
    32.8e9,
    "DeepSeek-AI 2025, arXiv:2501.12948; "
    "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-32B (32.8B params)"};
/// DeepSeek-R1-Distill-Llama-8B (base: Llama 3.1 8B).
inline constexpr model_spec r1_distill_llama_8b{
    "r1_distill_llama_8b",
    model_kind::transformer,
    llama3_1_8b.transformer,
    {},
    8.03e9,
    "DeepSeek-AI 2025, arXiv:2501.12948; "
    "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Llama-8B (8.03B params)"};
/// DeepSeek-R1-Distill-Llama-70B (base: Llama 3.3 70B Instruct).
inline constexpr model_spec r1_distill_llama_70b{
    "r1_distill_llama_70b",
    model_kind::transformer,
    llama3_3_70b.transformer,
    {},
    70.6e9,
    "DeepSeek-AI 2025, arXiv:2501.12948; "
    "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Llama-70B (70.6B params)"};
/// Mixtral 8x22B: 8 experts, 2 per token (141B parameters, 39B active).
inline constexpr model_spec mixtral_8x22b{
    "mixtral_8x22b",
    model_kind::transformer,
    detail::moe(detail::llama(56, 6144, 48, 8, 16384, 32000, 65536), 8, 2),
    {},
    141e9,
    "mistral.ai/news/mixtral-8x22b (141B, 39B active); "
    "huggingface.co/mistralai/Mixtral-8x22B-v0.1/blob/main/config.json"};

}  // namespace dlperf::presets
