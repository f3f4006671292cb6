// SPDX-License-Identifier: MIT
// Rmsnorm2dFwdPipelineProblem: the types, block shape and traits of an rmsnorm2d forward kernel
// (upstream's parameter order). BlockShape is a Generic2dBlockShape; ComputeDataType is fp32.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename GammaDataType_, typename ComputeDataType_, typename YDataType_,
          typename InvRmsDataType_, typename UnquantYDataType_, typename SmoothScaleDataType_, typename YScaleDataType_,
          typename BlockShape_, typename Traits_>
struct Rmsnorm2dFwdPipelineProblem
{
    using XDataType           = std::remove_cvref_t<XDataType_>;
    using GammaDataType       = std::remove_cvref_t<GammaDataType_>;
    using ComputeDataType     = std::remove_cvref_t<ComputeDataType_>;
    using YDataType           = std::remove_cvref_t<YDataType_>;
    using InvRmsDataType      = std::remove_cvref_t<InvRmsDataType_>;
    using UnquantYDataType    = std::remove_cvref_t<UnquantYDataType_>;
    using SmoothScaleDataType = std::remove_cvref_t<SmoothScaleDataType_>;
    using YScaleDataType      = std::remove_cvref_t<YScaleDataType_>;
    using BlockShape          = std::remove_cvref_t<BlockShape_>;
    using Traits              = std::remove_cvref_t<Traits_>;

    // x and the residual are the same type: XResidual / YResidual are upstream's aliases
    using XResidualDataType = XDataType;
    using YResidualDataType = XDataType;

    static constexpr bool kNeedCrossLaneSync = BlockShape::ThreadPerWarp_N > 1;
    static constexpr bool kNeedCrossWarpSync = BlockShape::WarpPerBlock_N > 1;
    static_assert(std::is_same_v<ComputeDataType, float>, "Rmsnorm2dFwdPipelineProblem: compute type is fp32");
};

} // namespace ck_tile
