// SPDX-License-Identifier: MIT
// UniversalGemmPipelineAgBgCrPolicy: the DRAM distributions and LDS layouts of
// GemmPipelineAGmemBGmemCRegV1DefaultPolicy (its header explains them), with the block GEMM the
// problem's scheduler asks for: BlockUniversalGemmAsBsCr (Intrawave: prefetch the K step's warp
// tiles from LDS, then the MFMAs) or BlockGemmASmemBSmemCRegV1 (Interwave: read and multiply one K
// slice after the other).
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/block/block_universal_gemm_as_bs_cr.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_ag_bg_cr_scheduler.hpp"
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

} // namespace ck_tile
