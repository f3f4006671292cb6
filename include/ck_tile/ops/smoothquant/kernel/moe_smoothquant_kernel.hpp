// SPDX-License-Identifier: MIT
// MoeSmoothquant<Pipeline>: smoothquant of each token once per expert it is routed to, the
// quantization in front of a mixture-of-experts GEMM (upstream's names and host arguments):
//
//   row r = j * tokens + t (j < topk: the slot, t: the token), e = topk_ids[t, j]
//   y[r, n]   = x[t, n] * smscale[e, n]                    (fp32)
//   yscale[r] = max_n |y[r, n]| / max(QY)                  (127 for int8, the arch's fp8 maximum)
//   qy[r, n]  = saturate(y[r, n] / yscale[r])
//
// Output rows are ordered [topk, tokens]. Each block owns one output row (Block_M must be 1: the
// rows of a block would have different experts' smoothing scales), so the Smoothquant pipelines
// run unchanged with the expert's smscale row. x and qy have their own row strides (>= hidden).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_problem.hpp"

namespace ck_tile {

struct MoeSmoothquantHostArgs
{
    const void* p_x;        // [tokens, hidden_size], row stride x_stride
    const void* p_smscale;  // [experts, hidden_size]
    const void* p_topk_ids; // [tokens, topk], int32
    void* p_yscale;         // [topk * tokens]
    void* p_qy;             // [topk * tokens, hidden_size], row stride y_stride
    index_t tokens;
    index_t hidden_size;
    index_t experts;
    index_t topk;
    index_t x_stride;
    index_t y_stride;
};

template <typename Pipeline_>
struct MoeSmoothquant
{
    using Pipeline            = std::remove_cvref_t<Pipeline_>;
    using Problem             = typename Pipeline::Problem;
    using XDataType           = typename Problem::XDataType;
    using SmoothScaleDataType = typename Problem::SmoothScaleDataType;
    using YScaleDataType      = typename Problem::YScaleDataType;
    using QYDataType          = typename Problem::QYDataType;
    using S                   = typename Problem::BlockShape;

    static_assert(S::Block_M == 1, "MoeSmoothquant: one output row per block (Block_M = 1)");

    static constexpr index_t kBlockSize = S::BlockSize;
    static constexpr index_t kVector    = S::Vector_N;

    using Kargs = MoeSmoothquantHostArgs;

    CK_TILE_HOST static constexpr Kargs MakeKargs(const MoeSmoothquantHostArgs& h) { return h; }
    CK_TILE_HOST static dim3 GridSize(const MoeSmoothquantHostArgs& h) { return dim3(h.topk * h.tokens); }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Pipeline::GetSmemSize(); }

    CK_TILE_HOST static bool IsSupportedArgument(const MoeSmoothquantHostArgs& h)
    {
        const index_t n = h.hidden_size;
        if(h.tokens < 1 || n < 1 || h.experts < 1 || h.topk < 1 || h.topk > h.experts || h.x_stride < n ||
           h.y_stride < n)
            return false;
        if(n % kVector != 0 || h.x_stride % kVector != 0 || h.y_stride % kVector != 0)
            return false;
        if(!Problem::kPadN && n % S::Block_N != 0)
            return false;
        return Problem::kTwoPass || n <= S::Block_N;
    }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("moe_smoothquant_") + Pipeline::name + "_b" + std::to_string(S::Block_M) + "x" +
               std::to_string(S::Block_N) + "_t" + std::to_string(S::ThreadPerBlock_M) + "x" +
               std::to_string(S::ThreadPerBlock_N) + "_vec" + std::to_string(kVector) + (Problem::kPadN ? "_padn" : "");
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        constexpr auto tile = make_tuple(number<S::Block_M>{}, number<S::Block_N>{});
        const index_t row   = get_block_id();
        const index_t slot  = row / k.tokens;
        const index_t token = row % k.tokens;
        // the expert is uniform over the block: read once, kept in a scalar register
        const index_t expert = readfirstlane(static_cast<const index_t*>(k.p_topk_ids)[token * k.topk + slot]);

        const auto x_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                static_cast<const XDataType*>(k.p_x), make_tuple(k.tokens, k.hidden_size),
                                make_tuple(k.x_stride, 1), number<kVector>{}, number<1>{}),
                            tile, sequence<false, Problem::kPadN>{});
        const auto qy_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                static_cast<QYDataType*>(k.p_qy), make_tuple(k.topk * k.tokens, k.hidden_size),
                                make_tuple(k.y_stride, 1), number<kVector>{}, number<1>{}),
                            tile, sequence<false, Problem::kPadN>{});
        const auto smscale_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                static_cast<const SmoothScaleDataType*>(k.p_smscale) +
                                    static_cast<long_index_t>(expert) * k.hidden_size,
                                make_tuple(k.hidden_size), make_tuple(1), number<kVector>{}, number<1>{}),
                            make_tuple(number<S::Block_N>{}), sequence<Problem::kPadN>{});
        const auto yscale_view = make_naive_tensor_view<address_space_enum::global>(
            static_cast<YScaleDataType*>(k.p_yscale), make_tuple(k.topk * k.tokens), make_tuple(1));

        __shared__ char smem[GetSmemSize() > 0 ? GetSmemSize() : 4];
        Pipeline{}(make_tile_window(x_view, tile, make_multi_index(token, 0)),
                   make_tile_window(smscale_view, make_tuple(number<S::Block_N>{}), make_multi_index(0)),
                   make_tile_window(yscale_view, make_tuple(number<S::Block_M>{}), make_multi_index(row)),
                   make_tile_window(qy_view, tile, make_multi_index(row, 0)), k.hidden_size, smem);
    }
};

} // namespace ck_tile
