// SPDX-License-Identifier: MIT
// Reduce2dTilePartitioner: how a multi-block reduction spreads the reduced length over blocks
// (upstream's name and rule).
//
// The reduced length L (rows of the [outer, L, inner] view) is cut into a block group of G
// consecutive chunks, one per block, each of I block steps (I * Block_N rows; the last chunk may
// be shorter). Upstream's rule: as many blocks as needed to give each one step, up to 128 per
// group; past 128 * Block_N rows each block takes more steps instead:
//   I = ceil(L / (Block_N * 128)),   G = ceil(L / (Block_N * I))   (so every block has rows).
// The grid holds one group per output tile (outer index x Block_M columns): block b is block
// b % G of the group of output tile b / G.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockShape_>
struct Reduce2dTilePartitioner
{
    using BlockShape = std::remove_cvref_t<BlockShape_>;

    static constexpr index_t MPerBlock = BlockShape::Block_M;
    static constexpr index_t NPerBlock = BlockShape::Block_N;
    // Upstream's bound: more blocks per group add atomics per output for little more parallelism.
    static constexpr index_t kMaxBlockGroupSize = 128;

    index_t total_reduction_length;

    CK_TILE_HOST_DEVICE explicit constexpr Reduce2dTilePartitioner(index_t total_reduce_len)
        : total_reduction_length(total_reduce_len)
    {}

    // (I, G): block steps per block, blocks per group; (0, 1) for an empty reduction
    CK_TILE_HOST_DEVICE constexpr tuple<index_t, index_t> GetBlockGroupParams() const
    {
        const index_t iters = integer_divide_ceil(total_reduction_length, NPerBlock * kMaxBlockGroupSize);
        if(iters == 0)
            return make_tuple(index_t{0}, index_t{1});
        return make_tuple(iters, integer_divide_ceil(total_reduction_length, NPerBlock * iters));
    }

    // (output tile, block within its group) of block `block_global_idx`
    CK_TILE_HOST_DEVICE static constexpr tuple<index_t, index_t> GetOutputTileIndexMultiBlock(index_t block_global_idx,
                                                                                              index_t block_group_size)
    {
        return make_tuple(block_global_idx / block_group_size, block_global_idx % block_group_size);
    }

    // first reduced row of block `local_idx` of a group whose blocks take `num_iterations` steps
    CK_TILE_HOST_DEVICE static constexpr index_t GetInputRowOffset(index_t local_idx, index_t num_iterations)
    {
        return NPerBlock * num_iterations * local_idx;
    }
};

} // namespace ck_tile
