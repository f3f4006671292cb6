// SPDX-License-Identifier: MIT
// The grid level: which C tile a block computes (block id -> tile coordinates), the block's
// windows into A, B and C in DRAM, and the write of the finished C tile.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename Problem, typename BlockGemmPipeline>
struct GridGemm
{
    using Shape     = typename Problem::BlockShape;
    using CDataType = typename Problem::CDataType;

    // C tiles are numbered row-major: block b computes tile (b / tiles_n, b % tiles_n)
    CK_TILE_HOST_DEVICE static constexpr index_t GetGridSize(index_t M, index_t N)
    {
        return (M / Shape::kM) * (N / Shape::kN);
    }

    template <typename AView, typename BView, typename CView>
    CK_TILE_DEVICE void operator()(const AView& a_m_k, const BView& b_n_k, const CView& c_m_n, void* smem) const
    {
        const index_t N       = c_m_n.get_tensor_descriptor().get_length(number<1>{});
        const index_t K       = a_m_k.get_tensor_descriptor().get_length(number<1>{});
        const index_t tiles_n = N / Shape::kN;
        const index_t m0      = (get_block_id() / tiles_n) * Shape::kM;
        const index_t n0      = (get_block_id() % tiles_n) * Shape::kN;

        // windows at the block's first K tile; the pipeline gives them distributions
        const auto a_window =
            make_tile_window(a_m_k, make_tuple(number<Shape::kM>{}, number<Shape::kK>{}), make_multi_index(m0, 0));
        const auto b_window =
            make_tile_window(b_n_k, make_tuple(number<Shape::kN>{}, number<Shape::kK>{}), make_multi_index(n0, 0));

        const auto c_block_tile = BlockGemmPipeline{}(a_window, b_window, K / Shape::kK, smem);

        // fp32 accumulators -> C's type, stored with the same distribution they were computed in
        auto c_window =
            make_tile_window(c_m_n, make_tuple(number<Shape::kM>{}, number<Shape::kN>{}), make_multi_index(m0, n0));
        store_tile(c_window, cast_tile<CDataType>(c_block_tile));
    }
};

} // namespace ck_tile
