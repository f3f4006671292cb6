// SPDX-License-Identifier: MIT
// matrix_core_swizzle_kernel: an fp16 permute that rearranges a B x N x K matrix (row-major, K
// contiguous) into the order in which MFMA instructions read their operand, so that a later GEMM
// can load it with long contiguous reads. Upstream builds it in its permute example, beside the
// generic permute, for CDNA (the CMake option PERMUTE_USE_ALTERNATIVE_IMPL); 06_permute picks it
// for the permutations and shapes below and falls back to GenericPermute otherwise, and
// test/permute checks its destination offsets.
//
// N and K are split into factors whose innermost parts are fixed by the MFMA instruction:
//   permute_b_n0_k0_n1_k1_n2_k2  x: (b, n0, n1, n2, k0, k1, k2), perm 0,1,4,2,5,3,6
//   permute_b_n0_n1_k0_k1_n2_k2  x: (b, n0, n1, n2, k0, k1, k2), perm 0,1,2,4,5,3,6
//      with n1 = 4, k2 = 8 and (n2, k1) = (32, 2) for 32x32x8, (16, 4) for 16x16x16
//   permute_b_nr_kr_kw_nw_kv     x: (b, nr, nw, kr, kw, kv),     perm 0,1,3,4,2,5 ("waveflatten")
//      with kv = 8 and (nw, kw) = (32, 2) for 32x32x8, (16, 4) for 16x16x16
// k2 / kv (8 halves, 16 bytes) stays innermost, so every thread moves 16-byte vectors: a block
// takes an NPerBlock x KPerBlock tile of one batch's N x K matrix, its threads read the tile's rows
// as consecutive 16-byte vectors (coalesced 128-bit loads) and write each vector to its place in
// y with one 128-bit store. Tiles past N or K are cut off vector by vector (K is a multiple of 8).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

enum class matrix_core_permute_style
{
    permute_b_n0_k0_n1_k1_n2_k2 = 0,
    permute_b_n0_n1_k0_k1_n2_k2 = 1,
    permute_b_nr_kr_kw_nw_kv    = 2, // waveflatten
};

enum class matrix_core_inst_enum
{
    MFMA_32x32x8_F16  = 0,
    MFMA_16x16x16_F16 = 1,
};

struct matrix_core_swizzle_host_args
{
    const void* p_src;
    void* p_dst;
    ck_tile::index_t batch;
    ck_tile::index_t n; // all of N: n0 * n1 * n2, or nr * nw
    ck_tile::index_t k; // all of K: k0 * k1 * k2, or kr * kw * kv
};

template <ck_tile::index_t BLOCK_SIZE, ck_tile::index_t NPerBlock, ck_tile::index_t KPerBlock,
          matrix_core_permute_style pstyle, matrix_core_inst_enum Inst>
struct matrix_core_swizzle_kernel
{
    using index_t                         = ck_tile::index_t;
    using DataType                        = ck_tile::half_t;
    static constexpr index_t kBlockSize   = BLOCK_SIZE;
    static constexpr index_t kVector      = 8; // 16 bytes of fp16: the innermost factor of K
    static constexpr bool kInst32         = Inst == matrix_core_inst_enum::MFMA_32x32x8_F16;
    static constexpr index_t kNInner      = kInst32 ? 32 : 16; // n2 or nw
    static constexpr index_t kKMid        = kInst32 ? 2 : 4;   // k1 or kw
    static constexpr index_t kN1          = 4;                 // n1 (styles 0 and 1)
    static constexpr index_t kVecPerRow   = KPerBlock / kVector;
    static constexpr index_t kVecPerBlock = NPerBlock * kVecPerRow;
    static_assert(KPerBlock % kVector == 0 && kVecPerBlock % kBlockSize == 0, "whole vectors per thread");

    using Kargs = matrix_core_swizzle_host_args;

    CK_TILE_HOST static constexpr Kargs MakeKargs(const matrix_core_swizzle_host_args& h) { return h; }
    CK_TILE_HOST static dim3 GridSize(const Kargs& a)
    {
        return dim3(ck_tile::integer_divide_ceil(a.n, NPerBlock) * ck_tile::integer_divide_ceil(a.k, KPerBlock) *
                    a.batch);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST static std::string GetName()
    {
        return std::string(pstyle == matrix_core_permute_style::permute_b_nr_kr_kw_nw_kv
                               ? "matrix_core_swizzle_waveflatten_"
                               : "matrix_core_swizzle_") +
               (kInst32 ? "32x32x8" : "16x16x16");
    }

    // y's offset of the vector that starts at (b, n, k) of x; k is a multiple of kVector
    CK_TILE_HOST_DEVICE static index_t GetDstOffset(const Kargs& a, index_t b, index_t n, index_t k)
    {
        const index_t kk = k / kVector; // which vector of the row
        if constexpr(pstyle == matrix_core_permute_style::permute_b_nr_kr_kw_nw_kv)
        {
            const index_t nr = n / kNInner, nw = n % kNInner;
            const index_t kr = kk / kKMid, kw = kk % kKMid;
            const index_t NR = a.n / kNInner, KR = a.k / (kKMid * kVector);
            return ((((b * NR + nr) * KR + kr) * kKMid + kw) * kNInner + nw) * kVector;
        }
        else
        {
            const index_t n0 = n / (kN1 * kNInner), n1 = (n / kNInner) % kN1, n2 = n % kNInner;
            const index_t k0 = kk / kKMid, k1 = kk % kKMid;
            const index_t N0 = a.n / (kN1 * kNInner), K0 = a.k / (kKMid * kVector);
            index_t outer;
            if constexpr(pstyle == matrix_core_permute_style::permute_b_n0_k0_n1_k1_n2_k2)
                outer = ((b * N0 + n0) * K0 + k0) * kN1 + n1;
            else
                outer = ((b * N0 + n0) * kN1 + n1) * K0 + k0;
            return ((outer * kKMid + k1) * kNInner + n2) * kVector;
        }
    }

    CK_TILE_DEVICE void operator()(Kargs a) const
    {
        const index_t tiles_k = ck_tile::integer_divide_ceil(a.k, KPerBlock);
        const index_t tiles_n = ck_tile::integer_divide_ceil(a.n, NPerBlock);
        const index_t bid     = ck_tile::get_block_id();
        const index_t b       = bid / (tiles_n * tiles_k);
        const index_t n_base  = (bid / tiles_k) % tiles_n * NPerBlock;
        const index_t k_base  = bid % tiles_k * KPerBlock;
        const index_t size    = a.batch * a.n * a.k;
        const auto x =
            ck_tile::make_buffer_view<ck_tile::address_space_enum::global>(static_cast<const DataType*>(a.p_src), size);
        const auto y =
            ck_tile::make_buffer_view<ck_tile::address_space_enum::global>(static_cast<DataType*>(a.p_dst), size);

        // consecutive threads take consecutive vectors of a row: the loads are coalesced
        ck_tile::static_for<0, kVecPerBlock / kBlockSize, 1>{}([&](auto r) __attribute__((always_inline)) {
            const index_t v = r * kBlockSize + ck_tile::get_thread_id();
            const index_t n = n_base + v / kVecPerRow;
            const index_t k = k_base + v % kVecPerRow * kVector;
            if(n < a.n && k < a.k)
            {
                const auto vec = x.template get<kVector>((b * a.n + n) * a.k + k, true);
                y.template set<kVector>(GetDstOffset(a, b, n, k), true, vec);
            }
        });
    }
};

} // namespace ck_tile
