// SPDX-License-Identifier: MIT
// The kernels of DeviceSplitkGemmBiasEPermute, written with CK Tile's GEMM pieces:
//
//   F[g0,g1,m0,m1,n0,n1] = (sum_k A[g0,g1,m0,m1,k] B[g0,g1,n0,n1,k] + D[g0,g1,m0,m1,n0,n1])
//                          * E[g0,g1,m0,m1,n0,n1]
//
// seen as G = G0 G1 GEMMs of M = M0 M1 rows, N = N0 N1 columns and K; A and B are K-contiguous
// (A row-major M x K, B "column-major" N x K), D, E and F take any strides (D's are 0 along M for a
// bias, F's put N0 between M0 and M1 for the permuted output).
//
// SplitKGemmKernel<Config>: one block per (kM x kN tile of C, split, g), a 1-D grid of
// tiles x split_k x G blocks. Split s reads K range [s KRead, min(K, (s + 1) KRead)), KRead a
// multiple of kK (a split past K reads nothing: its product is 0). The K loop is
// ck_tile::GemmPipelineAGmemBGmemCRegV1 (DRAM -> LDS -> block GEMM of MFMA warp GEMMs, C in
// VGPRs); the problem's mode (uniform: one kernel serves all three) says where the block's fp32
// product goes:
//   StoreF              F = (C + D) * E, stored (split_k = 1)
//   AtomicAddF          F += (C + D) * E on split 0, F += C * E on the others (F zeroed first):
//                       fp32 atomics for fp32 F; for fp16 (bf16) F each element's contribution is
//                       rounded to F's type and added with a packed 16-bit atomic on its dword, the
//                       other half of the dword + 0 (F's permuted layout gives a thread no aligned
//                       pairs in general: buffer_view::atomic_add of one element)
//   StoreWorkspace      workspace[s][g] = C (the two-stage scheme's stage 1)
// ReduceEpilogueKernel<Config>: the second stage, one thread per 4 consecutive columns of a row:
// F = (sum of the workspace's partials + D) * E, converted and stored at F's strides.
#pragma once
#include <type_traits>
#include "ck/ck.hpp"
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm.hpp"
#include "ck_tile/ops/epilogue.hpp"

namespace ck::tensor_operation::device::splitk_gemm_bias_e_permute {

using ck_tile::index_t;

enum struct EpilogueMode : ck_tile::index_t
{
    StoreF,
    AtomicAddF,
    StoreWorkspace
};

// Everything the kernels need to know about a problem (host-built, passed by value).
struct Problem
{
    const void* p_a;
    const void* p_b;
    const void* p_d;
    const void* p_e;
    void* p_f;
    float* p_ws; // fp32 workspace (the partial products), or nullptr

    index_t G1, M1, N1; // inner extents of the merged G, M and N
    index_t G, M, N, K; // G = G0 G1, M = M0 M1, N = N0 N1
    index_t split_k;
    index_t k_per_split; // KRead, a multiple of the block's K step
    index_t ws_ld;       // workspace row stride: N rounded up to 4

    index_t a_stride_g0, a_stride_g1, a_stride_m; // A[g0, g1, m, k] at g0 s0 + g1 s1 + m sm + k
    index_t b_stride_g0, b_stride_g1, b_stride_n;
    index_t d_strides[6], e_strides[6], f_strides[6]; // [g0, g1, m0, m1, n0, n1]
    index_t d_space, e_space, f_space;                // elements of D's, E's and F's buffers

    index_t tiles_m, tiles_n;
    index_t mode; // EpilogueMode of the GEMM stage
};

// offset of element (g0, g1, m, n) of a [G0, G1, M0, M1, N0, N1] tensor with strides s
CK_TILE_HOST_DEVICE index_t offset_6d(const index_t* s, index_t g0, index_t g1, index_t m, index_t n, index_t M1,
                                      index_t N1)
{
    return g0 * s[0] + g1 * s[1] + (m / M1) * s[2] + (m % M1) * s[3] + (n / N1) * s[4] + (n % N1) * s[5];
}

template <typename Config>
struct SplitKGemmKernel
{
    using ADataType = typename Config::ADataType;
    using BDataType = typename Config::BDataType;
    using DDataType = typename Config::DDataType;
    using EDataType = typename Config::EDataType;
    using FDataType = typename Config::FDataType;
    using Shape     = typename Config::Shape;

    using Row    = ck_tile::tensor_layout::gemm::RowMajor;
    using Col    = ck_tile::tensor_layout::gemm::ColumnMajor;
    using Traits = ck_tile::TileGemmTraits<true, true, true, Row, Col, Row>;
    using GemmProblem =
        ck_tile::GemmPipelineProblem<ADataType, BDataType, float, Shape, Traits, Config::kVectorA, Config::kVectorB>;
    using Pipeline  = ck_tile::GemmPipelineAGmemBGmemCRegV1<GemmProblem, typename Config::PipelinePolicy>;
    using BlockGemm = typename Pipeline::BlockGemm;

    static constexpr index_t kBlockSize = Shape::BlockSize;
    static constexpr index_t kM         = Shape::kM;
    static constexpr index_t kN         = Shape::kN;
    static constexpr index_t kK         = Shape::kK;
    static constexpr index_t kVectorWs  = 4; // fp32 workspace rows: ws_ld is a multiple of 4

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Pipeline::GetSmemSize(); }

    CK_TILE_HOST static dim3 GridSize(const Problem& p)
    {
        return dim3(static_cast<unsigned>(p.tiles_m * p.tiles_n * p.split_k * p.G));
    }

    CK_TILE_DEVICE void operator()(Problem p) const
    {
        using namespace ck_tile;
        index_t id         = get_block_id();
        const index_t nt   = p.tiles_m * p.tiles_n;
        const index_t t    = id % nt;
        id                 = id / nt;
        const index_t s    = id % p.split_k;
        const index_t g    = id / p.split_k;
        const index_t g0   = g / p.G1;
        const index_t g1   = g % p.G1;
        const index_t m0   = (t / p.tiles_n) * kM;
        const index_t n0   = (t % p.tiles_n) * kN;
        const index_t k0   = s * p.k_per_split;
        const index_t klen = min(p.K - k0, p.k_per_split);

        __shared__ char p_smem[GetSmemSize()];

        auto acc = BlockGemm{}.MakeCBlockTile();
        if(klen > 0)
        {
            const auto* p_a   = static_cast<const ADataType*>(p.p_a) + g0 * p.a_stride_g0 + g1 * p.a_stride_g1 + k0;
            const auto* p_b   = static_cast<const BDataType*>(p.p_b) + g0 * p.b_stride_g0 + g1 * p.b_stride_g1 + k0;
            const auto a_view = pad_tensor_view(
                make_naive_tensor_view<address_space_enum::global>(
                    p_a, make_tuple(p.M, klen), make_tuple(p.a_stride_m, 1), number<Config::kVectorA>{}),
                make_tuple(number<kM>{}, number<kK>{}), sequence<true, true>{});
            const auto b_view = pad_tensor_view(
                make_naive_tensor_view<address_space_enum::global>(
                    p_b, make_tuple(p.N, klen), make_tuple(p.b_stride_n, 1), number<Config::kVectorB>{}),
                make_tuple(number<kN>{}, number<kK>{}), sequence<true, true>{});
            const auto a_window =
                make_tile_window(a_view, make_tuple(number<kM>{}, number<kK>{}), make_multi_index(m0, 0));
            const auto b_window =
                make_tile_window(b_view, make_tuple(number<kN>{}, number<kK>{}), make_multi_index(n0, 0));
            acc = Pipeline{}(a_window, b_window, integer_divide_ceil(klen, kK), p_smem);
        }
        else
        {
            clear_tile(acc);
        }

        const auto mode = static_cast<EpilogueMode>(p.mode);
        if(mode == EpilogueMode::StoreWorkspace)
        {
            const index_t slice = s * p.G + g;
            const auto ws_view =
                pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                    p.p_ws + static_cast<long_index_t>(slice) * p.M * p.ws_ld, make_tuple(p.M, p.ws_ld),
                                    make_tuple(p.ws_ld, 1), number<kVectorWs>{}),
                                make_tuple(number<kM>{}, number<kN>{}), sequence<true, true>{});
            const auto ws_window =
                make_tile_window(ws_view, make_tuple(number<kM>{}, number<kN>{}), make_multi_index(m0, n0));
            store_tile(ws_window, acc);
            return;
        }

        // the fused epilogue through tile windows with the accumulator's distribution: D, E and F
        // seen as M x N tensors, each a [M0, M1, N0, N1] view at its strides with (M0, M1) and
        // (N0, N1) merged, padded to the block tile (out-of-range elements read 0, writes dropped)
        const auto mn_window = [&](auto* ptr, const index_t* st, index_t space) {
            const auto v4 = make_naive_tensor_view<address_space_enum::global>(
                ptr + g0 * st[0] + g1 * st[1], make_tuple(p.M / p.M1, p.M1, p.N / p.N1, p.N1),
                make_tuple(st[2], st[3], st[4], st[5]), number<1>{});
            (void)space;
            const auto v2 = transform_tensor_view(v4,
                                                  make_tuple(make_merge_transform(make_tuple(p.M / p.M1, p.M1)),
                                                             make_merge_transform(make_tuple(p.N / p.N1, p.N1))),
                                                  make_tuple(sequence<0, 1>{}, sequence<2, 3>{}),
                                                  make_tuple(sequence<0>{}, sequence<1>{}));
            return make_tile_window(pad_tensor_view(v2, make_tuple(number<kM>{}, number<kN>{}), sequence<true, true>{}),
                                    make_tuple(number<kM>{}, number<kN>{}), make_multi_index(m0, n0),
                                    typename decltype(acc)::StaticTileDistribution{});
        };
        const auto e_tile = load_tile(mn_window(static_cast<const EDataType*>(p.p_e), p.e_strides, p.e_space));
        if(mode == EpilogueMode::StoreF || s == 0)
        {
            const auto d_tile = load_tile(mn_window(static_cast<const DDataType*>(p.p_d), p.d_strides, p.d_space));
            tile_elementwise_inout([](float& c, const DDataType& d) { c += type_convert<float>(d); }, acc, d_tile);
        }
        tile_elementwise_inout([](float& c, const EDataType& e) { c *= type_convert<float>(e); }, acc, e_tile);
        const auto f_tile   = tile_elementwise_in([](const float& c) { return type_convert<FDataType>(c); }, acc);
        const auto f_window = mn_window(static_cast<FDataType*>(p.p_f), p.f_strides, p.f_space);
        if(mode == EpilogueMode::AtomicAddF)
            atomic_add_tile(f_window, f_tile);
        else
            store_tile(f_window, f_tile);
    }
};

// The second stage: F = (sum over num_partials workspace slices + D) * E.
template <typename Config>
struct ReduceEpilogueKernel
{
    using DDataType = typename Config::DDataType;
    using EDataType = typename Config::EDataType;
    using FDataType = typename Config::FDataType;

    static constexpr index_t kBlockSize  = 256;
    static constexpr index_t kNPerThread = 4;
    static constexpr index_t kNPerBlock  = kBlockSize * kNPerThread;

    CK_TILE_HOST static dim3 GridSize(const Problem& p)
    {
        return dim3(static_cast<unsigned>(p.G * p.M * ck_tile::integer_divide_ceil(p.N, kNPerBlock)));
    }

    CK_TILE_DEVICE void operator()(Problem p, index_t num_partials) const
    {
        using namespace ck_tile;
        const index_t nb   = integer_divide_ceil(p.N, kNPerBlock);
        const index_t id   = get_block_id();
        const index_t row  = id / nb; // g M + m
        const index_t m    = row % p.M;
        const index_t g    = row / p.M;
        const index_t g0   = g / p.G1;
        const index_t g1   = g % p.G1;
        const index_t n_at = (id % nb) * kNPerBlock + get_thread_id() * kNPerThread;
        if(n_at >= p.N)
            return;

        float c[kNPerThread]     = {};
        const long_index_t slice = static_cast<long_index_t>(p.G) * p.M * p.ws_ld;
        const float* p_ws        = p.p_ws + static_cast<long_index_t>(row) * p.ws_ld + n_at;
        for(index_t s = 0; s < num_partials; ++s)
            for(index_t j = 0; j < kNPerThread; ++j) // n_at + 3 < ws_ld: N rounded up to 4
                c[j] += p_ws[s * slice + j];

        const auto* p_d = static_cast<const DDataType*>(p.p_d);
        const auto* p_e = static_cast<const EDataType*>(p.p_e);
        auto* p_f       = static_cast<FDataType*>(p.p_f);
        for(index_t j = 0; j < kNPerThread && n_at + j < p.N; ++j)
        {
            const index_t n = n_at + j;
            const float y   = (c[j] + type_convert<float>(p_d[offset_6d(p.d_strides, g0, g1, m, n, p.M1, p.N1)])) *
                              type_convert<float>(p_e[offset_6d(p.e_strides, g0, g1, m, n, p.M1, p.N1)]);
            p_f[offset_6d(p.f_strides, g0, g1, m, n, p.M1, p.N1)] = type_convert<FDataType>(y);
        }
    }
};

} // namespace ck::tensor_operation::device::splitk_gemm_bias_e_permute
