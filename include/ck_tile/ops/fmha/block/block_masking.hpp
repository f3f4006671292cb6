// SPDX-License-Identifier: MIT
// GenericAttentionMask: which (query row, key column) scores of one sq x sk attention matrix take
// part in the softmax, in the "generic coordinates" (y, x) that one type serves for causal and
// sliding-window masks, from the top-left or the bottom-right corner alike.
//
//   element (i, j) is kept  iff  i - y + 1 <= j < min(i + x, x_total)
//
// A causal mask (IsLocal = false) only has the right bound: j < min(i + x, x_total). No mask
// (IsMasking = false) only has the bound j < x_total. Rows are never judged: a row i >= y_total is
// padding of the last query tile, which the kernel computes but never stores, so it may see the
// same column rule as a real row.
//
// make_generic_attention_mask_coordinates_from_lr_window turns FlashAttention-style window sizes
// (keep j in [i + d - left, i + d + right], d = 0 from the top-left, sk - sq from the bottom-right,
// a negative size meaning unbounded) into (y, x); the kernel and the host reference build their
// masks through it, so both agree on every element by construction.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

// Kept in sync with the example's mask_enum (the example casts one into the other).
enum struct GenericAttentionMaskEnum
{
    NO_MASK                = 0,
    MASK_FROM_TOP_LEFT     = 1,
    MASK_FROM_BOTTOM_RIGHT = 2,
    MASK_GENERIC,
};

template <bool IsMasking_ = true, bool IsLocal_ = false>
struct GenericAttentionMask
{
    static constexpr bool IsMasking = IsMasking_;
    // a left bound only means something on a mask
    static constexpr bool IsLocal = IsMasking_ && IsLocal_;
    // the kernel-name suffixes upstream uses: no mask, causal, generic (local)
    static constexpr const char* name = IsMasking ? (IsLocal ? "mg" : "mc") : "mn";

    CK_TILE_HOST_DEVICE constexpr GenericAttentionMask(index_t y_total_, index_t x_total_)
        : GenericAttentionMask(0, 0, y_total_, x_total_)
    {}

    CK_TILE_HOST_DEVICE constexpr GenericAttentionMask(index_t y_, index_t x_, index_t y_total_, index_t x_total_)
        : y(y_), x(x_), y_total(y_total_), x_total(x_total_)
    {}

    // Key columns [x_start, x_end) that query rows [i_y, i_y + YTile) must visit. x_start is a
    // multiple of XTile so that the caller's K/V tiles stay aligned to the tensor; x_end is clipped
    // to x_total and may be <= x_start, meaning the whole row block is masked (the kernel then
    // writes O = 0 and LSE = -inf without visiting any key).
    template <index_t YTile, index_t XTile>
    CK_TILE_HOST_DEVICE constexpr auto GetTileRangeAlongX(index_t i_y, number<YTile>, number<XTile>) const
    {
        if constexpr(!IsMasking)
            return make_tuple(index_t{0}, x_total);
        else
        {
            // the bottom row of the block reaches furthest right
            const index_t x_end = min(i_y + YTile - 1 + x, x_total);
            if constexpr(!IsLocal)
                return make_tuple(index_t{0}, x_end);
            else
            {
                // the top row reaches furthest left; floor to a tile boundary
                const index_t left    = max(i_y - y + 1, index_t{0});
                const index_t x_start = (left / XTile) * XTile;
                return make_tuple(x_start, x_end);
            }
        }
    }

    // True when score (i_y, i_x) does not take part in the softmax (masked or past x_total).
    CK_TILE_HOST_DEVICE constexpr bool IsOutOfBound(index_t i_y, index_t i_x) const
    {
        if constexpr(!IsMasking)
            return i_x >= x_total;
        else
        {
            const bool past_right = i_x >= min(i_y + x, x_total);
            if constexpr(!IsLocal)
                return past_right;
            else
                return past_right || i_x < i_y - y + 1;
        }
    }

    // False only when every element of the TileHeight x TileWidth tile at (i_tile_top,
    // i_tile_left) is kept, so that the caller may skip the per-element IsOutOfBound checks. The
    // kept set of each row is an interval whose ends grow with the row, so the tile's top-right
    // and bottom-left corners decide.
    template <index_t TileHeight, index_t TileWidth>
    CK_TILE_HOST_DEVICE constexpr bool IsEdgeTile(index_t i_tile_top, index_t i_tile_left, number<TileHeight>,
                                                  number<TileWidth>) const
    {
        const index_t i_right = i_tile_left + TileWidth - 1;
        if constexpr(!IsMasking)
            return i_right >= x_total;
        else
        {
            const bool top_right_out = IsOutOfBound(i_tile_top, i_right);
            if constexpr(!IsLocal)
                return top_right_out;
            else
                return top_right_out || IsOutOfBound(i_tile_top + TileHeight - 1, i_tile_left);
        }
    }

    index_t y, x;
    index_t y_total, x_total;
};

// FlashAttention-style window sizes -> generic coordinates (y, x), as upstream defines them. A
// negative size is unbounded: it is replaced by the largest size that can matter from that
// corner, which keeps y and x small enough for the int arithmetic of the mask.
CK_TILE_HOST_DEVICE constexpr auto
make_generic_attention_mask_coordinates_from_lr_window(index_t left_size, index_t right_size, index_t y_total,
                                                       index_t x_total, bool is_top_left = true)
{
    const index_t left  = left_size < 0 ? (is_top_left ? y_total - 1 : x_total - 1) : left_size;
    const index_t right = right_size < 0 ? (is_top_left ? x_total - 1 : y_total - 1) : right_size;
    // from the bottom-right the diagonal is shifted right by sk - sq
    const index_t shift = is_top_left ? 0 : x_total - y_total;
    const index_t y     = 1 + left - shift;
    const index_t x     = 1 + right + shift;
    return make_tuple(y, x);
}

template <typename MaskType>
CK_TILE_HOST_DEVICE constexpr auto make_generic_attention_mask_from_lr_window(index_t left_size, index_t right_size,
                                                                              index_t y_total, index_t x_total,
                                                                              bool is_top_left = true)
{
    const auto yx =
        make_generic_attention_mask_coordinates_from_lr_window(left_size, right_size, y_total, x_total, is_top_left);
    return MaskType{yx.at(number<0>{}), yx.at(number<1>{}), y_total, x_total};
}

} // namespace ck_tile
