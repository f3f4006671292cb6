// SPDX-License-Identifier: MIT
// The tile distributions both transpose pipelines use.
//
// Input tile [M x N]:  M = <RepeatM, WarpsM, LanesM, Vector>, N = <RepeatN, WarpsN, LanesN, Vector>
//   P0 (warp id) -> merge(WarpsM, WarpsN), P1 (lane id) -> merge(LanesM, LanesN)
//   Y = (RepeatM, RepeatN, M's Vector, N's Vector): a lane reads Vector rows of Vector elements
// Output tile [N x M]: the same components with M and N swapped, the same P merges (so every lane
//   keeps its elements), and Y = (RepeatN, RepeatM, N's Vector, M's Vector): M's Vector, contiguous
//   in the output, comes last, so a lane writes Vector rows of Vector elements.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

struct BatchedTransposeCommonPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeInputDistribution()
    {
        using P = Problem;
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<P::kRepeatM, P::kWarpsM, P::kLanesM, P::kVector>,
                                             sequence<P::kRepeatN, P::kWarpsN, P::kLanesN, P::kVector>>,
                                       tuple<sequence<1, 2>, sequence<1, 2>>, tuple<sequence<1, 1>, sequence<2, 2>>,
                                       sequence<1, 2, 1, 2>, sequence<0, 0, 3, 3>>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeOutputDistribution()
    {
        using P = Problem;
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<P::kRepeatN, P::kWarpsN, P::kLanesN, P::kVector>,
                                             sequence<P::kRepeatM, P::kWarpsM, P::kLanesM, P::kVector>>,
                                       tuple<sequence<2, 1>, sequence<2, 1>>, tuple<sequence<1, 1>, sequence<2, 2>>,
                                       sequence<1, 2, 1, 2>, sequence<0, 0, 3, 3>>{});
    }
};

} // namespace ck_tile
