// SPDX-License-Identifier: MIT
// Policy of the block pipeline: how a block's 256 threads load the A and B tiles from DRAM (tile
// distributions), and how those tiles are laid out in LDS (tensor descriptors).
#pragma once
#include "ck_tile/core.hpp"
#include "block_gemm_asmem_bsmem_creg.hpp"
#include "block_gemm_asmem_bsmem_creg_policy.hpp"

namespace ck_tile {

// BlockGemmPolicy: the block GEMM's own policy (which warp GEMM, how warps are arranged).
template <typename BlockGemmPolicy = BlockGemmASmemBSmemCRegPolicy>
struct BlockGemmPipelineAGmemBGmemCRegPolicy
{
    // One 16-byte vector of fp16 per access along K.
    static constexpr index_t kKVector = 8;
    // Each LDS row gets kLdsPad extra elements: consecutive rows then start in different banks,
    // so the lanes of a wave that read one K column of 32 rows do not all hit the same bank.
    static constexpr index_t kLdsPad = 8;

    // A DRAM tile (kMPerBlock x kKPerBlock), loaded by kBlockSize threads, coalesced along K:
    //   K = <kKPerBlock / kKVector lanes, kKVector elements per lane>
    //   M = <repeats, warps, lanes of a warp along M>
    //   P0 (warp id) = M's warp component; P1 (lane id) = merge(M lanes, K lanes)
    //   Y0 = M repeats, Y1 = the K vector
    // For 256 x 32 with 256 threads: Hs = <4, 4, 16>, <4, 8>; thread 0 holds rows 0, 64, 128, 192,
    // columns 0..7 (tutorial tile_distribution_1 prints it).
    template <index_t kRows, index_t kKPerBlock, index_t kBlockSize>
    CK_TILE_HOST_DEVICE static constexpr auto MakeDramTileDistribution()
    {
        constexpr index_t kKLanes  = kKPerBlock / kKVector;
        constexpr index_t kMLanes  = get_warp_size() / kKLanes;
        constexpr index_t kWarps   = kBlockSize / get_warp_size();
        constexpr index_t kMRepeat = kRows / (kWarps * kMLanes);
        static_assert(kKPerBlock % kKVector == 0 && get_warp_size() % kKLanes == 0, "K tile does not split into lanes");
        static_assert(kRows % (kWarps * kMLanes) == 0, "rows of the tile do not split over the block");
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<kMRepeat, kWarps, kMLanes>, sequence<kKLanes, kKVector>>,
                                       tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>,
                                       sequence<1, 2>, sequence<0, 1>>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeADramTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return MakeDramTileDistribution<S::kM, S::kK, Problem::kBlockSize>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeBDramTileDistribution()
    {
        using S = typename Problem::BlockShape;
        return MakeDramTileDistribution<S::kN, S::kK, Problem::kBlockSize>();
    }

    // LDS: row-major (rows x K) with padded rows; rows start 16-byte aligned (vector guarantee 8).
    template <index_t kRows, index_t kKPerBlock>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsBlockDescriptor()
    {
        return make_naive_tensor_descriptor(make_tuple(number<kRows>{}, number<kKPerBlock>{}),
                                            make_tuple(number<kKPerBlock + kLdsPad>{}, number<1>{}),
                                            number<kKVector>{});
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeALdsBlockDescriptor()
    {
        using S = typename Problem::BlockShape;
        return MakeLdsBlockDescriptor<S::kM, S::kK>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeBLdsBlockDescriptor()
    {
        using S = typename Problem::BlockShape;
        return MakeLdsBlockDescriptor<S::kN, S::kK>();
    }

    // bytes of LDS: A's tile, then B's, each rounded up to 16 bytes
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeA()
    {
        return integer_least_multiple(static_cast<index_t>(MakeALdsBlockDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::ADataType)),
                                      16);
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return GetSmemSizeA<Problem>() +
               integer_least_multiple(static_cast<index_t>(MakeBLdsBlockDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::BDataType)),
                                      16);
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockGemm()
    {
        return BlockGemmASmemBSmemCReg<Problem, BlockGemmPolicy>{};
    }
};

} // namespace ck_tile
