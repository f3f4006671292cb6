// SPDX-License-Identifier: MIT
// moe_sorting(traits, args, stream): upstream's API shape. The workspace (args.p_ws) must hold
// moe_sorting_get_workspace_size(tokens, experts, topk, dispatch_policy) bytes when that is not 0;
// it never needs clearing (each chunk zeroes its own row), so clear_workspace_inside_api changes nothing.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/fused_moe.hpp"

struct moe_sorting_trait
{
    std::string index_type;          // int32 only
    std::string weight_type;         // fp32 only
    bool local_expert_masking;       // args.p_local_expert_mask is read
    bool clear_workspace_inside_api; // accepted; the workspace needs no clearing
    int dispatch_policy;             // 0 auto, 1 single workgroup, 2 multi-phase
};

struct moe_sorting_args : public ck_tile::MoeSortingHostArgs
{};

struct moe_sorting_result
{
    std::string kernel_name;
    float ms;
    bool mp;
};

moe_sorting_result moe_sorting(const moe_sorting_trait& t, const moe_sorting_args& a, const ck_tile::stream_config& s);
