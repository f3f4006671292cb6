// SPDX-License-Identifier: MIT
// mask_info: the example's -mask option, decoded as upstream spells it, for the given seqlen_q and
// seqlen_k (y and x depend on them; left and right do not).
//
//   0                no mask
//   1, t             causal from the top-left:      keep j <= i               (left -1, right 0)
//   2, b             causal from the bottom-right:  keep j <= i + sk - sq     (left -1, right 0)
//   t:l,r            FlashAttention-style window from the top-left: keep j in [i - l, i + r]
//   b:l,r            the same from the bottom-right: keep j in [i + d - l, i + d + r], d = sk - sq
//                    (a negative l or r leaves that side unbounded)
//   xt:w, xb:w       xformers-style window of w keys: l = w / 2, r = w - 1 - l; w <= 0 is causal
//   g:y,x            raw generic coordinates (see block_masking.hpp): keep i - y + 1 <= j <
//                    min(i + x, sk); y >= 1 and x >= 1
//
// g:y,x is read from the top-left, i.e. as the window t:(y-1),(x-1), which is what left and right
// hold for it. Upstream's kernel read a generic mask from the bottom-right while its reference
// read it from the top-left, so the two agreed only for sq == sk; here the kernel and the reference
// must both build the mask from (left, right) with is_top_left = (type != mask_bottom_right), and
// then agree for every shape.
//
// Printed as upstream prints it in the status line: n, t(l:r), b(l:r), g(y:x). Any other spelling
// (unknown letters, missing or extra numbers, trailing characters, numbers other than 0, 1, 2
// alone) throws std::invalid_argument with a one-line message naming the value.
#pragma once
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"
#include "parse_int.hpp"

// Kept in sync with ck_tile::GenericAttentionMaskEnum: the example casts one into the other.
enum class mask_enum
{
    no_mask = 0,
    mask_top_left,
    mask_bottom_right,
    window_generic,
};

struct mask_info
{
    mask_enum type = mask_enum::no_mask;
    // generic coordinates of the mask for the seqlens given to decode
    ck_tile::index_t y = 0, x = 0;
    // FlashAttention-style window sizes; negative = unbounded on that side
    ck_tile::index_t left = -1, right = -1;

    static mask_info decode(std::string str, ck_tile::index_t seqlen_q, ck_tile::index_t seqlen_k)
    {
        auto bad = [&]() { return std::invalid_argument("invalid mask value: '" + str + "'"); };
        mask_info m;
        // every spelling ends in a window (left, right) read from one corner; y, x follow from it
        const auto colon = str.find(':');
        if(colon == std::string::npos)
        {
            if(str == "0")
                m.type = mask_enum::no_mask;
            else if(str == "1" || str == "t")
                m.type = mask_enum::mask_top_left;
            else if(str == "2" || str == "b")
                m.type = mask_enum::mask_bottom_right;
            else
                throw bad();
            m.left  = -1;
            m.right = m.type == mask_enum::no_mask ? -1 : 0;
        }
        else
        {
            const std::string t      = str.substr(0, colon);
            const std::string_view v = std::string_view(str).substr(colon + 1);
            if(t == "xt" || t == "xb")
            {
                const ck_tile::index_t w = parse_option_int(v, str, "mask");
                m.type                   = t == "xt" ? mask_enum::mask_top_left : mask_enum::mask_bottom_right;
                m.left                   = w > 0 ? w / 2 : -1;
                m.right                  = w > 0 ? w - 1 - m.left : 0;
            }
            else if(t == "t" || t == "b" || t == "g")
            {
                const auto comma = v.find(',');
                if(comma == std::string_view::npos)
                    throw bad();
                const ck_tile::index_t v0 = parse_option_int(v.substr(0, comma), str, "mask");
                const ck_tile::index_t v1 = parse_option_int(v.substr(comma + 1), str, "mask");
                if(t == "g")
                {
                    if(v0 < 1 || v1 < 1)
                        throw std::invalid_argument("invalid mask value: '" + str +
                                                    "' (g:y,x needs y >= 1 and x >= 1)");
                    m.type  = mask_enum::window_generic;
                    m.left  = v0 - 1;
                    m.right = v1 - 1;
                }
                else
                {
                    m.type  = t == "t" ? mask_enum::mask_top_left : mask_enum::mask_bottom_right;
                    m.left  = v0;
                    m.right = v1;
                }
            }
            else
                throw bad();
        }
        const bool top_left = m.type != mask_enum::mask_bottom_right;
        const auto yx       = ck_tile::make_generic_attention_mask_coordinates_from_lr_window(m.left, m.right, seqlen_q,
                                                                                              seqlen_k, top_left);
        m.y                 = yx.at(ck_tile::number<0>{});
        m.x                 = yx.at(ck_tile::number<1>{});
        return m;
    }

    friend std::ostream& operator<<(std::ostream& os, const mask_info& m)
    {
        switch(m.type)
        {
        case mask_enum::no_mask:
            return os << "n";
        case mask_enum::mask_top_left:
            return os << "t(" << m.left << ":" << m.right << ")";
        case mask_enum::mask_bottom_right:
            return os << "b(" << m.left << ":" << m.right << ")";
        default:
            return os << "g(" << m.y << ":" << m.x << ")";
        }
    }
};
