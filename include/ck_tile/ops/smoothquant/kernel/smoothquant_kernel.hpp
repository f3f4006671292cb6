// SPDX-License-Identifier: MIT
// Smoothquant<Pipeline>: per-column smoothing then per-row dynamic quantization of an m x n
// matrix (upstream's names and host arguments):
//
//   y[m, n]   = x[m, n] * smscale[n]                  (fp32)
//   yscale[m] = max_n |y[m, n]| / max(QY)             (127 for int8)
//   qy[m, n]  = saturate(round(y[m, n] / yscale[m]))  (0 for a row of zeros)
//
// Each block owns Block_M rows; the pipeline walks them (one pass when a row fits the block tile,
// two passes otherwise). x and qy have their own row strides (>= n). The views are padded up to
// whole tiles: rows past m and columns past n read 0 and are not written.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_problem.hpp"

namespace ck_tile {

struct SmoothquantHostArgs
{
    const void* p_x;       // [m, n], row stride x_stride
    const void* p_smscale; // [n]
    void* p_yscale;        // [m]
    void* p_qy;            // [m, n], row stride y_stride
    index_t m;
    index_t n;
    index_t x_stride;
    index_t y_stride;
};

template <typename Pipeline_>
struct Smoothquant
{
    using Pipeline            = std::remove_cvref_t<Pipeline_>;
    using Problem             = typename Pipeline::Problem;
    using XDataType           = typename Problem::XDataType;
    using SmoothScaleDataType = typename Problem::SmoothScaleDataType;
    using YScaleDataType      = typename Problem::YScaleDataType;
    using QYDataType          = typename Problem::QYDataType;
    using S                   = typename Problem::BlockShape;

    static constexpr index_t kBlockSize = S::BlockSize;
    static constexpr index_t kVector    = S::Vector_N;

    using Kargs = SmoothquantHostArgs;

    CK_TILE_HOST static constexpr Kargs MakeKargs(const SmoothquantHostArgs& h) { return h; }
    CK_TILE_HOST static dim3 GridSize(const SmoothquantHostArgs& h)
    {
        return dim3(integer_divide_ceil(h.m, S::Block_M));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Pipeline::GetSmemSize(); }

    // What this instance can run: vector access needs n and both strides to be multiples of the
    // vector; a one-pass instance needs a row to fit its block tile.
    CK_TILE_HOST static bool IsSupportedArgument(const SmoothquantHostArgs& h)
    {
        if(h.m < 1 || h.n < 1 || h.x_stride < h.n || h.y_stride < h.n)
            return false;
        if(h.n % kVector != 0 || h.x_stride % kVector != 0 || h.y_stride % kVector != 0)
            return false;
        if(!Problem::kPadN && h.n % S::Block_N != 0)
            return false;
        return Problem::kTwoPass || h.n <= S::Block_N;
    }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("smoothquant_") + Pipeline::name + "_b" + std::to_string(S::Block_M) + "x" +
               std::to_string(S::Block_N) + "_t" + std::to_string(S::ThreadPerBlock_M) + "x" +
               std::to_string(S::ThreadPerBlock_N) + "_vec" + std::to_string(kVector) + (Problem::kPadN ? "_padn" : "");
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        constexpr auto tile = make_tuple(number<S::Block_M>{}, number<S::Block_N>{});
        const index_t m0    = get_block_id() * S::Block_M;

        const auto x_view       = pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                                      static_cast<const XDataType*>(k.p_x), make_tuple(k.m, k.n),
                                                      make_tuple(k.x_stride, 1), number<kVector>{}, number<1>{}),
                                                  tile, sequence<true, Problem::kPadN>{});
        const auto qy_view      = pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                                      static_cast<QYDataType*>(k.p_qy), make_tuple(k.m, k.n),
                                                      make_tuple(k.y_stride, 1), number<kVector>{}, number<1>{}),
                                                  tile, sequence<true, Problem::kPadN>{});
        const auto smscale_view = pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                                      static_cast<const SmoothScaleDataType*>(k.p_smscale),
                                                      make_tuple(k.n), make_tuple(1), number<kVector>{}, number<1>{}),
                                                  make_tuple(number<S::Block_N>{}), sequence<Problem::kPadN>{});
        const auto yscale_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(static_cast<YScaleDataType*>(k.p_yscale),
                                                                               make_tuple(k.m), make_tuple(1)),
                            make_tuple(number<S::Block_M>{}), sequence<true>{});

        __shared__ char smem[GetSmemSize() > 0 ? GetSmemSize() : 4];
        Pipeline{}(make_tile_window(x_view, tile, make_multi_index(m0, 0)),
                   make_tile_window(smscale_view, make_tuple(number<S::Block_N>{}), make_multi_index(0)),
                   make_tile_window(yscale_view, make_tuple(number<S::Block_M>{}), make_multi_index(m0)),
                   make_tile_window(qy_view, tile, make_multi_index(m0, 0)), k.n, smem);
    }
};

} // namespace ck_tile
