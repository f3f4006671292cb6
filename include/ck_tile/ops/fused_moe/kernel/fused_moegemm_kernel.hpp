// SPDX-License-Identifier: MIT
// FusedMoeGemmKernel<TilePartitioner, Pipeline, Epilogue = void>: the expert GEMMs of a MoE layer
// over MoE sorting's output (upstream's names; its pipeline is gfx942 inline assembly, this one the
// tile API, FusedMoeGemmPipeline_Flatmm).
//
//   for each sorted row r (token t, topk slot s, expert x, weight w), each block one row tile of M
//   rows (one expert) x an N0 slice of the intermediate dimension:
//     Y = act(A[t] G[x]^T)                       (gate only)
//     Y = act(A[t] G[x, gate]^T) * A[t] G[x, up]^T  (gate + up)
//     O[t] += w * Y D[x]^T                       atomically: the slices and the topk slots of a
//                                                token add into the same row
// O must be zero before the launch (fused_moe's sorting zeroes it in the same launch sequence).
//
// Tensors (row-major): A [tokens, hidden] (rows stride_token apart), O likewise; G and D shuffled
// (ops/fused_moe/utility/moe_weight_layout.hpp): G as [experts, interm, hidden] matrices (gate
// only) or [2 * experts, interm, hidden] (expert x's gate is matrix 2x, its up matrix 2x + 1), D
// as [experts, hidden, interm]. sorted_token_ids / sorted_weight / sorted_expert_ids /
// num_sorted_tiles_ptr (total_tokens_post_pad: the padded row count) are MoE sorting's outputs
// with unit_size = M.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/fused_moe/kernel/moe_sorting_kernel.hpp"
#include "ck_tile/ops/fused_moe/utility/moe_weight_layout.hpp"

namespace ck_tile {

struct FusedMoeGemmHostArgs
{
    const void* a_ptr;              // [tokens, hidden]
    const void* a_scale_ptr;        // quantization only: nullptr
    const void* g_ptr;              // shuffled gate (and up) weights
    const void* d_ptr;              // shuffled down weights
    const void* g_scale_ptr;        // quantization only: nullptr
    const void* d_scale_ptr;        // quantization only: nullptr
    const void* y_smooth_scale_ptr; // quantization only: nullptr
    void* o_ptr;                    // [tokens, hidden], zeroed before the launch

    const void* sorted_token_ids_ptr;  // [max_num_tokens_padded]
    const void* sorted_weight_ptr;     // [max_num_tokens_padded]
    const void* sorted_expert_ids_ptr; // [max_num_tokens_padded / block_m]
    const void* num_sorted_tiles_ptr;  // [1]: the padded row count (total_tokens_post_pad[0])

    index_t hidden_size;       // hidden
    index_t intermediate_size; // interm (per rank)
    index_t num_tokens;
    index_t num_experts;
    index_t topk;
    index_t stride_token; // elements between rows of A and O
};

template <typename TilePartitioner_, typename FusedMoePipeline_, typename EpiloguePipeline_ = void>
struct FusedMoeGemmKernel
{
    using TilePartitioner  = TilePartitioner_;
    using FusedMoePipeline = FusedMoePipeline_;
    using Problem          = typename FusedMoePipeline::Problem;
    using BlockShape       = typename Problem::BlockShape;

    using ADataType          = typename Problem::ADataType;
    using GDataType          = typename Problem::GDataType;
    using DDataType          = typename Problem::DDataType;
    using ODataType          = typename Problem::ODataType;
    using TopkWeightDataType = typename Problem::TopkWeightDataType;
    using IndexDataType      = typename Problem::IndexDataType;
    using GateActivation     = typename Problem::GateActivation;

    static_assert(std::is_void_v<EpiloguePipeline_>, "FusedMoeGemmKernel: the pipeline writes O itself");

    static constexpr index_t kBlockSize = Problem::kBlockSize;
    static constexpr index_t kBlockM    = BlockShape::Block_M0;
    static constexpr bool IsGateOnly    = Problem::IsGateOnly;
    // hidden and intermediate sizes (and the token stride) must be multiples of it: 16 bytes of A
    static constexpr index_t kAlignment = 16 / static_cast<index_t>(sizeof(ADataType));

    using Hargs = FusedMoeGemmHostArgs;
    struct FusedMoeGemmKargs : FusedMoeGemmHostArgs
    {};
    using Kargs = FusedMoeGemmKargs;

    CK_TILE_HOST static std::string GetName()
    {
        using S = BlockShape;
        return std::string("fused_moegemm_") + (IsGateOnly ? "g1u0_" : "g1u1_") + GateActivation::name + "_" +
               FusedMoePipeline::name + "_" + std::to_string(S::Block_M0) + "x" + std::to_string(S::Block_N0) + "x" +
               std::to_string(S::Block_K0) + "x" + std::to_string(S::Block_N1);
    }

    CK_TILE_HOST static constexpr Kargs MakeKargs(const Hargs& h) { return Kargs{h}; }

    // the largest padded row count any routing of these sizes can give
    CK_TILE_HOST static index_t GetMaxNumTokensPadded(const Hargs& h)
    {
        return moe_sorting_max_output_ids(h.num_tokens, h.num_experts, h.topk, kBlockM);
    }
    CK_TILE_HOST static dim3 GridSize(const Hargs& h)
    {
        return TilePartitioner::GridSize(GetMaxNumTokensPadded(h), h.intermediate_size);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return FusedMoePipeline::GetSmemSize(); }

    // "" if the kernel can run these arguments, else one line saying why not
    CK_TILE_HOST static std::string GetUnsupportedReason(const Hargs& h)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(h.a_ptr == nullptr || h.g_ptr == nullptr || h.d_ptr == nullptr || h.o_ptr == nullptr ||
           h.sorted_token_ids_ptr == nullptr || h.sorted_weight_ptr == nullptr || h.sorted_expert_ids_ptr == nullptr ||
           h.num_sorted_tiles_ptr == nullptr)
            return "a null tensor pointer";
        if(h.a_scale_ptr != nullptr || h.g_scale_ptr != nullptr || h.d_scale_ptr != nullptr ||
           h.y_smooth_scale_ptr != nullptr)
            return "quantization scales are not supported (the scale pointers must be null)";
        if(h.num_tokens < 1 || h.num_tokens > 0xffffff)
            return "the token count must be in [1, 16777215], got " + s(h.num_tokens);
        if(h.num_experts < 1 || h.topk < 1 || h.topk > h.num_experts)
            return "need 1 <= topk <= experts, got topk " + s(h.topk) + " of " + s(h.num_experts);
        if(h.hidden_size < 1 || h.hidden_size % kAlignment != 0)
            return "the hidden size must be a positive multiple of " + s(kAlignment) + ", got " + s(h.hidden_size);
        if(h.intermediate_size < 1 || h.intermediate_size % kAlignment != 0)
            return "the intermediate size must be a positive multiple of " + s(kAlignment) + ", got " +
                   s(h.intermediate_size);
        if(h.stride_token < h.hidden_size || h.stride_token % kAlignment != 0)
            return "the token stride must be >= the hidden size and a multiple of " + s(kAlignment) + ", got " +
                   s(h.stride_token);
        if(reinterpret_cast<std::uintptr_t>(h.a_ptr) % 16 != 0 || reinterpret_cast<std::uintptr_t>(h.g_ptr) % 16 != 0 ||
           reinterpret_cast<std::uintptr_t>(h.d_ptr) % 16 != 0 || reinterpret_cast<std::uintptr_t>(h.o_ptr) % 8 != 0)
            return "A, G and D must be 16-byte aligned, O 8-byte aligned";
        const long long g_rows = static_cast<long long>(IsGateOnly ? 1 : 2) * h.num_experts;
        const long long g_size = g_rows * moe_weight_layout::matrix_size(h.intermediate_size, h.hidden_size);
        const long long d_size =
            static_cast<long long>(h.num_experts) * moe_weight_layout::matrix_size(h.hidden_size, h.intermediate_size);
        const long long a_size = static_cast<long long>(h.num_tokens) * h.stride_token;
        const long long lim    = std::numeric_limits<int32_t>::max();
        if(g_size * static_cast<long long>(sizeof(GDataType)) > lim ||
           d_size * static_cast<long long>(sizeof(DDataType)) > lim ||
           a_size * static_cast<long long>(sizeof(ODataType)) > lim ||
           a_size * static_cast<long long>(sizeof(ADataType)) > lim)
            return "a tensor spans more than 2^31 - 1 bytes (32-bit buffer offsets)";
        if(static_cast<long long>(moe_sorting_max_output_ids(h.num_tokens, h.num_experts, h.topk, kBlockM)) / kBlockM *
               TilePartitioner::GetNumSlices(h.intermediate_size) >
           lim)
            return "too many blocks for a 1-D grid";
        return {};
    }
    CK_TILE_HOST static bool IsSupportedArgument(const Hargs& h) { return GetUnsupportedReason(h).empty(); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const auto tile     = TilePartitioner::GetTileIndex(get_block_id(), k.intermediate_size);
        const index_t m_t   = tile.at(number<0>{});
        const index_t n0    = tile.at(number<1>{});
        const index_t nrows = *static_cast<const index_t*>(k.num_sorted_tiles_ptr);
        if(m_t * kBlockM >= nrows)
            return; // past the routing's row tiles

        const index_t x = static_cast<index_t>(static_cast<const IndexDataType*>(k.sorted_expert_ids_ptr)[m_t]);
        const long_index_t g_mat = moe_weight_layout::matrix_size(k.intermediate_size, k.hidden_size);
        const long_index_t d_mat = moe_weight_layout::matrix_size(k.hidden_size, k.intermediate_size);
        const auto* p_g          = static_cast<const GDataType*>(k.g_ptr);
        const GDataType* p_gate  = p_g + (IsGateOnly ? x : 2 * x) * g_mat;
        const GDataType* p_up    = IsGateOnly ? nullptr : p_gate + g_mat;
        const DDataType* p_d     = static_cast<const DDataType*>(k.d_ptr) + x * d_mat;

        __shared__ char p_smem[GetSmemSize()];
        FusedMoePipeline{}(static_cast<const ADataType*>(k.a_ptr), p_gate, p_up, p_d, static_cast<ODataType*>(k.o_ptr),
                           static_cast<const IndexDataType*>(k.sorted_token_ids_ptr) + m_t * kBlockM,
                           static_cast<const TopkWeightDataType*>(k.sorted_weight_ptr) + m_t * kBlockM, k.num_tokens,
                           k.hidden_size, k.intermediate_size, k.stride_token, n0, p_smem, GateActivation{});
    }
};

} // namespace ck_tile
