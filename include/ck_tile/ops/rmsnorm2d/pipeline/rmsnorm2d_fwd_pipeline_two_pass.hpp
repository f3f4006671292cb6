// SPDX-License-Identifier: MIT
// Rmsnorm2dFwdPipelineTwoPass: rows longer than the block tile, walked in chunks of Block_N
// columns (any n; the last chunk is padded):
//
//   pass 1  per chunk: x' = x (+ x_residual -> y_residual); sum of x'^2 per thread
//           then the lane and warp reductions: invrms[m]
//   pass 2  per chunk: x' again, y = x' * invrms * gamma
//           no quant: y -> YDataType
//           quant:    (y -> y_unquant), (y *= sm_scale), absmax per thread; then the lane and
//                     warp reductions of the absmax, y_scale[m] stored, and
//   pass 3  (quant only) per chunk: y again, (y *= sm_scale), quantized with y_scale and stored.
//
// The quant path uses DynamicQuantEpilogue's pieces in that order, so y_scale and the quantized
// values are those of the one-pass epilogue (bit for bit, for the same y). x is read twice (three
// times with quant); rows are short enough to stay in the cache between passes.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/rmsnorm2d/pipeline/rmsnorm2d_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = Rmsnorm2dFwdPipelineDefaultPolicy>
struct Rmsnorm2dFwdPipelineTwoPass
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Policy  = std::remove_cvref_t<Policy_>;
    using Traits  = typename Problem::Traits;
    using S       = typename Problem::BlockShape;

    static constexpr bool kTwoPass    = true;
    static constexpr const char* name = "twopass";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    template <typename XWindow, typename XResidualWindow, typename GammaWindow, typename YWindow,
              typename YResidualWindow, typename InvRmsWindow, typename SmScaleWindow, typename YScaleWindow,
              typename UnquantYWindow, typename Epilogue>
    CK_TILE_DEVICE void operator()(const XWindow& x_window_, const XResidualWindow& x_residual_window_,
                                   const GammaWindow& gamma_window_, const YWindow& y_window_,
                                   const YResidualWindow& y_residual_window_, const InvRmsWindow& inv_rms_window,
                                   const SmScaleWindow& sm_scale_window_, const YScaleWindow& y_scale_window,
                                   const UnquantYWindow& unquant_y_window_, float epsilon, index_t row_size,
                                   const Rmsnorm2dFwdRunFlags& f, void* smem, const Epilogue& epilogue) const
    {
        constexpr index_t kN  = S::Block_N;
        constexpr auto x_dstr = Policy::template MakeXBlockTileDistribution<Problem>();
        auto x_window         = make_tile_window(x_window_, x_dstr);
        auto xr_window        = make_tile_window(x_residual_window_, x_dstr);
        auto g_window  = make_tile_window(gamma_window_, Policy::template MakeGammaBlockTileDistribution<Problem>());
        auto yr_window = y_residual_window_;
        auto y_window  = y_window_;
        auto sm_window = sm_scale_window_;
        auto unquant_window  = unquant_y_window_;
        const index_t chunks = integer_divide_ceil(row_size, kN);

        const auto next   = [&](auto& w) { move_tile_window(w, {0, kN}); };
        const auto rewind = [&](auto& w) { move_tile_window(w, {0, -chunks * kN}); };

        // pass 1: the rows' sums of squares (and y_residual)
        using XTile = Policy::template XBlockTile<Problem>;
        auto acc    = Policy::template GetBlockReduce2d<Problem>().template MakeYBlockTile<XTile>();
        set_tile(acc, 0.0f);
        for(index_t c = 0; c < chunks; ++c)
        {
            const auto x = Policy::template LoadXPrime<Problem>(x_window, xr_window, yr_window, f, f.store_residual);
            Policy::template AccumulateSquareSum<Problem>(x, acc);
            next(x_window);
            next(xr_window);
            next(yr_window);
        }
        const auto inv_rms = Policy::template MakeInvRms<Problem>(acc, smem, row_size, epsilon);
        if constexpr(Traits::kSaveInvRms)
        {
            if(f.save_inv_rms)
                Policy::template StoreInvRms<Problem>(inv_rms_window, inv_rms);
        }
        else
            (void)inv_rms_window;
        rewind(x_window);
        rewind(xr_window);

        // y of the chunk the windows are at
        const auto chunk_y = [&]() {
            const auto x     = Policy::template LoadXPrime<Problem>(x_window, xr_window, yr_window, f, false);
            const auto gamma = load_tile(g_window);
            return Policy::template ComputeY<Problem>(x, gamma, inv_rms, f);
        };
        const auto next_1d = [&](auto& w) { move_tile_window(w, {kN}); };

        if constexpr(!Traits::kHasQuant)
        {
            (void)sm_window;
            (void)y_scale_window;
            (void)unquant_window;
            for(index_t c = 0; c < chunks; ++c)
            {
                epilogue(y_window, chunk_y());
                next(x_window);
                next(xr_window);
                next_1d(g_window);
                next(y_window);
            }
        }
        else
        {
            // pass 2: the rows' absmax (and y_unquant)
            using YTile = decltype(chunk_y());
            auto absmax = Epilogue::template MakeRowAbsMaxTile<YTile>();
            for(index_t c = 0; c < chunks; ++c)
            {
                auto y = chunk_y();
                if constexpr(Traits::kSaveUnquant)
                {
                    if(f.save_unquant)
                        store_tile(unquant_window, cast_tile<typename Problem::UnquantYDataType>(y));
                    next(unquant_window);
                }
                if(f.smooth)
                    Epilogue::apply_smooth_scale(y, sm_window);
                Epilogue::accumulate_row_absmax(absmax, y);
                next(x_window);
                next(xr_window);
                next_1d(g_window);
                next_1d(sm_window);
            }
            Epilogue::sync_row_absmax(absmax, smem);
            const auto y_scale = Epilogue::make_y_scale(absmax);
            Epilogue::store_y_scale(y_scale_window, y_scale);
            rewind(x_window);
            rewind(xr_window);
            move_tile_window(g_window, {-chunks * kN});
            move_tile_window(sm_window, {-chunks * kN});

            // pass 3: quantize
            for(index_t c = 0; c < chunks; ++c)
            {
                auto y = chunk_y();
                if(f.smooth)
                    Epilogue::apply_smooth_scale(y, sm_window);
                Epilogue::quantize_and_store(y_window, y, y_scale);
                next(x_window);
                next(xr_window);
                next_1d(g_window);
                next_1d(sm_window);
                next(y_window);
            }
        }
    }
};

} // namespace ck_tile
