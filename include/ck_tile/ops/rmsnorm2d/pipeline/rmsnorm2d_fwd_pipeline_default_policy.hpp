// SPDX-License-Identifier: MIT
// Rmsnorm2dFwdPipelineDefaultPolicy: the distributions and block reductions of the rmsnorm2d
// pipelines, and the per-element steps both pipelines share.
//
//   x, x_residual, y ...   make_generic_2d_block_tile_distribution of the BlockShape
//   gamma                  the x distribution reduced over rows (each lane loads its own columns)
//   sum of squares         BlockReduce2d (SquareAdd), then Sync and CrossWarpSync (Add)
//
// LDS: the cross-warp sum of squares and the epilogue's cross-warp absmax reuse one buffer (each
// step begins and ends with a barrier); none when a warp holds whole rows.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"
#include "ck_tile/ops/rmsnorm2d/pipeline/rmsnorm2d_fwd_traits.hpp"

namespace ck_tile {

// what one launch does with the fusions an instance can do (Rmsnorm2dFwdTraits): uniform flags
struct Rmsnorm2dFwdRunFlags
{
    bool add_residual   = false; // x' = x + x_residual
    bool store_residual = false; // y_residual = x'
    bool save_inv_rms   = false; // invrms[m] stored
    bool save_unquant   = false; // y before quantization stored
    bool smooth         = false; // y *= sm_scale[n] before quantization
    bool t5             = false; // T5-like rounding
};

struct Rmsnorm2dFwdPipelineDefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeXBlockTileDistribution()
    {
        return make_generic_2d_block_tile_distribution<typename Problem::BlockShape>();
    }

    template <typename Problem>
    using XBlockTile =
        decltype(make_static_distributed_tensor<typename Problem::XDataType>(MakeXBlockTileDistribution<Problem>()));

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeGammaBlockTileDistribution()
    {
        return make_reduce_tile_distribution<XBlockTile<Problem>, sequence<0>>();
    }

    template <typename Problem>
    using ReduceProblem = BlockReduce2dProblem<typename Problem::XDataType, typename Problem::ComputeDataType,
                                               typename Problem::BlockShape>;

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockReduce2d()
    {
        return BlockReduce2d<ReduceProblem<Problem>>{};
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockReduce2dSync()
    {
        return BlockReduce2dSync<ReduceProblem<Problem>>{};
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockReduce2dCrossWarpSync()
    {
        return BlockReduce2dCrossWarpSync<ReduceProblem<Problem>>{};
    }

    // the per-row statistics tile (one fp32 per row register)
    template <typename Problem>
    using RowTile = decltype(BlockReduce2d<ReduceProblem<Problem>>::template MakeYBlockTile<XBlockTile<Problem>>());

    // LDS of the cross-warp sum of squares
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return BlockReduce2dCrossWarpSync<ReduceProblem<Problem>>::template GetSmemSize<RowTile<Problem>>();
    }

    // ---- the steps both pipelines share ----

    // x' = x (+ x_residual, rounded to the input type, as it is stored to y_residual)
    template <typename Problem, typename XWindow, typename XResidualWindow, typename YResidualWindow>
    CK_TILE_DEVICE static auto LoadXPrime(const XWindow& x_window, const XResidualWindow& x_residual_window,
                                          const YResidualWindow& y_residual_window, const Rmsnorm2dFwdRunFlags& f,
                                          bool store_residual)
    {
        using X = typename Problem::XDataType;
        auto x  = load_tile(x_window);
        if constexpr(Problem::Traits::kHasAdd)
        {
            if(f.add_residual)
            {
                const auto xr = load_tile(x_residual_window);
                static_for<0, decltype(x)::thread_buffer_size>{}(
                    [&](auto d) { x[d] = type_convert<X>(type_convert<float>(x[d]) + type_convert<float>(xr[d])); });
                if(store_residual)
                    store_tile(y_residual_window, x);
            }
        }
        else
        {
            (void)x_residual_window;
            (void)y_residual_window;
            (void)f;
            (void)store_residual;
        }
        return x;
    }

    // row-wise sum of x'^2 of the calling thread's elements, into acc
    template <typename Problem, typename XTile, typename RowTile_>
    CK_TILE_DEVICE static void AccumulateSquareSum(const XTile& x, RowTile_& acc)
    {
        GetBlockReduce2d<Problem>()(x, acc, ReduceOp::SquareAdd{});
    }

    // every thread ends with its rows' full sums; then invrms = 1 / sqrt(sum / n + eps)
    template <typename Problem, typename RowTile_>
    CK_TILE_DEVICE static auto MakeInvRms(RowTile_& acc, void* smem, index_t row_size, float epsilon)
    {
        GetBlockReduce2dSync<Problem>()(acc, ReduceOp::Add{});
        GetBlockReduce2dCrossWarpSync<Problem>()(acc, smem, ReduceOp::Add{});
        const float inv_n = 1.0f / static_cast<float>(row_size);
        return tile_elementwise_in([&](float s) { return rsqrt(s * inv_n + epsilon); }, acc);
    }

    // y = x' * invrms * gamma (fp32); T5-like: x' * invrms rounded to the input type first
    template <typename Problem, typename XTile, typename GammaTile, typename InvRmsTile>
    CK_TILE_DEVICE static auto ComputeY(const XTile& x, const GammaTile& gamma, const InvRmsTile& inv_rms,
                                        const Rmsnorm2dFwdRunFlags& f)
    {
        using X = typename Problem::XDataType;
        auto y  = make_static_distributed_tensor<float>(typename XTile::StaticTileDistribution{});
        static_for<0, XTile::thread_buffer_size>{}([&](auto d) {
            constexpr index_t r = reduced_register<XTile, sequence<1>>(d);
            constexpr index_t c = reduced_register<XTile, sequence<0>>(d);
            float v             = type_convert<float>(x[d]) * inv_rms[r];
            if constexpr(Problem::Traits::kHasT5)
            {
                if(f.t5)
                    v = type_convert<float>(type_convert<X>(v));
            }
            y[d] = v * type_convert<float>(gamma[c]);
        });
        (void)f;
        return y;
    }

    // invrms[m] in InvRmsDataType, stored by the first replica of each row
    template <typename Problem, typename InvRmsWindow, typename InvRmsTile>
    CK_TILE_DEVICE static void StoreInvRms(const InvRmsWindow& w, const InvRmsTile& inv_rms)
    {
        if(detail::is_first_replica<typename InvRmsTile::StaticTileDistribution>())
            store_tile(w, cast_tile<typename Problem::InvRmsDataType>(inv_rms));
    }
};

} // namespace ck_tile
