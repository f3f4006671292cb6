// SPDX-License-Identifier: MIT
// Layernorm2dFwdPipelineOnePass: a block's rows fit its tile (n <= Block_N), so x is read once and
// stays in registers:
//
//   x' = load_x (bias, residual; y_residual = x')  ->  Welford (real columns only)  ->  lanes, warps
//   -> mean, inv_std (saved when asked)  ->  y = normalize(x')  ->  epilogue:
//      Default2DEpilogue (y in its type) or DynamicQuantEpilogue (smooth, row absmax, y_scale, q)
//
// The windows come from the kernel without distributions: x, x_residual, y, y_residual [Block_M x
// Block_N]; bias, gamma, beta, sm_scale [Block_N]; y_scale, mean, inv_std [Block_M].
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_pipeline_base.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = Layernorm2dFwdPipelineDefaultPolicy>
struct Layernorm2dFwdPipelineOnePass : Layernorm2dFwdPipelineBase<Problem_, Policy_>
{
    using Base = Layernorm2dFwdPipelineBase<Problem_, Policy_>;
    using typename Base::Compute;
    using typename Base::Policy;
    using typename Base::Problem;
    using typename Base::Traits;

    static constexpr bool kTwoPass    = false;
    static constexpr bool kQuant      = Traits::kFusedQuant != Layernorm2dFusedQuantEnum::NO_SWEEP;
    static constexpr const char* name = "onepass";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    template <typename XWin, typename XrWin, typename BiasWin, typename GammaWin, typename BetaWin, typename YWin,
              typename YrWin, typename SmWin, typename YScaleWin, typename MeanWin, typename InvStdWin,
              typename Epilogue>
    CK_TILE_DEVICE void
    operator()(const XWin& x_window, const XrWin& xr_window, const BiasWin& bias_window, const GammaWin& gamma_window,
               const BetaWin& beta_window, const YWin& y_window, const YrWin& yr_window, const SmWin& sm_scale_window,
               const YScaleWin& y_scale_window, const MeanWin& mean_window, const InvStdWin& inv_std_window,
               Compute epsilon, index_t n, const Layernorm2dFwdFlags& flags, void* smem, const Epilogue& epilogue) const
    {
        constexpr auto x_dstr = Policy::template MakeXBlockTileDistribution<Problem>();
        const auto x_win      = make_tile_window(x_window, x_dstr);
        const auto xr_win     = make_tile_window(xr_window, x_dstr);
        const auto bias_win   = Policy::template MakeColumnWindow<Problem>(bias_window);

        const auto acc = Base::load_x(x_win, xr_win, bias_win, flags);
        Base::store_residual(yr_window, acc, flags);

        using Welford = BlockWelford<typename Policy::template WelfordProblem<Problem>>;
        auto mean     = Welford::template MakeMeanVarBlockTile<decltype(acc)>();
        auto var      = Welford::template MakeMeanVarBlockTile<decltype(acc)>();
        set_tile(mean, Compute(0));
        set_tile(var, Compute(0));
        int count = 0;
        Welford{}(acc, mean, var, count, n);
        Base::finish_row_stats(mean, var, count, epsilon, smem);
        const auto& inv_std = var;
        Base::save_mean_inv_std(mean_window, inv_std_window, mean, inv_std, flags);

        auto y = Base::normalize(acc, mean, inv_std, Policy::template MakeColumnWindow<Problem>(gamma_window),
                                 Policy::template MakeColumnWindow<Problem>(beta_window));
        if constexpr(kQuant)
        {
            if constexpr(Traits::kFusedQuant == Layernorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT)
                if(flags.smooth)
                    Epilogue::apply_smooth_scale(y, sm_scale_window);
            epilogue(y_window, y_scale_window, y, smem);
        }
        else
        {
            (void)sm_scale_window;
            (void)y_scale_window;
            epilogue(y_window, y, smem);
        }
    }
};

} // namespace ck_tile
