// SPDX-License-Identifier: MIT
// Classic CK's element-wise operations, y = op(x, ...) with the result first:
//   PassThrough   y = x
//   Add           y = x0 + x1
//   Multiply      y = x0 * x1
//   AddMultiply   y = (x0 + x1) * x2   (the epilogue of DeviceSplitkGemmBiasEPermute: c, bias, e)
// computed in float and converted to y's type (ck_tile::type_convert).
#pragma once
#include "ck/ck.hpp"

namespace ck::tensor_operation::element_wise {

struct PassThrough
{
    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X& x) const
    {
        y = ck_tile::type_convert<Y>(ck_tile::type_convert<float>(x));
    }
};

struct Add
{
    template <typename Y, typename X0, typename X1>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X0& x0, const X1& x1) const
    {
        y = ck_tile::type_convert<Y>(ck_tile::type_convert<float>(x0) + ck_tile::type_convert<float>(x1));
    }
};

struct Multiply
{
    template <typename Y, typename X0, typename X1>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X0& x0, const X1& x1) const
    {
        y = ck_tile::type_convert<Y>(ck_tile::type_convert<float>(x0) * ck_tile::type_convert<float>(x1));
    }
};

struct AddMultiply
{
    template <typename Y, typename X0, typename X1, typename X2>
    CK_TILE_HOST_DEVICE constexpr void operator()(Y& y, const X0& x0, const X1& x1, const X2& x2) const
    {
        y = ck_tile::type_convert<Y>((ck_tile::type_convert<float>(x0) + ck_tile::type_convert<float>(x1)) *
                                     ck_tile::type_convert<float>(x2));
    }
};

} // namespace ck::tensor_operation::element_wise
