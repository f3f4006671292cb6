// SPDX-License-Identifier: MIT
// FusedMoeGemmShape: the tiling of the fused-MoE GEMMs (upstream's name and parameter order).
//
//   BlockTile_0    = sequence<M, N0, K0>  GEMM 0 (gate/up): M sorted rows x an N0 slice of the
//                                         intermediate dimension, hidden walked in K0 steps
//   WarpPerBlock_0 = sequence<MWarp, NWarp, 1>
//   WarpTile_0     = sequence<16, 16, 32> one warp GEMM (one 16x16x32 MFMA, or two 16x16x16)
//   BlockTile_1    = sequence<M, N1, N0>  GEMM 1 (down): the M rows x an N1 chunk of hidden, over
//                                         the block's N0 slice of the intermediate dimension
//   WarpPerBlock_1, WarpTile_1            likewise for GEMM 1
// The block is MWarp x NWarp waves (the same for both GEMMs).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockTile_0_, typename WarpPerBlock_0_, typename WarpTile_0_, typename BlockTile_1_,
          typename WarpPerBlock_1_, typename WarpTile_1_>
struct FusedMoeGemmShape
{
    using BlockTile_0    = BlockTile_0_;
    using WarpPerBlock_0 = WarpPerBlock_0_;
    using WarpTile_0     = WarpTile_0_;
    using BlockTile_1    = BlockTile_1_;
    using WarpPerBlock_1 = WarpPerBlock_1_;
    using WarpTile_1     = WarpTile_1_;

    static constexpr index_t Block_M0 = BlockTile_0::at(0);
    static constexpr index_t Block_N0 = BlockTile_0::at(1);
    static constexpr index_t Block_K0 = BlockTile_0::at(2);
    static constexpr index_t Block_M1 = BlockTile_1::at(0);
    static constexpr index_t Block_N1 = BlockTile_1::at(1);
    static constexpr index_t Block_K1 = BlockTile_1::at(2);

    static constexpr index_t WarpPerBlock_M0 = WarpPerBlock_0::at(0);
    static constexpr index_t WarpPerBlock_N0 = WarpPerBlock_0::at(1);
    static constexpr index_t WarpPerBlock_M1 = WarpPerBlock_1::at(0);
    static constexpr index_t WarpPerBlock_N1 = WarpPerBlock_1::at(1);

    static constexpr index_t Warp_M0 = WarpTile_0::at(0);
    static constexpr index_t Warp_N0 = WarpTile_0::at(1);
    static constexpr index_t Warp_K0 = WarpTile_0::at(2);
    static constexpr index_t Warp_M1 = WarpTile_1::at(0);
    static constexpr index_t Warp_N1 = WarpTile_1::at(1);
    static constexpr index_t Warp_K1 = WarpTile_1::at(2);

    static constexpr index_t NumWarps  = WarpPerBlock_M0 * WarpPerBlock_N0;
    static constexpr index_t BlockSize = NumWarps * get_warp_size();

    // warp tiles per warp
    static constexpr index_t Repeat_M0 = Block_M0 / (WarpPerBlock_M0 * Warp_M0);
    static constexpr index_t Repeat_N0 = Block_N0 / (WarpPerBlock_N0 * Warp_N0);
    static constexpr index_t Repeat_K0 = Block_K0 / Warp_K0;
    static constexpr index_t Repeat_M1 = Block_M1 / (WarpPerBlock_M1 * Warp_M1);
    static constexpr index_t Repeat_N1 = Block_N1 / (WarpPerBlock_N1 * Warp_N1);
    static constexpr index_t Repeat_K1 = Block_K1 / Warp_K1;

    static_assert(BlockTile_0::size() == 3 && BlockTile_1::size() == 3 && WarpPerBlock_0::size() == 3 &&
                      WarpPerBlock_1::size() == 3 && WarpTile_0::size() == 3 && WarpTile_1::size() == 3,
                  "FusedMoeGemmShape: every parameter is a sequence of 3");
    static_assert(Block_M0 == Block_M1 && Block_K1 == Block_N0,
                  "FusedMoeGemmShape: GEMM 1 takes GEMM 0's rows and its N0 slice as K");
    static_assert(WarpPerBlock_M1 * WarpPerBlock_N1 == NumWarps && WarpPerBlock_0::at(2) == 1 &&
                      WarpPerBlock_1::at(2) == 1,
                  "FusedMoeGemmShape: both GEMMs use all the block's warps, none along K");
    static_assert(Repeat_M0 * WarpPerBlock_M0 * Warp_M0 == Block_M0 &&
                      Repeat_N0 * WarpPerBlock_N0 * Warp_N0 == Block_N0 && Repeat_K0 * Warp_K0 == Block_K0 &&
                      Repeat_M1 * WarpPerBlock_M1 * Warp_M1 == Block_M1 &&
                      Repeat_N1 * WarpPerBlock_N1 * Warp_N1 == Block_N1 && Repeat_K1 * Warp_K1 == Block_K1 &&
                      Repeat_M0 >= 1 && Repeat_N0 >= 1 && Repeat_K0 >= 1 && Repeat_N1 >= 1,
                  "FusedMoeGemmShape: the block tiles must be whole numbers of warp tiles per warp");
};

} // namespace ck_tile
