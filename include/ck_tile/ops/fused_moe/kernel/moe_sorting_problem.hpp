// SPDX-License-Identifier: MIT
// MoeSortingProblem: the types and the block size of the MoE sorting kernels, and the id encoding
// shared with the host reference.
#pragma once
#include <cstdint>
#include "ck_tile/core.hpp"

namespace ck_tile {

// A sorted token id packs the token in the low 24 bits and its topk slot in the high 8 bits;
// padding entries are (tokens | topk << 24), so a consumer that masks the low 24 bits sees a token
// index one past the last one (upstream's "mock id" encoding).
CK_TILE_HOST_DEVICE constexpr uint32_t moe_sorting_mock_id(index_t token, index_t topk_slot)
{
    return (static_cast<uint32_t>(token) & 0x00ffffffu) | ((static_cast<uint32_t>(topk_slot) & 0xffu) << 24);
}

template <typename IndexType_, typename WeightType_, index_t kBlockSize_ = 256, bool kLocalExpertMasking_ = true>
struct MoeSortingProblem
{
    using IndexType  = std::remove_cvref_t<IndexType_>;
    using WeightType = std::remove_cvref_t<WeightType_>;

    static constexpr index_t kBlockSize       = kBlockSize_;
    static constexpr bool kLocalExpertMasking = kLocalExpertMasking_;
    static_assert(sizeof(IndexType) == 4, "MoeSortingProblem: 32-bit index type only");
};

} // namespace ck_tile
