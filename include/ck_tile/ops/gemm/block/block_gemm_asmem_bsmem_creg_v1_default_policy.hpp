// SPDX-License-Identifier: MIT
// The default policy of BlockGemmASmemBSmemCRegV1: the warps and the warp tile come from the
// problem's TileGemmShape, the warp GEMM from WarpGemmMfmaDispatcher for the problem's data types
// and warp tile, with the transposed C distribution (each lane then holds 4 consecutive columns of
// a row of C, so that row-major C is written with vector stores). kTransposeC = false picks the
// standard one (4 consecutive rows of a column).
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_dispatcher.hpp"

namespace ck_tile {

template <bool kTransposeC = true>
struct BlockGemmASmemBSmemCRegV1DefaultPolicyT
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetWarpGemmMWarpNWarp()
    {
        using Shape      = typename Problem::BlockGemmShape;
        using WarpTile   = typename Shape::WarpTile;
        using BlockWarps = typename Shape::BlockWarps;
        using WarpGemm   = WarpGemmMfmaDispatcher_t<typename Problem::ADataType, typename Problem::BDataType,
                                                    typename Problem::AccDataType, WarpTile::at(0), WarpTile::at(1),
                                                    WarpTile::at(2), kTransposeC>;
        return make_tuple(WarpGemm{}, number<BlockWarps::at(0)>{}, number<BlockWarps::at(1)>{});
    }
};

using BlockGemmASmemBSmemCRegV1DefaultPolicy = BlockGemmASmemBSmemCRegV1DefaultPolicyT<true>;

} // namespace ck_tile
