// SPDX-License-Identifier: MIT
// Tile partitioners: which block computes which kMPerBlock x kNPerBlock tile of C. All of them
// launch a 1-D grid of one block per tile (partial tiles count) and give
//   MPerBlock, NPerBlock, KPerBlock                  the block tile
//   GetNumTilesM(M), GetNumTilesN(N), GetNumTiles(M, N)
//   GridSize(M, N)                                   dim3(tiles)
//   GetLoopNum(K)                                    K steps of KPerBlock (the last may be partial)
//   GetOutputTileIndex(tile_id, M, N)                (tile row, tile column) of tile number tile_id
//
//   GemmTile2DPartitioner       tiles row-major (along N first); alias TilePartitioner, the basic
//                               GEMM's. Its GetOutputTileIndex(tile_id, N) needs no M.
//   GemmTile1DPartitioner       the same order, upstream's name for the universal kernels
//   GemmSpatiallyLocalTilePartitioner<Shape, GroupNum, M01>
//                               consecutive tile ids are spread over GroupNum groups (on MI300 a
//                               workgroup's XCD is its id modulo 8, so GroupNum = 8 gives each XCD a
//                               contiguous range of tiles, which shares its L2); inside the range,
//                               tiles go down stripes of M01 tile rows, so neighbours share A rows
//                               and B columns
//   OffsettedTile1DPartitioner<P>  P's mapping for a block id minus a start (grouped GEMMs)
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

template <typename BlockGemmShape_>
struct GemmTilePartitionerBase
{
    using BlockGemmShape = BlockGemmShape_;

    static constexpr index_t MPerBlock = BlockGemmShape::kM;
    static constexpr index_t NPerBlock = BlockGemmShape::kN;
    static constexpr index_t KPerBlock = BlockGemmShape::kK;

    CK_TILE_HOST_DEVICE static constexpr index_t GetNumTilesM(index_t M) { return integer_divide_ceil(M, MPerBlock); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetNumTilesN(index_t N) { return integer_divide_ceil(N, NPerBlock); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetNumTiles(index_t M, index_t N)
    {
        return GetNumTilesM(M) * GetNumTilesN(N);
    }

    CK_TILE_HOST static constexpr dim3 GridSize(index_t M, index_t N)
    {
        return dim3(static_cast<unsigned>(GetNumTiles(M, N)));
    }

    CK_TILE_HOST_DEVICE static constexpr index_t GetLoopNum(index_t K) { return integer_divide_ceil(K, KPerBlock); }
};

template <typename BlockGemmShape_>
struct GemmTile2DPartitioner : GemmTilePartitionerBase<BlockGemmShape_>
{
    using Base = GemmTilePartitionerBase<BlockGemmShape_>;

    CK_TILE_HOST_DEVICE static constexpr auto GetOutputTileIndex(index_t tile_id, index_t N)
    {
        const index_t tiles_n = Base::GetNumTilesN(N);
        return make_tuple(tile_id / tiles_n, tile_id % tiles_n);
    }
    CK_TILE_HOST_DEVICE static constexpr auto GetOutputTileIndex(index_t tile_id, index_t /*M*/, index_t N)
    {
        return GetOutputTileIndex(tile_id, N);
    }
};

template <typename BlockGemmShape>
using TilePartitioner = GemmTile2DPartitioner<BlockGemmShape>;

template <typename BlockGemmShape_>
struct GemmTile1DPartitioner : GemmTile2DPartitioner<BlockGemmShape_>
{
    static constexpr const char* name = "1d";
};

template <typename BlockGemmShape_, index_t GroupNum_ = 8, index_t M01_ = 4>
struct GemmSpatiallyLocalTilePartitioner : GemmTilePartitionerBase<BlockGemmShape_>
{
    using Base = GemmTilePartitionerBase<BlockGemmShape_>;

    static constexpr index_t GroupNum = GroupNum_;
    static constexpr index_t M01      = M01_;
    static_assert(GroupNum >= 1 && M01 >= 1, "GemmSpatiallyLocalTilePartitioner: GroupNum and M01 are positive");

    static constexpr const char* name = "spatially_local";

    CK_TILE_HOST_DEVICE static constexpr auto GetOutputTileIndex(index_t tile_id, index_t M, index_t N)
    {
        const index_t tiles_m = Base::GetNumTilesM(M);
        const index_t tiles_n = Base::GetNumTilesN(N);
        const index_t total   = tiles_m * tiles_n;

        // tile ids b with b % GroupNum == g form group g, in order: q + 1 of them for the first r
        // groups, q for the others; group g's range of the row-major-stripe order starts at
        // g * q + min(g, r). A bijection on [0, total).
        const index_t q     = total / GroupNum;
        const index_t r     = total % GroupNum;
        const index_t g     = tile_id % GroupNum;
        const index_t local = g * q + min(g, r) + tile_id / GroupNum;

        // stripes of M01 tile rows, each walked column by column
        const index_t stripe      = local / (M01 * tiles_n);
        const index_t in_stripe   = local % (M01 * tiles_n);
        const index_t stripe_rows = min(M01, tiles_m - stripe * M01);
        return make_tuple(stripe * M01 + in_stripe % stripe_rows, in_stripe / stripe_rows);
    }
};

template <typename Partitioner>
struct OffsettedTile1DPartitioner : Partitioner
{
    // (tile row, tile column) of block block_id of a group whose blocks start at block_start
    CK_TILE_HOST_DEVICE static constexpr auto GetOffsetedTileIndex(index_t block_start, index_t block_id, index_t M,
                                                                   index_t N)
    {
        return Partitioner::GetOutputTileIndex(block_id - block_start, M, N);
    }
};

} // namespace ck_tile
