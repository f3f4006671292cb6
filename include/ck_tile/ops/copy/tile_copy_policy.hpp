// SPDX-License-Identifier: MIT
// TileCopyPolicy: the tile distribution that TileCopyShape describes, and the LDS tile of the
// LDS-staged copy.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename Problem>
struct TileCopyPolicy
{
    using S = typename Problem::BlockShape;

    // M = <RepeatM, WavesM, LanesM, ThreadM>, N = <RepeatN, WavesN, LanesN, Vector>
    //   P0 (warp id) -> merge(WavesM, WavesN); P1 (lane id) -> merge(LanesM, LanesN)
    //   Y = (RepeatM, ThreadM, RepeatN, Vector): the vector last, so its registers are contiguous
    CK_TILE_HOST_DEVICE static constexpr auto MakeDistribution()
    {
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<S::kRepeatM, S::kWavesM, S::kLanesM, S::kThreadM>,
                                             sequence<S::kRepeatN, S::kWavesN, S::kLanesN, S::kVector>>,
                                       tuple<sequence<1, 2>, sequence<1, 2>>, tuple<sequence<1, 1>, sequence<2, 2>>,
                                       sequence<1, 1, 2, 2>, sequence<0, 3, 0, 3>>{});
    }

    // the LDS copy of one block tile, row-major and packed (rows of BlockTile N stay aligned)
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsBlockDescriptor()
    {
        return make_naive_tensor_descriptor_packed(make_tuple(number<S::kBlockM>{}, number<S::kBlockN>{}),
                                                   number<S::kVector>{});
    }

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return S::kBlockM * S::kBlockN * index_t(sizeof(typename Problem::XDataType));
    }
};

} // namespace ck_tile
