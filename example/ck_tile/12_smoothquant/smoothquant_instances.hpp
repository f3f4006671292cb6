// SPDX-License-Identifier: MIT
// The instances of one input type. A block is 4 waves, each wave one row, so a row's maximum is
// combined within its wave (no LDS, no barrier). One pass for rows up to 512 columns (64 lanes x 8
// elements), 2048 (4 x 8 per lane) and 4096 (8 x 8 per lane, vector access only); longer rows: the
// 4096-column block walks its rows in 4096-column steps, in two passes. Each with 8-element (16-byte fp16/bf16)
// accesses when n and both strides allow, else element ones.
#pragma once
#include <stdexcept>
#include "smoothquant.hpp"

template <typename XDataType, ck_tile::index_t kBlockM, ck_tile::index_t kBlockN, ck_tile::index_t kThreadsM,
          ck_tile::index_t kThreadsN, ck_tile::index_t kVector, bool kTwoPass>
smoothquant_result smoothquant_instance(const ck_tile::SmoothquantHostArgs& a, const ck_tile::stream_config& s)
{
    using Shape = ck_tile::Generic2dBlockShape<ck_tile::sequence<kBlockM, kBlockN>,
                                               ck_tile::sequence<kThreadsM, kThreadsN>, ck_tile::sequence<1, kVector>>;
    using Problem =
        ck_tile::SmoothquantPipelineProblem<XDataType, float, float, float, ck_tile::int8_t, Shape, true, kTwoPass>;
    using Pipeline = std::conditional_t<kTwoPass, ck_tile::SmoothquantPipelineTwoPass<Problem>,
                                        ck_tile::SmoothquantPipelineOnePass<Problem>>;
    using Kernel   = ck_tile::Smoothquant<Pipeline>;
    if(!Kernel::IsSupportedArgument(a))
        throw std::invalid_argument("smoothquant: " + Kernel::GetName() + " does not support these arguments");
    const float ms =
        ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(
                                      Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, Kernel::MakeKargs(a)));
    return {Kernel::GetName(), ms};
}

template <typename XDataType, ck_tile::index_t kVector>
smoothquant_result smoothquant_dispatch_n(const ck_tile::SmoothquantHostArgs& a, const ck_tile::stream_config& s)
{
    if(a.n <= 512)
        return smoothquant_instance<XDataType, 4, 512, 4, 64, kVector, false>(a, s);
    if(a.n <= 2048)
        return smoothquant_instance<XDataType, 4, 2048, 4, 64, kVector, false>(a, s);
    // With element access a 4096-column row in one pass is 64 one-element loads per lane, whose
    // offsets run out of SGPRs on gfx942 / gfx950 (54 spilled, device check): those rows take two.
    if constexpr(kVector > 1)
        if(a.n <= 4096)
            return smoothquant_instance<XDataType, 4, 4096, 4, 64, kVector, false>(a, s);
    return smoothquant_instance<XDataType, 4, 4096, 4, 64, kVector, true>(a, s);
}

template <typename XDataType>
smoothquant_result smoothquant_dispatch(const ck_tile::SmoothquantHostArgs& a, const ck_tile::stream_config& s)
{
    if(a.n % 8 == 0 && a.x_stride % 8 == 0 && a.y_stride % 8 == 0)
        return smoothquant_dispatch_n<XDataType, 8>(a, s);
    return smoothquant_dispatch_n<XDataType, 1>(a, s);
}
