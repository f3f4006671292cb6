// SPDX-License-Identifier: MIT
// GemmPipelineAGmemBGmemCRegV2: the K loop of a block with two LDS buffers (ping-pong), one
// barrier per iteration.
//
//   prologue:  DRAM -> VGPR tile 0;  VGPR -> LDS[0];  DRAM -> VGPR tile 1;  barrier
//   iteration i (buffer b = i % 2):
//     VGPR -> LDS[1 - b]  tile i + 1      (nobody reads LDS[1 - b] any more: see below)
//     DRAM -> VGPR        tile i + 2
//     block GEMM on LDS[b] (tile i) into C
//     barrier
//
// Why one barrier is enough: LDS[1 - b] was last read in iteration i - 1, which every thread
// finished before the barrier that ended it; tile i + 1 is read in iteration i + 1, after the
// barrier that ends iteration i. With a single buffer (GetLdsBufferStride() == 0) the same
// schedule races: a thread overwrites the tile its neighbours are still multiplying.
//
// Same call and result as GemmPipelineAGmemBGmemCRegV1; LDS: 2 x GetLdsBufferStride() bytes.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_base.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp"

namespace ck_tile {

// The V1 policy with two LDS buffers.
struct GemmPipelineAGmemBGmemCRegV2DefaultPolicy : GemmPipelineAGmemBGmemCRegV1DefaultPolicy
{
    using Base = GemmPipelineAGmemBGmemCRegV1DefaultPolicy;

    // bytes from the first buffer (A then B) to the second
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetLdsBufferStride()
    {
        return Base::template GetSmemSize<Problem>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return 2 * Base::template GetSmemSize<Problem>();
    }
};

template <typename Problem_, typename Policy_ = GemmPipelineAGmemBGmemCRegV2DefaultPolicy>
struct GemmPipelineAGmemBGmemCRegV2 : GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>
{
    using Base    = GemmPipelineAGmemBGmemCRegBase<Problem_, Policy_>;
    using Policy  = Policy_;
    using Problem = Problem_;

    static constexpr const char* name        = "v2";
    static constexpr const char* description = "v2 (two LDS buffers, 1 barrier per K step)";

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

        constexpr auto block_gemm = Policy::template GetBlockGemm<Problem>();
        auto c_block_tile         = block_gemm.MakeCBlockTile();
        clear_tile(c_block_tile);

        // prologue: tile 0 into buffer 0, tile 1 into registers
        auto a_block_tile = load_tile(a_copy_dram);
        auto b_block_tile = load_tile(b_copy_dram);
        move_tile_window(a_copy_dram, a_step);
        move_tile_window(b_copy_dram, b_step);
        {
            const auto lds0 = Base::make_lds_windows(p_lds);
            store_tile(lds0.at(number<0>{}), a_block_tile);
            store_tile(lds0.at(number<1>{}), b_block_tile);
        }
        if(num_loop > 1)
        {
            load_tile(a_block_tile, a_copy_dram);
            load_tile(b_block_tile, b_copy_dram);
            move_tile_window(a_copy_dram, a_step);
            move_tile_window(b_copy_dram, b_step);
        }
        block_sync_lds();

        for(index_t i = 0; i < num_loop; ++i)
        {
            const index_t buf = i & 1;
            if(i + 1 < num_loop)
            {
                const auto next = Base::make_lds_windows(p_lds + (buf ^ 1) * buf_stride);
                store_tile(next.at(number<0>{}), a_block_tile);
                store_tile(next.at(number<1>{}), b_block_tile);
                if(i + 2 < num_loop)
                {
                    load_tile(a_block_tile, a_copy_dram);
                    load_tile(b_block_tile, b_copy_dram);
                    move_tile_window(a_copy_dram, a_step);
                    move_tile_window(b_copy_dram, b_step);
                }
            }
            const auto cur = Base::make_lds_windows(p_lds + buf * buf_stride);
            block_gemm(c_block_tile, cur.at(number<2>{}), cur.at(number<3>{}));
            block_sync_lds();
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
