// SPDX-License-Identifier: MIT
// Reduce2dShape: the work of one block of a 2-D reduction, as upstream names it. Each argument is
// sequence<M, N>, where M is the kept dimension (one result per M index) and N the reduced one:
//   BlockWarps   warps of the block along M and N
//   BlockTile    elements one block covers per step along M and N
//   WarpTile     elements one warp covers along M and N
//   ThreadTile   elements one thread holds contiguously along M and N (ThreadTile_M is the vector
//                of a load when M is the contiguous dimension)
// Derived: ThreadPerWarp_* = WarpTile / ThreadTile, Repeat_* = BlockTile / (BlockWarps * WarpTile).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockWarps, typename BlockTile, typename WarpTile, typename ThreadTile>
struct Reduce2dShape
{
    static constexpr index_t Block_M = BlockTile::at(0);
    static constexpr index_t Block_N = BlockTile::at(1);

    static constexpr index_t Warp_M = WarpTile::at(0);
    static constexpr index_t Warp_N = WarpTile::at(1);

    static constexpr index_t ThreadTile_M = ThreadTile::at(0);
    static constexpr index_t ThreadTile_N = ThreadTile::at(1);

    static constexpr index_t WarpPerBlock_M = BlockWarps::at(0);
    static constexpr index_t WarpPerBlock_N = BlockWarps::at(1);

    static constexpr index_t ThreadPerWarp_M = Warp_M / ThreadTile_M;
    static constexpr index_t ThreadPerWarp_N = Warp_N / ThreadTile_N;

    static constexpr index_t Repeat_M = Block_M / (WarpPerBlock_M * Warp_M);
    static constexpr index_t Repeat_N = Block_N / (WarpPerBlock_N * Warp_N);

    static constexpr index_t BlockSize = get_warp_size() * WarpPerBlock_M * WarpPerBlock_N;

    static_assert(ThreadPerWarp_M * ThreadPerWarp_N == get_warp_size(),
                  "Reduce2dShape: WarpTile / ThreadTile must give one wave of lanes");
    static_assert(Repeat_M * WarpPerBlock_M * Warp_M == Block_M && Repeat_N * WarpPerBlock_N * Warp_N == Block_N,
                  "Reduce2dShape: BlockTile must be a multiple of BlockWarps * WarpTile");
};

} // namespace ck_tile
