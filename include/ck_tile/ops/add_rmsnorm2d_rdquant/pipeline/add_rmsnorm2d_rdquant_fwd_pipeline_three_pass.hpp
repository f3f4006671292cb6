// SPDX-License-Identifier: MIT
// AddRmsnorm2dRdquantFwdPipelineThreePass: rows of any length, walked in Block_N-column steps.
// The norm needs the row's sum of squares before any y, and the quantization needs the row's
// maximum |y| before any qy, so the row is walked three times (a and b re-read, x recomputed):
//   pass 1: x = a + b (stored when asked), running sum of x^2; then inv_rms
//   pass 2: y = x * inv_rms * gamma, running max |y|; then yscale (stored)
//   pass 3: y again, qy = saturate(y / yscale)
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/add_rmsnorm2d_rdquant/pipeline/add_rmsnorm2d_rdquant_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = AddRmsnorm2dRdquantFwdPipelineDefaultPolicy>
struct AddRmsnorm2dRdquantFwdPipelineThreePass
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using ComputeDataType = typename Problem::ComputeDataType;
    using Epilogue        = typename Policy::template Epilogue<Problem>;
    using ReduceProblem   = typename Policy::template ReduceProblem<Problem>;

    static constexpr const char* name = "threepass";
    static constexpr index_t kStep    = Problem::BlockShape::Block_N;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // the windows as in AddRmsnorm2dRdquantFwdPipelineOnePass, at the rows' first step
    template <typename AWindow, typename BWindow, typename GammaWindow, typename XWindow, typename YScaleWindow,
              typename QYWindow>
    CK_TILE_DEVICE void operator()(const AWindow& a_window_, const BWindow& b_window_, const GammaWindow& gamma_window_,
                                   const XWindow& x_window_, const YScaleWindow& yscale_window,
                                   const QYWindow& qy_window_, float epsilon, index_t row_size, bool save_x,
                                   void* smem) const
    {
        constexpr auto dstr = Policy::template MakeBlockTileDistribution<Problem>();
        auto a_window       = make_tile_window(a_window_, dstr);
        auto b_window       = make_tile_window(b_window_, dstr);
        auto gamma_window   = gamma_window_;
        auto x_window       = x_window_;
        auto qy_window      = qy_window_;
        const index_t steps = integer_divide_ceil(row_size, kStep);
        using XTile         = decltype(Policy::template MakeX<Problem>(load_tile(a_window), load_tile(b_window)));
        using YTile         = decltype(Policy::template MakeY<Problem>(
            XTile{}, BlockReduce2d<ReduceProblem>::template MakeYBlockTile<XTile>(), gamma_window));

        // pass 1: x, and the rows' sums of squares
        auto ss = BlockReduce2d<ReduceProblem>::template MakeYBlockTile<XTile>();
        set_tile(ss, ComputeDataType(0));
        for(index_t i = 0; i < steps; ++i)
        {
            const auto x = Policy::template MakeX<Problem>(load_tile(a_window), load_tile(b_window));
            if constexpr(Problem::kSaveX)
                if(save_x)
                    store_tile(x_window, x);
            Policy::template AccumulateSquares<Problem>(ss, x);
            move_tile_window(a_window, {0, kStep});
            move_tile_window(b_window, {0, kStep});
            move_tile_window(x_window, {0, kStep});
        }
        Policy::template MakeInvRms<Problem>(ss, row_size, epsilon, smem);

        // pass 2: the rows' maxima of |y|
        move_tile_window(a_window, {0, -steps * kStep});
        move_tile_window(b_window, {0, -steps * kStep});
        auto absmax = Epilogue::template MakeRowAbsMaxTile<YTile>();
        for(index_t i = 0; i < steps; ++i)
        {
            const auto x = Policy::template MakeX<Problem>(load_tile(a_window), load_tile(b_window));
            Epilogue::accumulate_row_absmax(absmax, Policy::template MakeY<Problem>(x, ss, gamma_window));
            move_tile_window(a_window, {0, kStep});
            move_tile_window(b_window, {0, kStep});
            move_tile_window(gamma_window, {kStep});
        }
        Epilogue::sync_row_absmax(absmax, smem);
        const auto yscale = Epilogue::make_y_scale(absmax);
        Epilogue::store_y_scale(yscale_window, yscale);

        // pass 3: quantize
        move_tile_window(a_window, {0, -steps * kStep});
        move_tile_window(b_window, {0, -steps * kStep});
        move_tile_window(gamma_window, {-steps * kStep});
        for(index_t i = 0; i < steps; ++i)
        {
            const auto x = Policy::template MakeX<Problem>(load_tile(a_window), load_tile(b_window));
            Epilogue::quantize_and_store(qy_window, Policy::template MakeY<Problem>(x, ss, gamma_window), yscale);
            move_tile_window(a_window, {0, kStep});
            move_tile_window(b_window, {0, kStep});
            move_tile_window(gamma_window, {kStep});
            move_tile_window(qy_window, {0, kStep});
        }
    }
};

} // namespace ck_tile
