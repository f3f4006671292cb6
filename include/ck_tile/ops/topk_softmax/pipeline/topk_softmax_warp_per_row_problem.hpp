// SPDX-License-Identifier: MIT
// TopkSoftmaxWarpPerRowProblem: the types and shape of one top-k softmax instance (upstream's
// names; the row's experts are spread over LanesPerRow lanes of one wave):
//
//   InputType    the logits [tokens, experts], fp16 or bf16
//   WeightType   the selected weights [tokens, k] (fp32)
//   IndexType    the selected experts [tokens, k] (int32)
//   Experts      elements of a row one block tile covers (>= the row's experts; the rest is padding)
//   LanesPerRow  lanes sharing a row (a power of 2 up to 64): 1 = each lane owns whole rows and no
//                lane talks to another; more = a row's maxima and sums are xor butterflies
//   Vector       elements of one load (8: 16 bytes; 1 for rows or strides that are not multiples)
//   WarpsPerBlock  waves of a block (each wave RowsPerWarp rows)
// The activation (TopkSoftmaxActivation) is a kernel argument, not a compile-time choice: one
// instance serves both, which halves the instances the example compiles.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"

namespace ck_tile {

enum class TopkSoftmaxActivation
{
    softmax, // weight = exp(x - max) / sum(exp(x - max)) over the row's experts
    sigmoid, // weight = 1 / (1 + exp(-x)); the ranking is the logits' (sigmoid is monotonic)
};

template <typename InputType_, typename WeightType_, typename IndexType_, index_t Experts_, index_t LanesPerRow_ = 1,
          index_t Vector_ = 1, index_t WarpsPerBlock_ = 4>
struct TopkSoftmaxWarpPerRowProblem
{
    using InputType  = std::remove_cvref_t<InputType_>;
    using WeightType = std::remove_cvref_t<WeightType_>;
    using IndexType  = std::remove_cvref_t<IndexType_>;
    static_assert(sizeof(InputType) == 2, "TopkSoftmaxWarpPerRowProblem: 16-bit logits (fp16 or bf16)");

    static constexpr index_t Experts     = Experts_;
    static constexpr index_t LanesPerRow = LanesPerRow_;
    static constexpr index_t Vector      = Vector_;

    static_assert(is_power_of_two_integer(LanesPerRow) && LanesPerRow <= get_warp_size(),
                  "TopkSoftmaxWarpPerRowProblem: LanesPerRow must be a power of 2 within a wave");
    static_assert(Experts % (LanesPerRow * Vector) == 0,
                  "TopkSoftmaxWarpPerRowProblem: Experts must be whole vectors of every lane");
    // the index travels in the low 16 bits of the ranking key (the pipeline's key)
    static_assert(Experts <= 65536, "TopkSoftmaxWarpPerRowProblem: at most 65536 experts");

    static constexpr index_t ElementsPerLane = Experts / LanesPerRow;
    static constexpr index_t RowsPerWarp     = get_warp_size() / LanesPerRow;
    static constexpr index_t BlockSize       = WarpsPerBlock_ * get_warp_size();
    static constexpr index_t RowsPerBlock    = WarpsPerBlock_ * RowsPerWarp;

    // a block tile: RowsPerBlock rows of Experts elements, LanesPerRow lanes per row
    using BlockShape =
        Generic2dBlockShape<sequence<RowsPerBlock, Experts>, sequence<RowsPerBlock, LanesPerRow>, sequence<1, Vector>>;
};

} // namespace ck_tile
