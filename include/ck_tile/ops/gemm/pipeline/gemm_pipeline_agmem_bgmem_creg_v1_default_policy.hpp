// SPDX-License-Identifier: MIT
// GemmPipelineAGmemBGmemCRegV1DefaultPolicy: how the GEMM pipelines load A and B from DRAM, how
// they keep them in LDS, and which block GEMM multiplies them.
//
// DRAM. Each operand tile is read along its contiguous dimension:
//   A row-major, B column-major:  a rows x kK tile (rows = kM or kN), vectors along K
//   A column-major, B row-major:  a kK x rows tile, vectors along M (or N)
// MakeDramTileDistribution2D<kRows, kCols, kVector, kBlockSize> spreads a kRows x kCols tile (kCols
// contiguous) over the block: kCols = <lanes, kVector elements>, kRows = <repeats, warps, lanes>;
// P0 (warp id) = the warp component, P1 (lane id) = (row lanes, column lanes); Y = (repeat, the
// vector). kVector is 16 bytes' worth of elements; how many of them one access moves is the
// problem's VectorSize (the tensor view's guarantee): 1 gives scalar accesses of the same tile.
//
// LDS. One logical layout per operand whatever its DRAM layout: rows x kK, K contiguous, each row
// padded by one 16-byte vector (rows then start in different banks, and 16-byte aligned). The block
// GEMM reads it with the MFMA operand distributions (K contiguous per lane). A tile loaded K-major
// (kK x rows) is written through a transposed view of the same LDS (MakeLdsStoreView): element by
// element, since its contiguous DRAM dimension is not LDS's.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/block/block_gemm_asmem_bsmem_creg_v1.hpp"
#include "ck_tile/ops/gemm/block/block_gemm_asmem_bsmem_creg_v1_custom_policy.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_dispatcher.hpp"

namespace ck_tile {

struct GemmPipelineAGmemBGmemCRegV1DefaultPolicy
{
    // elements of 16 bytes: the widest DRAM vector, the LDS row padding and alignment
    template <typename T>
    static constexpr index_t kVector16B = 16 / static_cast<index_t>(sizeof(T));

    template <typename Problem>
    static constexpr bool IsAKContiguous()
    {
        return is_row_major_v<typename Problem::ALayout>;
    }
    template <typename Problem>
    static constexpr bool IsBKContiguous()
    {
        return !is_row_major_v<typename Problem::BLayout>;
    }

    template <index_t kRows, index_t kCols, index_t kVector, index_t kBlockSize>
    CK_TILE_HOST_DEVICE static constexpr auto MakeDramTileDistribution2D()
    {
        constexpr index_t kColLanes = kCols / kVector;
        static_assert(kCols % kVector == 0 && kColLanes <= get_warp_size() && get_warp_size() % kColLanes == 0,
                      "GEMM DRAM tile: the contiguous dimension does not split into vectors over a warp's lanes");
        constexpr index_t kRowLanes = get_warp_size() / kColLanes;
        constexpr index_t kWarps    = kBlockSize / get_warp_size();
        constexpr index_t kRepeat   = kRows / (kWarps * kRowLanes);
        static_assert(kRepeat >= 1 && kRepeat * kWarps * kRowLanes == kRows,
                      "GEMM DRAM tile: the rows do not split over the block's warps and lanes");
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<kRepeat, kWarps, kRowLanes>, sequence<kColLanes, kVector>>,
                                       tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>,
                                       sequence<1, 2>, sequence<0, 1>>{});
    }

    // A's DRAM tile: kM x kK (row-major A) or kK x kM (column-major A)
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeADramTileDistribution()
    {
        using S                = typename Problem::BlockGemmShape;
        constexpr index_t kVec = kVector16B<typename Problem::ADataType>;
        static_assert(kVec % Problem::VectorSizeA == 0, "VectorSizeA must divide 16 bytes");
        if constexpr(IsAKContiguous<Problem>())
            return MakeDramTileDistribution2D<S::kM, S::kK, kVec, Problem::kBlockSize>();
        else
            return MakeDramTileDistribution2D<S::kK, S::kM, kVec, Problem::kBlockSize>();
    }

    // B's DRAM tile: kN x kK (column-major B) or kK x kN (row-major B)
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeBDramTileDistribution()
    {
        using S                = typename Problem::BlockGemmShape;
        constexpr index_t kVec = kVector16B<typename Problem::BDataType>;
        static_assert(kVec % Problem::VectorSizeB == 0, "VectorSizeB must divide 16 bytes");
        if constexpr(IsBKContiguous<Problem>())
            return MakeDramTileDistribution2D<S::kN, S::kK, kVec, Problem::kBlockSize>();
        else
            return MakeDramTileDistribution2D<S::kK, S::kN, kVec, Problem::kBlockSize>();
    }

    template <typename T, index_t kRows, index_t kKPerBlock>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsBlockDescriptor2D()
    {
        constexpr index_t kVec = kVector16B<T>;
        return make_naive_tensor_descriptor(make_tuple(number<kRows>{}, number<kKPerBlock>{}),
                                            make_tuple(number<kKPerBlock + kVec>{}, number<1>{}), number<kVec>{});
    }

    // A in LDS: kM x kK, K contiguous
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeALdsBlockDescriptor()
    {
        using S = typename Problem::BlockGemmShape;
        return MakeLdsBlockDescriptor2D<typename Problem::ADataType, S::kM, S::kK>();
    }
    // B in LDS: kN x kK, K contiguous
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeBLdsBlockDescriptor()
    {
        using S = typename Problem::BlockGemmShape;
        return MakeLdsBlockDescriptor2D<typename Problem::BDataType, S::kN, S::kK>();
    }

    // The view the DRAM tile is stored through: the LDS block itself (rows x kK) when the tile was
    // read K-contiguous, else the same memory seen as kK x rows.
    template <bool kKContiguous, typename LdsView>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsStoreView(const LdsView& lds)
    {
        if constexpr(kKContiguous)
            return lds;
        else
        {
            const auto lens = lds.get_tensor_descriptor().get_lengths();
            return transform_tensor_view(
                lds, make_tuple(make_pass_through_transform(lens[0]), make_pass_through_transform(lens[1])),
                make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<1>{}, sequence<0>{}));
        }
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeA()
    {
        return integer_least_multiple(static_cast<index_t>(MakeALdsBlockDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::ADataType)),
                                      16);
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeB()
    {
        return integer_least_multiple(static_cast<index_t>(MakeBLdsBlockDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::BDataType)),
                                      16);
    }
    // bytes of LDS: A's tile, then B's
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return GetSmemSizeA<Problem>() + GetSmemSizeB<Problem>();
    }

    // The block GEMM, with the warp GEMM WarpGemmMfmaDispatcher picks for the data types and the
    // warp tile (transposed C: 4 consecutive columns of C per lane).
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockGemm()
    {
        using S        = typename Problem::BlockGemmShape;
        using WarpGemm = WarpGemmMfmaDispatcher_t<typename Problem::ADataType, typename Problem::BDataType,
                                                  typename Problem::AccDataType, S::WarpTile::at(0), S::WarpTile::at(1),
                                                  S::WarpTile::at(2), true>;
        using BlockGemmPolicy =
            BlockGemmASmemBSmemCRegV1CustomPolicy<typename Problem::ADataType, typename Problem::BDataType,
                                                  typename Problem::AccDataType, typename S::BlockWarps, WarpGemm>;
        return BlockGemmASmemBSmemCRegV1<Problem, BlockGemmPolicy>{};
    }
};

} // namespace ck_tile
