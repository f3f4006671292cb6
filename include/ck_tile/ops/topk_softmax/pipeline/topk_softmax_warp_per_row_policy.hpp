// SPDX-License-Identifier: MIT
// TopkSoftmaxWarpPerRowPolicy: how the logits are distributed, and the ranking key.
//
// The ranking key of a logit is one 32-bit unsigned integer: the logit's 16 bits made orderable
// (larger logit = larger integer; -0 is +0) in the high half, 0xffff - index in the low half. Two
// keys are never equal, and key a > key b exactly when logit a > logit b or the logits are equal
// and a's index is lower: the top k keys are the top k logits, ties broken by the lower index.
// Padding (columns past the row's experts) has key 0, below every real key.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"

namespace ck_tile {

struct TopkSoftmaxWarpPerRowPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeInputDistribution()
    {
        return make_generic_2d_block_tile_distribution<typename Problem::BlockShape>();
    }

    // 16-bit float bits (fp16 / bf16: sign, exponent, mantissa) -> order-preserving unsigned
    CK_TILE_HOST_DEVICE static constexpr uint32_t orderable_bits(uint16_t b)
    {
        const uint32_t u = b == 0x8000u ? 0u : uint32_t{b}; // -0 ranks as +0
        return (u & 0x8000u) ? (~u & 0xffffu) : (u | 0x8000u);
    }
    CK_TILE_HOST_DEVICE static constexpr uint16_t float_bits(uint32_t orderable)
    {
        return static_cast<uint16_t>((orderable & 0x8000u) ? (orderable & 0x7fffu) : (~orderable & 0xffffu));
    }

    template <typename InputType>
    CK_TILE_HOST_DEVICE static constexpr uint32_t make_key(const InputType& x, index_t index)
    {
        return (orderable_bits(__builtin_bit_cast(uint16_t, x)) << 16) | (0xffffu - static_cast<uint32_t>(index));
    }
    CK_TILE_HOST_DEVICE static constexpr index_t key_index(uint32_t key)
    {
        return static_cast<index_t>(0xffffu - (key & 0xffffu));
    }
    template <typename InputType>
    CK_TILE_HOST_DEVICE static constexpr float key_value(uint32_t key)
    {
        return type_convert<float>(__builtin_bit_cast(InputType, float_bits(key >> 16)));
    }
};

} // namespace ck_tile
