// SPDX-License-Identifier: MIT
// Layernorm2dFwdPipelineDefaultPolicy: what both layernorm forward pipelines share (upstream's
// name): the x tile's distribution (Generic2dBlockShape's), the Welford steps, and the element
// steps of one tile of a row:
//
//   load_x        x' = x (+ bias[n]) (+ x_residual) in fp32; when anything was added, x' is
//                 rounded to X's type (the value y_residual stores and the reference sees)
//   row_stats     Welford's mean / m2 / count -> lanes -> warps -> mean, inv_std = 1/sqrt(var+eps)
//   normalize     y = (x' - mean[m]) * inv_std[m] * gamma[n] + beta[n]   (fp32)
//
// Padding: columns past n load 0 (x, residual, bias, gamma, beta), are not counted by Welford
// (valid_length) and normalize to 0 (gamma = beta = 0), as the quantization's absmax needs.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"
#include "ck_tile/ops/welford/block/block_welford.hpp"
#include "ck_tile/ops/welford/block/block_welford_problem.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_traits.hpp"

namespace ck_tile {

// the run-time switches of the fusions an instance compiles in (see Layernorm2dFwdTraits)
struct Layernorm2dFwdFlags
{
    bool bias;           // x' += bias[n]
    bool add;            // x' += x_residual
    bool store_residual; // y_residual = x'
    bool save_mv;        // mean[m], inv_std[m]
    bool smooth;         // y *= sm_scale[n] before the quantization
};

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

    // x' of the windows' current tile (x_win, xr_win: 2-D with the x distribution; bias_win: a
    // column window)
    template <typename Problem, typename XWin, typename XrWin, typename BiasWin>
    CK_TILE_DEVICE static auto load_x(const XWin& x_win, const XrWin& xr_win, const BiasWin& bias_win,
                                      const Layernorm2dFwdFlags& f)
    {
        using Traits  = typename Problem::Traits;
        using Compute = typename Problem::ComputeDataType;
        using XTile   = AccTile<Problem>;
        auto acc      = cast_tile<Compute>(load_tile(x_win));
        bool added    = false;
        if constexpr(Traits::kXbias == Layernorm2dXBiasEnum::ADD_BIAS)
        {
            if(f.bias)
            {
                const auto bias = load_tile(bias_win);
                static_for<0, XTile::thread_buffer_size>{}([&](auto d) {
                    constexpr index_t c = reduced_register<XTile, sequence<0>>(d);
                    acc[d]              = acc[d] + type_convert<Compute>(bias[c]);
                });
                added = true;
            }
        }
        if constexpr(Traits::kFusedAdd != Layernorm2dFusedAddEnum::NO_ADD)
        {
            if(f.add)
            {
                const auto xr = load_tile(xr_win);
                static_for<0, XTile::thread_buffer_size>{}(
                    [&](auto d) { acc[d] = acc[d] + type_convert<Compute>(xr[d]); });
                added = true;
            }
        }
        if(added)
            tile_elementwise_inout(
                [](Compute& v) { v = type_convert<Compute>(type_convert<typename Problem::XDataType>(v)); }, acc);
        return acc;
    }

    // y_residual = x' (when asked for)
    template <typename Problem, typename YrWin, typename Tile>
    CK_TILE_DEVICE static void store_residual(const YrWin& yr_win, const Tile& acc, const Layernorm2dFwdFlags& f)
    {
        if constexpr(Problem::Traits::kFusedAdd == Layernorm2dFusedAddEnum::PRE_ADD_STORE)
            if(f.store_residual)
                store_tile(yr_win, cast_tile<typename Problem::YResidualDataType>(acc));
    }

    // the row statistics after the thread-level Welford: combine lanes and warps, m2 -> var,
    // inv_std = 1 / sqrt(var + eps) (var becomes inv_std in place)
    template <typename Problem, typename MeanTile, typename VarTile>
    CK_TILE_DEVICE static void finish_row_stats(MeanTile& mean, VarTile& var, int& count,
                                                typename Problem::ComputeDataType epsilon, void* smem)
    {
        using Compute = typename Problem::ComputeDataType;
        BlockWelfordSync<WelfordProblem<Problem>>{}(mean, var, count);
        BlockWelfordCrossWarpSync<WelfordProblem<Problem>>{}(mean, var, count, smem);
        block_tile_welford_post_scale_var(var, count);
        tile_elementwise_inout([&](Compute& v) { v = Compute(1) / sqrt(v + epsilon); }, var);
    }

    template <typename Problem, typename MeanWin, typename InvStdWin, typename MeanTile, typename InvStdTile>
    CK_TILE_DEVICE static void save_mean_inv_std(const MeanWin& mean_win, const InvStdWin& inv_std_win,
                                                 const MeanTile& mean, const InvStdTile& inv_std,
                                                 const Layernorm2dFwdFlags& f)
    {
        if constexpr(Problem::Traits::kSaveMeanInvStd)
        {
            if(f.save_mv)
            {
                store_tile(mean_win, cast_tile<typename Problem::MeanDataType>(mean));
                store_tile(inv_std_win, cast_tile<typename Problem::InvStdDataType>(inv_std));
            }
        }
    }

    // y = (x' - mean) * inv_std * gamma + beta (gamma_win / beta_win: column windows)
    template <typename Problem, typename Tile, typename MeanTile, typename InvStdTile, typename GammaWin,
              typename BetaWin>
    CK_TILE_DEVICE static auto normalize(const Tile& acc, const MeanTile& mean, const InvStdTile& inv_std,
                                         const GammaWin& gamma_win, const BetaWin& beta_win)
    {
        using Compute    = typename Problem::ComputeDataType;
        const auto gamma = load_tile(gamma_win);
        const auto beta  = load_tile(beta_win);
        auto y           = make_static_distributed_tensor<Compute>(typename Tile::StaticTileDistribution{});
        static_for<0, Tile::thread_buffer_size>{}([&](auto d) {
            constexpr index_t r = reduced_register<Tile, sequence<1>>(d);
            constexpr index_t c = reduced_register<Tile, sequence<0>>(d);
            y[d] = (acc[d] - mean[r]) * inv_std[r] * type_convert<Compute>(gamma[c]) + type_convert<Compute>(beta[c]);
        });
        return y;
    }
};

} // namespace ck_tile
