// SPDX-License-Identifier: MIT
// Rmsnorm2dFwdPipelineOnePass: a block's rows fit its tile (n <= Block_N), so x is read once and
// stays in registers:
//
//   x' = x (+ x_residual -> y_residual)            one load (two with the residual)
//   invrms[m] = 1 / sqrt(sum_n x'^2 / n + eps)      thread, lane and warp reductions
//   y = x' * invrms * gamma (T5-like rounding)      fp32
//   no quant: y -> YDataType;  quant: (y -> y_unquant), DynamicQuantEpilogue (smooth or not)
//
// The T5 variant (upstream's Rmsnorm2dFwdPipelineModelSensitiveT5Pass) is a run-time switch of
// this pipeline and of the two-pass one (Rmsnorm2dFwdTraits).
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/rmsnorm2d/pipeline/rmsnorm2d_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = Rmsnorm2dFwdPipelineDefaultPolicy>
struct Rmsnorm2dFwdPipelineOnePass
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Policy  = std::remove_cvref_t<Policy_>;
    using Traits  = typename Problem::Traits;
    using S       = typename Problem::BlockShape;

    static constexpr bool kTwoPass        = false;
    static constexpr const char* name     = "onepass";
    static constexpr index_t kRowCapacity = S::Block_N; // the longest row this pipeline takes

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    template <typename XWindow, typename XResidualWindow, typename GammaWindow, typename YWindow,
              typename YResidualWindow, typename InvRmsWindow, typename SmScaleWindow, typename YScaleWindow,
              typename UnquantYWindow, typename Epilogue>
    CK_TILE_DEVICE void operator()(const XWindow& x_window_, const XResidualWindow& x_residual_window_,
                                   const GammaWindow& gamma_window_, const YWindow& y_window,
                                   const YResidualWindow& y_residual_window, const InvRmsWindow& inv_rms_window,
                                   const SmScaleWindow& sm_scale_window, const YScaleWindow& y_scale_window,
                                   const UnquantYWindow& unquant_y_window, float epsilon, index_t row_size,
                                   const Rmsnorm2dFwdRunFlags& f, void* smem, const Epilogue& epilogue) const
    {
        constexpr auto x_dstr = Policy::template MakeXBlockTileDistribution<Problem>();
        const auto x_window   = make_tile_window(x_window_, x_dstr);
        const auto xr_window  = make_tile_window(x_residual_window_, x_dstr);
        const auto g_window =
            make_tile_window(gamma_window_, Policy::template MakeGammaBlockTileDistribution<Problem>());

        const auto x =
            Policy::template LoadXPrime<Problem>(x_window, xr_window, y_residual_window, f, f.store_residual);
        const auto gamma = load_tile(g_window);

        auto acc =
            Policy::template GetBlockReduce2d<Problem>().template MakeYBlockTile<std::remove_cvref_t<decltype(x)>>();
        set_tile(acc, 0.0f);
        Policy::template AccumulateSquareSum<Problem>(x, acc);
        const auto inv_rms = Policy::template MakeInvRms<Problem>(acc, smem, row_size, epsilon);
        if constexpr(Traits::kSaveInvRms)
        {
            if(f.save_inv_rms)
                Policy::template StoreInvRms<Problem>(inv_rms_window, inv_rms);
        }
        else
            (void)inv_rms_window;

        const auto y = Policy::template ComputeY<Problem>(x, gamma, inv_rms, f);

        if constexpr(!Traits::kHasQuant)
        {
            (void)sm_scale_window;
            (void)y_scale_window;
            (void)unquant_y_window;
            epilogue(y_window, y);
        }
        else
        {
            if constexpr(Traits::kSaveUnquant)
            {
                if(f.save_unquant)
                    store_tile(unquant_y_window, cast_tile<typename Problem::UnquantYDataType>(y));
            }
            else
                (void)unquant_y_window;
            if(f.smooth)
                epilogue(y_window, sm_scale_window, y_scale_window, y, smem);
            else
                epilogue(y_window, y_scale_window, y, smem);
        }
    }
};

} // namespace ck_tile
