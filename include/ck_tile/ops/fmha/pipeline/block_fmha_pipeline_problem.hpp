// SPDX-License-Identifier: MIT
// BlockFmhaPipelineProblem: the data types, shape, mode, mask and traits of a forward attention
// pipeline (upstream's parameter order).
//   Q, K, V, O          the tensors' types (fp16, bf16 or fp8)
//   SaccDataType        S = Q K^T accumulation (fp32)
//   SMPLComputeDataType the softmax's arithmetic (fp32)
//   BiasDataType        the element-wise bias (Q's type; fp32 for fp8)
//   RandValOutputDataType the dropout's random bytes (uint8)
//   LSEDataType         log-sum-exp (fp32)
//   PDataType           P as GEMM 1's A operand (V's type)
//   OaccDataType        O accumulation (fp32)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename QDataType_, typename KDataType_, typename VDataType_, typename SaccDataType_,
          typename SMPLComputeDataType_, typename BiasDataType_, typename RandValOutputDataType_, typename LSEDataType_,
          typename PDataType_, typename OaccDataType_, typename ODataType_, typename BlockFmhaShape_,
          bool kIsGroupMode_, typename FmhaMask_, typename Traits_>
struct BlockFmhaPipelineProblem
{
    using QDataType             = std::remove_cvref_t<QDataType_>;
    using KDataType             = std::remove_cvref_t<KDataType_>;
    using VDataType             = std::remove_cvref_t<VDataType_>;
    using SaccDataType          = std::remove_cvref_t<SaccDataType_>;
    using SMPLComputeDataType   = std::remove_cvref_t<SMPLComputeDataType_>;
    using BiasDataType          = std::remove_cvref_t<BiasDataType_>;
    using RandValOutputDataType = std::remove_cvref_t<RandValOutputDataType_>;
    using LSEDataType           = std::remove_cvref_t<LSEDataType_>;
    using PDataType             = std::remove_cvref_t<PDataType_>;
    using OaccDataType          = std::remove_cvref_t<OaccDataType_>;
    using ODataType             = std::remove_cvref_t<ODataType_>;
    using BlockFmhaShape        = std::remove_cvref_t<BlockFmhaShape_>;
    using FmhaMask              = std::remove_cvref_t<FmhaMask_>;
    using Traits                = std::remove_cvref_t<Traits_>;

    static constexpr index_t kNumWarps  = BlockFmhaShape::NumWarps;
    static constexpr index_t kBlockSize = kNumWarps * get_warp_size();
    static constexpr bool kIsGroupMode  = kIsGroupMode_;

    static constexpr bool kPadSeqLenQ       = Traits::kPadSeqLenQ;
    static constexpr bool kPadSeqLenK       = Traits::kPadSeqLenK;
    static constexpr bool kPadHeadDimQ      = Traits::kPadHeadDimQ;
    static constexpr bool kPadHeadDimV      = Traits::kPadHeadDimV;
    static constexpr bool kHasBias          = Traits::kHasBias;
    static constexpr bool kStoreLSE         = Traits::kStoreLSE;
    static constexpr bool kHasDropout       = Traits::kHasDropout;
    static constexpr bool kDoFp8StaticQuant = Traits::kDoFp8StaticQuant;
    static constexpr index_t kBlockPerCu    = Traits::kBlockPerCu;
};

} // namespace ck_tile
