// SPDX-License-Identifier: MIT
// BlockAttentionBiasEnum: what is added to the attention scores before the softmax. ALIBI is not an
// input tensor but a per-head slope times a distance computed in the kernel (see
// block_position_encoding.hpp); attention_bias_name gives the kernel-name suffix of each kind.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

// The values are the example's -bias numbers (0, 1, 2).
enum struct BlockAttentionBiasEnum
{
    NO_BIAS          = 0,
    ELEMENTWISE_BIAS = 1,
    ALIBI            = 2,
};

CK_TILE_HOST_DEVICE constexpr const char* attention_bias_name(BlockAttentionBiasEnum e)
{
    switch(e)
    {
    case BlockAttentionBiasEnum::ELEMENTWISE_BIAS:
        return "bias";
    case BlockAttentionBiasEnum::ALIBI:
        return "alibi";
    default:
        return "";
    }
}

} // namespace ck_tile
