// SPDX-License-Identifier: MIT
// TileFmhaTraits: the compile-time switches of a forward attention instance (upstream's order).
// Each feature switch says what the instance *can* do; the kernel arguments say what a launch does,
// so one instance serves every mask, bias kind, LSE and dropout setting (a false switch removes the
// code).
//   kPadSeqLenQ / kPadSeqLenK   seqlen_q / seqlen_k need not be a multiple of kM0 / kN0
//   kPadHeadDimQ / kPadHeadDimV hdim_q / hdim_v may be less than the instance's head dim
//   kHasBias                    the instance can add a bias: element-wise or ALiBi, chosen at run
//                               time by the kernel arguments (upstream: BiasEnum, one kind per instance)
//   kHasBiasGrad                backward only (must be false here)
//   kStoreLSE                   the instance can write the log-sum-exp of every row (when asked)
//   kHasDropout                 the instance can apply Philox dropout to P (when p_drop > 0)
//   kDoFp8StaticQuant           fp8 with the static scales scale_p and scale_o
//   kBlockPerCu                 occupancy hint (-1: the pipeline's default)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <bool kPadSeqLenQ_, bool kPadSeqLenK_, bool kPadHeadDimQ_, bool kPadHeadDimV_, bool kHasBias_,
          bool kHasBiasGrad_, bool kStoreLSE_, bool kHasDropout_, bool kDoFp8StaticQuant_, index_t kBlockPerCu_ = -1>
struct TileFmhaTraits
{
    static constexpr bool kPadSeqLenQ       = kPadSeqLenQ_;
    static constexpr bool kPadSeqLenK       = kPadSeqLenK_;
    static constexpr bool kPadHeadDimQ      = kPadHeadDimQ_;
    static constexpr bool kPadHeadDimV      = kPadHeadDimV_;
    static constexpr bool kHasBias          = kHasBias_;
    static constexpr bool kHasBiasGrad      = kHasBiasGrad_;
    static constexpr bool kStoreLSE         = kStoreLSE_;
    static constexpr bool kHasDropout       = kHasDropout_;
    static constexpr bool kDoFp8StaticQuant = kDoFp8StaticQuant_;
    static constexpr index_t kBlockPerCu    = kBlockPerCu_;
    static_assert(!kHasBiasGrad, "TileFmhaTraits: the bias gradient is a backward feature");
};

} // namespace ck_tile
