// SPDX-License-Identifier: MIT
// ElementWiseKernel<XDataType, YDataType, BlockShape, ElementwiseOp, kVector>: y = op(x) over an
// M x N tensor (row strides of its own for x and y), converted to YDataType. The block shape is a
// Generic2dBlockShape; block b owns rows [b * Block_M, + Block_M) and walks along N one block tile
// at a time, reading and writing kVector elements per access (1: any size and stride). Padded
// views: any M and N work.
//
//   using K = ElementWiseKernel<float, half_t, Shape, element_wise::PassThrough, 4>;
//   auto kargs = K::MakeKargs(ElementWiseHostArgs{x, y, M, N, stride_x, stride_y});
//   if(!K::IsSupportedArgument(kargs)) ... K::GetUnsupportedReason(kargs) says why ...
//   launch_kernel(s, make_kernel<K::kBlockSize>(K{}, K::GridSize(kargs), K::BlockSize(), 0, kargs));
//
// The split-K GEMM's second stage (03_gemm's tile_example_gemm_splitk_two_stage) converts its
// fp32 workspace to C with it.
#pragma once
#include <cstdint>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"

namespace ck_tile {

struct ElementWiseHostArgs
{
    const void* p_x;
    void* p_y;
    index_t M;
    index_t N;
    index_t stride_x;
    index_t stride_y;
};

template <typename XDataType_, typename YDataType_, typename BlockShape_, typename ElementwiseOp_, index_t kVector_ = 1>
struct ElementWiseKernel
{
    using XDataType     = XDataType_;
    using YDataType     = YDataType_;
    using S             = BlockShape_;
    using ElementwiseOp = ElementwiseOp_;

    static constexpr index_t kBlockSize = S::BlockSize;
    static constexpr index_t kVector    = kVector_;
    static_assert(S::Vector_N % kVector == 0, "ElementWiseKernel: the access vector must divide the shape's");

    struct Kargs
    {
        const XDataType* p_x;
        YDataType* p_y;
        index_t M;
        index_t N;
        index_t stride_x;
        index_t stride_y;
        ElementwiseOp op;
    };

    CK_TILE_HOST static constexpr Kargs MakeKargs(const ElementWiseHostArgs& h, const ElementwiseOp& op = {})
    {
        return {
            static_cast<const XDataType*>(h.p_x), static_cast<YDataType*>(h.p_y), h.M, h.N, h.stride_x, h.stride_y, op};
    }
    CK_TILE_HOST static dim3 GridSize(const Kargs& k) { return dim3(integer_divide_ceil(k.M, S::Block_M)); }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }

    // "" if the kernel can run these arguments, else one line saying why not
    CK_TILE_HOST static std::string GetUnsupportedReason(const Kargs& k)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(k.M <= 0 || k.N <= 0)
            return "M and N must be positive (got " + s(k.M) + " x " + s(k.N) + ")";
        if(k.stride_x < k.N || k.stride_y < k.N)
            return "the strides (" + s(k.stride_x) + ", " + s(k.stride_y) + ") must be at least N=" + s(k.N);
        if(kVector > 1 && (k.N % kVector != 0 || k.stride_x % kVector != 0 || k.stride_y % kVector != 0 ||
                           reinterpret_cast<std::uintptr_t>(k.p_x) % (kVector * sizeof(XDataType)) != 0 ||
                           reinterpret_cast<std::uintptr_t>(k.p_y) % (kVector * sizeof(YDataType)) != 0))
            return "N, the strides and the pointers must be multiples of the vector size " + s(kVector);
        return {};
    }
    CK_TILE_HOST static bool IsSupportedArgument(const Kargs& k) { return GetUnsupportedReason(k).empty(); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        constexpr auto tile = make_tuple(number<S::Block_M>{}, number<S::Block_N>{});
        const index_t m0    = get_block_id() * S::Block_M;
        const auto x_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                k.p_x, make_tuple(k.M, k.N), make_tuple(k.stride_x, 1), number<kVector>{}),
                            tile, sequence<true, true>{});
        const auto y_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                k.p_y, make_tuple(k.M, k.N), make_tuple(k.stride_y, 1), number<kVector>{}),
                            tile, sequence<true, true>{});
        auto x_window =
            make_tile_window(x_view, tile, make_multi_index(m0, 0), make_generic_2d_block_tile_distribution<S>());
        auto y_window = make_tile_window(y_view, tile, make_multi_index(m0, 0));

        for(index_t n0 = 0; n0 < k.N; n0 += S::Block_N)
        {
            const auto x = load_tile(x_window);
            const auto y = tile_elementwise_in(
                [&](const XDataType& v) {
                    YDataType r;
                    k.op(r, v);
                    return r;
                },
                x);
            store_tile(y_window, y);
            move_tile_window(x_window, {0, S::Block_N});
            move_tile_window(y_window, {0, S::Block_N});
        }
    }
};

} // namespace ck_tile
