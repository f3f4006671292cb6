// SPDX-License-Identifier: MIT
// Element-wise operations an epilogue fuses into the store of C, or a reduction applies to its
// result: y = op(acc), computed on the accumulator (float) before the conversion to the output type. Each has
// upstream's form op(y, x) and the unary form y = op(x) (the one the host reference takes).
//   PassThrough      y = x   (the epilogues' default)
//   Relu             y = max(x, 0)
//   Scale{s}         y = s * x
//   ScaleRelu{s}     y = max(s * x, 0)
//   UnaryDivide{d}   y = x / d   (a divided result, as the mean of squares of 05_reduce's
//                                 multiblock example: a true division, not a product with 1/d)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {
namespace element_wise {

struct PassThrough
{
    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X& x) const
    {
        y = type_convert<Y>(x);
    }
    template <typename X>
    CK_TILE_HOST_DEVICE constexpr X operator()(const X& x) const
    {
        return x;
    }
};

struct Relu
{
    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X& x) const
    {
        const float v = type_convert<float>(x);
        y             = type_convert<Y>(v > 0.f ? v : 0.f);
    }
    template <typename X>
    CK_TILE_HOST_DEVICE constexpr X operator()(const X& x) const
    {
        X y{};
        (*this)(y, x);
        return y;
    }
};

struct Scale
{
    float scale_ = 1.f;

    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X& x) const
    {
        y = type_convert<Y>(scale_ * type_convert<float>(x));
    }
    template <typename X>
    CK_TILE_HOST_DEVICE constexpr X operator()(const X& x) const
    {
        X y{};
        (*this)(y, x);
        return y;
    }
};

struct ScaleRelu
{
    float scale_ = 1.f;

    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X& x) const
    {
        const float v = scale_ * type_convert<float>(x);
        y             = type_convert<Y>(v > 0.f ? v : 0.f);
    }
    template <typename X>
    CK_TILE_HOST_DEVICE constexpr X operator()(const X& x) const
    {
        X y{};
        (*this)(y, x);
        return y;
    }
};

struct UnaryDivide
{
    index_t divider_ = 1;

    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X& x) const
    {
        y = type_convert<Y>(type_convert<float>(x) / static_cast<float>(divider_));
    }
    template <typename X>
    CK_TILE_HOST_DEVICE constexpr X operator()(const X& x) const
    {
        X y{};
        (*this)(y, x);
        return y;
    }
};

} // namespace element_wise
} // namespace ck_tile
