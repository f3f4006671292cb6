// SPDX-License-Identifier: MIT
// BlockFmhaBwdPipelineDefaultPolicy: how the backward dQ/dK/dV pipeline moves and multiplies its
// operands. A block owns kN0 keys (each warp 32 of them) and steps over kM0 = 32 query rows:
//
//   S^T  = K Q^T      A: K from LDS (warp's keys)   B: Q from LDS            transposed-C MFMA
//   dPd^T = V dO^T    A: V in registers (loaded once) B: dO from LDS         transposed-C MFMA
//   dV  += Pd^T dO    A: Pd^T in registers           B: dO^T (dO's LDS, read transposed)
//   dK  += dS^T Q     A: dS^T in registers           B: Q^T (Q's LDS, read transposed)
//   dQ  += dS K       A: dS from LDS (written transposed from the registers)
//                     B: K^T (K's LDS, read transposed); each warp its 32 keys, added atomically
//
// The transposed-C GEMMs leave a lane one key row and runs of 4 consecutive query rows: that is
// the A layout of WarpGemmAttributeMfmaSwizzleK with the queries as K, so P and dS feed the dV and
// dK GEMMs from registers (the forward uses the same pairing for P V). The transposed reads are
// element by element (the descriptors guarantee no vector): simple, not fast.
//
// LDS (16-bit types, rows padded by 16 bytes): K [kN0, d] for the whole block, Q [kM0, d] and dO
// [kM0, d_v] per step, dS [kM0, kN0]; at d = d_v = 128 that is 61 KiB, within gfx942's 64 KiB.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/pipeline/block_fmha_pipeline_qr_ks_vs_default_policy.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_dispatcher.hpp"

namespace ck_tile {

struct BlockFmhaBwdPipelineDefaultPolicy
{
    using Fwd = BlockFmhaPipelineQRKSVSDefaultPolicy;

    template <typename T>
    static constexpr index_t kVector16B = 16 / static_cast<index_t>(sizeof(T));

    // S^T = K Q^T and dPd^T = V dO^T
    template <typename Problem>
    using WarpGemmS = WarpGemmMfmaDispatcher_t<typename Problem::KDataType, typename Problem::QDataType,
                                               typename Problem::AccDataType, Problem::BlockFmhaShape::kWarpM,
                                               Problem::BlockFmhaShape::kWarpN, Problem::BlockFmhaShape::kWarpK, true>;

    // dV += Pd^T dO and dK += dS^T Q: A straight from WarpGemmS's C registers
    template <typename Problem>
    struct WarpGemmKVSelect
    {
        using S      = typename Problem::BlockFmhaShape;
        using select = detail::warp_gemm_mfma_instr<typename Problem::GemmDataType, typename Problem::GemmDataType,
                                                    typename Problem::AccDataType, S::kWarpM, S::kWarpN, S::kWarpK>;
        using type   = WarpGemmImpl<WarpGemmAttributeMfmaSwizzleK<typename select::type, select::kIter>>;
    };
    template <typename Problem>
    using WarpGemmKV = typename WarpGemmKVSelect<Problem>::type;

    // dQ += dS K
    template <typename Problem>
    using WarpGemmDQ =
        WarpGemmMfmaDispatcher_t<typename Problem::GemmDataType, typename Problem::KDataType,
                                 typename Problem::AccDataType, Problem::BlockFmhaShape::kWarpM,
                                 Problem::BlockFmhaShape::kWarpN, Problem::BlockFmhaShape::kWarpK, false>;

    // ---- DRAM tiles: 16-byte vectors along the head dim ------------------------------------------
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeKDramTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return Fwd::MakeDramTileDistribution<typename Problem::KDataType, S::kN0, S::kQKHeaddim, Problem::kBlockSize>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeQDramTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return Fwd::MakeDramTileDistribution<typename Problem::QDataType, S::kM0, S::kQKHeaddim, Problem::kBlockSize>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeOGradDramTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return Fwd::MakeDramTileDistribution<typename Problem::OGradDataType, S::kM0, S::kVHeaddim,
                                             Problem::kBlockSize>();
    }

    // ---- LDS: row strides (elements), byte offsets, descriptors ----------------------------------
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetQKLdsRowStride()
    {
        return Problem::BlockFmhaShape::kQKHeaddim + kVector16B<typename Problem::KDataType>;
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetOGradLdsRowStride()
    {
        return Problem::BlockFmhaShape::kVHeaddim + kVector16B<typename Problem::OGradDataType>;
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetDSLdsRowStride()
    {
        return Problem::BlockFmhaShape::kN0 + kVector16B<typename Problem::GemmDataType>;
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeK()
    {
        return Problem::BlockFmhaShape::kN0 * GetQKLdsRowStride<Problem>() *
               static_cast<index_t>(sizeof(typename Problem::KDataType));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeQ()
    {
        return Problem::BlockFmhaShape::kM0 * GetQKLdsRowStride<Problem>() *
               static_cast<index_t>(sizeof(typename Problem::QDataType));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeOGrad()
    {
        return Problem::BlockFmhaShape::kM0 * GetOGradLdsRowStride<Problem>() *
               static_cast<index_t>(sizeof(typename Problem::OGradDataType));
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSizeDS()
    {
        return Problem::BlockFmhaShape::kM0 * GetDSLdsRowStride<Problem>() *
               static_cast<index_t>(sizeof(typename Problem::GemmDataType));
    }
    // K, then Q, then dO, then dS (every size a multiple of 16 bytes)
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemOffsetQ()
    {
        return GetSmemSizeK<Problem>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemOffsetOGrad()
    {
        return GetSmemOffsetQ<Problem>() + GetSmemSizeQ<Problem>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemOffsetDS()
    {
        return GetSmemOffsetOGrad<Problem>() + GetSmemSizeOGrad<Problem>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return GetSmemOffsetDS<Problem>() + GetSmemSizeDS<Problem>();
    }

    // a [kRows, kCols] buffer with rows kStride apart, read along its rows (vectors) ...
    template <typename T, index_t kRows, index_t kCols, index_t kStride>
    CK_TILE_HOST_DEVICE static constexpr auto MakeRowMajorLdsDescriptor()
    {
        return make_naive_tensor_descriptor(make_tuple(number<kRows>{}, number<kCols>{}),
                                            make_tuple(number<kStride>{}, number<1>{}), number<kVector16B<T>>{});
    }
    // ... or the same buffer seen transposed, [kCols, kRows], element by element
    template <index_t kRows, index_t kCols, index_t kStride>
    CK_TILE_HOST_DEVICE static constexpr auto MakeTransposedLdsDescriptor()
    {
        return make_naive_tensor_descriptor(make_tuple(number<kCols>{}, number<kRows>{}),
                                            make_tuple(number<1>{}, number<kStride>{}), number<1>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeKLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeRowMajorLdsDescriptor<typename Problem::KDataType, S::kN0, S::kQKHeaddim,
                                         GetQKLdsRowStride<Problem>()>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeKTLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeTransposedLdsDescriptor<S::kN0, S::kQKHeaddim, GetQKLdsRowStride<Problem>()>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeQLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeRowMajorLdsDescriptor<typename Problem::QDataType, S::kM0, S::kQKHeaddim,
                                         GetQKLdsRowStride<Problem>()>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeQTLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeTransposedLdsDescriptor<S::kM0, S::kQKHeaddim, GetQKLdsRowStride<Problem>()>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeOGradLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeRowMajorLdsDescriptor<typename Problem::OGradDataType, S::kM0, S::kVHeaddim,
                                         GetOGradLdsRowStride<Problem>()>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeOGradTLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeTransposedLdsDescriptor<S::kM0, S::kVHeaddim, GetOGradLdsRowStride<Problem>()>();
    }
    // dS as the dQ GEMM reads it, [kM0 queries, kN0 keys] ...
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeDSLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeRowMajorLdsDescriptor<typename Problem::GemmDataType, S::kM0, S::kN0,
                                         GetDSLdsRowStride<Problem>()>();
    }
    // ... and as the registers write it, [kN0 keys, kM0 queries]
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeDSTLdsDescriptor()
    {
        using S = typename Problem::BlockFmhaShape;
        return MakeTransposedLdsDescriptor<S::kM0, S::kN0, GetDSLdsRowStride<Problem>()>();
    }

    // ---- register tiles ----------------------------------------------------------------------------
    // S^T [kN0, kM0]: the warps stacked along the keys
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeSBlockTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return Fwd::MakeCBlockTileDistribution<WarpGemmS<Problem>, S::NumWarps, 1>();
    }
    // dK [kN0, kQKHeaddim] and dV [kN0, kVHeaddim] accumulators
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeKGradBlockTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return Fwd::MakeCBlockTileDistribution<WarpGemmKV<Problem>, S::NumWarps, S::kQKHeaddim / S::kWarpN>();
    }
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeVGradBlockTileDistribution()
    {
        using S = typename Problem::BlockFmhaShape;
        return Fwd::MakeCBlockTileDistribution<WarpGemmKV<Problem>, S::NumWarps, S::kVHeaddim / S::kWarpN>();
    }
};

} // namespace ck_tile
