// SPDX-License-Identifier: MIT
// FusedMoeGemmPipelineProblem: the data types, activation, tiling and switches of a fused-MoE
// instance (upstream's parameter list; the scale types are carried for its shape, unused without
// quantization).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename ADataType_, typename GDataType_, typename DDataType_, typename AccDataType_, typename ODataType_,
          typename AScaleDataType_, typename GScaleDataType_, typename DScaleDataType_, typename YSmoothScaleDataType_,
          typename TopkWeightDataType_, typename IndexDataType_, typename GateActivation_, typename BlockShape_,
          typename Traits_>
struct FusedMoeGemmPipelineProblem
{
    using ADataType            = std::remove_cvref_t<ADataType_>;
    using GDataType            = std::remove_cvref_t<GDataType_>;
    using DDataType            = std::remove_cvref_t<DDataType_>;
    using AccDataType          = std::remove_cvref_t<AccDataType_>;
    using ODataType            = std::remove_cvref_t<ODataType_>;
    using AScaleDataType       = std::remove_cvref_t<AScaleDataType_>;
    using GScaleDataType       = std::remove_cvref_t<GScaleDataType_>;
    using DScaleDataType       = std::remove_cvref_t<DScaleDataType_>;
    using YSmoothScaleDataType = std::remove_cvref_t<YSmoothScaleDataType_>;
    using TopkWeightDataType   = std::remove_cvref_t<TopkWeightDataType_>;
    using IndexDataType        = std::remove_cvref_t<IndexDataType_>;
    // Y (the activation's output, GEMM 1's A operand) is kept in A's type
    using YDataType = ADataType;

    using GateActivation = std::remove_cvref_t<GateActivation_>;
    using BlockShape     = std::remove_cvref_t<BlockShape_>;
    using Traits         = std::remove_cvref_t<Traits_>;

    static constexpr index_t kBlockSize = BlockShape::BlockSize;
    static constexpr bool IsGateOnly    = Traits::IsGateOnly;
};

} // namespace ck_tile
