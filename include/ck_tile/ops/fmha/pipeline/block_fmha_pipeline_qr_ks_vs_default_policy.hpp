// SPDX-License-Identifier: MIT
// BlockFmhaPipelineQRKSVSDefaultPolicy: how the "qr" pipeline moves and multiplies its operands.
//
//   Q   DRAM -> VGPR once, straight into GEMM 0's A layout (each warp its kWarpM rows, all of hdim)
//   K   DRAM -> VGPR (16-byte vectors along hdim) -> LDS [kN0, kK0BlockLength], rows padded by 16
//       bytes; GEMM 0 reads B warp tiles from it
//   V   DRAM -> VGPR (16-byte vectors along its contiguous dimension) -> LDS [kN1, kN0] (hdim_v
//       major, keys contiguous: GEMM 1's B layout); a row-major V is written transposed
//   K and V take turns in one LDS buffer, so a block needs max(K, V) bytes and two blocks fit a CU.
//
// GEMM 0 (S = Q K^T) uses the transposed-C warp GEMM: a lane holds one query row and runs of 4
// consecutive keys, so the softmax's row reductions stay inside a warp, and P (S's layout) is GEMM
// 1's A operand as it is: GEMM 1 (O = P V) is WarpGemmAttributeMfmaSwizzleK, whose K order is
// exactly those runs.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_dispatcher.hpp"
#include "ck_tile/ops/gemm/pipeline/gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp"

namespace ck_tile {

struct BlockFmhaPipelineQRKSVSDefaultPolicy
{
    template <typename T>
    static constexpr index_t kVector16B = 16 / static_cast<index_t>(sizeof(T));

    template <typename Problem>
    using WarpGemm0 =
        WarpGemmMfmaDispatcher_t<typename Problem::QDataType, typename Problem::KDataType,
                                 typename Problem::SaccDataType, Problem::BlockFmhaShape::kWarpM,
                                 Problem::BlockFmhaShape::kWarpN0, Problem::BlockFmhaShape::kWarpK0, true>;

    template <typename Problem>
    struct WarpGemm1Select
    {
        using S      = typename Problem::BlockFmhaShape;
        using select = detail::warp_gemm_mfma_instr<typename Problem::PDataType, typename Problem::VDataType,
                                                    typename Problem::OaccDataType, S::kWarpM, S::kWarpN1, S::kWarpK1>;
        using type   = WarpGemmImpl<WarpGemmAttributeMfmaSwizzleK<typename select::type, select::kIter>>;
    };
    template <typename Problem>
    using WarpGemm1 = typename WarpGemm1Select<Problem>::type;

    // a block's rows x cols tile of a DRAM tensor, cols contiguous: 16-byte vectors, or shorter
    // ones when the tile has fewer than 16 bytes per thread
    template <typename T, index_t kRows, index_t kCols, index_t kBlockSize>
    CK_TILE_HOST_DEVICE static constexpr auto MakeDramTileDistribution()
    {
        constexpr index_t kVector = min(kVector16B<T>, kRows * kCols / kBlockSize);
        return GemmPipelineAGmemBGmemCRegV1DefaultPolicy::MakeDramTileDistribution2D<kRows, kCols, kVector,
                                                                                     kBlockSize>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeKDramTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeDramTileDistribution<typename Problem::KDataType, S::kN0, S::kK0BlockLength, Problem::kBlockSize>();
    }
    // row-major V: [kN0 keys, kN1]; column-major V: [kN1, kN0 keys]
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeVDramTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        if constexpr(S::IsVLayoutRowMajor)
            return MakeDramTileDistribution<typename Problem::VDataType, S::kN0, S::kN1, Problem::kBlockSize>();
        else
            return MakeDramTileDistribution<typename Problem::VDataType, S::kN1, S::kN0, Problem::kBlockSize>();
    }

    // LDS: K as [kN0, kK0BlockLength], V as [kN1, kN0], rows padded by 16 bytes
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetKLdsRowStride()
    {
        using T = typename Problem::KDataType;
        return Problem::BlockFmhaShape::kK0BlockLength + kVector16B<T>;
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetVLdsRowStride()
    {
        using T = typename Problem::VDataType;
        return Problem::BlockFmhaShape::kN0 + kVector16B<T>;
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeKLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return make_naive_tensor_descriptor(make_tuple(number<S::kN0>{}, number<S::kK0BlockLength>{}),
                                            make_tuple(number<GetKLdsRowStride<Problem>()>{}, number<1>{}),
                                            number<kVector16B<typename Problem::KDataType>>{});
    }
    // how GEMM 1 reads V: [kN1, kN0]
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeVLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return make_naive_tensor_descriptor(make_tuple(number<S::kN1>{}, number<S::kN0>{}),
                                            make_tuple(number<GetVLdsRowStride<Problem>()>{}, number<1>{}),
                                            number<kVector16B<typename Problem::VDataType>>{});
    }
    // how a V tile is written: its DRAM tile's shape (a row-major V through the transposed view)
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeVLdsStoreDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        if constexpr(S::IsVLayoutRowMajor)
            return make_naive_tensor_descriptor(make_tuple(number<S::kN0>{}, number<S::kN1>{}),
                                                make_tuple(number<1>{}, number<GetVLdsRowStride<Problem>()>{}),
                                                number<1>{});
        else
            return MakeVLdsDescriptor<Problem>();
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeK()
    {
        return Problem::BlockFmhaShape::kN0 * GetKLdsRowStride<Problem>() *
               static_cast<index_t>(sizeof(typename Problem::KDataType));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeV()
    {
        return Problem::BlockFmhaShape::kN1 * GetVLdsRowStride<Problem>() *
               static_cast<index_t>(sizeof(typename Problem::VDataType));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return max(GetSmemSizeK<Problem>(), GetSmemSizeV<Problem>());
    }

    // a block tile of a warp GEMM's C: the warps stacked along M, kNRepeat warp tiles along N;
    // registers (n repeat, the warp tile's)
    template <typename WarpGemm, index_t kNumWarps, index_t kNRepeat>
    CK_TILE_HOST_DEVICE static constexpr auto MakeCBlockTileDistribution()
    {
        constexpr auto outer =
            tile_distribution_encoding<sequence<>, tuple<sequence<1, kNumWarps>, sequence<kNRepeat, 1>>,
                                       tuple<sequence<1, 2>>, tuple<sequence<1, 1>>, sequence<1, 2>, sequence<0, 0>>{};
        return make_static_tile_distribution(
            make_embed_tile_distribution_encoding(outer, typename WarpGemm::CWarpDstrEncoding{}));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeSBlockTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeCBlockTileDistribution<WarpGemm0<Problem>, S::NumWarps, S::kN0 / S::kWarpN0>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeOBlockTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeCBlockTileDistribution<WarpGemm1<Problem>, S::NumWarps, S::kN1 / S::kWarpN1>();
    }
};

} // namespace ck_tile
