// SPDX-License-Identifier: MIT
// TileFmhaBwdShape: the tile sizes of one backward attention block (dQ, dK, dV).
//
//   BlockTile = sequence<kM0, kN0, kQKHeaddim, kVHeaddim>
//     kM0         query rows per step of the block's loop (one warp tile: every warp's S^T is
//                 its keys x all kM0 rows, so the softmax terms need no cross-warp exchange)
//     kN0         keys per block: each warp owns kN0 / NumWarps of them and accumulates their dK
//                 and dV rows in registers over the whole loop
//     kQKHeaddim  head dim of Q and K the instance is built for (hdim_q <= it)
//     kVHeaddim   head dim of V (hdim_v <= it)
//   BlockWarps = sequence<warps along the keys, 1, 1>
//   WarpTile   = sequence<M, N, K> of every warp GEMM (32 x 32 x 16 for 16-bit types)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockTile_, typename BlockWarps_, typename WarpTile_>
struct TileFmhaBwdShape
{
    using BlockTile  = BlockTile_;
    using BlockWarps = BlockWarps_;
    using WarpTile   = WarpTile_;

    static constexpr index_t NumWarps = BlockWarps::at(0) * BlockWarps::at(1) * BlockWarps::at(2);
    static_assert(BlockWarps::at(1) == 1 && BlockWarps::at(2) == 1, "TileFmhaBwdShape: the warps split the keys only");

    static constexpr index_t kM0        = BlockTile::at(0);
    static constexpr index_t kN0        = BlockTile::at(1);
    static constexpr index_t kQKHeaddim = BlockTile::at(2);
    static constexpr index_t kVHeaddim  = BlockTile::at(3);

    static constexpr index_t kWarpM = WarpTile::at(0);
    static constexpr index_t kWarpN = WarpTile::at(1);
    static constexpr index_t kWarpK = WarpTile::at(2);

    static_assert(kN0 == NumWarps * kWarpM, "TileFmhaBwdShape: kN0 must be one warp tile of keys per warp");
    static_assert(kM0 == kWarpN && kWarpM == kWarpN, "TileFmhaBwdShape: kM0 must be one square warp tile of rows");
    static_assert(kQKHeaddim % kWarpN == 0 && kVHeaddim % kWarpN == 0 && kQKHeaddim % kWarpK == 0 &&
                      kVHeaddim % kWarpK == 0 && kM0 % kWarpK == 0,
                  "TileFmhaBwdShape: the head dims must be whole warp tiles");
};

} // namespace ck_tile
