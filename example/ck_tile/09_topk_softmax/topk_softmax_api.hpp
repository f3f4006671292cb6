// SPDX-License-Identifier: MIT
// The example's top-k softmax API, in upstream's style: topk_softmax(traits, args, stream) picks
// the instance for the input type, the activation and the row length, launches it and returns its
// time. One translation unit per input type compiles that type's instances (topk_softmax_instances.hpp).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/topk_softmax.hpp"

struct topk_softmax_trait
{
    std::string input_type;  // fp16 or bf16
    std::string weight_type; // fp32
    std::string activation;  // softmax or sigmoid
};

struct topk_softmax_result
{
    std::string kernel_name;
    float ms;
};

// The most experts a row may have (the widest instance).
inline constexpr ck_tile::index_t topk_softmax_max_experts = 512;

// Throws std::invalid_argument for a type or activation without instances, or arguments no
// instance supports.
topk_softmax_result topk_softmax(const topk_softmax_trait& t, const ck_tile::TopkSoftmaxHostArgs& a,
                                 const ck_tile::stream_config& s);

topk_softmax_result topk_softmax_fp16(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s);
topk_softmax_result topk_softmax_bf16(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s);
