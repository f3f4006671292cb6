// SPDX-License-Identifier: MIT
// Layernorm2dFwdPipelineTwoPass: rows longer than the block tile, walked Block_N columns at a time.
//
//   pass 1  each chunk: x' = load_x (y_residual = x'), Welford update with the chunk's real
//           columns (one running count per thread, so the chunks merge by count); then lanes and
//           warps merge (count-weighted) -> mean, inv_std (saved when asked)
//   pass 2  each chunk: x' again, y = normalize(x'), stored through the Default2DEpilogue
//   with a fused quantization, pass 2 only accumulates the rows' absmax (after the smooth scale)
//   and a third pass quantizes: DynamicQuantEpilogue's pieces (accumulate_row_absmax,
//   sync_row_absmax, make_y_scale / store_y_scale, quantize_and_store).
//
// x' is recomputed from x (+ bias, + x_residual) in every pass: nothing is kept between passes
// but the row statistics. The windows are those of the one-pass pipeline, at column 0.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_pipeline_base.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = Layernorm2dFwdPipelineDefaultPolicy>
struct Layernorm2dFwdPipelineTwoPass : Layernorm2dFwdPipelineBase<Problem_, Policy_>
{
    using Base = Layernorm2dFwdPipelineBase<Problem_, Policy_>;
    using typename Base::Compute;
    using typename Base::Policy;
    using typename Base::Problem;
    using typename Base::Traits;
    using Shape = typename Problem::BlockShape;

    static constexpr bool kTwoPass    = true;
    static constexpr bool kQuant      = Traits::kFusedQuant != Layernorm2dFusedQuantEnum::NO_SWEEP;
    static constexpr const char* name = "twopass";

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
        constexpr index_t kN  = Shape::Block_N;
        constexpr auto x_dstr = Policy::template MakeXBlockTileDistribution<Problem>();
        const index_t chunks  = integer_divide_ceil(n, kN);

        auto x_win     = make_tile_window(x_window, x_dstr);
        auto xr_win    = make_tile_window(xr_window, x_dstr);
        auto bias_win  = Policy::template MakeColumnWindow<Problem>(bias_window);
        auto yr_win    = yr_window;
        auto gamma_win = Policy::template MakeColumnWindow<Problem>(gamma_window);
        auto beta_win  = Policy::template MakeColumnWindow<Problem>(beta_window);
        auto y_win     = y_window;
        auto sm_win    = sm_scale_window;

        // the x' inputs move together; back to column 0 after each pass
        const auto move_inputs = [&](index_t step) {
            move_tile_window(x_win, {0, step});
            move_tile_window(xr_win, {0, step});
            move_tile_window(bias_win, {step});
        };

        // pass 1: statistics
        using Welford = BlockWelford<typename Policy::template WelfordProblem<Problem>>;
        using AccTile = typename Policy::template AccTile<Problem>;
        auto mean     = Welford::template MakeMeanVarBlockTile<AccTile>();
        auto var      = Welford::template MakeMeanVarBlockTile<AccTile>();
        set_tile(mean, Compute(0));
        set_tile(var, Compute(0));
        int count = 0;
        for(index_t c = 0; c < chunks; ++c)
        {
            const auto acc = Base::load_x(x_win, xr_win, bias_win, flags);
            Base::store_residual(yr_win, acc, flags);
            Welford{}(acc, mean, var, count, n - c * kN);
            move_inputs(kN);
            move_tile_window(yr_win, {0, kN});
        }
        move_inputs(-chunks * kN);
        Base::finish_row_stats(mean, var, count, epsilon, smem);
        const auto& inv_std = var;
        Base::save_mean_inv_std(mean_window, inv_std_window, mean, inv_std, flags);

        // y of the windows' current chunk (smoothed when asked)
        const auto make_y = [&]() {
            const auto acc = Base::load_x(x_win, xr_win, bias_win, flags);
            auto y         = Base::normalize(acc, mean, inv_std, gamma_win, beta_win);
            if constexpr(Traits::kFusedQuant == Layernorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT)
                if(flags.smooth)
                    Epilogue::apply_smooth_scale(y, sm_win);
            return y;
        };
        const auto move_all = [&](index_t step) {
            move_inputs(step);
            move_tile_window(gamma_win, {step});
            move_tile_window(beta_win, {step});
            move_tile_window(sm_win, {step});
            move_tile_window(y_win, {0, step});
        };

        if constexpr(kQuant)
        {
            // pass 2: the rows' absmax
            auto absmax = Epilogue::template MakeRowAbsMaxTile<AccTile>();
            for(index_t c = 0; c < chunks; ++c)
            {
                Epilogue::accumulate_row_absmax(absmax, make_y());
                move_all(kN);
            }
            move_all(-chunks * kN);
            Epilogue::sync_row_absmax(absmax, smem);
            const auto y_scale = Epilogue::make_y_scale(absmax);
            Epilogue::store_y_scale(y_scale_window, y_scale);
            // pass 3: quantize
            for(index_t c = 0; c < chunks; ++c)
            {
                Epilogue::quantize_and_store(y_win, make_y(), y_scale);
                move_all(kN);
            }
        }
        else
        {
            (void)y_scale_window;
            for(index_t c = 0; c < chunks; ++c)
            {
                epilogue(y_win, make_y(), smem);
                move_all(kN);
            }
        }
    }
};

} // namespace ck_tile
