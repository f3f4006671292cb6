// SPDX-License-Identifier: MIT
// AddRmsnorm2dRdquantFwdPipelineDefaultPolicy: the inputs are loaded in the block shape's generic
// row-wise distribution; the sums of squares are a block reduction (BlockReduce2d and its Sync
// steps); the quantization is DynamicQuantEpilogue without a smooth scale. The pipelines'
// shared steps live here so the one- and three-pass pipelines compute x and y the same way.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"
#include "ck_tile/ops/epilogue/dynamic_quant_epilogue.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"

namespace ck_tile {

struct AddRmsnorm2dRdquantFwdPipelineDefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeBlockTileDistribution()
    {
        return make_generic_2d_block_tile_distribution<typename Problem::BlockShape>();
    }

    template <typename Problem>
    using Epilogue = DynamicQuantEpilogue<DynamicQuantEpilogueProblem<
        typename Problem::ComputeDataType, typename Problem::ComputeDataType, typename Problem::YScaleDataType,
        typename Problem::QYDataType, typename Problem::BlockShape,
        DynamicQuantEpilogueTraits<true, Problem::kPadN, false>>>;

    template <typename Problem>
    using ReduceProblem = BlockReduce2dProblem<typename Problem::ComputeDataType, typename Problem::ComputeDataType,
                                               typename Problem::BlockShape>;

    // LDS of the cross-warp steps (the sums of squares and the maxima take turns in it)
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return Epilogue<Problem>::GetSmemSize();
    }

    // x = a + b, rounded to XDataType: the x that is stored and normalized
    template <typename Problem, typename ATile, typename BTile>
    CK_TILE_DEVICE static auto MakeX(const ATile& a, const BTile& b)
    {
        using C = typename Problem::ComputeDataType;
        auto x  = make_static_distributed_tensor<typename Problem::XDataType>(typename ATile::StaticTileDistribution{});
        static_for<0, ATile::thread_buffer_size>{}([&](auto d) {
            x[d] = type_convert<typename Problem::XDataType>(type_convert<C>(a[d]) + type_convert<C>(b[d]));
        });
        return x;
    }

    // sum over the row of x^2 into ss (a reduced tile, started at 0), this thread's elements only
    template <typename Problem, typename XTile, typename SsTile>
    CK_TILE_DEVICE static void AccumulateSquares(SsTile& ss, const XTile& x)
    {
        BlockReduce2d<ReduceProblem<Problem>>{}(x, ss, ReduceOp::SquareAdd{});
    }

    // combines the threads' partial sums and turns them into 1 / sqrt(mean(x^2) + epsilon)
    template <typename Problem, typename SsTile>
    CK_TILE_DEVICE static void MakeInvRms(SsTile& ss, index_t row_size, float epsilon, void* smem)
    {
        using C          = typename Problem::ComputeDataType;
        const auto f_add = [](C a, C b) { return a + b; };
        BlockReduce2dSync<ReduceProblem<Problem>>{}(ss, f_add);
        BlockReduce2dCrossWarpSync<ReduceProblem<Problem>>{}(ss, smem, f_add);
        const C inv_n = C(1) / type_convert<C>(row_size);
        static_for<0, SsTile::thread_buffer_size>{}(
            [&](auto i) { ss[i] = rsqrt(ss[i] * inv_n + type_convert<C>(epsilon)); });
    }

    // y = x * inv_rms[row] * gamma[column] (fp32)
    template <typename Problem, typename XTile, typename InvRmsTile, typename GammaWindow>
    CK_TILE_DEVICE static auto MakeY(const XTile& x, const InvRmsTile& inv_rms, const GammaWindow& gamma_window)
    {
        using C             = typename Problem::ComputeDataType;
        constexpr auto cols = make_reduce_tile_distribution<XTile, sequence<0>>();
        const auto gamma    = load_tile(make_tile_window(gamma_window, cols));
        auto y              = make_static_distributed_tensor<C>(typename XTile::StaticTileDistribution{});
        static_for<0, XTile::thread_buffer_size>{}([&](auto d) {
            constexpr index_t r = reduced_register<XTile, sequence<1>>(d);
            constexpr index_t c = reduced_register<XTile, sequence<0>>(d);
            y[d]                = type_convert<C>(x[d]) * inv_rms[r] * type_convert<C>(gamma[c]);
        });
        return y;
    }
};

} // namespace ck_tile
