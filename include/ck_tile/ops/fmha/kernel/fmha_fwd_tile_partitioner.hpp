// SPDX-License-Identifier: MIT
// FmhaFwdTilePartitioner: which (batch, head, row tile, column tile) a block of the forward
// kernel computes.
//
// One column tile: an instance's kN1 holds the whole hdim_v (the kernel refuses a larger one), so
// a block computes all of O's columns for its rows.
//
// Grid (as upstream's newest kernel): x = heads, y = row tiles, z = batch; heads vary
// fastest in the hardware's dispatch order, so concurrent blocks of a long sequence read the K and
// V of every head. With head_major (chosen by the host's LLC-aware head grouping for bhsd tensors,
// see example/ck_tile/01_fmha), the linear block id is split the other way: consecutive blocks
// take consecutive tiles of one (batch, head), which then share that head's K and V in the cache.
// Both orders cover every block once, so the outputs are the same.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockFmhaShape_>
struct FmhaFwdTilePartitioner
{
    using BlockFmhaShape = std::remove_cvref_t<BlockFmhaShape_>;

    static constexpr index_t kM0 = BlockFmhaShape::kM0;
    static constexpr index_t kN1 = BlockFmhaShape::kN1;

    static constexpr const char* name = "hsb";

    CK_TILE_HOST_DEVICE static constexpr index_t NumTiles(index_t max_seqlen_q)
    {
        return (max_seqlen_q + kM0 - 1) / kM0;
    }
    CK_TILE_HOST static dim3 GridSize(index_t batch, index_t nhead, index_t max_seqlen_q, index_t hdim_v)
    {
        (void)hdim_v;
        return dim3(nhead, NumTiles(max_seqlen_q), batch);
    }

    struct TileIndex
    {
        index_t i_tile_m, i_nhead, i_batch;
    };

    // nhead, num_tiles, batch: the grid's x, y, z
    CK_TILE_DEVICE static TileIndex GetTileIndex(index_t nhead, index_t num_tiles, bool head_major)
    {
        index_t i_nhead = get_block_id(), tile = get_block_id_y(), i_batch = get_block_id_z();
        if(head_major)
        {
            const long_index_t lin       = i_nhead + static_cast<long_index_t>(nhead) * (tile + num_tiles * i_batch);
            const long_index_t per_batch = static_cast<long_index_t>(nhead) * num_tiles;
            i_batch                      = static_cast<index_t>(lin / per_batch);
            i_nhead                      = static_cast<index_t>((lin % per_batch) / num_tiles);
            tile                         = static_cast<index_t>(lin % num_tiles);
        }
        return {tile, i_nhead, i_batch};
    }
};

} // namespace ck_tile
