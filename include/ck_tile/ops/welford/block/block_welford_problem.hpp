// SPDX-License-Identifier: MIT
// BlockWelfordProblem: the types of a block-level Welford reduction. As for BlockReduce2d,
// ReduceDims names the reduced X dimension of the input tile (one; upstream: the second).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename ComputeDataType_, typename BlockShape_, typename ReduceDims_ = sequence<1>>
struct BlockWelfordProblem
{
    using XDataType       = std::remove_cvref_t<XDataType_>;
    using ComputeDataType = std::remove_cvref_t<ComputeDataType_>;
    using BlockShape      = std::remove_cvref_t<BlockShape_>;
    using ReduceDims      = ReduceDims_;
    static_assert(ReduceDims::size() == 1, "BlockWelfordProblem: Welford reduces one X dimension");
};

} // namespace ck_tile
