// SPDX-License-Identifier: MIT
// Reduce2dDefaultPolicy: how the reduction kernels lay a block's tile over its threads and which
// block-level steps they use.
//
// The tile is Block_N rows of the reduced dimension by Block_M columns of the kept one, which is
// the contiguous one in memory (the layouts of 05_reduce: NHWC summed over N, or over H and W):
//   X0 (reduced) = <Repeat_N, WarpPerBlock_N, ThreadPerWarp_N, ThreadTile_N>
//   X1 (kept)    = <Repeat_M, WarpPerBlock_M, ThreadPerWarp_M, ThreadTile_M>
//   warp id = merge(warp along N, warp along M), lane id = merge(lane along N, lane along M),
//   registers: Repeat_N x ThreadTile_N x Repeat_M x ThreadTile_M (the last one contiguous).
// Neighbouring lanes read neighbouring ThreadTile_M-element vectors of a row, so a warp reads
// whole contiguous rows.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_problem.hpp"

namespace ck_tile {

struct Reduce2dDefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeXBlockTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return make_static_tile_distribution(
            tile_distribution_encoding<
                sequence<>,
                tuple<sequence<S::Repeat_N, S::WarpPerBlock_N, S::ThreadPerWarp_N, S::ThreadTile_N>,
                      sequence<S::Repeat_M, S::WarpPerBlock_M, S::ThreadPerWarp_M, S::ThreadTile_M>>,
                tuple<sequence<1, 2>, sequence<1, 2>>, tuple<sequence<1, 1>, sequence<2, 2>>, sequence<1, 1, 2, 2>,
                sequence<0, 3, 0, 3>>{});
    }

    template <typename Problem>
    using BlockProblem = BlockReduce2dProblem<typename Problem::XDataType, typename Problem::ComputeDataType,
                                              typename Problem::BlockShape, sequence<0>>;

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockReduce2d()
    {
        return BlockReduce2d<BlockProblem<Problem>>{};
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockReduce2dSync()
    {
        return BlockReduce2dSync<BlockProblem<Problem>>{};
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockReduce2dCrossWarpSync()
    {
        return BlockReduce2dCrossWarpSync<BlockProblem<Problem>>{};
    }

    // the reduced tile of one block (fp32 partial results)
    template <typename Problem>
    using YBlockTile = decltype(BlockReduce2d<BlockProblem<Problem>>::template MakeYBlockTile<static_distributed_tensor<
                                    typename Problem::XDataType, decltype(MakeXBlockTileDistribution<Problem>())>>());

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return BlockReduce2dCrossWarpSync<BlockProblem<Problem>>::template GetSmemSize<YBlockTile<Problem>>();
    }
};

} // namespace ck_tile
