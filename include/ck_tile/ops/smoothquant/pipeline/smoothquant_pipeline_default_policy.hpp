// SPDX-License-Identifier: MIT
// SmoothquantPipelineDefaultPolicy: x is loaded in the block shape's generic row-wise
// distribution, and the quantization is DynamicQuantEpilogue with the smooth scale on.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"
#include "ck_tile/ops/epilogue/dynamic_quant_epilogue.hpp"

namespace ck_tile {

struct SmoothquantPipelineDefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeXBlockTileDistribution()
    {
        return make_generic_2d_block_tile_distribution<typename Problem::BlockShape>();
    }

    // rows are padded in M (the last block's extra rows) and, with kPadN, in N
    template <typename Problem>
    using Epilogue = DynamicQuantEpilogue<DynamicQuantEpilogueProblem<
        typename Problem::ComputeDataType, typename Problem::SmoothScaleDataType, typename Problem::YScaleDataType,
        typename Problem::QYDataType, typename Problem::BlockShape,
        DynamicQuantEpilogueTraits<true, Problem::kPadN, true>>>;

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return Epilogue<Problem>::GetSmemSize();
    }
};

} // namespace ck_tile
