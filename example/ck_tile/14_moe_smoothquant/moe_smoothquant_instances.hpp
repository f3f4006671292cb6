// SPDX-License-Identifier: MIT
// The instances of one (input, quantized) type pair. A block is one wave and owns one output row
// (its token's x times its expert's smoothing scale). With 8-element (16-byte fp16/bf16) access,
// when the hidden size and both strides are multiples of 8: one pass up to 4096 columns (8 x 8
// elements per lane), two passes in 4096-column steps beyond. With element access: one pass up
// to 512 (8 per lane), two passes in 512-column steps beyond (a 2048-column step of one-element
// loads of x and smscale ran out of SGPRs on gfx942 / gfx950: 23 spilled, device check).
#pragma once
#include <stdexcept>
#include "moe_smoothquant.hpp"

template <typename InType, typename OutType, ck_tile::index_t kBlockN, ck_tile::index_t kVector, bool kTwoPass>
moe_smoothquant_result moe_smoothquant_instance(const ck_tile::MoeSmoothquantHostArgs& a,
                                                const ck_tile::stream_config& s)
{
    using Shape    = ck_tile::Generic2dBlockShape<ck_tile::sequence<1, kBlockN>, ck_tile::sequence<1, 64>,
                                                  ck_tile::sequence<1, kVector>>;
    using Problem  = ck_tile::SmoothquantPipelineProblem<InType, float, float, float, OutType, Shape, true, kTwoPass>;
    using Pipeline = std::conditional_t<kTwoPass, ck_tile::SmoothquantPipelineTwoPass<Problem>,
                                        ck_tile::SmoothquantPipelineOnePass<Problem>>;
    using Kernel   = ck_tile::MoeSmoothquant<Pipeline>;
    if(!Kernel::IsSupportedArgument(a))
        throw std::invalid_argument("moe_smoothquant: " + Kernel::GetName() + " does not support these arguments");
    const float ms =
        ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(
                                      Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, Kernel::MakeKargs(a)));
    return {Kernel::GetName(), ms};
}

template <typename InType, typename OutType>
moe_smoothquant_result moe_smoothquant_dispatch(const ck_tile::MoeSmoothquantHostArgs& a,
                                                const ck_tile::stream_config& s)
{
    const ck_tile::index_t n = a.hidden_size;
    if(n % 8 == 0 && a.x_stride % 8 == 0 && a.y_stride % 8 == 0)
    {
        if(n <= 4096)
            return moe_smoothquant_instance<InType, OutType, 4096, 8, false>(a, s);
        return moe_smoothquant_instance<InType, OutType, 4096, 8, true>(a, s);
    }
    if(n <= 512)
        return moe_smoothquant_instance<InType, OutType, 512, 1, false>(a, s);
    return moe_smoothquant_instance<InType, OutType, 512, 1, true>(a, s);
}

#define MOE_SMOOTHQUANT_DEFINE(IN, OUT, IN_T, OUT_T)                                                                   \
    moe_smoothquant_result moe_smoothquant_##IN##_##OUT(const ck_tile::MoeSmoothquantHostArgs& a,                      \
                                                        const ck_tile::stream_config& s)                               \
    {                                                                                                                  \
        return moe_smoothquant_dispatch<IN_T, OUT_T>(a, s);                                                            \
    }
