// SPDX-License-Identifier: MIT
// FlatmmPipelineAGmemBGmemCRegV1: the K loop of the flatmm GEMM. A goes the usual way (DRAM ->
// VGPRs -> LDS -> the MFMA A operands); B is pre-shuffled on the host (shuffle_b) and goes straight
// from DRAM into the MFMA B registers: each warp reads, per N iteration, one contiguous run of its
// warp tiles of the K step, one vector per lane, no LDS.
//
//   prologue:  A tile 0 -> VGPRs;  B tile 0 -> registers
//   K step i:  barrier;  A tile i -> LDS;  A tile i + 1 and B tile i + 1 -> registers (if any);
//              barrier;  MFMAs of step i (A warp tiles from LDS, B from the registers of step i)
//
// Any num_loop >= 1 works. Problem: a UniversalGemmPipelineProblem with row-major A and
// column-major B (the layout shuffle_b reads); its VectorSizeB is not used (flat B is read in runs
// of the warp GEMM's B operand). Call:
//
//   auto c = FlatmmPipelineAGmemBGmemCRegV1<Problem>{}(a_dram_window, b_flat_dram_window, num_loop, p_smem);
//
// a_dram_window: kM x kK (padded as the problem pads); b_flat_dram_window: 1 x (kK * NPerWarpTile)
// of the flat view (rows: N warp tiles, columns: K * NPerWarpTile) at the block's first N warp tile.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_universal_pipeline_ag_bg_cr_policy.hpp"
#include "ck_tile/ops/flatmm/block/block_flatmm_asmem_bsmem_creg_v1.hpp"

namespace ck_tile {

// A's DRAM distribution, LDS layout and the warp GEMM as the universal GEMM policy has them; the
// block GEMM reads B from registers.
struct UniversalFlatmmPipelineAgBgCrPolicy : UniversalGemmPipelineAgBgCrPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockFlatmm()
    {
        using V1 = decltype(GemmPipelineAGmemBGmemCRegV1DefaultPolicy::GetBlockGemm<Problem>());
        return BlockFlatmmASmemBSmemCRegV1<Problem, typename V1::Policy>{};
    }
    // A only
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return GetSmemSizeA<Problem>();
    }
};

struct BaseFlatmmPipelineAGmemBGmemCRegV1
{
    static constexpr index_t PrefetchStages = 1;
    CK_TILE_HOST_DEVICE static constexpr bool BlockHasHotloop(index_t num_loop) { return num_loop > PrefetchStages; }
};

template <typename Problem_, typename Policy_ = UniversalFlatmmPipelineAgBgCrPolicy>
struct FlatmmPipelineAGmemBGmemCRegV1 : BaseFlatmmPipelineAGmemBGmemCRegV1
{
    using Problem        = Problem_;
    using Policy         = Policy_;
    using ADataType      = typename Problem::ADataType;
    using BDataType      = typename Problem::BDataType;
    using AccDataType    = typename Problem::AccDataType;
    using CDataType      = AccDataType;
    using BlockGemmShape = typename Problem::BlockGemmShape;
    using ALayout        = typename Problem::ALayout;
    using BLayout        = typename Problem::BLayout;
    using CLayout        = typename Problem::CLayout;
    using BlockFlatmm    = decltype(Policy::template GetBlockFlatmm<Problem>());
    using BlockGemm      = BlockFlatmm;
    using WarpGemm       = typename BlockFlatmm::WarpGemm;

    static_assert(is_row_major_v<ALayout> && !is_row_major_v<BLayout>,
                  "FlatmmPipelineAGmemBGmemCRegV1: row-major A and (pre-shuffled) column-major B");

    static constexpr index_t BlockSize = Problem::kBlockSize;
    static constexpr index_t MPerBlock = BlockGemmShape::kM;
    static constexpr index_t NPerBlock = BlockGemmShape::kN;
    static constexpr index_t KPerBlock = BlockGemmShape::kK;
    static constexpr bool kPadM        = Problem::kPadM;
    static constexpr bool kPadN        = Problem::kPadN;
    static constexpr bool kPadK        = Problem::kPadK;

    static constexpr index_t NWarp        = BlockFlatmm::NWarp;
    static constexpr index_t NIterPerWarp = BlockFlatmm::NIterPerWarp;
    static constexpr index_t kNWarpTile   = WarpGemm::kN;
    static constexpr index_t kKWarpTile   = WarpGemm::kK;
    // K values of one lane in one warp tile, and the lane groups along K (shuffle_b's d)
    static constexpr index_t kBPerLane    = BlockFlatmm::kBPerLane;
    static constexpr index_t kKLaneGroups = kKWarpTile / kBPerLane;
    // one K step of a flat-B row
    static constexpr index_t kFlatKPerBlock = KPerBlock * kNWarpTile;

    static constexpr const char* name = "flatmm_v1";
    static constexpr const char* description =
        "flatmm v1 (A: DRAM -> LDS -> MFMA operands; B pre-shuffled: DRAM -> MFMA operands)";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeA() { return Problem::VectorSizeA; }
    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeB() { return 1; } // flat B: see shuffle_b

    template <typename ADramWindow, typename BFlatDramWindow>
    CK_TILE_DEVICE auto operator()(const ADramWindow& a_dram_block_window_tmp,
                                   const BFlatDramWindow& b_flat_dram_window_tmp, index_t num_loop, void* p_smem) const
    {
        auto a_copy_dram =
            make_tile_window(a_dram_block_window_tmp, Policy::template MakeADramTileDistribution<Problem>());
        const auto a_lds = make_tensor_view<address_space_enum::lds>(
            static_cast<ADataType*>(p_smem), Policy::template MakeALdsBlockDescriptor<Problem>());
        constexpr auto a_lens = make_tuple(number<MPerBlock>{}, number<KPerBlock>{});
        const auto a_store    = make_tile_window(a_lds, a_lens, make_multi_index(0, 0));
        const auto a_gemm     = make_tile_window(a_lds, a_lens, make_multi_index(0, 0));

        // this warp's flat-B windows, one per N iteration: N warp tile (n * NWarp + warp_n)
        const index_t warp_n  = get_warp_id() % NWarp;
        const auto b_origin   = b_flat_dram_window_tmp.get_window_origin();
        constexpr auto b_dstr = BlockFlatmm::MakeBFlatDistribution();
        auto b_windows        = generate_tuple(
            [&](auto n) {
                return make_tile_window(b_flat_dram_window_tmp.get_bottom_tensor_view(),
                                        make_tuple(number<1>{}, number<kFlatKPerBlock>{}),
                                        b_origin + make_multi_index(n * NWarp + warp_n, 0), b_dstr);
            },
            number<NIterPerWarp>{});

        BlockFlatmm block_flatmm;
        auto c_block_tile = block_flatmm.MakeCBlockTile();
        clear_tile(c_block_tile);

        auto a_block_tile = load_tile(a_copy_dram);
        auto b_tiles      = generate_tuple([&](auto n) { return load_tile(b_windows.at(n)); }, number<NIterPerWarp>{});

        for(index_t i = 0; i < num_loop; ++i)
        {
            block_sync_lds(); // every warp is done reading the previous A tile
            store_tile(a_store, a_block_tile);
            const auto b_cur = b_tiles;
            if(i + 1 < num_loop)
            {
                move_tile_window(a_copy_dram, make_multi_index(0, KPerBlock));
                load_tile(a_block_tile, a_copy_dram);
                static_for<0, NIterPerWarp>{}([&](auto n) {
                    move_tile_window(b_windows.at(n), make_multi_index(0, kFlatKPerBlock));
                    load_tile(b_tiles.at(n), b_windows.at(n));
                });
            }
            block_sync_lds();
            block_flatmm(c_block_tile, a_gemm, b_cur);
        }
        return c_block_tile;
    }
};

} // namespace ck_tile
