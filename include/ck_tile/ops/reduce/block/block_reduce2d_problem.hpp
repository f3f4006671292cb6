// SPDX-License-Identifier: MIT
// BlockReduce2dProblem: what the block-level reduction steps need to know. ReduceDims names the X
// dimensions of the input tile that are reduced (upstream always reduces the second, sequence<1>).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename ComputeDataType_, typename BlockShape_, typename ReduceDims_ = sequence<1>>
struct BlockReduce2dProblem
{
    using XDataType       = std::remove_cvref_t<XDataType_>;
    using ComputeDataType = std::remove_cvref_t<ComputeDataType_>;
    using BlockShape      = std::remove_cvref_t<BlockShape_>;
    using ReduceDims      = ReduceDims_;
};

namespace detail {
// the reduced dimensions of a problem: its ReduceDims, or upstream's fixed choice, the second
template <typename Problem>
CK_TILE_HOST_DEVICE constexpr auto problem_reduce_dims()
{
    if constexpr(requires { typename Problem::ReduceDims; })
        return typename Problem::ReduceDims{};
    else
        return sequence<1>{};
}
} // namespace detail

} // namespace ck_tile
