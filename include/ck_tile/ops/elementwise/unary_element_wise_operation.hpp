// SPDX-License-Identifier: MIT
// Unary element-wise operations on fp32, upstream's names (ck_tile::element_wise::...), usable on
// the host and the device; the fused-MoE kernel and its CPU reference call the same functors.
//
//   FastGelu:  y = x * sigmoid(2 * sqrt(2 / pi) * (x + 0.044715 x^3))
//              (the tanh form of GELU, 0.5 x (1 + tanh(u)) = x * sigmoid(2u), written with one exp)
//   Silu:      y = x * sigmoid(x)
// Both map 0 to 0, which the fused-MoE kernel relies on for its padded columns.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {
namespace element_wise {

struct FastGelu
{
    static constexpr const char* name = "gelu";
    CK_TILE_HOST_DEVICE float operator()(float x) const
    {
        constexpr float k2c = 2.0f * 0.7978845608028654f; // 2 * sqrt(2 / pi)
        const float u       = k2c * (x + 0.044715f * x * x * x);
        return x / (1.0f + __builtin_expf(-u));
    }
    CK_TILE_HOST_DEVICE void operator()(float& y, const float& x) const { y = (*this)(x); }
};

struct Silu
{
    static constexpr const char* name = "silu";
    CK_TILE_HOST_DEVICE float operator()(float x) const { return x / (1.0f + __builtin_expf(-x)); }
    CK_TILE_HOST_DEVICE void operator()(float& y, const float& x) const { y = (*this)(x); }
};

} // namespace element_wise
} // namespace ck_tile
