// SPDX-License-Identifier: MIT
// TileFmhaShape: the tile sizes of one forward attention block (upstream's parameter names).
//
//   BlockTile = sequence<kM0, kN0, kK0, kN1, kK1, kK0BlockLength>
//     kM0             query rows per block
//     kN0             keys per step of the K loop (S = Q K^T is kM0 x kN0)
//     kK0             head-dim slice of one GEMM 0 step (the K tile in LDS holds all of them)
//     kN1             output (head dim of V) columns per block
//     kK1             keys per GEMM 1 step (O += P V over kN0 keys in kK1 slices)
//     kK0BlockLength  the head dim of Q and K the instance is built for (Q stays in registers)
//   Gemm0BlockWarps / Gemm1BlockWarps = sequence<warps along M, N, K>: the warps split the rows
//     only (every warp owns kM0 / NumWarps rows for both GEMMs, so the softmax needs no LDS)
//   Gemm0WarpTile / Gemm1WarpTile = sequence<M, N, K> of one warp GEMM
//   IsVLayoutRowMajor: V stored [seqlen_k, hdim_v] (true) or [hdim_v, seqlen_k] (false)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockTile_, typename Gemm0BlockWarps_, typename Gemm0WarpTile_, typename Gemm1BlockWarps_,
          typename Gemm1WarpTile_, bool IsVLayoutRowMajor_>
struct TileFmhaShape
{
    using BlockTile       = BlockTile_;
    using Gemm0BlockWarps = Gemm0BlockWarps_;
    using Gemm0WarpTile   = Gemm0WarpTile_;
    using Gemm1BlockWarps = Gemm1BlockWarps_;
    using Gemm1WarpTile   = Gemm1WarpTile_;

    static constexpr index_t NumWarps = Gemm0BlockWarps::at(0) * Gemm0BlockWarps::at(1) * Gemm0BlockWarps::at(2);
    static_assert(NumWarps == Gemm1BlockWarps::at(0) * Gemm1BlockWarps::at(1) * Gemm1BlockWarps::at(2),
                  "TileFmhaShape: both GEMMs use the same warps");
    static_assert(Gemm0BlockWarps::at(1) == 1 && Gemm0BlockWarps::at(2) == 1 && Gemm1BlockWarps::at(1) == 1 &&
                      Gemm1BlockWarps::at(2) == 1,
                  "TileFmhaShape: the warps split the query rows only");

    static constexpr index_t kM0            = BlockTile::at(0);
    static constexpr index_t kN0            = BlockTile::at(1);
    static constexpr index_t kK0            = BlockTile::at(2);
    static constexpr index_t kN1            = BlockTile::at(3);
    static constexpr index_t kK1            = BlockTile::at(4);
    static constexpr index_t kK0BlockLength = BlockTile::at(5);

    static constexpr index_t kWarpM  = Gemm0WarpTile::at(0);
    static constexpr index_t kWarpN0 = Gemm0WarpTile::at(1);
    static constexpr index_t kWarpK0 = Gemm0WarpTile::at(2);
    static constexpr index_t kWarpN1 = Gemm1WarpTile::at(1);
    static constexpr index_t kWarpK1 = Gemm1WarpTile::at(2);
    static_assert(Gemm1WarpTile::at(0) == kWarpM, "TileFmhaShape: both GEMMs have the same warp rows");
    static_assert(kM0 == NumWarps * kWarpM, "TileFmhaShape: kM0 must be one warp tile of rows per warp");
    static_assert(kN0 % kWarpN0 == 0 && kK0BlockLength % kK0 == 0 && kK0 % kWarpK0 == 0 && kN1 % kWarpN1 == 0 &&
                      kN0 % kK1 == 0 && kK1 % kWarpK1 == 0,
                  "TileFmhaShape: every block tile must be a multiple of its warp tile");

    static constexpr bool IsVLayoutRowMajor = IsVLayoutRowMajor_;
};

} // namespace ck_tile
