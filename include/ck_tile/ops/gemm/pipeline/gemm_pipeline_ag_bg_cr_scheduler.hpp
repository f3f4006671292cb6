// SPDX-License-Identifier: MIT
// The K loop's schedule, as the GEMM pipelines and their problems name it (upstream's names):
//
//   GemmPipelineScheduler      how a pipeline's block GEMM interleaves its LDS reads and MFMAs:
//                              Intrawave (every warp tile of the K step read, then the MFMAs) or
//                              Interwave (one K slice read and multiplied after the other);
//                              Default is Intrawave
//   TailNumber                 the K steps after the last full round of prefetches (One..Seven
//                              when there is no hot loop: then the whole loop is tail)
//   BaseGemmPipelineAgBgCr<P>  what the universal pipelines, with P prefetch stages, tell a host
//                              about their K loop: whether num_loop K steps run a hot loop at all,
//                              and the tail after it. The pipelines handle any num_loop >= 1
//                              themselves; hosts use these to describe the schedule (the GEMM
//                              examples' "hot loop / tail" line).
//
// The lowest layer of the GEMM ops: problems, policies and pipelines include it, not one another.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

enum struct GemmPipelineScheduler
{
    Default,
    Intrawave,
    Interwave,
};

CK_TILE_HOST_DEVICE constexpr const char* scheduler_name(GemmPipelineScheduler s)
{
    return s == GemmPipelineScheduler::Interwave ? "interwave" : "intrawave";
}

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
