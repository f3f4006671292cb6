// SPDX-License-Identifier: MIT
// AddRmsnorm2dRdquantFwdPipelineProblem: the types and block shape of one instance (upstream's
// names):
//
//   ADataType, BDataType   the two inputs [m, n] (fp16 or bf16), added: x = a + b
//   GammaDataType          gamma [n], the norm's per-column weight (the input type)
//   ComputeDataType        the sums of squares, y and the row maxima (fp32)
//   XDataType              x as stored (the input type); the norm is of x as stored
//   YScaleDataType         yscale [m] (fp32)
//   QYDataType             qy [m, n]: int8, or the arch's fp8
//   BlockShape             a Generic2dBlockShape: Block_M rows per block, Block_N columns per step
//   kPadN                  n need not be a multiple of Block_N
//   kSaveX                 x may be stored (it is, where the host arguments give p_x)
//   kThreePass             rows longer than Block_N: sums of squares, row maxima, quantization
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename ADataType_, typename BDataType_, typename GammaDataType_, typename ComputeDataType_,
          typename XDataType_, typename YScaleDataType_, typename QYDataType_, typename BlockShape_, bool kPadN_,
          bool kSaveX_, bool kThreePass_>
struct AddRmsnorm2dRdquantFwdPipelineProblem
{
    using ADataType       = std::remove_cvref_t<ADataType_>;
    using BDataType       = std::remove_cvref_t<BDataType_>;
    using GammaDataType   = std::remove_cvref_t<GammaDataType_>;
    using ComputeDataType = std::remove_cvref_t<ComputeDataType_>;
    using XDataType       = std::remove_cvref_t<XDataType_>;
    using YScaleDataType  = std::remove_cvref_t<YScaleDataType_>;
    using QYDataType      = std::remove_cvref_t<QYDataType_>;
    using BlockShape      = std::remove_cvref_t<BlockShape_>;

    static constexpr bool kPadN      = kPadN_;
    static constexpr bool kSaveX     = kSaveX_;
    static constexpr bool kThreePass = kThreePass_;
};

} // namespace ck_tile
