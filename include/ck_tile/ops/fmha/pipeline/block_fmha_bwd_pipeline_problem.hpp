// SPDX-License-Identifier: MIT
// BlockFmhaBwdPipelineProblem: the data types, shape, mode, mask and traits of the backward
// dQ/dK/dV pipeline (upstream's parameter names, a subset: no bias gradient).
//   Q, K, V, O, OGrad        the forward's tensors and dO (fp16 or bf16)
//   GemmDataType             P, dropped P and dS as MFMA operands (the inputs' type)
//   LSEDataType, DDataType   the forward's log-sum-exp and D = rowsum(dO * O) (fp32)
//   AccDataType              every GEMM's accumulator and the fp32 dQ workspace
//   BiasDataType             the element-wise bias (the inputs' type)
//   QGrad, KGrad, VGrad      the outputs' types
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename QDataType_, typename KDataType_, typename VDataType_, typename GemmDataType_, typename LSEDataType_,
          typename AccDataType_, typename DDataType_, typename BiasDataType_, typename ODataType_,
          typename OGradDataType_, typename QGradDataType_, typename KGradDataType_, typename VGradDataType_,
          typename BlockFmhaShape_, bool kIsGroupMode_, typename FmhaMask_, typename Traits_>
struct BlockFmhaBwdPipelineProblem
{
    using QDataType      = std::remove_cvref_t<QDataType_>;
    using KDataType      = std::remove_cvref_t<KDataType_>;
    using VDataType      = std::remove_cvref_t<VDataType_>;
    using GemmDataType   = std::remove_cvref_t<GemmDataType_>;
    using LSEDataType    = std::remove_cvref_t<LSEDataType_>;
    using AccDataType    = std::remove_cvref_t<AccDataType_>;
    using DDataType      = std::remove_cvref_t<DDataType_>;
    using BiasDataType   = std::remove_cvref_t<BiasDataType_>;
    using ODataType      = std::remove_cvref_t<ODataType_>;
    using OGradDataType  = std::remove_cvref_t<OGradDataType_>;
    using QGradDataType  = std::remove_cvref_t<QGradDataType_>;
    using KGradDataType  = std::remove_cvref_t<KGradDataType_>;
    using VGradDataType  = std::remove_cvref_t<VGradDataType_>;
    using BlockFmhaShape = std::remove_cvref_t<BlockFmhaShape_>;
    using FmhaMask       = std::remove_cvref_t<FmhaMask_>;
    using Traits         = std::remove_cvref_t<Traits_>;

    static constexpr index_t kNumWarps  = BlockFmhaShape::NumWarps;
    static constexpr index_t kBlockSize = kNumWarps * get_warp_size();
    static constexpr bool kIsGroupMode  = kIsGroupMode_;

    static constexpr bool kHasBias       = Traits::kHasBias;
    static constexpr bool kHasBiasGrad   = Traits::kHasBiasGrad;
    static constexpr bool kHasDropout    = Traits::kHasDropout;
    static constexpr index_t kBlockPerCu = Traits::kBlockPerCu;
    static_assert(!kHasBiasGrad, "BlockFmhaBwdPipelineProblem: the bias gradient is not supported");
};

} // namespace ck_tile
