// SPDX-License-Identifier: MIT
// TileGemmShape<BlockTile, BlockWarps, WarpTile>: the tiling of a GEMM, all compile-time.
//   BlockTile  = sequence<kM, kN, kK>                 the C tile of one block and its K step
//   BlockWarps = sequence<MWarp, NWarp, KWarp>        how the block's warps tile C (KWarp = 1)
//   WarpTile   = sequence<MPerWarp, NPerWarp, KPerWarp>  one warp GEMM (one MFMA) per step
// The block has MWarp * NWarp * KWarp wave64 warps.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockTile_, typename BlockWarps_, typename WarpTile_>
struct TileGemmShape
{
    using BlockTile  = BlockTile_;
    using BlockWarps = BlockWarps_;
    using WarpTile   = WarpTile_;

    static_assert(BlockTile::size() == 3 && BlockWarps::size() == 3 && WarpTile::size() == 3,
                  "TileGemmShape: each of BlockTile, BlockWarps, WarpTile is a sequence<M, N, K>");
    static_assert(BlockWarps::at(2) == 1, "TileGemmShape: the warps do not split K (KWarp must be 1)");

    static constexpr index_t kM = BlockTile::at(0);
    static constexpr index_t kN = BlockTile::at(1);
    static constexpr index_t kK = BlockTile::at(2);

    static constexpr index_t NumWarps  = BlockWarps::at(0) * BlockWarps::at(1) * BlockWarps::at(2);
    static constexpr index_t BlockSize = NumWarps * get_warp_size();

    static_assert(kM % (BlockWarps::at(0) * WarpTile::at(0)) == 0 && kN % (BlockWarps::at(1) * WarpTile::at(1)) == 0 &&
                      kK % WarpTile::at(2) == 0,
                  "TileGemmShape: the block tile must be a whole number of warp tiles per warp");
};

} // namespace ck_tile
