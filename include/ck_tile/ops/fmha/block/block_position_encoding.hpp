// SPDX-License-Identifier: MIT
// Position encodings added to the attention scores: ALiBi (a per-head slope times the distance of
// a key from the query's diagonal) and EmptyPositionEncoding, the no-op the kernel uses without
// ALiBi. Both are applied score by score through update(pixel, row, col).
//
// Slope sign, as upstream: the caller passes the positive slope of get_alibi_slopes (times log2(e)
// when the kernel computes the softmax with exp2). The constructor negates it in the modes that
// measure a distance, FROM_TOP_LEFT and FROM_BOTTOM_RIGHT, so that far keys are penalised:
//
//   VERTICAL:           pixel += slope * col
//   FROM_TOP_LEFT:      pixel += -slope * |row - col|
//   FROM_BOTTOM_RIGHT:  pixel += -slope * |row + (x_total - y_total) - col|
//
// VERTICAL serves causal masks: on the kept keys of a row (col <= row + shift) the distance is
// (row + shift) - col, and -slope * that differs from +slope * col by a constant per row, which the
// softmax ignores; it saves the absolute value. The public member `slope` holds the signed value
// that update() uses, so a host reference may also set it directly, one head after another.
#pragma once
#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"

namespace ck_tile {

// The two distance modes keep the values of the mask enum's two corners, so that a mask type
// converts into the ALiBi mode measured from the same corner.
enum struct AlibiMode
{
    VERTICAL          = 0,
    FROM_TOP_LEFT     = 1,
    FROM_BOTTOM_RIGHT = 2,
};

// RowMajor is upstream's hint of whether one thread's scores run along a row or a column; the
// result is the same either way, and so is this implementation.
template <typename DataType, bool RowMajor = true>
struct Alibi
{
    CK_TILE_HOST_DEVICE Alibi(DataType slope_, index_t y_total, index_t x_total, AlibiMode mode_ = AlibiMode::VERTICAL)
        : slope(mode_ == AlibiMode::VERTICAL ? slope_ : type_convert<DataType>(-type_convert<float>(slope_))),
          shift(mode_ == AlibiMode::FROM_BOTTOM_RIGHT ? x_total - y_total : 0), mode(mode_)
    {}

    CK_TILE_HOST_DEVICE void update(DataType& pixel, index_t row_idx, index_t col_idx) const
    {
        index_t position = col_idx;
        if(mode != AlibiMode::VERTICAL)
        {
            const index_t d = row_idx + shift - col_idx;
            position        = d < 0 ? -d : d;
        }
        pixel = type_convert<DataType>(type_convert<float>(pixel) +
                                       type_convert<float>(slope) * static_cast<float>(position));
    }

    DataType slope; // signed: the value update() multiplies by
    index_t shift;  // where the zero-distance diagonal meets row 0
    AlibiMode mode;
};

template <typename DataType>
struct EmptyPositionEncoding
{
    CK_TILE_HOST_DEVICE void update(DataType& /*pixel*/, index_t /*row_idx*/, index_t /*col_idx*/) const {}
};

// The ALiBi that goes with a mask given by FlashAttention-style window sizes, as upstream: a causal
// window (left < 0, right == 0) takes VERTICAL (see above); any other window measures from the
// mask's corner. A generic mask (g:y,x) is read from the top-left, as the example's mask_info
// documents; NO_MASK measures from the bottom-right, as upstream's unmasked kernels do.
template <typename DataType, bool RowMajor = true>
CK_TILE_HOST_DEVICE auto make_alibi_from_lr_mask(DataType slope, index_t window_left, index_t window_right,
                                                 index_t y_total, index_t x_total, GenericAttentionMaskEnum mask_enum)
{
    const bool is_causal = window_left < 0 && window_right == 0;
    AlibiMode mode       = AlibiMode::FROM_TOP_LEFT;
    if(is_causal)
        mode = AlibiMode::VERTICAL;
    else if(mask_enum == GenericAttentionMaskEnum::MASK_FROM_BOTTOM_RIGHT ||
            mask_enum == GenericAttentionMaskEnum::NO_MASK)
        mode = AlibiMode::FROM_BOTTOM_RIGHT;
    return Alibi<DataType, RowMajor>{slope, y_total, x_total, mode};
}

// The ALiBi paper's head slopes. For a power-of-two head count n the slopes are the geometric
// sequence 2^(-8/n), 2^(-16/n), ..., 2^(-8). Otherwise, with p the largest power of two below
// nhead, the first p slopes are those of p heads and the remaining nhead - p are taken, in order,
// from every other slope of 2p heads (the ones that interleave between the first p). Each slope
// is computed directly in double, so it is the correctly rounded value in T.
template <typename T>
CK_TILE_HOST std::vector<T> get_alibi_slopes(index_t nhead)
{
    std::vector<T> slopes;
    if(nhead <= 0)
        return slopes;
    index_t p = 1;
    while(p * 2 <= nhead)
        p *= 2;
    for(index_t i = 0; i < p; ++i)
        slopes.push_back(type_convert<T>(static_cast<float>(std::exp2(-8.0 * (i + 1) / p))));
    // every other slope of 2p heads, starting with the first: exponents -8 (2k + 1) / (2p)
    for(index_t k = 0; k < nhead - p; ++k)
        slopes.push_back(type_convert<T>(static_cast<float>(std::exp2(-8.0 * (2 * k + 1) / (2 * p)))));
    return slopes;
}

} // namespace ck_tile
