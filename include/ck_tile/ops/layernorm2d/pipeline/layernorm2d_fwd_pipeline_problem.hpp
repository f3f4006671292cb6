// SPDX-License-Identifier: MIT
// Layernorm2dFwdPipelineProblem: the types, block shape and traits of a layernorm forward pipeline
// (upstream's parameter order). BlockShape is a Generic2dBlockShape; YDataType is the output: the
// input type, or int8 / fp8 with a fused quantization (then YScaleDataType is the per-row scale's
// type and SmoothScaleDataType the per-column smooth scale's).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename XBiasDataType_, typename GammaDataType_, typename BetaDataType_,
          typename ComputeDataType_, typename YDataType_, typename MeanDataType_, typename InvStdDataType_,
          typename SmoothScaleDataType_, typename YScaleDataType_, typename BlockShape_, typename Traits_>
struct Layernorm2dFwdPipelineProblem
{
    using XDataType           = std::remove_cvref_t<XDataType_>;
    using XBiasDataType       = std::remove_cvref_t<XBiasDataType_>;
    using GammaDataType       = std::remove_cvref_t<GammaDataType_>;
    using BetaDataType        = std::remove_cvref_t<BetaDataType_>;
    using ComputeDataType     = std::remove_cvref_t<ComputeDataType_>;
    using YDataType           = std::remove_cvref_t<YDataType_>;
    using MeanDataType        = std::remove_cvref_t<MeanDataType_>;
    using InvStdDataType      = std::remove_cvref_t<InvStdDataType_>;
    using SmoothScaleDataType = std::remove_cvref_t<SmoothScaleDataType_>;
    using YScaleDataType      = std::remove_cvref_t<YScaleDataType_>;
    using BlockShape          = std::remove_cvref_t<BlockShape_>;
    using Traits              = std::remove_cvref_t<Traits_>;
    // x_residual and y_residual have x's type
    using XResidualDataType = XDataType;
    using YResidualDataType = XDataType;

    static_assert(std::is_same_v<ComputeDataType, float>, "Layernorm2dFwdPipelineProblem: compute is fp32");
};

} // namespace ck_tile
