// SPDX-License-Identifier: MIT
// GemmPipelineAgBgCrMem: the K loop for memory-bound GEMMs (small M or N, long K), where what
// matters is keeping many DRAM loads in flight. PrefetchStages tiles of A and B are loaded ahead
// into registers; one LDS buffer, two barriers per K step:
//
//   prologue:     DRAM -> VGPR slot s   tile s, for s < PrefetchStages
//   K step i (slot s = i % PrefetchStages, unrolled so the slot is a compile-time index):
//     VGPR slot s -> LDS  tile i;  barrier
//     DRAM -> VGPR slot s tile i + PrefetchStages   (PrefetchStages tiles in flight)
//     block GEMM on LDS (Intrawave: prefetch all warp tiles, then the MFMAs;
//                        Interwave: K slice by K slice);  barrier
//
// Any num_loop >= 1 works: the unrolled round that passes the end skips its remaining steps.
// Call and result as GemmPipelineAGmemBGmemCRegV1.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_ag_bg_cr_scheduler.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_base.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_universal_pipeline_ag_bg_cr_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = UniversalGemmPipelineAgBgCrPolicy, index_t PrefetchStages_ = 2>
struct GemmPipelineAgBgCrMem : GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>,
                               BaseGemmPipelineAgBgCr<PrefetchStages_>
{
    using Base    = GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>;
    using Policy  = Policy_;
    using Problem = Problem_;

    static constexpr index_t PrefetchStages = PrefetchStages_;
    static constexpr auto Scheduler         = Problem::Scheduler;
    static_assert(!Problem::DoubleSmemBuffer, "GemmPipelineAgBgCrMem: one LDS buffer (DoubleSmemBuffer = false)");

    static constexpr const char* name = "mem";
    static constexpr const char* description =
        Scheduler == GemmPipelineScheduler::Interwave
            ? "mem (interwave: DRAM prefetch in registers, one LDS buffer, K slices read and multiplied in turn)"
            : "mem (intrawave: DRAM prefetch in registers, one LDS buffer, warp tiles prefetched then MFMAs)";

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

        // the register ring: one A and one B tile per stage, in a tuple so that a slot is a
        // compile-time member. The loads are written out where they happen: a helper lambda the
        // compiler does not inline (the element-wise instances' loads are long) would take the
        // ring's address and put it in scratch memory.
        using ATile  = decltype(load_tile(a_copy_dram));
        using BTile  = decltype(load_tile(b_copy_dram));
        auto a_tiles = generate_tuple([](auto) { return ATile{}; }, number<PrefetchStages>{});
        auto b_tiles = generate_tuple([](auto) { return BTile{}; }, number<PrefetchStages>{});

        static_for<0, PrefetchStages>{}([&](auto s) {
            if(s < num_loop)
            {
                load_tile(a_tiles.at(s), a_copy_dram);
                load_tile(b_tiles.at(s), b_copy_dram);
                move_tile_window(a_copy_dram, a_step);
                move_tile_window(b_copy_dram, b_step);
            }
        });

        for(index_t i0 = 0; i0 < num_loop; i0 += PrefetchStages)
        {
            static_for<0, PrefetchStages>{}([&](auto s) {
                const index_t i = i0 + s;
                if(i >= num_loop)
                    return;
                store_tile(lds.at(number<0>{}), a_tiles.at(s));
                store_tile(lds.at(number<1>{}), b_tiles.at(s));
                block_sync_lds();
                if(i + PrefetchStages < num_loop)
                {
                    load_tile(a_tiles.at(s), a_copy_dram);
                    load_tile(b_tiles.at(s), b_copy_dram);
                    move_tile_window(a_copy_dram, a_step);
                    move_tile_window(b_copy_dram, b_step);
                }
                if constexpr(Scheduler == GemmPipelineScheduler::Interwave)
                    block_gemm(c_block_tile, lds.at(number<2>{}), lds.at(number<3>{}));
                else
                {
                    block_gemm.LocalPrefetch(lds.at(number<2>{}), lds.at(number<3>{}));
                    block_gemm(c_block_tile);
                }
                block_sync_lds();
            });
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
