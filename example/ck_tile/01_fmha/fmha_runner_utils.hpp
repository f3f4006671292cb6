// SPDX-License-Identifier: MIT
// What tile_example_fmha_fwd and tile_example_fmha_bwd both need on the host: the strides of a
// [B, H, S, D] tensor in either layout, and the number of scores a mask leaves visible (the FLOP
// count of both examples).
#pragma once
#include <cstddef>
#include <vector>
#include "ck_tile/core.hpp"
#include "fmha_fwd.hpp"
#include "mask.hpp"

// a [B, H, S, D] tensor (logical order) in bhsd (perm) or bshd layout
inline std::vector<std::size_t> fmha_strides(bool perm, std::size_t H, std::size_t S, std::size_t D)
{
    if(perm)
        return {H * S * D, S * D, D, 1};
    return {S * H * D, D, H * D, 1};
}

// the scores of a sq x sk matrix the mask keeps
inline ck_tile::index_t fmha_visible_area(const mask_info& m, ck_tile::index_t sq, ck_tile::index_t sk)
{
    if(m.type == mask_enum::no_mask)
        return sq * sk;
    const auto mask = ck_tile::make_generic_attention_mask_from_lr_window<FmhaMasks::GenericMask>(
        m.left, m.right, sq, sk, m.type != mask_enum::mask_bottom_right);
    ck_tile::index_t n = 0;
    for(ck_tile::index_t i = 0; i < sq; ++i)
        for(ck_tile::index_t j = 0; j < sk; ++j)
            n += mask.IsOutOfBound(i, j) ? 0 : 1;
    return n;
}
