// SPDX-License-Identifier: MIT
// GemmPipelineProblem: everything a GEMM pipeline is specialised for.
//
//   GemmPipelineProblem<ADataType, BDataType, AccDataType, BlockGemmShape, Traits,
//                       VectorSizeA = 16 bytes, VectorSizeB = 16 bytes>
//
// AccDataType is the type the block GEMM accumulates C in (upstream calls the parameter
// CDataType; both names are provided). VectorSizeA / VectorSizeB are the elements one DRAM access
// moves along the operand's contiguous dimension: by default 16 bytes' worth; 1 gives an instance
// with scalar accesses, which works for any size, stride and alignment. The kernel turns the vector
// size into the tensor view's alignment guarantee and IsSupportedArgument checks that the run-time
// sizes, strides and pointers honour it.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/tile_gemm_shape.hpp"
#include "ck_tile/ops/gemm/pipeline/tile_gemm_traits.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_ag_bg_cr_scheduler.hpp"

namespace ck_tile {

template <typename ADataType_, typename BDataType_, typename AccDataType_, typename BlockGemmShape_, typename Traits_,
          index_t VectorSizeA_ = 16 / static_cast<index_t>(sizeof(ADataType_)),
          index_t VectorSizeB_ = 16 / static_cast<index_t>(sizeof(BDataType_))>
struct GemmPipelineProblem
{
    using ADataType      = std::remove_cv_t<ADataType_>;
    using BDataType      = std::remove_cv_t<BDataType_>;
    using AccDataType    = std::remove_cv_t<AccDataType_>;
    using CDataType      = AccDataType; // upstream's name for the accumulator type
    using BlockGemmShape = BlockGemmShape_;
    using Traits         = Traits_;

    using ALayout = typename Traits::ALayout;
    using BLayout = typename Traits::BLayout;
    using CLayout = typename Traits::CLayout;

    static constexpr index_t kBlockSize = BlockGemmShape::BlockSize;

    static constexpr bool kPadM = Traits::kPadM;
    static constexpr bool kPadN = Traits::kPadN;
    static constexpr bool kPadK = Traits::kPadK;

    static constexpr index_t VectorSizeA = VectorSizeA_;
    static constexpr index_t VectorSizeB = VectorSizeB_;
    static_assert(VectorSizeA >= 1 && VectorSizeB >= 1 && is_power_of_two_integer(VectorSizeA) &&
                      is_power_of_two_integer(VectorSizeB),
                  "GemmPipelineProblem: vector sizes are powers of two");
};

// UniversalGemmPipelineProblem<ADataType, BDataType, AccDataType, BlockGemmShape, Traits,
//                              Scheduler = Intrawave, VectorSizeA, VectorSizeB>: the problem of the
// universal pipelines (Mem, CompV3, CompV4); Traits is a TileGemmUniversalTraits and Scheduler
// picks the block GEMM's interleaving of LDS reads and MFMAs (block_universal_gemm_as_bs_cr.hpp).
template <typename ADataType_, typename BDataType_, typename AccDataType_, typename BlockGemmShape_, typename Traits_,
          GemmPipelineScheduler Scheduler_ = GemmPipelineScheduler::Intrawave,
          index_t VectorSizeA_             = 16 / static_cast<index_t>(sizeof(ADataType_)),
          index_t VectorSizeB_             = 16 / static_cast<index_t>(sizeof(BDataType_))>
struct UniversalGemmPipelineProblem
    : GemmPipelineProblem<ADataType_, BDataType_, AccDataType_, BlockGemmShape_, Traits_, VectorSizeA_, VectorSizeB_>
{
    static constexpr GemmPipelineScheduler Scheduler =
        Scheduler_ == GemmPipelineScheduler::Default ? GemmPipelineScheduler::Intrawave : Scheduler_;
    static constexpr bool DoubleSmemBuffer    = Traits_::DoubleSmemBuffer;
    static constexpr bool UsePersistentKernel = Traits_::UsePersistentKernel;
};

} // namespace ck_tile
