// SPDX-License-Identifier: MIT
// TopkSoftmaxKernel<Pipeline>: the routing step of a mixture of experts (upstream's names and
// host arguments). For each of num_rows tokens, over its num_experts logits x:
//
//   softmax:  w = exp(x - max x) / sum exp(x - max x), then the topk largest w
//   sigmoid:  the topk largest x, then w = 1 / (1 + exp(-x)) of those
//
// written largest first: p_output[row, i] (fp32 weights), p_indices[row, i] (int32 experts),
// i < topk. Equal logits rank by the lower expert index. The input's rows are stride_input
// elements apart, both outputs' stride_output. Each block owns Problem::RowsPerBlock rows.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/topk_softmax/pipeline/topk_softmax_warp_per_row_problem.hpp"

namespace ck_tile {

struct TopkSoftmaxHostArgs
{
    const void* p_input; // [num_rows, num_experts], row stride stride_input
    void* p_output;      // [num_rows, topk] weights, row stride stride_output
    void* p_indices;     // [num_rows, topk] expert indices, row stride stride_output
    index_t num_rows;
    index_t num_experts;
    index_t topk;
    index_t stride_input;                                              // elements, >= num_experts
    index_t stride_output;                                             // elements, >= topk
    TopkSoftmaxActivation activation = TopkSoftmaxActivation::softmax; // not in upstream's struct
};

template <typename Pipeline_>
struct TopkSoftmaxKernel
{
    using Pipeline   = std::remove_cvref_t<Pipeline_>;
    using Problem    = typename Pipeline::Problem;
    using InputType  = typename Problem::InputType;
    using WeightType = typename Problem::WeightType;
    using IndexType  = typename Problem::IndexType;

    static constexpr index_t kBlockSize = Problem::BlockSize;
    static constexpr index_t kRows      = Problem::RowsPerBlock;
    static constexpr index_t kExperts   = Problem::Experts;
    static constexpr index_t kVector    = Problem::Vector;

    using Kargs = TopkSoftmaxHostArgs;

    CK_TILE_HOST static constexpr Kargs MakeKargs(const TopkSoftmaxHostArgs& h) { return h; }
    CK_TILE_HOST static dim3 GridSize(const TopkSoftmaxHostArgs& h)
    {
        return dim3(integer_divide_ceil(h.num_rows, kRows));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Pipeline::GetSmemSize(); }

    // A row must fit the block tile; vector loads need the row length and stride to be multiples.
    CK_TILE_HOST static bool IsSupportedArgument(const TopkSoftmaxHostArgs& h)
    {
        if(h.num_rows < 1 || h.num_experts < 1 || h.topk < 1 || h.topk > h.num_experts)
            return false;
        if(h.activation != TopkSoftmaxActivation::softmax && h.activation != TopkSoftmaxActivation::sigmoid)
            return false;
        if(h.stride_input < h.num_experts || h.stride_output < h.topk)
            return false;
        if(h.num_experts % kVector != 0 || h.stride_input % kVector != 0)
            return false;
        return h.num_experts <= kExperts;
    }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("topk_") + Pipeline::name + "_e" + std::to_string(kExperts) + "_l" +
               std::to_string(Problem::LanesPerRow) + "_vec" + std::to_string(kVector);
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        constexpr auto tile = make_tuple(number<kRows>{}, number<kExperts>{});
        const index_t row0  = get_block_id() * kRows;

        const auto in_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                static_cast<const InputType*>(k.p_input), make_tuple(k.num_rows, k.num_experts),
                                make_tuple(k.stride_input, 1), number<kVector>{}, number<1>{}),
                            tile, sequence<true, true>{});
        const auto out_view = make_naive_tensor_view<address_space_enum::global>(
            static_cast<WeightType*>(k.p_output), make_tuple(k.num_rows, k.topk), make_tuple(k.stride_output, 1));
        const auto idx_view = make_naive_tensor_view<address_space_enum::global>(
            static_cast<IndexType*>(k.p_indices), make_tuple(k.num_rows, k.topk), make_tuple(k.stride_output, 1));

        Pipeline{}(make_tile_window(in_view, tile, make_multi_index(row0, 0)), out_view, idx_view, row0, k.num_rows,
                   k.num_experts, k.topk, k.activation);
    }
};

} // namespace ck_tile
