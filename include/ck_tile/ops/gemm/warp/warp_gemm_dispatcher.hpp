// SPDX-License-Identifier: MIT
// WarpGemmMfmaDispatcher<AType, BType, AccType, MPerWave, NPerWave, KPerWave, TransposeC>::Type:
// the warp GEMM for a data type and warp tile, standard or with C transposed. An unsupported
// combination is a compile error naming it.
//
// The warp tiles of gfx950's deeper MFMAs (fp16 / bf16 32x32x16 and 16x16x32, int8 32x32x32 and
// 16x16x64, fp8 / bf8 32x32x64 and 16x16x128) exist on every arch: where the compiled arch lacks the
// instruction (gfx942, and the host pass of a hip build), the warp GEMM is two (four for fp8 / bf8)
// of the CDNA3 instructions in a row (WarpGemmAttributeMfmaIterateK), with the same operand layout.
// One kernel instance then issues each arch's deepest MFMA for the type. Host code names what a given
// arch issues with mnemonic_on(arch) and iterations_on(arch) (a hip build's host pass has no arch of
// its own: it asks for the device's).
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
        static constexpr const char* mnemonic_on(gpu_arch) { return mfma_traits<type>::mnemonic; }                     \
        static constexpr index_t iterations_on(gpu_arch) { return 1; }                                                 \
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

// the deeper instruction where the arch has it, else kNarrow of the narrower one
#define CK_TILE_WARP_GEMM_INSTR_OR_N(A, B, ACC, M, N, K, WIDE, NARROW, kNarrow)                                        \
    template <>                                                                                                        \
    struct warp_gemm_mfma_instr<A, B, ACC, M, N, K>                                                                    \
    {                                                                                                                  \
        static constexpr bool kWide    = mfma_supported_v<mfma_instr::WIDE>;                                           \
        using type                     = std::conditional_t<kWide, mfma_instr::WIDE, mfma_instr::NARROW>;              \
        static constexpr index_t kIter = kWide ? 1 : kNarrow;                                                          \
        static constexpr bool wide_on(gpu_arch a) { return mfma_traits<mfma_instr::WIDE>::supported_on(a); }           \
        static constexpr const char* mnemonic_on(gpu_arch a)                                                           \
        {                                                                                                              \
            return wide_on(a) ? mfma_traits<mfma_instr::WIDE>::mnemonic : mfma_traits<mfma_instr::NARROW>::mnemonic;   \
        }                                                                                                              \
        static constexpr index_t iterations_on(gpu_arch a) { return wide_on(a) ? 1 : kNarrow; }                        \
    };
CK_TILE_WARP_GEMM_INSTR_OR_N(half_t, half_t, float, 32, 32, 16, v_mfma_f32_32x32x16_f16, v_mfma_f32_32x32x8_f16, 2)
CK_TILE_WARP_GEMM_INSTR_OR_N(half_t, half_t, float, 16, 16, 32, v_mfma_f32_16x16x32_f16, v_mfma_f32_16x16x16_f16, 2)
CK_TILE_WARP_GEMM_INSTR_OR_N(bf16_t, bf16_t, float, 32, 32, 16, v_mfma_f32_32x32x16_bf16, v_mfma_f32_32x32x8_bf16, 2)
CK_TILE_WARP_GEMM_INSTR_OR_N(bf16_t, bf16_t, float, 16, 16, 32, v_mfma_f32_16x16x32_bf16, v_mfma_f32_16x16x16_bf16, 2)
CK_TILE_WARP_GEMM_INSTR_OR_N(int8_t, int8_t, int32_t, 32, 32, 32, v_mfma_i32_32x32x32_i8, v_mfma_i32_32x32x16_i8, 2)
CK_TILE_WARP_GEMM_INSTR_OR_N(int8_t, int8_t, int32_t, 16, 16, 64, v_mfma_i32_16x16x64_i8, v_mfma_i32_16x16x32_i8, 2)
CK_TILE_WARP_GEMM_INSTR_OR_N(fp8_t, fp8_t, float, 32, 32, 64, v_mfma_f32_32x32x64_f8f6f4_fp8,
                             v_mfma_f32_32x32x16_fp8_fp8, 4)
CK_TILE_WARP_GEMM_INSTR_OR_N(fp8_t, fp8_t, float, 16, 16, 128, v_mfma_f32_16x16x128_f8f6f4_fp8,
                             v_mfma_f32_16x16x32_fp8_fp8, 4)
CK_TILE_WARP_GEMM_INSTR_OR_N(bf8_t, bf8_t, float, 32, 32, 64, v_mfma_f32_32x32x64_f8f6f4_bf8,
                             v_mfma_f32_32x32x16_bf8_bf8, 4)
CK_TILE_WARP_GEMM_INSTR_OR_N(bf8_t, bf8_t, float, 16, 16, 128, v_mfma_f32_16x16x128_f8f6f4_bf8,
                             v_mfma_f32_16x16x32_bf8_bf8, 4)
#undef CK_TILE_WARP_GEMM_INSTR_OR_N

// the fp8 / bf8 warp tiles twice as deep as the CDNA3 instruction: two in a row on every arch
// (no instruction has this K; gfx950's f8f6f4 ones have four times the CDNA3 K)
#define CK_TILE_WARP_GEMM_INSTR_TWO(A, B, ACC, M, N, K, NARROW)                                                        \
    template <>                                                                                                        \
    struct warp_gemm_mfma_instr<A, B, ACC, M, N, K>                                                                    \
    {                                                                                                                  \
        using type                     = mfma_instr::NARROW;                                                           \
        static constexpr index_t kIter = 2;                                                                            \
        static constexpr const char* mnemonic_on(gpu_arch) { return mfma_traits<type>::mnemonic; }                     \
        static constexpr index_t iterations_on(gpu_arch) { return 2; }                                                 \
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
