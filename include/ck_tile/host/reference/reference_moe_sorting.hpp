// SPDX-License-Identifier: MIT
// reference_moe_sorting: the host reference of MoE sorting (ops/fused_moe/kernel/moe_sorting_kernel.hpp
// states the semantics). topk_ids and weights are [tokens, topk]; only the first local_tokens rows are
// sorted (local_tokens < 0: all); local_expert_mask is [experts] (0: not local) or empty for all
// experts. The outputs are written over the padded length only, unit_cnt = padded length / unit_size;
// sorted_token_ids / sorted_weights need room for it (moe_sorting_max_output_ids) and
// sorted_expert_ids for unit_cnt entries.
#pragma once
#include <stdexcept>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/ops/fused_moe/kernel/moe_sorting_problem.hpp"

namespace ck_tile {

template <typename WeightType, typename IndexType = index_t>
CK_TILE_HOST void reference_moe_sorting(const HostTensor<IndexType>& topk_ids, const HostTensor<WeightType>& weights,
                                        const HostTensor<IndexType>& local_expert_mask,
                                        HostTensor<IndexType>& sorted_token_ids, HostTensor<WeightType>& sorted_weights,
                                        HostTensor<IndexType>& sorted_expert_ids, index_t& unit_cnt, index_t experts,
                                        index_t unit_size, index_t local_tokens = -1)
{
    const index_t tokens = static_cast<index_t>(topk_ids.mDesc.get_lengths()[0]);
    const index_t topk   = static_cast<index_t>(topk_ids.mDesc.get_lengths()[1]);
    const index_t n_tok  = local_tokens < 0 ? tokens : local_tokens;
    if(n_tok > tokens || unit_size < 1)
        throw std::invalid_argument("reference_moe_sorting: local_tokens above tokens or unit_size < 1");
    const bool masking = !local_expert_mask.mData.empty();

    std::vector<std::vector<index_t>> pairs(experts); // (t, s) as t * topk + s, in token order
    for(index_t t = 0; t < n_tok; ++t)
        for(index_t s = 0; s < topk; ++s)
        {
            const index_t x = topk_ids(t, s);
            if(x < 0 || x >= experts || (masking && local_expert_mask(x) == 0))
                continue;
            pairs[x].push_back(t * topk + s);
        }

    const auto pad = static_cast<IndexType>(moe_sorting_mock_id(n_tok, topk));
    index_t pos = 0, local = 0;
    unit_cnt = 0;
    for(index_t x = 0; x < experts; ++x)
    {
        const bool routed = !masking || local_expert_mask(x) != 0;
        const auto& p     = pairs[x];
        if(!p.empty())
        {
            const index_t padded = (static_cast<index_t>(p.size()) + unit_size - 1) / unit_size * unit_size;
            for(index_t i = 0; i < padded; ++i, ++pos)
            {
                if(i < static_cast<index_t>(p.size()))
                {
                    sorted_token_ids(pos) = static_cast<IndexType>(moe_sorting_mock_id(p[i] / topk, p[i] % topk));
                    sorted_weights(pos)   = weights(p[i] / topk, p[i] % topk);
                }
                else
                {
                    sorted_token_ids(pos) = pad;
                    sorted_weights(pos)   = WeightType{0};
                }
            }
            for(index_t u = 0; u < padded / unit_size; ++u)
                sorted_expert_ids(unit_cnt++) = local;
        }
        if(routed)
            ++local;
    }
}

} // namespace ck_tile
