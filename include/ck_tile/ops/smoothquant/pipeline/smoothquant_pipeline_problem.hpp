// SPDX-License-Identifier: MIT
// SmoothquantPipelineProblem: the types and block shape of one smoothquant instance (upstream's
// names):
//
//   XDataType            x [m, n], fp16 or bf16
//   SmoothScaleDataType  smscale [n], the per-column smoothing scale (fp32)
//   ComputeDataType      x * smscale and the row maxima (fp32)
//   YScaleDataType       yscale [m], the per-row dequantization scale (fp32)
//   QYDataType           qy [m, n], the quantized output (int8)
//   BlockShape           a Generic2dBlockShape: Block_M rows per block, Block_N columns per step
//   kPadN                n need not be a multiple of Block_N (padding reads 0, writes dropped)
//   kTwoPass             rows longer than Block_N: one pass for the row maxima, one to quantize
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename SmoothScaleDataType_, typename ComputeDataType_, typename YScaleDataType_,
          typename QYDataType_, typename BlockShape_, bool kPadN_, bool kTwoPass_>
struct SmoothquantPipelineProblem
{
    using XDataType           = std::remove_cvref_t<XDataType_>;
    using SmoothScaleDataType = std::remove_cvref_t<SmoothScaleDataType_>;
    using ComputeDataType     = std::remove_cvref_t<ComputeDataType_>;
    using YScaleDataType      = std::remove_cvref_t<YScaleDataType_>;
    using QYDataType          = std::remove_cvref_t<QYDataType_>;
    using BlockShape          = std::remove_cvref_t<BlockShape_>;

    static constexpr bool kPadN    = kPadN_;
    static constexpr bool kTwoPass = kTwoPass_;
};

} // namespace ck_tile
