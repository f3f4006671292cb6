// SPDX-License-Identifier: MIT
// SmoothquantPipelineTwoPass: rows of any length, walked in Block_N-column steps. The scale of a
// row needs its whole maximum before any element is quantized, so x is read twice:
//   pass 1: y = x * smscale per step, running per-row max |y|; then the block's threads combine
//           their maxima and yscale[m] = max / max(QY) is stored
//   pass 2: y = x * smscale again per step, qy = saturate(y / yscale[m])
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = SmoothquantPipelineDefaultPolicy>
struct SmoothquantPipelineTwoPass
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using ComputeDataType = typename Problem::ComputeDataType;
    using Epilogue        = typename Policy::template Epilogue<Problem>;

    static constexpr const char* name = "twopass";
    static constexpr index_t kStep    = Problem::BlockShape::Block_N;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // the windows as in SmoothquantPipelineOnePass, at the rows' first step; row_size = n
    template <typename XWindow, typename SmScaleWindow, typename YScaleWindow, typename QYWindow>
    CK_TILE_DEVICE void operator()(const XWindow& x_window_, const SmScaleWindow& smscale_window_,
                                   const YScaleWindow& yscale_window, const QYWindow& qy_window_, index_t row_size,
                                   void* smem) const
    {
        auto x_window       = make_tile_window(x_window_, Policy::template MakeXBlockTileDistribution<Problem>());
        auto smscale_window = smscale_window_;
        auto qy_window      = qy_window_;
        const index_t steps = integer_divide_ceil(row_size, kStep);

        // pass 1: the rows' maxima
        auto absmax = Epilogue::template MakeRowAbsMaxTile<decltype(cast_tile<ComputeDataType>(load_tile(x_window)))>();
        for(index_t i = 0; i < steps; ++i)
        {
            auto y = cast_tile<ComputeDataType>(load_tile(x_window));
            Epilogue::apply_smooth_scale(y, smscale_window);
            Epilogue::accumulate_row_absmax(absmax, y);
            move_tile_window(x_window, {0, kStep});
            move_tile_window(smscale_window, {kStep});
        }
        Epilogue::sync_row_absmax(absmax, smem);
        const auto yscale = Epilogue::make_y_scale(absmax);
        Epilogue::store_y_scale(yscale_window, yscale);

        // pass 2: quantize
        move_tile_window(x_window, {0, -steps * kStep});
        move_tile_window(smscale_window, {-steps * kStep});
        for(index_t i = 0; i < steps; ++i)
        {
            auto y = cast_tile<ComputeDataType>(load_tile(x_window));
            Epilogue::apply_smooth_scale(y, smscale_window);
            Epilogue::quantize_and_store(qy_window, y, yscale);
            move_tile_window(x_window, {0, kStep});
            move_tile_window(smscale_window, {kStep});
            move_tile_window(qy_window, {0, kStep});
        }
    }
};

} // namespace ck_tile
