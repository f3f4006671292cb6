// SPDX-License-Identifier: MIT
// Layernorm2dFwdPipelineBase: the arithmetic both layernorm forward pipelines share, one tile of a
// row at a time, on the policy's distributions and Welford steps:
//
//   load_x            x' = x (+ bias[n]) (+ x_residual) in fp32; when anything was added, x' is
//                     rounded to X's type (the value y_residual stores and the reference sees)
//   store_residual    y_residual = x' (PRE_ADD_STORE, when asked for)
//   finish_row_stats  Welford's mean / m2 / count -> lanes -> warps -> mean,
//                     inv_std = 1 / sqrt(var + eps)
//   save_mean_inv_std mean[m], inv_std[m] (kSaveMeanInvStd, when asked for)
//   normalize         y = (x' - mean[m]) * inv_std[m] * gamma[n] + beta[n]   (fp32)
//
// Padding: columns past n load 0 (x, residual, bias, gamma, beta), are not counted by Welford
// (valid_length) and normalize to 0 (gamma = beta = 0), as the quantization's absmax needs.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"
#include "ck_tile/ops/welford/block/block_welford.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_traits.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_>
struct Layernorm2dFwdPipelineBase
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Policy  = std::remove_cvref_t<Policy_>;
    using Traits  = typename Problem::Traits;
    using Compute = typename Problem::ComputeDataType;

    // x' of the windows' current tile (x_win, xr_win: 2-D with the x distribution; bias_win: a
    // column window)
    template <typename XWin, typename XrWin, typename BiasWin>
    CK_TILE_DEVICE static auto load_x(const XWin& x_win, const XrWin& xr_win, const BiasWin& bias_win,
                                      const Layernorm2dFwdFlags& f)
    {
        using XTile = typename Policy::template AccTile<Problem>;
        auto acc    = cast_tile<Compute>(load_tile(x_win));
        bool added  = false;
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
    template <typename YrWin, typename Tile>
    CK_TILE_DEVICE static void store_residual(const YrWin& yr_win, const Tile& acc, const Layernorm2dFwdFlags& f)
    {
        if constexpr(Traits::kFusedAdd == Layernorm2dFusedAddEnum::PRE_ADD_STORE)
            if(f.store_residual)
                store_tile(yr_win, cast_tile<typename Problem::YResidualDataType>(acc));
    }

    // the row statistics after the thread-level Welford: combine lanes and warps, m2 -> var,
    // inv_std = 1 / sqrt(var + eps) (var becomes inv_std in place)
    template <typename MeanTile, typename VarTile>
    CK_TILE_DEVICE static void finish_row_stats(MeanTile& mean, VarTile& var, int& count, Compute epsilon, void* smem)
    {
        BlockWelfordSync<typename Policy::template WelfordProblem<Problem>>{}(mean, var, count);
        BlockWelfordCrossWarpSync<typename Policy::template WelfordProblem<Problem>>{}(mean, var, count, smem);
        block_tile_welford_post_scale_var(var, count);
        tile_elementwise_inout([&](Compute& v) { v = Compute(1) / sqrt(v + epsilon); }, var);
    }

    template <typename MeanWin, typename InvStdWin, typename MeanTile, typename InvStdTile>
    CK_TILE_DEVICE static void save_mean_inv_std(const MeanWin& mean_win, const InvStdWin& inv_std_win,
                                                 const MeanTile& mean, const InvStdTile& inv_std,
                                                 const Layernorm2dFwdFlags& f)
    {
        if constexpr(Traits::kSaveMeanInvStd)
        {
            if(f.save_mv)
            {
                store_tile(mean_win, cast_tile<typename Problem::MeanDataType>(mean));
                store_tile(inv_std_win, cast_tile<typename Problem::InvStdDataType>(inv_std));
            }
        }
    }

    // y = (x' - mean) * inv_std * gamma + beta (gamma_win / beta_win: column windows)
    template <typename Tile, typename MeanTile, typename InvStdTile, typename GammaWin, typename BetaWin>
    CK_TILE_DEVICE static auto normalize(const Tile& acc, const MeanTile& mean, const InvStdTile& inv_std,
                                         const GammaWin& gamma_win, const BetaWin& beta_win)
    {
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
