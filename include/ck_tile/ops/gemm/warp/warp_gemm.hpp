// SPDX-License-Identifier: MIT
// The warp GEMMs, named as upstream names them: WarpGemmMfma<A><B><Acc>M<m>N<n>K<k>, each with a
// ...TransposedCDistribution twin (see warp_gemm_attribute_mfma.hpp), and for gfx950's f8f6f4
// instructions WarpGemmMfma_f32_<M>x<N>x<K>_<a>_<b> as upstream's. The K16/K32 fp16 and bf16 ones and
// the f8f6f4 ones exist on gfx950 only (WarpGemmMfmaDispatcher gives every arch a warp tile of
// these depths).
#pragma once
#include "ck_tile/ops/gemm/warp/warp_gemm_attribute_mfma.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_impl.hpp"

namespace ck_tile {

#define CK_TILE_WARP_GEMM(NAME, INSTR)                                                                                 \
    using NAME                          = WarpGemmImpl<WarpGemmAttributeMfma<mfma_instr::INSTR>>;                      \
    using NAME##TransposedCDistribution = WarpGemmImpl<WarpGemmAttributeMfmaTransposedCDistribution<mfma_instr::INSTR>>;

CK_TILE_WARP_GEMM(WarpGemmMfmaF16F16F32M32N32K8, v_mfma_f32_32x32x8_f16)
CK_TILE_WARP_GEMM(WarpGemmMfmaF16F16F32M16N16K16, v_mfma_f32_16x16x16_f16)
CK_TILE_WARP_GEMM(WarpGemmMfmaBf16Bf16F32M32N32K8, v_mfma_f32_32x32x8_bf16)
CK_TILE_WARP_GEMM(WarpGemmMfmaBf16Bf16F32M16N16K16, v_mfma_f32_16x16x16_bf16)
CK_TILE_WARP_GEMM(WarpGemmMfmaF16F16F32M32N32K16, v_mfma_f32_32x32x16_f16)
CK_TILE_WARP_GEMM(WarpGemmMfmaF16F16F32M16N16K32, v_mfma_f32_16x16x32_f16)
CK_TILE_WARP_GEMM(WarpGemmMfmaBf16Bf16F32M32N32K16, v_mfma_f32_32x32x16_bf16)
CK_TILE_WARP_GEMM(WarpGemmMfmaBf16Bf16F32M16N16K32, v_mfma_f32_16x16x32_bf16)
CK_TILE_WARP_GEMM(WarpGemmMfmaFp8Fp8F32M32N32K16, v_mfma_f32_32x32x16_fp8_fp8)
CK_TILE_WARP_GEMM(WarpGemmMfmaFp8Fp8F32M16N16K32, v_mfma_f32_16x16x32_fp8_fp8)
CK_TILE_WARP_GEMM(WarpGemmMfmaBf8Bf8F32M32N32K16, v_mfma_f32_32x32x16_bf8_bf8)
CK_TILE_WARP_GEMM(WarpGemmMfmaBf8Bf8F32M16N16K32, v_mfma_f32_16x16x32_bf8_bf8)
CK_TILE_WARP_GEMM(WarpGemmMfma_f32_32x32x64_fp8_fp8, v_mfma_f32_32x32x64_f8f6f4_fp8)
CK_TILE_WARP_GEMM(WarpGemmMfma_f32_16x16x128_fp8_fp8, v_mfma_f32_16x16x128_f8f6f4_fp8)
CK_TILE_WARP_GEMM(WarpGemmMfma_f32_32x32x64_bf8_bf8, v_mfma_f32_32x32x64_f8f6f4_bf8)
CK_TILE_WARP_GEMM(WarpGemmMfma_f32_16x16x128_bf8_bf8, v_mfma_f32_16x16x128_f8f6f4_bf8)

#undef CK_TILE_WARP_GEMM

} // namespace ck_tile
