// SPDX-License-Identifier: MIT
// WarpGemmMfmaDispatcher<AType, BType, AccType, MPerWave, NPerWave, KPerWave, TransposeC>::Type:
// the warp GEMM for a data type and warp tile, standard or with C transposed. An unsupported
// combination is a compile error naming it.
#pragma once
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

namespace ck_tile {

namespace detail {
template <typename A, typename B, typename Acc, index_t M, index_t N, index_t K>
struct warp_gemm_mfma_instr
{
    static_assert(sizeof(A) == 0, "WarpGemmMfmaDispatcher: no MFMA for these data types and warp tile");
};
#define CK_TILE_WARP_GEMM_INSTR(A, B, ACC, M, N, K, INSTR)                                                             \
    template <>                                                                                                        \
    struct warp_gemm_mfma_instr<A, B, ACC, M, N, K>                                                                    \
    {                                                                                                                  \
        using type = mfma_instr::INSTR;                                                                                \
    };
CK_TILE_WARP_GEMM_INSTR(half_t, half_t, float, 32, 32, 8, v_mfma_f32_32x32x8_f16)
CK_TILE_WARP_GEMM_INSTR(half_t, half_t, float, 16, 16, 16, v_mfma_f32_16x16x16_f16)
CK_TILE_WARP_GEMM_INSTR(half_t, half_t, float, 32, 32, 16, v_mfma_f32_32x32x16_f16)
CK_TILE_WARP_GEMM_INSTR(half_t, half_t, float, 16, 16, 32, v_mfma_f32_16x16x32_f16)
CK_TILE_WARP_GEMM_INSTR(bf16_t, bf16_t, float, 32, 32, 8, v_mfma_f32_32x32x8_bf16)
CK_TILE_WARP_GEMM_INSTR(bf16_t, bf16_t, float, 16, 16, 16, v_mfma_f32_16x16x16_bf16)
CK_TILE_WARP_GEMM_INSTR(bf16_t, bf16_t, float, 32, 32, 16, v_mfma_f32_32x32x16_bf16)
CK_TILE_WARP_GEMM_INSTR(bf16_t, bf16_t, float, 16, 16, 32, v_mfma_f32_16x16x32_bf16)
CK_TILE_WARP_GEMM_INSTR(fp8_t, fp8_t, float, 32, 32, 16, v_mfma_f32_32x32x16_fp8_fp8)
CK_TILE_WARP_GEMM_INSTR(fp8_t, fp8_t, float, 16, 16, 32, v_mfma_f32_16x16x32_fp8_fp8)
CK_TILE_WARP_GEMM_INSTR(bf8_t, bf8_t, float, 32, 32, 16, v_mfma_f32_32x32x16_bf8_bf8)
CK_TILE_WARP_GEMM_INSTR(bf8_t, bf8_t, float, 16, 16, 32, v_mfma_f32_16x16x32_bf8_bf8)
#undef CK_TILE_WARP_GEMM_INSTR

// The double-K fp16/bf16 warp tiles (32x32x16, 16x16x32) on an arch without gfx950's instructions
// for them: two of the half-K instructions (WarpGemmAttributeMfmaIterateK), with the same operand
// layout per lane (8 consecutive K values).
template <typename A, typename B, typename Acc, index_t M, index_t N, index_t K>
struct warp_gemm_mfma_iterate_k
{
    static constexpr bool value = false;
};
#define CK_TILE_WARP_GEMM_ITERATE_K(A, M, N, K, WIDE, HALF)                                                            \
    template <>                                                                                                        \
    struct warp_gemm_mfma_iterate_k<A, A, float, M, N, K>                                                              \
    {                                                                                                                  \
        static constexpr bool value = !mfma_supported_v<mfma_instr::WIDE>;                                             \
        using half                  = mfma_instr::HALF;                                                                \
    };
CK_TILE_WARP_GEMM_ITERATE_K(half_t, 32, 32, 16, v_mfma_f32_32x32x16_f16, v_mfma_f32_32x32x8_f16)
CK_TILE_WARP_GEMM_ITERATE_K(half_t, 16, 16, 32, v_mfma_f32_16x16x32_f16, v_mfma_f32_16x16x16_f16)
CK_TILE_WARP_GEMM_ITERATE_K(bf16_t, 32, 32, 16, v_mfma_f32_32x32x16_bf16, v_mfma_f32_32x32x8_bf16)
CK_TILE_WARP_GEMM_ITERATE_K(bf16_t, 16, 16, 32, v_mfma_f32_16x16x32_bf16, v_mfma_f32_16x16x16_bf16)
#undef CK_TILE_WARP_GEMM_ITERATE_K

template <typename A, typename B, typename Acc, index_t M, index_t N, index_t K, bool TransposeC,
          bool kIterateK = warp_gemm_mfma_iterate_k<A, B, Acc, M, N, K>::value>
struct warp_gemm_mfma_select
{
    // the transposed variant swaps the instruction's M and N; all instructions here are square
    using instr = typename warp_gemm_mfma_instr<A, B, Acc, M, N, K>::type;
    using type  = std::conditional_t<TransposeC, WarpGemmImpl<WarpGemmAttributeMfmaTransposedCDistribution<instr>>,
                                     WarpGemmImpl<WarpGemmAttributeMfma<instr>>>;
};
template <typename A, typename B, typename Acc, index_t M, index_t N, index_t K, bool TransposeC>
struct warp_gemm_mfma_select<A, B, Acc, M, N, K, TransposeC, true>
{
    using instr = typename warp_gemm_mfma_iterate_k<A, B, Acc, M, N, K>::half;
    using type =
        std::conditional_t<TransposeC, WarpGemmImpl<WarpGemmAttributeMfmaIterateKTransposedCDistribution<instr, 2>>,
                           WarpGemmImpl<WarpGemmAttributeMfmaIterateK<instr, 2>>>;
};
} // namespace detail

// The double-K fp16/bf16 warp tiles (32x32x16, 16x16x32) are one gfx950 instruction, or two of
// the half-K ones in a row on gfx942 (the same per-lane operand layout).
template <typename AType, typename BType, typename AccType, index_t MPerWave, index_t NPerWave, index_t KPerWave,
          bool TransposeC>
struct WarpGemmMfmaDispatcher
{
    using Type =
        typename detail::warp_gemm_mfma_select<AType, BType, AccType, MPerWave, NPerWave, KPerWave, TransposeC>::type;
};

template <typename AType, typename BType, typename AccType, index_t MPerWave, index_t NPerWave, index_t KPerWave,
          bool TransposeC>
using WarpGemmMfmaDispatcher_t =
    typename WarpGemmMfmaDispatcher<AType, BType, AccType, MPerWave, NPerWave, KPerWave, TransposeC>::Type;

} // namespace ck_tile
