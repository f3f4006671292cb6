// SPDX-License-Identifier: MIT
// Reduce2dProblem: the types of a reduction kernel (upstream's first five parameters). ReduceOp is
// one ReduceOp::* operator, or a tuple of them for MultiReduce. kVectorized: the kept dimension's
// length is a multiple of ThreadTile_M, so each thread's ThreadTile_M elements are one aligned
// vector access (otherwise they are read one by one).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename ComputeDataType_, typename YDataType_, typename BlockShape_, typename ReduceOp_,
          bool kVectorized_ = true>
struct Reduce2dProblem
{
    using XDataType       = std::remove_cvref_t<XDataType_>;
    using ComputeDataType = std::remove_cvref_t<ComputeDataType_>;
    using YDataType       = std::remove_cvref_t<YDataType_>;
    using BlockShape      = std::remove_cvref_t<BlockShape_>;
    using ReduceOp        = ReduceOp_;

    static constexpr bool kVectorized        = kVectorized_;
    static constexpr bool kNeedCrossLaneSync = BlockShape::ThreadPerWarp_N > 1;
    static constexpr bool kNeedCrossWarpSync = BlockShape::WarpPerBlock_N > 1;
};

} // namespace ck_tile
