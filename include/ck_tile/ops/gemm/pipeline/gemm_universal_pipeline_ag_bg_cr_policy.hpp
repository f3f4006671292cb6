// SPDX-License-Identifier: MIT
// UniversalGemmPipelineAgBgCrPolicy: the DRAM distributions and LDS layouts of
// GemmPipelineAGmemBGmemCRegV1DefaultPolicy (its header explains them), with the block GEMM the
// problem's scheduler asks for: BlockUniversalGemmAsBsCr (Intrawave: prefetch the K step's warp
// tiles from LDS, then the MFMAs) or BlockGemmASmemBSmemCRegV1 (Interwave: read and multiply one K
// slice after the other).
//
// BaseGemmPipelineAgBgCr<PrefetchStages>: what the universal pipelines tell a host about their K
// loop (upstream's names): whether num_loop K steps run a hot loop at all, and the tail that
// follows it. The pipelines handle any num_loop >= 1 themselves; the host uses these to describe
// the schedule.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/block/block_universal_gemm_as_bs_cr.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp"

namespace ck_tile {

struct UniversalGemmPipelineAgBgCrPolicy : GemmPipelineAGmemBGmemCRegV1DefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockGemm()
    {
        using V1 = decltype(GemmPipelineAGmemBGmemCRegV1DefaultPolicy::GetBlockGemm<Problem>());
        if constexpr(Problem::Scheduler == GemmPipelineScheduler::Interwave)
            return V1{};
        else
            return BlockUniversalGemmAsBsCr<Problem, typename V1::Policy>{};
    }
};

// the K steps after the last full round of prefetches (One..Seven when there is no hot loop:
// then the whole loop is tail)
enum struct TailNumber
{
    Odd,
    Even,
    One,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Empty,
    Full,
};

CK_TILE_HOST_DEVICE constexpr const char* tail_number_name(TailNumber t)
{
    constexpr const char* names[] = {"Odd",  "Even", "One",   "Two",   "Three", "Four",
                                     "Five", "Six",  "Seven", "Empty", "Full"};
    return names[static_cast<int>(t)];
}

template <index_t PrefetchStages_>
struct BaseGemmPipelineAgBgCr
{
    static constexpr index_t PrefetchStages = PrefetchStages_;
    static_assert(PrefetchStages >= 1 && PrefetchStages <= 7, "BaseGemmPipelineAgBgCr: 1 to 7 prefetch stages");

    CK_TILE_HOST_DEVICE static constexpr bool BlockHasHotloop(index_t num_loop) { return num_loop > PrefetchStages; }

    CK_TILE_HOST_DEVICE static constexpr TailNumber GetBlockLoopTailNum(index_t num_loop)
    {
        if(num_loop <= 0)
            return TailNumber::Empty;
        if(!BlockHasHotloop(num_loop))
            return static_cast<TailNumber>(static_cast<int>(TailNumber::One) + num_loop - 1);
        if constexpr(PrefetchStages == 2)
            return num_loop % 2 == 1 ? TailNumber::Odd : TailNumber::Even;
        const index_t r = num_loop % PrefetchStages;
        return r == 0 ? TailNumber::Full : static_cast<TailNumber>(static_cast<int>(TailNumber::One) + r - 1);
    }
};

} // namespace ck_tile
