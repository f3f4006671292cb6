// SPDX-License-Identifier: MIT
// GemmPipelineAgBgCrCompV3: the K loop for compute-bound GEMMs with one LDS buffer. The block GEMM
// first copies its warp tiles of a K step from LDS to registers (LocalPrefetch), so the next tile
// can be written to LDS while the MFMAs of this one run:
//
//   prologue:  DRAM -> VGPR tile 0;  VGPR -> LDS;  DRAM -> VGPR tile 1;  barrier;
//              LDS -> warp tiles (tile 0)
//   K step i:
//     barrier                          (every warp has its warp tiles of tile i: LDS is free)
//     VGPR -> LDS tile i + 1;  DRAM -> VGPR tile i + 2
//     MFMAs of tile i from the warp tiles
//     barrier;  LDS -> warp tiles (tile i + 1)
//
// Any num_loop >= 1 works. Intrawave scheduling only. Call and result as
// GemmPipelineAGmemBGmemCRegV1.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_ag_bg_cr_scheduler.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_base.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_universal_pipeline_ag_bg_cr_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = UniversalGemmPipelineAgBgCrPolicy>
struct GemmPipelineAgBgCrCompV3 : GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>, BaseGemmPipelineAgBgCr<2>
{
    using Base    = GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>;
    using Policy  = Policy_;
    using Problem = Problem_;

    static_assert(Problem::Scheduler == GemmPipelineScheduler::Intrawave,
                  "GemmPipelineAgBgCrCompV3: the Intrawave scheduler only");
    static_assert(!Problem::DoubleSmemBuffer, "GemmPipelineAgBgCrCompV3: one LDS buffer (DoubleSmemBuffer = false)");

    static constexpr const char* name = "compv3";
    static constexpr const char* description =
        "compv3 (one LDS buffer; warp tiles prefetched to registers, next tile written to LDS during the MFMAs)";

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

        const auto lds = Base::make_lds_windows(p_smem);

        auto block_gemm   = Policy::template GetBlockGemm<Problem>();
        auto c_block_tile = block_gemm.MakeCBlockTile();
        clear_tile(c_block_tile);

        auto a_block_tile    = load_tile(a_copy_dram);
        auto b_block_tile    = load_tile(b_copy_dram);
        const auto load_next = [&] {
            move_tile_window(a_copy_dram, a_step);
            move_tile_window(b_copy_dram, b_step);
            load_tile(a_block_tile, a_copy_dram);
            load_tile(b_block_tile, b_copy_dram);
        };
        store_tile(lds.at(number<0>{}), a_block_tile);
        store_tile(lds.at(number<1>{}), b_block_tile);
        if(num_loop > 1)
            load_next();
        block_sync_lds();
        block_gemm.LocalPrefetch(lds.at(number<2>{}), lds.at(number<3>{}));

        for(index_t i = 0; i < num_loop; ++i)
        {
            const bool has_next = i + 1 < num_loop;
            block_sync_lds();
            if(has_next)
            {
                store_tile(lds.at(number<0>{}), a_block_tile);
                store_tile(lds.at(number<1>{}), b_block_tile);
                if(i + 2 < num_loop)
                    load_next();
            }
            block_gemm(c_block_tile);
            block_sync_lds();
            if(has_next)
                block_gemm.LocalPrefetch(lds.at(number<2>{}), lds.at(number<3>{}));
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
