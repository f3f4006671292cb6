// SPDX-License-Identifier: MIT
// Layernorm2dFwdPipelineDefaultPolicy (upstream's name): the distributions and block operations
// both layernorm forward pipelines build on: the x tile's distribution (Generic2dBlockShape's),
// the column windows of the per-column vectors, the Welford problem and its LDS. The arithmetic
// is the pipelines' (Layernorm2dFwdPipelineBase).
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"
#include "ck_tile/ops/welford/block/block_welford.hpp"
#include "ck_tile/ops/welford/block/block_welford_problem.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_traits.hpp"

namespace ck_tile {

struct Layernorm2dFwdPipelineDefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeXBlockTileDistribution()
    {
        return make_generic_2d_block_tile_distribution<typename Problem::BlockShape>();
    }

    template <typename Problem>
    using WelfordProblem = BlockWelfordProblem<typename Problem::ComputeDataType, typename Problem::ComputeDataType,
                                               typename Problem::BlockShape>;

    template <typename Problem>
    using AccTile = decltype(make_static_distributed_tensor<typename Problem::ComputeDataType>(
        MakeXBlockTileDistribution<Problem>()));

    // per-column windows (bias, gamma, beta): the columns of each lane's own elements
    template <typename Problem, typename Window>
    CK_TILE_DEVICE static auto MakeColumnWindow(const Window& w)
    {
        return make_tile_window(w, make_reduce_tile_distribution<AccTile<Problem>, sequence<0>>());
    }

    // the row statistics' tile (mean, m2; one value per row of the x tile)
    template <typename Problem>
    using MeanVarTile =
        decltype(BlockWelford<WelfordProblem<Problem>>::template MakeMeanVarBlockTile<AccTile<Problem>>());

    // LDS of the cross-warp Welford merge (0 when a warp holds whole rows)
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return BlockWelfordCrossWarpSync<WelfordProblem<Problem>>::template GetSmemSize<MeanVarTile<Problem>>();
    }
};

} // namespace ck_tile
