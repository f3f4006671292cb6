// SPDX-License-Identifier: MIT
// reference_batched_gemm: for every batch b, C[b] = acc_op(sum_k a_op(A[b][m][k]) * b_op(B[b][n][k]))
// on the host, for checking batched GEMM kernels.
//
//   ck_tile::reference_batched_gemm<ADataType, BDataType, AccDataType, CDataType>(a_b_m_k, b_b_n_k,
//                                                                               c_b_m_n);
//
// As upstream: A is batch x M x K, B is batch x N x K (each batch's B seen transposed, whatever
// its storage) and C is batch x M x N, 3-D HostTensors of any strides (a row-major K x N B is the
// view with strides {batch_stride, 1, stride}). Products are summed in AccDataType in order of k;
// acc_op sees the finished sum before the conversion to CDataType. Each batch's A and B are first
// converted to AccDataType into contiguous rows; rows of C are spread over the cores.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename ADataType, typename BDataType, typename AccDataType, typename CDataType,
          typename AElementOp = identity, typename BElementOp = identity, typename ACCElementOp = identity>
void reference_batched_gemm(const HostTensor<ADataType>& a_b_m_k, const HostTensor<BDataType>& b_b_n_k,
                            HostTensor<CDataType>& c_b_m_n, const AElementOp& a_element_op = {},
                            const BElementOp& b_element_op = {}, const ACCElementOp& acc_element_op = {})
{
    if(a_b_m_k.get_num_of_dimension() != 3 || b_b_n_k.get_num_of_dimension() != 3 ||
       c_b_m_n.get_num_of_dimension() != 3)
        throw std::invalid_argument("reference_batched_gemm: A, B and C must be 3-D (batch first)");
    const std::size_t batches = a_b_m_k.get_length(0);
    const std::size_t M       = a_b_m_k.get_length(1);
    const std::size_t K       = a_b_m_k.get_length(2);
    const std::size_t N       = b_b_n_k.get_length(1);
    if(b_b_n_k.get_length(0) != batches || c_b_m_n.get_length(0) != batches || b_b_n_k.get_length(2) != K ||
       c_b_m_n.get_length(1) != M || c_b_m_n.get_length(2) != N)
        throw std::invalid_argument("reference_batched_gemm: A must be batch x M x K, B batch x N x K and C "
                                    "batch x M x N");
    if(batches == 0 || M == 0 || N == 0)
        return;

    const std::size_t hw      = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(hw, std::max<std::size_t>(1, M * N * K / (1u << 16)));
    std::vector<AccDataType> a(M * K), b(N * K);
    for(std::size_t g = 0; g < batches; ++g)
    {
        for(std::size_t m = 0; m < M; ++m)
            for(std::size_t k = 0; k < K; ++k)
                a[m * K + k] = type_convert<AccDataType>(a_element_op(a_b_m_k(g, m, k)));
        for(std::size_t n = 0; n < N; ++n)
            for(std::size_t k = 0; k < K; ++k)
                b[n * K + k] = type_convert<AccDataType>(b_element_op(b_b_n_k(g, n, k)));

        auto rows = [&](std::size_t begin, std::size_t end) {
            for(std::size_t m = begin; m < end; ++m)
                for(std::size_t n = 0; n < N; ++n)
                {
                    const AccDataType* pa = a.data() + m * K;
                    const AccDataType* pb = b.data() + n * K;
                    AccDataType acc       = 0;
                    for(std::size_t k = 0; k < K; ++k)
                        acc += pa[k] * pb[k];
                    c_b_m_n(g, m, n) = type_convert<CDataType>(acc_element_op(acc));
                }
        };
        if(workers <= 1 || M < 2)
        {
            rows(0, M);
            continue;
        }
        std::vector<std::thread> pool;
        for(std::size_t w = 0; w < workers; ++w)
            pool.emplace_back(rows, M * w / workers, M * (w + 1) / workers);
        for(auto& t : pool)
            t.join();
    }
}

} // namespace ck_tile
