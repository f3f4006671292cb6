// SPDX-License-Identifier: MIT
// The block pipeline: the K loop. Each iteration moves one kMPerBlock x kKPerBlock tile of A and
// one kNPerBlock x kKPerBlock tile of B
//   DRAM -> VGPRs (load_tile with the DRAM distributions)
//   VGPRs -> LDS  (store_tile into LDS windows)
// then, after a barrier, lets the block GEMM multiply them out of LDS into C held in VGPRs.
#pragma once
#include "ck_tile/core.hpp"
#include "block_gemm_pipeline_agmem_bgmem_creg_policy.hpp"

namespace ck_tile {

template <typename Problem, typename Policy = BlockGemmPipelineAGmemBGmemCRegPolicy<>>
struct BlockGemmPipelineAGmemBGmemCReg
{
    using ADataType = typename Problem::ADataType;
    using BDataType = typename Problem::BDataType;
    using Shape     = typename Problem::BlockShape;

    CK_TILE_HOST_DEVICE static constexpr index_t GetStaticLdsSize() { return Policy::template GetSmemSize<Problem>(); }

    // a_dram_window / b_dram_window: windows without distribution at the block's first K tile.
    template <typename ADramWindow, typename BDramWindow>
    CK_TILE_DEVICE auto operator()(const ADramWindow& a_dram_window, const BDramWindow& b_dram_window,
                                   index_t num_k_loops, void* smem) const
    {
        // LDS views of the two tiles, A first
        auto* a_lds_ptr = static_cast<ADataType*>(smem);
        auto* b_lds_ptr =
            reinterpret_cast<BDataType*>(static_cast<char*>(smem) + Policy::template GetSmemSizeA<Problem>());
        const auto a_lds =
            make_tensor_view<address_space_enum::lds>(a_lds_ptr, Policy::template MakeALdsBlockDescriptor<Problem>());
        const auto b_lds =
            make_tensor_view<address_space_enum::lds>(b_lds_ptr, Policy::template MakeBLdsBlockDescriptor<Problem>());

        // DRAM windows that know how the block loads them
        auto a_copy_dram = make_tile_window(a_dram_window, Policy::template MakeADramTileDistribution<Problem>());
        auto b_copy_dram = make_tile_window(b_dram_window, Policy::template MakeBDramTileDistribution<Problem>());

        // LDS windows: the tiles are stored with the distribution they were loaded with
        const auto a_copy_lds =
            make_tile_window(a_lds, make_tuple(number<Shape::kM>{}, number<Shape::kK>{}), make_multi_index(0, 0));
        const auto b_copy_lds =
            make_tile_window(b_lds, make_tuple(number<Shape::kN>{}, number<Shape::kK>{}), make_multi_index(0, 0));

        constexpr auto block_gemm = Policy::template GetBlockGemm<Problem>();
        auto c_block_tile         = block_gemm.MakeCBlockTile();
        clear_tile(c_block_tile);

        for(index_t i = 0; i < num_k_loops; ++i)
        {
            // DRAM -> VGPR
            const auto a_block_tile = load_tile(a_copy_dram);
            const auto b_block_tile = load_tile(b_copy_dram);
            move_tile_window(a_copy_dram, make_multi_index(0, Shape::kK));
            move_tile_window(b_copy_dram, make_multi_index(0, Shape::kK));

            // VGPR -> LDS; the barrier makes every thread's part visible to every other
            store_tile(a_copy_lds, a_block_tile);
            store_tile(b_copy_lds, b_block_tile);
            block_sync_lds();

            // LDS -> VGPR -> MFMA, accumulating into C
            block_gemm(c_block_tile, a_lds, b_lds);

            // nobody may overwrite LDS for the next tile while others still read this one
            block_sync_lds();
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
