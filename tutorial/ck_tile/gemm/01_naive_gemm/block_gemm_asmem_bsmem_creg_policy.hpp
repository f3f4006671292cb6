// SPDX-License-Identifier: MIT
// Policy of the block GEMM: which warp GEMM (MFMA) it uses and how the block's warps are arranged.
//
// CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION (default 1) picks the variant with C transposed in the
// instruction: each lane then holds 4 consecutive columns of a row of C, so C can be stored with
// vector writes. 0 picks the standard variant: each lane holds 4 consecutive rows of a column.
// Set it with -DCMAKE_CXX_FLAGS="-DCK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION=0".
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

#ifndef CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION
#define CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION 1
#endif

namespace ck_tile {

struct BlockGemmASmemBSmemCRegPolicy
{
    static constexpr index_t kMWarp = 4; // warps along M
    static constexpr index_t kNWarp = 1; // warps along N

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetWarpGemm()
    {
#if CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION
        return WarpGemmMfmaF16F16F32M32N32K8TransposedCDistribution{};
#else
        return WarpGemmMfmaF16F16F32M32N32K8{};
#endif
    }
};

} // namespace ck_tile
