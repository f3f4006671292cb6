// SPDX-License-Identifier: MIT
// The instances of one (input, quantized) type pair. A block is 4 waves and each wave owns one row,
// so a row's sums are combined within its wave (no LDS, no barrier). One pass for rows up to 1024
// columns (64 lanes x 16 elements) and, with vector access, 4096 (64 per lane); longer rows: the
// block walks its rows three times, in 4096-column steps (1024 with element access). Each with 8-element (16-byte
// fp16/bf16) accesses when n and the stride allow, else element ones.
#pragma once
#include <stdexcept>
#include "add_rmsnorm2d_rdquant_fwd.hpp"

template <typename InDataType, typename QDataType, ck_tile::index_t kBlockN, ck_tile::index_t kVector, bool kThreePass>
add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd_instance(const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a,
                                                                    const ck_tile::stream_config& s)
{
    using Shape = ck_tile::Generic2dBlockShape<ck_tile::sequence<4, kBlockN>, ck_tile::sequence<4, 64>,
                                               ck_tile::sequence<1, kVector>>;
    using Problem =
        ck_tile::AddRmsnorm2dRdquantFwdPipelineProblem<InDataType, InDataType, InDataType, float, InDataType, float,
                                                       QDataType, Shape, true, true, kThreePass>;
    using Pipeline = std::conditional_t<kThreePass, ck_tile::AddRmsnorm2dRdquantFwdPipelineThreePass<Problem>,
                                        ck_tile::AddRmsnorm2dRdquantFwdPipelineOnePass<Problem>>;
    using Kernel   = ck_tile::AddRmsnorm2dRdquantFwd<Pipeline>;
    if(!Kernel::IsSupportedArgument(a))
        throw std::invalid_argument("add_rmsnorm2d_rdquant_fwd: " + Kernel::GetName() +
                                    " does not support these arguments");
    const float ms =
        ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(
                                      Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, Kernel::MakeKargs(a)));
    return {Kernel::GetName(), ms};
}

template <typename InDataType, typename QDataType, ck_tile::index_t kVector>
add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd_dispatch_n(const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a,
                                                                      const ck_tile::stream_config& s)
{
    if(a.n <= 1024)
        return add_rmsnorm2d_rdquant_fwd_instance<InDataType, QDataType, 1024, kVector, false>(a, s);
    // With element access a 4096-column step is 64 one-element loads per lane of each input, whose
    // offsets run out of SGPRs (device check: 14 to 56 spilled): such rows take three passes in
    // 1024-column steps.
    if constexpr(kVector > 1)
    {
        if(a.n <= 4096)
            return add_rmsnorm2d_rdquant_fwd_instance<InDataType, QDataType, 4096, kVector, false>(a, s);
        return add_rmsnorm2d_rdquant_fwd_instance<InDataType, QDataType, 4096, kVector, true>(a, s);
    }
    else
        return add_rmsnorm2d_rdquant_fwd_instance<InDataType, QDataType, 1024, kVector, true>(a, s);
}

template <typename InDataType, typename QDataType>
add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd_dispatch(const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a,
                                                                    const ck_tile::stream_config& s)
{
    if(a.n % 8 == 0 && a.stride % 8 == 0)
        return add_rmsnorm2d_rdquant_fwd_dispatch_n<InDataType, QDataType, 8>(a, s);
    return add_rmsnorm2d_rdquant_fwd_dispatch_n<InDataType, QDataType, 1>(a, s);
}

#define ADD_RMSNORM2D_RDQUANT_DEFINE(IN, Q, IN_T, Q_T)                                                                 \
    add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd_##IN##_##Q(                                             \
        const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a, const ck_tile::stream_config& s)                             \
    {                                                                                                                  \
        return add_rmsnorm2d_rdquant_fwd_dispatch<IN_T, Q_T>(a, s);                                                    \
    }
