// SPDX-License-Identifier: MIT
// AddRmsnorm2dRdquantFwdPipelineOnePass: a block's rows fit one block tile (n <= Block_N); a and b
// are read once:
//   x = a + b (stored when asked), inv_rms = 1 / sqrt(mean(x^2) + eps), y = x * inv_rms * gamma,
//   yscale[m] = max_n |y| / max(QY), qy = saturate(y / yscale[m])
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/add_rmsnorm2d_rdquant/pipeline/add_rmsnorm2d_rdquant_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = AddRmsnorm2dRdquantFwdPipelineDefaultPolicy>
struct AddRmsnorm2dRdquantFwdPipelineOnePass
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using ComputeDataType = typename Problem::ComputeDataType;
    using Epilogue        = typename Policy::template Epilogue<Problem>;
    using ReduceProblem   = typename Policy::template ReduceProblem<Problem>;

    static constexpr const char* name = "onepass";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // windows without distributions at the block's rows: a, b, x, qy [Block_M x Block_N],
    // gamma [Block_N], yscale [Block_M]; save_x: store x (with kSaveX)
    template <typename AWindow, typename BWindow, typename GammaWindow, typename XWindow, typename YScaleWindow,
              typename QYWindow>
    CK_TILE_DEVICE void operator()(const AWindow& a_window, const BWindow& b_window, const GammaWindow& gamma_window,
                                   const XWindow& x_window, const YScaleWindow& yscale_window,
                                   const QYWindow& qy_window, float epsilon, index_t row_size, bool save_x,
                                   void* smem) const
    {
        constexpr auto dstr = Policy::template MakeBlockTileDistribution<Problem>();
        const auto x        = Policy::template MakeX<Problem>(load_tile(make_tile_window(a_window, dstr)),
                                                              load_tile(make_tile_window(b_window, dstr)));
        if constexpr(Problem::kSaveX)
            if(save_x)
                store_tile(x_window, x);

        auto ss = BlockReduce2d<ReduceProblem>::template MakeYBlockTile<decltype(x)>();
        set_tile(ss, ComputeDataType(0));
        Policy::template AccumulateSquares<Problem>(ss, x);
        Policy::template MakeInvRms<Problem>(ss, row_size, epsilon, smem);
        Epilogue{}(qy_window, yscale_window, Policy::template MakeY<Problem>(x, ss, gamma_window), smem);
    }
};

} // namespace ck_tile
