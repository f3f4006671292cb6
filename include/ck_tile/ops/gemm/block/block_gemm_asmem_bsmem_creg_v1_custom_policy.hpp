// SPDX-License-Identifier: MIT
// BlockGemmASmemBSmemCRegV1CustomPolicy<AType, BType, CType, BlockWarps, WarpGemm>: a block GEMM
// policy that names its warp GEMM and the warp arrangement (BlockWarps = sequence<MWarp, NWarp, 1>)
// explicitly, e.g. with a warp GEMM from WarpGemmMfmaDispatcher:
//
//   using WG     = WarpGemmMfmaDispatcher_t<half_t, half_t, float, 32, 32, 8, true>;
//   using Policy = BlockGemmASmemBSmemCRegV1CustomPolicy<half_t, half_t, float, sequence<2, 2, 1>, WG>;
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_dispatcher.hpp"

namespace ck_tile {

template <typename AType_, typename BType_, typename CType_, typename BlockWarps_, typename WarpGemm_>
struct BlockGemmASmemBSmemCRegV1CustomPolicy
{
    using AType      = AType_;
    using BType      = BType_;
    using CType      = CType_;
    using BlockWarps = BlockWarps_;
    using WarpGemm   = WarpGemm_;

    static constexpr index_t kMWarps = BlockWarps::at(0);
    static constexpr index_t kNWarps = BlockWarps::at(1);
    static_assert(BlockWarps::at(2) == 1, "BlockGemmASmemBSmemCRegV1CustomPolicy: KWarp must be 1");
    static_assert(std::is_same_v<AType, typename WarpGemm::ADataType> &&
                      std::is_same_v<BType, typename WarpGemm::BDataType> &&
                      std::is_same_v<CType, typename WarpGemm::CDataType>,
                  "BlockGemmASmemBSmemCRegV1CustomPolicy: the warp GEMM's data types differ from A/B/C");

    // (warp GEMM, warps along M, warps along N), as upstream's policies return them
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetWarpGemmMWarpNWarp()
    {
        return make_tuple(WarpGemm{}, number<kMWarps>{}, number<kNWarps>{});
    }
};

} // namespace ck_tile
