// SPDX-License-Identifier: MIT
// WarpGemmMfmaDispatcher<AType, BType, AccType, MPerWave, NPerWave, KPerWave, TransposeC>::Type:
// the warp GEMM for a data type and warp tile, standard or with C transposed. An unsupported
// combination is a compile error naming it.
//
// The fp16 / bf16 warp tiles of gfx950's deeper MFMAs (32x32x16, 16x16x32) exist on every arch:
// where the compiled arch lacks the instruction (gfx942, and the host pass of a hip build), the warp
// GEMM is two of the CDNA3 instructions in a row (WarpGemmAttributeMfmaIterateK). One kernel
// instance then issues each arch's deepest MFMA for the type.
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
        using type                     = mfma_instr::INSTR;                                                            \
        static constexpr index_t kIter = 1;                                                                            \
    };
CK_TILE_WARP_GEMM_INSTR(half_t, half_t, float, 32, 32, 8, v_mfma_f32_32x32x8_f16)
CK_TILE_WARP_GEMM_INSTR(half_t, half_t, float, 16, 16, 16, v_mfma_f32_16x16x16_f16)
CK_TILE_WARP_GEMM_INSTR(bf16_t, bf16_t, float, 32, 32, 8, v_mfma_f32_32x32x8_bf16)
CK_TILE_WARP_GEMM_INSTR(bf16_t, bf16_t, float, 16, 16, 16, v_mfma_f32_16x16x16_bf16)
CK_TILE_WARP_GEMM_INSTR(fp8_t, fp8_t, float, 32, 32, 16, v_mfma_f32_32x32x16_fp8_fp8)
CK_TILE_WARP_GEMM_INSTR(fp8_t, fp8_t, float, 16, 16, 32, v_mfma_f32_16x16x32_fp8_fp8)
CK_TILE_WARP_GEMM_INSTR(bf8_t, bf8_t, float, 32, 32, 16, v_mfma_f32_32x32x16_bf8_bf8)
CK_TILE_WARP_GEMM_INSTR(bf8_t, bf8_t, float, 16, 16, 32, v_mfma_f32_16x16x32_bf8_bf8)
CK_TILE_WARP_GEMM_INSTR(int8_t, int8_t, int32_t, 32, 32, 16, v_mfma_i32_32x32x16_i8)
CK_TILE_WARP_GEMM_INSTR(int8_t, int8_t, int32_t, 16, 16, 32, v_mfma_i32_16x16x32_i8)
#undef CK_TILE_WARP_GEMM_INSTR

// the deeper instruction where the arch has it, else two of the narrower one
#define CK_TILE_WARP_GEMM_INSTR_OR_TWO(A, B, ACC, M, N, K, WIDE, NARROW)                                               \
    template <>                                                                                                        \
    struct warp_gemm_mfma_instr<A, B, ACC, M, N, K>                                                                    \
    {                                                                                                                  \
        static constexpr bool kWide    = mfma_supported_v<mfma_instr::WIDE>;                                           \
        using type                     = std::conditional_t<kWide, mfma_instr::WIDE, mfma_instr::NARROW>;              \
        static constexpr index_t kIter = kWide ? 1 : 2;                                                                \
    };
CK_TILE_WARP_GEMM_INSTR_OR_TWO(half_t, half_t, float, 32, 32, 16, v_mfma_f32_32x32x16_f16, v_mfma_f32_32x32x8_f16)
CK_TILE_WARP_GEMM_INSTR_OR_TWO(half_t, half_t, float, 16, 16, 32, v_mfma_f32_16x16x32_f16, v_mfma_f32_16x16x16_f16)
CK_TILE_WARP_GEMM_INSTR_OR_TWO(bf16_t, bf16_t, float, 32, 32, 16, v_mfma_f32_32x32x16_bf16, v_mfma_f32_32x32x8_bf16)
CK_TILE_WARP_GEMM_INSTR_OR_TWO(bf16_t, bf16_t, float, 16, 16, 32, v_mfma_f32_16x16x32_bf16, v_mfma_f32_16x16x16_bf16)
#undef CK_TILE_WARP_GEMM_INSTR_OR_TWO

// the 8-bit warp tiles twice as deep as the CDNA3 instruction (the flatmm configs): two in a row on
// every arch (gfx950's own deeper 8-bit instructions, the f8f6f4 ones, are not modelled)
#define CK_TILE_WARP_GEMM_INSTR_TWO(A, B, ACC, M, N, K, NARROW)                                                        \
    template <>                                                                                                        \
    struct warp_gemm_mfma_instr<A, B, ACC, M, N, K>                                                                    \
    {                                                                                                                  \
        using type                     = mfma_instr::NARROW;                                                           \
        static constexpr index_t kIter = 2;                                                                            \
    };
CK_TILE_WARP_GEMM_INSTR_TWO(fp8_t, fp8_t, float, 32, 32, 32, v_mfma_f32_32x32x16_fp8_fp8)
CK_TILE_WARP_GEMM_INSTR_TWO(fp8_t, fp8_t, float, 16, 16, 64, v_mfma_f32_16x16x32_fp8_fp8)
CK_TILE_WARP_GEMM_INSTR_TWO(bf8_t, bf8_t, float, 32, 32, 32, v_mfma_f32_32x32x16_bf8_bf8)
CK_TILE_WARP_GEMM_INSTR_TWO(bf8_t, bf8_t, float, 16, 16, 64, v_mfma_f32_16x16x32_bf8_bf8)
#undef CK_TILE_WARP_GEMM_INSTR_TWO
} // namespace detail

template <typename AType, typename BType, typename AccType, index_t MPerWave, index_t NPerWave, index_t KPerWave,
          bool TransposeC>
struct WarpGemmMfmaDispatcher
{
    // the transposed variant swaps the instruction's M and N; all instructions here are square
    using select = detail::warp_gemm_mfma_instr<AType, BType, AccType, MPerWave, NPerWave, KPerWave>;
    using instr  = typename select::type;
    using Type   = std::conditional_t<
        (select::kIter > 1), WarpGemmImpl<WarpGemmAttributeMfmaIterateK<instr, select::kIter, TransposeC>>,
        std::conditional_t<TransposeC, WarpGemmImpl<WarpGemmAttributeMfmaTransposedCDistribution<instr>>,
                           WarpGemmImpl<WarpGemmAttributeMfma<instr>>>>;
};

template <typename AType, typename BType, typename AccType, index_t MPerWave, index_t NPerWave, index_t KPerWave,
          bool TransposeC>
using WarpGemmMfmaDispatcher_t =
    typename WarpGemmMfmaDispatcher<AType, BType, AccType, MPerWave, NPerWave, KPerWave, TransposeC>::Type;

} // namespace ck_tile
