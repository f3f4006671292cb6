// SPDX-License-Identifier: MIT
// FusedMoeGemmTilePartitioner_Linear: a 1-D grid over (sorted row tile, intermediate slice), the
// slices of one row tile in consecutive blocks (they read the same token rows). The grid is sized
// for the most row tiles any routing can give (moe_sorting_max_output_ids / M); the blocks past the
// routing's real number of tiles (known on the device only) exit at once.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

template <typename BlockShape_>
struct FusedMoeGemmTilePartitioner_Linear
{
    using BlockShape = BlockShape_;

    static constexpr index_t kM  = BlockShape::Block_M0;
    static constexpr index_t kN0 = BlockShape::Block_N0;

    CK_TILE_HOST_DEVICE static constexpr index_t GetNumSlices(index_t intermediate_size)
    {
        return (intermediate_size + kN0 - 1) / kN0;
    }

    // (row tile, first intermediate column of the slice) of block `block_id`
    CK_TILE_DEVICE static auto GetTileIndex(index_t block_id, index_t intermediate_size)
    {
        const index_t slices = GetNumSlices(intermediate_size);
        return make_tuple(block_id / slices, (block_id % slices) * kN0);
    }

    CK_TILE_HOST static dim3 GridSize(index_t max_num_tokens_padded, index_t intermediate_size)
    {
        const index_t tiles = (max_num_tokens_padded + kM - 1) / kM;
        return dim3(static_cast<unsigned>(tiles * GetNumSlices(intermediate_size)));
    }
};

} // namespace ck_tile
