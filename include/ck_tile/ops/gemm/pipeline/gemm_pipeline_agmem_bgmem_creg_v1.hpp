// SPDX-License-Identifier: MIT
// GemmPipelineAGmemBGmemCRegV1: the K loop of a block, with one LDS buffer.
//
//   prologue:  DRAM -> VGPR  tile 0
//   iteration i:
//     VGPR -> LDS  tile i;  barrier
//     DRAM -> VGPR tile i + 1   (in flight while the block GEMM runs)
//     block GEMM on LDS (tile i) into C;  barrier (LDS is rewritten next iteration)
//
// Two barriers per iteration; the C tile (AccDataType, the block GEMM's distribution) is
// returned. Call: pipeline(a_dram_window, b_dram_window, num_loop, p_smem), where the windows have
// no distribution, the lengths GetADramWindowLengths() / GetBDramWindowLengths() and sit at the
// block's first K tile; p_smem holds GetSmemSize() bytes of LDS.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_base.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = GemmPipelineAGmemBGmemCRegV1DefaultPolicy>
struct GemmPipelineAGmemBGmemCRegV1 : GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>
{
    using Base    = GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>;
    using Policy  = Policy_;
    using Problem = Problem_;

    static constexpr const char* name        = "v1";
    static constexpr const char* description = "v1 (one LDS buffer, 2 barriers per K step)";

    template <typename ADramWindow, typename BDramWindow>
    CK_TILE_DEVICE auto operator()(const ADramWindow& a_dram_block_window_tmp,
                                   const BDramWindow& b_dram_block_window_tmp, index_t num_loop, void* p_smem) const
    {
        constexpr auto a_step = Base::template k_step<Base::kAKContiguous>();
        constexpr auto b_step = Base::template k_step<Base::kBKContiguous>();

        auto a_copy_dram =
            make_tile_window(a_dram_block_window_tmp, Policy::template MakeADramTileDistribution<Problem>());
        auto b_copy_dram =
            make_tile_window(b_dram_block_window_tmp, Policy::template MakeBDramTileDistribution<Problem>());

        const auto lds          = Base::make_lds_windows(p_smem);
        const auto& a_lds_store = lds.at(number<0>{});
        const auto& b_lds_store = lds.at(number<1>{});
        const auto& a_lds_gemm  = lds.at(number<2>{});
        const auto& b_lds_gemm  = lds.at(number<3>{});

        constexpr auto block_gemm = Policy::template GetBlockGemm<Problem>();
        auto c_block_tile         = block_gemm.MakeCBlockTile();
        clear_tile(c_block_tile);

        auto a_block_tile = load_tile(a_copy_dram);
        auto b_block_tile = load_tile(b_copy_dram);
        move_tile_window(a_copy_dram, a_step);
        move_tile_window(b_copy_dram, b_step);

        for(index_t i = 0; i < num_loop; ++i)
        {
            store_tile(a_lds_store, a_block_tile);
            store_tile(b_lds_store, b_block_tile);
            block_sync_lds();

            if(i + 1 < num_loop)
            {
                load_tile(a_block_tile, a_copy_dram);
                load_tile(b_block_tile, b_copy_dram);
                move_tile_window(a_copy_dram, a_step);
                move_tile_window(b_copy_dram, b_step);
            }

            block_gemm(c_block_tile, a_lds_gemm, b_lds_gemm);
            block_sync_lds();
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
