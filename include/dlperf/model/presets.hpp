/// @file
/// Published models as `constexpr` descriptions, each with its source and its published parameter
/// count. The count the library uses is computed from the description (`parameters()`); the
/// published figure is only there to test that computation against
/// (tests/unit/model/model_test.cpp). The transformers are in model/transformer_presets.hpp (their
/// shared shapes in preset_shapes.hpp), the convolutional networks here, with the list of all and
/// the lookup.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/model/cnn.hpp>
#include <dlperf/model/model_spec.hpp>
#include <dlperf/model/transformer_presets.hpp>

namespace dlperf::presets {

/// ResNet-50 v1.5 (He et al. 2015, arXiv:1512.03385; stride on the 3x3 convolution as in
/// torchvision and NVIDIA's v1.5): 25,557,032 parameters (torchvision).
inline constexpr model_spec resnet50{
    "resnet50", model_kind::cnn,
    {},         cnn_config{.stages = {{{3, 64, 1}, {4, 128, 2}, {6, 256, 2}, {3, 512, 2}}}},
    25557032,   "He et al. 2015, arXiv:1512.03385; pytorch.org/vision resnet50 (25,557,032)"};
/// ResNet-101 v1.5: 44,549,160 parameters (torchvision).
inline constexpr model_spec resnet101{
    "resnet101", model_kind::cnn,
    {},          cnn_config{.stages = {{{3, 64, 1}, {4, 128, 2}, {23, 256, 2}, {3, 512, 2}}}},
    44549160,    "He et al. 2015, arXiv:1512.03385; pytorch.org/vision resnet101 (44,549,160)"};
/// SE-ResNeXt-101 32x4d (Xie et al. 2016, arXiv:1611.05431; Hu et al. 2017, arXiv:1709.01507):
/// cardinality 32, 4 channels per group, SE reduction 16; 48,955,416 parameters (osmr/imgclsmob).
inline constexpr model_spec se_resnext101_32x4d{
    "se_resnext101_32x4d",
    model_kind::cnn,
    {},
    cnn_config{.stages = {{{3, 64, 1}, {4, 128, 2}, {23, 256, 2}, {3, 512, 2}}},
               .groups = 32,
               .base_width = 4,
               .se_reduction = 16},
    48955416,
    "Xie et al. 2016, arXiv:1611.05431; Hu et al. 2017, arXiv:1709.01507; osmr/imgclsmob "
    "seresnext.py (48,955,416)"};

/// Every preset, in listing order.
inline constexpr std::array all{bert_base,
                                bert_large,
                                gpt2,
                                gpt2_xl,
                                transformer_big,
                                llama2_7b,
                                llama2_13b,
                                llama2_70b,
                                tinyllama_1_1b,
                                codellama_34b,
                                llama3_8b,
                                llama3_70b,
                                llama3_1_8b,
                                llama3_1_70b,
                                llama3_1_405b,
                                llama3_2_1b,
                                llama3_2_3b,
                                llama3_3_70b,
                                mistral_7b,
                                mixtral_8x7b,
                                mixtral_8x22b,
                                qwen2_5_7b,
                                qwen2_5_14b,
                                qwen2_5_32b,
                                qwen2_5_72b,
                                qwen3_8b,
                                qwen3_32b,
                                qwen3_30b_a3b,
                                qwen3_235b_a22b,
                                gemma2_9b,
                                gemma2_27b,
                                gemma3_27b,
                                phi3_mini,
                                phi4,
                                gpt_oss_20b,
                                gpt_oss_120b,
                                deepseek_v3,
                                r1_distill_qwen_7b,
                                r1_distill_qwen_14b,
                                r1_distill_qwen_32b,
                                r1_distill_llama_8b,
                                r1_distill_llama_70b,
                                mpt_125m,
                                mpt_350m,
                                mpt_760m,
                                mpt_1b,
                                mpt_3b,
                                mpt_7b,
                                mpt_13b,
                                mpt_30b,
                                mpt_70b,
                                resnet50,
                                resnet101,
                                se_resnext101_32x4d};

/// The preset named @p id. Throws not_found listing the valid names.
constexpr const model_spec& find(std::string_view id) {
  for (const model_spec& m : all)
    if (m.name == id) return m;
  dlperf::detail::throw_unknown("model preset", id, all,
                                [](const model_spec& m) { return m.name; });
}

}  // namespace dlperf::presets
