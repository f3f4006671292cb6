// SPDX-License-Identifier: MIT
// TileImageToColumnShape<ThreadTile, WarpTile, BlockTile>: how a block's tile of the im2col output
// (rows M = N*Ho*Wo, columns K = Y*X*C) is split. Each is a sequence<rows, columns>:
//   ThreadTile  the elements one thread moves: rows x a vector of columns
//   WarpTile    the elements one wave moves
//   BlockTile   the elements one block moves
// Upstream's example uses <8, 8>, <64, 64>, <128, 128>: 2 x 2 waves, 256 threads, 8 rows of one
// 8-element vector per thread.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename ThreadTile, typename WarpTile, typename BlockTile>
struct TileImageToColumnShape
{
    static constexpr index_t kMPerThread = ThreadTile::at(0);
    static constexpr index_t kKPerThread = ThreadTile::at(1);
    static constexpr index_t kMPerWarp   = WarpTile::at(0);
    static constexpr index_t kKPerWarp   = WarpTile::at(1);
    static constexpr index_t kMPerBlock  = BlockTile::at(0);
    static constexpr index_t kKPerBlock  = BlockTile::at(1);

    static constexpr index_t kMWarpPerBlock = kMPerBlock / kMPerWarp;
    static constexpr index_t kKWarpPerBlock = kKPerBlock / kKPerWarp;
    static constexpr index_t kBlockSize     = kMWarpPerBlock * kKWarpPerBlock * get_warp_size();

    static_assert(kMPerBlock % kMPerWarp == 0 && kKPerBlock % kKPerWarp == 0, "whole waves per block");
    static_assert((kMPerWarp / kMPerThread) * (kKPerWarp / kKPerThread) == get_warp_size(),
                  "a wave's threads cover its warp tile exactly");
};

} // namespace ck_tile
