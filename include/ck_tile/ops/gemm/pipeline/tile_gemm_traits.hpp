// SPDX-License-Identifier: MIT
// TileGemmTraits<kPadM, kPadN, kPadK, ALayout, BLayout, CLayout>: what a GEMM pipeline may assume
// about its problem.
//   kPadM/N/K  pad that dimension of the tensor views up to the block tile (pad_tensor_view), so
//              that any M, N, K work: the padding reads as 0 and writes to it are dropped. Without
//              the flag the dimension must be a multiple of the block tile (IsSupportedArgument).
//   ALayout    RowMajor (M x K, K contiguous) or ColumnMajor (M contiguous)
//   BLayout    RowMajor (K x N, N contiguous) or ColumnMajor (stored N x K, K contiguous)
//   CLayout    RowMajor (the only one the epilogues write)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <bool kPadM_, bool kPadN_, bool kPadK_, typename ALayout_, typename BLayout_, typename CLayout_>
struct TileGemmTraits
{
    static constexpr bool kPadM = kPadM_;
    static constexpr bool kPadN = kPadN_;
    static constexpr bool kPadK = kPadK_;

    using ALayout = ALayout_;
    using BLayout = BLayout_;
    using CLayout = CLayout_;

    static_assert(std::is_same_v<CLayout, tensor_layout::gemm::RowMajor>, "TileGemmTraits: C must be row-major");
};

} // namespace ck_tile

namespace ck_tile {

// TileGemmUniversalTraits<kPadM, kPadN, kPadK, DoubleSmemBuffer, ALayout, BLayout, CLayout,
//                         UsePersistentKernel = false>: TileGemmTraits plus what the universal
// kernels choose at compile time.
//   DoubleSmemBuffer     two LDS buffers (GemmPipelineAgBgCrCompV4 needs it, the others refuse it)
//   UsePersistentKernel  the kernel is launched with MaxOccupancyGridSize blocks, each looping
//                        over C tiles (and K splits) until all are done
template <bool kPadM_, bool kPadN_, bool kPadK_, bool DoubleSmemBuffer_, typename ALayout_, typename BLayout_,
          typename CLayout_, bool UsePersistentKernel_ = false>
struct TileGemmUniversalTraits : TileGemmTraits<kPadM_, kPadN_, kPadK_, ALayout_, BLayout_, CLayout_>
{
    static constexpr bool DoubleSmemBuffer    = DoubleSmemBuffer_;
    static constexpr bool UsePersistentKernel = UsePersistentKernel_;
};

} // namespace ck_tile
