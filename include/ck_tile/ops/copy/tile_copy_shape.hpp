// SPDX-License-Identifier: MIT
// TileCopyShape: how the work of one block is laid out, from the block down to one thread.
//
//   BlockWaves  sequence<WavesM, WavesN>   waves of the block along M and N
//   BlockTile   sequence<M, N>             elements one block covers per step along N
//   WaveTile    sequence<M, N>             elements one wave covers with one access per lane
//   ThreadTile  sequence<M, N>             elements of one lane's access: ThreadTile N contiguous
//                                          elements (one vector) on each of ThreadTile M rows
//
// A wave's lanes tile WaveTile with ThreadTiles (WaveTile N / ThreadTile N lanes side by side along
// N, the rest stacked along M); the block's waves tile BlockWaves * WaveTile; that pattern repeats
// BlockTile / (BlockWaves * WaveTile) times in each dimension.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename BlockWaves, typename BlockTile, typename WaveTile, typename ThreadTile>
struct TileCopyShape
{
    static constexpr index_t kWavesM = BlockWaves::at(0);
    static constexpr index_t kWavesN = BlockWaves::at(1);

    static constexpr index_t kBlockM = BlockTile::at(0);
    static constexpr index_t kBlockN = BlockTile::at(1);

    static constexpr index_t kWaveM = WaveTile::at(0);
    static constexpr index_t kWaveN = WaveTile::at(1);

    static constexpr index_t kThreadM = ThreadTile::at(0);
    static constexpr index_t kVector  = ThreadTile::at(1); // elements of one access along N

    static constexpr index_t kLanesN = kWaveN / kVector;
    static constexpr index_t kLanesM = get_warp_size() / kLanesN;

    static constexpr index_t kRepeatM = kBlockM / (kWavesM * kWaveM);
    static constexpr index_t kRepeatN = kBlockN / (kWavesN * kWaveN);

    static constexpr index_t kBlockSize = kWavesM * kWavesN * get_warp_size();

    static_assert(kWaveN % kVector == 0 && get_warp_size() % kLanesN == 0,
                  "TileCopyShape: a wave row must be whole lanes");
    static_assert(kWaveM == kLanesM * kThreadM, "TileCopyShape: WaveTile M must be (lanes along M) x ThreadTile M");
    static_assert(kBlockM % (kWavesM * kWaveM) == 0 && kBlockN % (kWavesN * kWaveN) == 0,
                  "TileCopyShape: BlockTile must be a multiple of BlockWaves x WaveTile");
};

} // namespace ck_tile
