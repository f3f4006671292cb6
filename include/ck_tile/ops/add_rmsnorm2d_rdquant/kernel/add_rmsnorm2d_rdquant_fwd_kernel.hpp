// SPDX-License-Identifier: MIT
// AddRmsnorm2dRdquantFwd<Pipeline>: a residual add, RMS norm and row-wise dynamic quantization of
// an m x n matrix in one kernel (upstream's names and host arguments):
//
//   x[m, n]   = a[m, n] + b[m, n]                     (rounded to the input type; stored if p_x)
//   y[m, n]   = x[m, n] / sqrt(mean_n x[m, :]^2 + epsilon) * gamma[n]      (fp32, not stored)
//   yscale[m] = max_n |y[m, n]| / max(QY)             (127 for int8, the arch's fp8 maximum)
//   qy[m, n]  = saturate(y[m, n] / yscale[m])
//
// Each block owns Block_M rows; a, b, x and qy share one row stride (>= n). The views are padded
// up to whole tiles: rows past m and columns past n read 0 and are not written.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/add_rmsnorm2d_rdquant/pipeline/add_rmsnorm2d_rdquant_fwd_pipeline_problem.hpp"

namespace ck_tile {

struct AddRmsnorm2dRdquantFwdHostArgs
{
    const void* p_a;     // [m, n]
    const void* p_b;     // [m, n]
    const void* p_gamma; // [n]
    void* p_x;           // [m, n], or nullptr: x is not stored
    void* p_yscale;      // [m]
    void* p_qy;          // [m, n]
    float epsilon;
    index_t m;
    index_t n;
    index_t stride; // row stride of a, b, x and qy
};

template <typename Pipeline_>
struct AddRmsnorm2dRdquantFwd
{
    using Pipeline       = std::remove_cvref_t<Pipeline_>;
    using Problem        = typename Pipeline::Problem;
    using ADataType      = typename Problem::ADataType;
    using BDataType      = typename Problem::BDataType;
    using GammaDataType  = typename Problem::GammaDataType;
    using XDataType      = typename Problem::XDataType;
    using YScaleDataType = typename Problem::YScaleDataType;
    using QYDataType     = typename Problem::QYDataType;
    using S              = typename Problem::BlockShape;

    static constexpr index_t kBlockSize = S::BlockSize;
    static constexpr index_t kVector    = S::Vector_N;

    using Kargs = AddRmsnorm2dRdquantFwdHostArgs;

    CK_TILE_HOST static constexpr Kargs MakeKargs(const AddRmsnorm2dRdquantFwdHostArgs& h) { return h; }
    CK_TILE_HOST static dim3 GridSize(const AddRmsnorm2dRdquantFwdHostArgs& h)
    {
        return dim3(integer_divide_ceil(h.m, S::Block_M));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Pipeline::GetSmemSize(); }

    // vector access needs n and the stride to be multiples of the vector; one pass needs a row to
    // fit the block tile; storing x needs kSaveX
    CK_TILE_HOST static bool IsSupportedArgument(const AddRmsnorm2dRdquantFwdHostArgs& h)
    {
        if(h.m < 1 || h.n < 1 || h.stride < h.n || h.n % kVector != 0 || h.stride % kVector != 0)
            return false;
        if(!Problem::kPadN && h.n % S::Block_N != 0)
            return false;
        if(!Problem::kSaveX && h.p_x != nullptr)
            return false;
        return Problem::kThreePass || h.n <= S::Block_N;
    }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("add_rmsnorm2d_rdquant_fwd_") + Pipeline::name + "_b" + std::to_string(S::Block_M) + "x" +
               std::to_string(S::Block_N) + "_t" + std::to_string(S::ThreadPerBlock_M) + "x" +
               std::to_string(S::ThreadPerBlock_N) + "_vec" + std::to_string(kVector) +
               (Problem::kPadN ? "_padn" : "") + (Problem::kSaveX ? "_savex" : "");
    }

    template <typename T>
    CK_TILE_DEVICE static auto MakeRowsView(T* p, const Kargs& k)
    {
        return pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                   p, make_tuple(k.m, k.n), make_tuple(k.stride, 1), number<kVector>{}, number<1>{}),
                               make_tuple(number<S::Block_M>{}, number<S::Block_N>{}),
                               sequence<true, Problem::kPadN>{});
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        constexpr auto tile = make_tuple(number<S::Block_M>{}, number<S::Block_N>{});
        const auto origin   = make_multi_index(get_block_id() * S::Block_M, 0);

        const auto gamma_view = pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                                    static_cast<const GammaDataType*>(k.p_gamma), make_tuple(k.n),
                                                    make_tuple(1), number<kVector>{}, number<1>{}),
                                                make_tuple(number<S::Block_N>{}), sequence<Problem::kPadN>{});
        const auto yscale_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(static_cast<YScaleDataType*>(k.p_yscale),
                                                                               make_tuple(k.m), make_tuple(1)),
                            make_tuple(number<S::Block_M>{}), sequence<true>{});

        __shared__ char smem[GetSmemSize() > 0 ? GetSmemSize() : 4];
        Pipeline{}(make_tile_window(MakeRowsView(static_cast<const ADataType*>(k.p_a), k), tile, origin),
                   make_tile_window(MakeRowsView(static_cast<const BDataType*>(k.p_b), k), tile, origin),
                   make_tile_window(gamma_view, make_tuple(number<S::Block_N>{}), make_multi_index(0)),
                   make_tile_window(MakeRowsView(static_cast<XDataType*>(k.p_x), k), tile, origin),
                   make_tile_window(yscale_view, make_tuple(number<S::Block_M>{}), make_multi_index(origin[0])),
                   make_tile_window(MakeRowsView(static_cast<QYDataType*>(k.p_qy), k), tile, origin), k.epsilon, k.n,
                   k.p_x != nullptr, smem);
    }
};

} // namespace ck_tile
