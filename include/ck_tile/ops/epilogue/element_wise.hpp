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
//
// The CDE ops of the multiple-D GEMM (E = op(C, D0, D1, ...), computed in float from C and the Ds,
// then converted to E's type), in upstream's form op(e, c, d0, d1, ...):
//   MultiplyMultiply e = c * d0 * d1 * ...   (upstream: two Ds; here one or more)
//   AddAdd           e = c + d0 + d1 + ...   (upstream: two Ds; here one or more)
//   Add              e = c + d0              (exactly one D; also upstream's binary y = x0 + x1)
// Each says how split-K may apply it (kSplitK, a splitk_apply): the K splits of C add up in E, so
// an op linear in C (MultiplyMultiply) is applied by every split to its partial sum; an op that adds
// the Ds (Add, AddAdd) by split 0 alone, the other splits adding their raw partial sums; any other
// op (nonlinear in C) cannot be split. PassThrough and Scale are linear.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

// how a K-split kernel (partial sums of C added into E) may apply an output op exactly once
enum struct splitk_apply
{
    each_split,       // linear in C: every split applies it to its partial sum
    first_split_only, // C + terms of the Ds: split 0 applies it, the others add their raw C
    unsupported,      // neither: refuse k_batch > 1
};

// an op's splitk_apply: its member split_k() (a run-time choice), else its static kSplitK, else
// unsupported
template <typename Op>
CK_TILE_HOST_DEVICE constexpr splitk_apply get_splitk_apply(const Op& op)
{
    if constexpr(requires { op.split_k(); })
        return op.split_k();
    else if constexpr(requires { Op::kSplitK; })
        return Op::kSplitK;
    else
        return splitk_apply::unsupported;
}

namespace element_wise {

struct PassThrough
{
    static constexpr splitk_apply kSplitK = splitk_apply::each_split;
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
    static constexpr splitk_apply kSplitK = splitk_apply::each_split;
    float scale_                          = 1.f;

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

// e = c * d0 * d1 * ... (in float)
struct MultiplyMultiply
{
    static constexpr splitk_apply kSplitK = splitk_apply::each_split;

    template <typename E, typename C, typename... Ds>
    CK_TILE_HOST_DEVICE constexpr void operator()(E& e, const C& c, const Ds&... ds) const
    {
        static_assert(sizeof...(Ds) >= 1, "MultiplyMultiply: at least one D");
        float v = type_convert<float>(c);
        ((v *= type_convert<float>(ds)), ...);
        e = type_convert<E>(v);
    }
};

// e = c + d0 + d1 + ... (in float, in that order)
struct AddAdd
{
    static constexpr splitk_apply kSplitK = splitk_apply::first_split_only;

    template <typename E, typename C, typename... Ds>
    CK_TILE_HOST_DEVICE constexpr void operator()(E& e, const C& c, const Ds&... ds) const
    {
        static_assert(sizeof...(Ds) >= 1, "AddAdd: at least one D");
        float v = type_convert<float>(c);
        ((v += type_convert<float>(ds)), ...);
        e = type_convert<E>(v);
    }
};

// e = c + d0 (in float)
struct Add
{
    static constexpr splitk_apply kSplitK = splitk_apply::first_split_only;

    template <typename E, typename C, typename D>
    CK_TILE_HOST_DEVICE constexpr void operator()(E& e, const C& c, const D& d) const
    {
        e = type_convert<E>(type_convert<float>(c) + type_convert<float>(d));
    }
};

} // namespace element_wise
} // namespace ck_tile
