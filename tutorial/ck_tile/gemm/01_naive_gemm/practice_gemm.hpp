// SPDX-License-Identifier: MIT
// The kernel: the problem (data types, block tile) and the Gemm struct that turns raw pointers into
// tensor views and runs the grid -> block pipeline -> block GEMM -> warp GEMM chain.
#pragma once
#include "ck_tile/core.hpp"
#include "block_gemm_pipeline_agmem_bgmem_creg.hpp"
#include "grid_gemm.hpp"

namespace ck_tile {

// Block tile: C kM x kN, walked along K in steps of kK.
template <index_t kM_, index_t kN_, index_t kK_>
struct PracticeGemmBlockShape
{
    static constexpr index_t kM = kM_;
    static constexpr index_t kN = kN_;
    static constexpr index_t kK = kK_;
};

template <typename ADataType_, typename BDataType_, typename AccDataType_, typename CDataType_, typename BlockShape_,
          index_t kBlockSize_>
struct PracticeGemmProblem
{
    using ADataType                     = ADataType_;
    using BDataType                     = BDataType_;
    using AccDataType                   = AccDataType_;
    using CDataType                     = CDataType_;
    using BlockShape                    = BlockShape_;
    static constexpr index_t kBlockSize = kBlockSize_;
};

// PipelinePolicy: the policy of the block pipeline (and, through it, of the block GEMM).
template <typename Problem, typename PipelinePolicy = BlockGemmPipelineAGmemBGmemCRegPolicy<>>
struct PracticeGemm
{
    using ADataType = typename Problem::ADataType;
    using BDataType = typename Problem::BDataType;
    using CDataType = typename Problem::CDataType;
    using Shape     = typename Problem::BlockShape;
    using Pipeline  = BlockGemmPipelineAGmemBGmemCReg<Problem, PipelinePolicy>;
    using Grid      = GridGemm<Problem, Pipeline>;

    static constexpr index_t kBlockSize = Problem::kBlockSize;

    CK_TILE_HOST_DEVICE static constexpr index_t GetStaticLdsSize() { return Pipeline::GetStaticLdsSize(); }
    CK_TILE_HOST static bool IsSupportedArgument(index_t M, index_t N, index_t K)
    {
        return M > 0 && N > 0 && K > 0 && M % Shape::kM == 0 && N % Shape::kN == 0 && K % Shape::kK == 0;
    }

    // A: M x K row-major, B: N x K row-major, C: M x N row-major
    CK_TILE_DEVICE void operator()(const ADataType* p_a, const BDataType* p_b, CDataType* p_c, index_t M, index_t N,
                                   index_t K) const
    {
        // rows of K elements are 16-byte aligned when K is a multiple of 8 (it is a multiple of kK)
        const auto a_m_k =
            make_naive_tensor_view<address_space_enum::global>(p_a, make_tuple(M, K), make_tuple(K, 1), number<8>{});
        const auto b_n_k =
            make_naive_tensor_view<address_space_enum::global>(p_b, make_tuple(N, K), make_tuple(K, 1), number<8>{});
        const auto c_m_n =
            make_naive_tensor_view<address_space_enum::global>(p_c, make_tuple(M, N), make_tuple(N, 1), number<8>{});

        __shared__ char smem[GetStaticLdsSize()];
        Grid{}(a_m_k, b_n_k, c_m_n, smem);
    }
};

} // namespace ck_tile
