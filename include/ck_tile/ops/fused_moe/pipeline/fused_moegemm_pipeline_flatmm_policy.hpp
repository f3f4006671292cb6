// SPDX-License-Identifier: MIT
// FusedMoeGemmPipelineFlatmmPolicy: how the fused-MoE pipeline moves its operands.
//
//   A (token rows, gathered):  DRAM -> VGPR with the GEMM pipelines' 2-D DRAM distribution (16-byte
//                              vectors along hidden), VGPR -> LDS ([M, K0], rows padded by 16 bytes)
//   G, D (shuffled weights):   DRAM -> VGPR directly in the warp GEMM's B layout ("flat": one
//                              shuffled 16 x 32 block is one 512-element row of a 3-D view
//                              [n blocks, k blocks, 512]; lane l reads 8 elements at l * 8)
//   Y (GEMM 0's output):       VGPR -> LDS ([M, N0], padded), the A operand of GEMM 1
//   O:                         VGPR -> DRAM with atomic adds, rows scattered to their tokens
// The warp GEMM is the 16x16x32 one of WarpGemmMfmaDispatcher (one gfx950 instruction, two gfx942
// ones) with the transposed C distribution: each lane holds 4 consecutive columns of a row of C,
// so Y is stored to LDS, and O added, 4 columns (8 bytes of 16-bit data) at a time.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_dispatcher.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp"
#include "ck_tile/ops/fused_moe/utility/moe_weight_layout.hpp"

namespace ck_tile {

struct FusedMoeGemmPipelineFlatmmPolicy
{
    template <typename T>
    static constexpr index_t kVector16B = 16 / static_cast<index_t>(sizeof(T));

    template <typename Problem>
    using WarpGemm0 = WarpGemmMfmaDispatcher_t<typename Problem::ADataType, typename Problem::GDataType,
                                               typename Problem::AccDataType, Problem::BlockShape::Warp_M0,
                                               Problem::BlockShape::Warp_N0, Problem::BlockShape::Warp_K0, true>;
    template <typename Problem>
    using WarpGemm1 = WarpGemmMfmaDispatcher_t<typename Problem::YDataType, typename Problem::DDataType,
                                               typename Problem::AccDataType, Problem::BlockShape::Warp_M1,
                                               Problem::BlockShape::Warp_N1, Problem::BlockShape::Warp_K1, true>;

    // the elements of a weight vector one lane reads: the warp GEMM's K per lane, the shuffle's 8
    template <typename Problem>
    static constexpr void check_flat_layout()
    {
        using S = typename Problem::BlockShape;
        static_assert(S::Warp_M0 == moe_weight_layout::kBlockN && S::Warp_N0 == moe_weight_layout::kBlockN &&
                          S::Warp_K0 == moe_weight_layout::kBlockK && S::Warp_M1 == moe_weight_layout::kBlockN &&
                          S::Warp_N1 == moe_weight_layout::kBlockN && S::Warp_K1 == moe_weight_layout::kBlockK,
                      "FusedMoeGemmPipelineFlatmmPolicy: the warp tiles must be the shuffle's 16 x 16 x 32");
        static_assert(WarpGemm0<Problem>::BWarpTensor::thread_buffer_size == moe_weight_layout::kKPack &&
                          WarpGemm1<Problem>::BWarpTensor::thread_buffer_size == moe_weight_layout::kKPack,
                      "FusedMoeGemmPipelineFlatmmPolicy: a lane's weight operand must be the shuffle's 8 values");
        static_assert(moe_weight_layout::kBlock == get_warp_size() * moe_weight_layout::kKPack,
                      "FusedMoeGemmPipelineFlatmmPolicy: one shuffled block is one wave's read");
    }

    // A's gathered rows: M x K0, 16-byte vectors along hidden
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeAGatherTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return GemmPipelineAGmemBGmemCRegV1DefaultPolicy::MakeDramTileDistribution2D<
            S::Block_M0, S::Block_K0, kVector16B<typename Problem::ADataType>, Problem::kBlockSize>();
    }

    // a rows x cols LDS tile, cols contiguous, each row padded by 16 bytes
    template <typename T, index_t kRows, index_t kCols>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsDescriptor()
    {
        constexpr index_t kVec = kVector16B<T>;
        return make_naive_tensor_descriptor(make_tuple(number<kRows>{}, number<kCols>{}),
                                            make_tuple(number<kCols + kVec>{}, number<1>{}), number<kVec>{});
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeALdsDescriptor()
    {
        using S = typename Problem::BlockShape;
        return MakeLdsDescriptor<typename Problem::ADataType, S::Block_M0, S::Block_K0>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeYLdsDescriptor()
    {
        using S = typename Problem::BlockShape;
        return MakeLdsDescriptor<typename Problem::YDataType, S::Block_M0, S::Block_N0>();
    }

    // The weights of kNRepeat x kNWarp n blocks by kKRepeat k blocks, as a [n blocks, k blocks, 512]
    // tile: warp w reads n blocks r * kNWarp + w (r < kNRepeat), every k block, lane l the 8
    // elements at l * 8 of each; a lane's registers are (n repeat, k repeat, the 8 values).
    template <index_t kNRepeat, index_t kNWarp, index_t kKRepeat>
    CK_TILE_HOST_DEVICE static constexpr auto MakeFlatWeightTileDistribution()
    {
        constexpr index_t kPack  = moe_weight_layout::kKPack;
        constexpr index_t kLanes = moe_weight_layout::kBlock / kPack;
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<kNRepeat, kNWarp>, sequence<kKRepeat>, sequence<kLanes, kPack>>,
                                       tuple<sequence<1>, sequence<3>>, tuple<sequence<1>, sequence<0>>,
                                       sequence<1, 2, 3>, sequence<0, 0, 1>>{});
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeGFlatTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return MakeFlatWeightTileDistribution<S::Repeat_N0, S::WarpPerBlock_N0, S::Repeat_K0>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeDFlatTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return MakeFlatWeightTileDistribution<S::Repeat_N1, S::WarpPerBlock_N1, S::Repeat_K1>();
    }

    // The C tile of a block GEMM: the warp GEMM's C layout embedded in <MRepeat, MWarp> x
    // <NRepeat, NWarp> (as BlockGemmASmemBSmemCRegV1 lays it out), registers (m, n, the warp's)
    template <typename WarpGemm, index_t kMRepeat, index_t kMWarp, index_t kNRepeat, index_t kNWarp>
    CK_TILE_HOST_DEVICE static constexpr auto MakeCBlockTileDistribution()
    {
        constexpr auto outer =
            tile_distribution_encoding<sequence<>, tuple<sequence<kMRepeat, kMWarp>, sequence<kNRepeat, kNWarp>>,
                                       tuple<sequence<1, 2>>, tuple<sequence<1, 1>>, sequence<1, 2>, sequence<0, 0>>{};
        return make_static_tile_distribution(
            make_embed_tile_distribution_encoding(outer, typename WarpGemm::CWarpDstrEncoding{}));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeC0BlockTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return MakeCBlockTileDistribution<WarpGemm0<Problem>, S::Repeat_M0, S::WarpPerBlock_M0, S::Repeat_N0,
                                          S::WarpPerBlock_N0>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeC1BlockTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return MakeCBlockTileDistribution<WarpGemm1<Problem>, S::Repeat_M1, S::WarpPerBlock_M1, S::Repeat_N1,
                                          S::WarpPerBlock_N1>();
    }

    // LDS bytes: the A tile, the Y tile, the rows' token ids and weights
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeA()
    {
        return integer_least_multiple(static_cast<index_t>(MakeALdsDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::ADataType)),
                                      16);
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeY()
    {
        return integer_least_multiple(static_cast<index_t>(MakeYLdsDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::YDataType)),
                                      16);
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeRows()
    {
        return integer_least_multiple(
            static_cast<index_t>(Problem::BlockShape::Block_M0 *
                                 (sizeof(index_t) + sizeof(typename Problem::TopkWeightDataType))),
            16);
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return GetSmemSizeA<Problem>() + GetSmemSizeY<Problem>() + GetSmemSizeRows<Problem>();
    }
};

} // namespace ck_tile
