// SPDX-License-Identifier: MIT
// SmoothquantPipelineOnePass: a block's rows fit one block tile (n <= Block_N). x is read once:
//   y = x * smscale (fp32), yscale[m] = max_n |y| / max(QY), qy = saturate(y / yscale[m])
// all in DynamicQuantEpilogue's one-pass call.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = SmoothquantPipelineDefaultPolicy>
struct SmoothquantPipelineOnePass
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using ComputeDataType = typename Problem::ComputeDataType;
    using Epilogue        = typename Policy::template Epilogue<Problem>;

    static constexpr const char* name = "onepass";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // x_window: [Block_M x Block_N] of x at the block's rows (no distribution); smscale_window:
    // [Block_N]; yscale_window: [Block_M]; qy_window: [Block_M x Block_N] of qy
    template <typename XWindow, typename SmScaleWindow, typename YScaleWindow, typename QYWindow>
    CK_TILE_DEVICE void operator()(const XWindow& x_window, const SmScaleWindow& smscale_window,
                                   const YScaleWindow& yscale_window, const QYWindow& qy_window, index_t /*row_size*/,
                                   void* smem) const
    {
        const auto x = load_tile(make_tile_window(x_window, Policy::template MakeXBlockTileDistribution<Problem>()));
        Epilogue{}(qy_window, smscale_window, yscale_window, cast_tile<ComputeDataType>(x), smem);
    }
};

} // namespace ck_tile
