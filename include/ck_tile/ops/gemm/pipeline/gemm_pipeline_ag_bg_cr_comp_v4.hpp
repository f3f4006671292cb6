// SPDX-License-Identifier: MIT
// GemmPipelineAgBgCrCompV4: the compute-bound K loop with two LDS buffers (DoubleSmemBuffer) and
// one barrier per K step. Tile i + 1 goes to the buffer tile i - 1 used, while the MFMAs of tile i
// run from the warp tiles prefetched out of the other buffer:
//
//   prologue:  DRAM -> VGPR tile 0;  VGPR -> LDS[0];  DRAM -> VGPR tile 1;  barrier;
//              LDS[0] -> warp tiles (tile 0)
//   K step i (b = i % 2):
//     VGPR -> LDS[1 - b] tile i + 1;  DRAM -> VGPR tile i + 2
//     MFMAs of tile i from the warp tiles
//     barrier;  LDS[1 - b] -> warp tiles (tile i + 1)
//
// One barrier is enough: LDS[1 - b] was last read by the prefetch of tile i - 1, which every warp
// finished before the barrier of step i - 1. LDS: twice the one-buffer size. Intrawave only; any
// num_loop >= 1. Call and result as GemmPipelineAGmemBGmemCRegV1.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_ag_bg_cr_scheduler.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_base.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_universal_pipeline_ag_bg_cr_policy.hpp"

namespace ck_tile {

// The universal policy with two LDS buffers.
struct GemmPipelineAgBgCrCompV4DefaultPolicy : UniversalGemmPipelineAgBgCrPolicy
{
    // bytes from the first buffer (A then B) to the second
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetLdsBufferStride()
    {
        return UniversalGemmPipelineAgBgCrPolicy::GetSmemSize<Problem>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return 2 * UniversalGemmPipelineAgBgCrPolicy::GetSmemSize<Problem>();
    }
};

template <typename Problem_, typename Policy_ = GemmPipelineAgBgCrCompV4DefaultPolicy>
struct GemmPipelineAgBgCrCompV4 : GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>, BaseGemmPipelineAgBgCr<2>
{
    using Base    = GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>;
    using Policy  = Policy_;
    using Problem = Problem_;

    static_assert(Problem::Scheduler == GemmPipelineScheduler::Intrawave,
                  "GemmPipelineAgBgCrCompV4: the Intrawave scheduler only");
    static_assert(Problem::DoubleSmemBuffer, "GemmPipelineAgBgCrCompV4: needs DoubleSmemBuffer = true");

    static constexpr const char* name = "compv4";
    static constexpr const char* description =
        "compv4 (two LDS buffers, 1 barrier per K step; warp tiles prefetched to registers)";

    template <typename ADramWindow, typename BDramWindow>
    CK_TILE_DEVICE auto operator()(const ADramWindow& a_dram_block_window_tmp,
                                   const BDramWindow& b_dram_block_window_tmp, index_t num_loop, void* p_smem) const
    {
        constexpr auto a_step        = Base::template k_step<Base::kAKContiguous>();
        constexpr auto b_step        = Base::template k_step<Base::kBKContiguous>();
        constexpr index_t buf_stride = Policy::template GetLdsBufferStride<Problem>();
        char* const p_lds            = static_cast<char*>(p_smem);

        auto a_copy_dram =
            make_tile_window(a_dram_block_window_tmp, Policy::template MakeADramTileDistribution<Problem>());
        auto b_copy_dram =
            make_tile_window(b_dram_block_window_tmp, Policy::template MakeBDramTileDistribution<Problem>());

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
        {
            const auto lds0 = Base::make_lds_windows(p_lds);
            store_tile(lds0.at(number<0>{}), a_block_tile);
            store_tile(lds0.at(number<1>{}), b_block_tile);
            if(num_loop > 1)
                load_next();
            block_sync_lds();
            block_gemm.LocalPrefetch(lds0.at(number<2>{}), lds0.at(number<3>{}));
        }

        for(index_t i = 0; i < num_loop; ++i)
        {
            const bool has_next = i + 1 < num_loop;
            const auto next     = Base::make_lds_windows(p_lds + ((i + 1) & 1) * buf_stride);
            if(has_next)
            {
                store_tile(next.at(number<0>{}), a_block_tile);
                store_tile(next.at(number<1>{}), b_block_tile);
                if(i + 2 < num_loop)
                    load_next();
            }
            block_gemm(c_block_tile);
            block_sync_lds();
            if(has_next)
                block_gemm.LocalPrefetch(next.at(number<2>{}), next.at(number<3>{}));
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
