// SPDX-License-Identifier: MIT
// GemmTile2DPartitioner<BlockGemmShape> (alias TilePartitioner): which block computes which C tile.
//   GridSize(M, N)              one block per kM x kN tile of C (partial tiles count), a 1-D grid
//   GetLoopNum(K)               K steps of kK each (the last one may be partial)
//   GetOutputTileIndex(b, N)    (tile row, tile column) of block b; tiles are numbered row-major
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

template <typename BlockGemmShape_>
struct GemmTile2DPartitioner
{
    using BlockGemmShape = BlockGemmShape_;

    static constexpr index_t MPerBlock = BlockGemmShape::kM;
    static constexpr index_t NPerBlock = BlockGemmShape::kN;
    static constexpr index_t KPerBlock = BlockGemmShape::kK;

    CK_TILE_HOST_DEVICE static constexpr index_t GetNumTilesM(index_t M) { return integer_divide_ceil(M, MPerBlock); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetNumTilesN(index_t N) { return integer_divide_ceil(N, NPerBlock); }

    CK_TILE_HOST static constexpr dim3 GridSize(index_t M, index_t N)
    {
        return dim3(static_cast<unsigned>(GetNumTilesM(M) * GetNumTilesN(N)));
    }

    CK_TILE_HOST_DEVICE static constexpr index_t GetLoopNum(index_t K) { return integer_divide_ceil(K, KPerBlock); }

    CK_TILE_HOST_DEVICE static constexpr auto GetOutputTileIndex(index_t block_id, index_t N)
    {
        const index_t tiles_n = GetNumTilesN(N);
        return make_tuple(block_id / tiles_n, block_id % tiles_n);
    }
};

template <typename BlockGemmShape>
using TilePartitioner = GemmTile2DPartitioner<BlockGemmShape>;

} // namespace ck_tile
