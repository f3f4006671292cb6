// SPDX-License-Identifier: MIT
// The instances of one input type. A block is 4 waves. Rows of up to 64 experts: each lane owns
// whole rows (8, 16, 32 or 64 logits in registers; no lane talks to another); longer rows: 2, 4
// or 8 lanes share a row of up to 128, 256 or 512 experts, 64 logits each. Each with 8-element
// (16-byte) loads when the experts and the input stride are multiples of 8; else element loads,
// in two buckets (64 experts, whole rows per lane; 512, 8 lanes per row). The activation is a kernel argument.
#pragma once
#include <stdexcept>
#include "topk_softmax_api.hpp"

template <typename InputType, ck_tile::index_t kExperts, ck_tile::index_t kLanes, ck_tile::index_t kVector>
topk_softmax_result topk_softmax_instance(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s)
{
    using Problem =
        ck_tile::TopkSoftmaxWarpPerRowProblem<InputType, float, ck_tile::int32_t, kExperts, kLanes, kVector>;
    using Pipeline = ck_tile::TopkSoftmaxWarpPerRowPipeline<Problem>;
    using Kernel   = ck_tile::TopkSoftmaxKernel<Pipeline>;
    if(!Kernel::IsSupportedArgument(a))
        throw std::invalid_argument("topk_softmax: " + Kernel::GetName() + " does not support these arguments");
    const float ms =
        ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(
                                      Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, Kernel::MakeKargs(a)));
    return {Kernel::GetName(), ms};
}

// element loads (rows or strides that are not multiples of 8): fewer, wider buckets
template <typename InputType>
topk_softmax_result topk_softmax_dispatch_e1(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s)
{
    const ck_tile::index_t e = a.num_experts;
    if(e <= 64)
        return topk_softmax_instance<InputType, 64, 1, 1>(a, s);
    if(e <= topk_softmax_max_experts)
        return topk_softmax_instance<InputType, 512, 8, 1>(a, s);
    throw std::invalid_argument("topk_softmax: at most " + std::to_string(topk_softmax_max_experts) + " experts");
}

template <typename InputType, ck_tile::index_t kVector>
topk_softmax_result topk_softmax_dispatch_e(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s)
{
    const ck_tile::index_t e = a.num_experts;
    if(e <= 8)
        return topk_softmax_instance<InputType, 8, 1, kVector>(a, s);
    if(e <= 16)
        return topk_softmax_instance<InputType, 16, 1, kVector>(a, s);
    if(e <= 32)
        return topk_softmax_instance<InputType, 32, 1, kVector>(a, s);
    if(e <= 64)
        return topk_softmax_instance<InputType, 64, 1, kVector>(a, s);
    if(e <= 128)
        return topk_softmax_instance<InputType, 128, 2, kVector>(a, s);
    if(e <= 256)
        return topk_softmax_instance<InputType, 256, 4, kVector>(a, s);
    if(e <= topk_softmax_max_experts)
        return topk_softmax_instance<InputType, 512, 8, kVector>(a, s);
    throw std::invalid_argument("topk_softmax: at most " + std::to_string(topk_softmax_max_experts) + " experts");
}

template <typename InputType>
topk_softmax_result topk_softmax_dispatch(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s)
{
    if(a.num_experts % 8 == 0 && a.stride_input % 8 == 0)
        return topk_softmax_dispatch_e<InputType, 8>(a, s);
    return topk_softmax_dispatch_e1<InputType>(a, s);
}
