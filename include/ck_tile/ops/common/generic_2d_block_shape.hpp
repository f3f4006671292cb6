// SPDX-License-Identifier: MIT
// Generic2dBlockShape<BlockTile, ThreadPerBlock, Vector>: how one block of a row-wise 2-D kernel
// (the norms, smoothquant) covers its tile. Each argument is sequence<M, N>: M indexes rows (one
// result per row), N the columns a row is reduced over.
//
//   BlockTile       elements the block covers per step (Block_M rows x Block_N columns)
//   ThreadPerBlock  the block's threads arranged as ThreadPerBlock_M x ThreadPerBlock_N
//   Vector          elements one thread moves per access along M and N (Vector_N: the row's
//                   vector; 16 bytes of 16-bit data is 8)
//
// Derived (upstream's names): a warp covers whole rows when ThreadPerBlock_N fits in a wave
// (ThreadPerWarp_N = ThreadPerBlock_N, several rows per warp), else one row with
// ThreadPerBlock_N / wave size warps side by side along N. Repeat_M/N = how many times each
// thread's pattern repeats to fill the block tile.
//
//   row of Block_N:  | rep 0: warp 0 .. WarpPerBlock_N-1 | rep 1: ... | ... Repeat_N |
//                      each warp: ThreadPerWarp_N lanes x Vector_N contiguous elements
//
// make_generic_2d_block_tile_distribution<Shape>(): the block tile's distribution in that
// arrangement (warps: P0, lanes: P1; registers: Repeat_M, Vector_M, Repeat_N, Vector_N), the one
// every row-wise kernel loads x with; its row-wise reduction is the rows' statistics.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockTile_, typename ThreadPerBlock_, typename Vector_>
struct Generic2dBlockShape
{
    static constexpr index_t Block_M = BlockTile_::at(0);
    static constexpr index_t Block_N = BlockTile_::at(1);

    static constexpr index_t ThreadPerBlock_M = ThreadPerBlock_::at(0);
    static constexpr index_t ThreadPerBlock_N = ThreadPerBlock_::at(1);

    static constexpr index_t Vector_M = Vector_::at(0);
    static constexpr index_t Vector_N = Vector_::at(1);

    static constexpr index_t BlockSize = ThreadPerBlock_M * ThreadPerBlock_N;
    static_assert(BlockSize % get_warp_size() == 0, "Generic2dBlockShape: the block must be whole waves");

    // lanes of one warp along N and M
    static constexpr index_t ThreadPerWarp_N = ThreadPerBlock_N <= get_warp_size() ? ThreadPerBlock_N : get_warp_size();
    static constexpr index_t ThreadPerWarp_M = get_warp_size() / ThreadPerWarp_N;
    static_assert(get_warp_size() % ThreadPerWarp_N == 0 && ThreadPerBlock_N % ThreadPerWarp_N == 0,
                  "Generic2dBlockShape: ThreadPerBlock_N must divide a wave or be a multiple of it");

    static constexpr index_t WarpPerBlock_N = ThreadPerBlock_N / ThreadPerWarp_N;
    static constexpr index_t WarpPerBlock_M = ThreadPerBlock_M / ThreadPerWarp_M;
    static_assert(WarpPerBlock_M * ThreadPerWarp_M == ThreadPerBlock_M,
                  "Generic2dBlockShape: ThreadPerBlock_M must be a multiple of the rows one warp covers");

    // elements one warp covers
    static constexpr index_t Warp_M = ThreadPerWarp_M * Vector_M;
    static constexpr index_t Warp_N = ThreadPerWarp_N * Vector_N;

    static constexpr index_t Repeat_M = Block_M / (WarpPerBlock_M * Warp_M);
    static constexpr index_t Repeat_N = Block_N / (WarpPerBlock_N * Warp_N);
    static_assert(Repeat_M >= 1 && Repeat_M * WarpPerBlock_M * Warp_M == Block_M,
                  "Generic2dBlockShape: Block_M must be a multiple of ThreadPerBlock_M * Vector_M");
    static_assert(Repeat_N >= 1 && Repeat_N * WarpPerBlock_N * Warp_N == Block_N,
                  "Generic2dBlockShape: Block_N must be a multiple of ThreadPerBlock_N * Vector_N");
};

template <typename Shape>
CK_TILE_HOST_DEVICE constexpr auto make_generic_2d_block_tile_distribution()
{
    using S = Shape;
    return make_static_tile_distribution(
        tile_distribution_encoding<sequence<>,
                                   tuple<sequence<S::Repeat_M, S::WarpPerBlock_M, S::ThreadPerWarp_M, S::Vector_M>,
                                         sequence<S::Repeat_N, S::WarpPerBlock_N, S::ThreadPerWarp_N, S::Vector_N>>,
                                   tuple<sequence<1, 2>, sequence<1, 2>>, tuple<sequence<1, 1>, sequence<2, 2>>,
                                   sequence<1, 1, 2, 2>, sequence<0, 3, 0, 3>>{});
}

} // namespace ck_tile
