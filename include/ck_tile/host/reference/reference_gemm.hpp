// SPDX-License-Identifier: MIT
// reference_gemm: C = acc_op(sum_k a_op(A[m][k]) * b_op(B[k][n])) on the host, for checking GEMM
// kernels.
//
//   ck_tile::reference_gemm<ADataType, BDataType, AccDataType, CDataType>(a_m_k, b_k_n, c_m_n);
//
// A is M x K, B is K x N and C is M x N HostTensors of any layout: elements are read and written
// through their strides (host_tensor_descriptor(rows, cols, stride, row_major) makes them). The
// products are summed in AccDataType (float, or double for a reference closer to the exact value)
// in order of k; the ops are unary callables (default: identity) and acc_op sees the finished sum
// in AccDataType before the conversion to CDataType. A and B are first converted to AccDataType
// into contiguous rows (A) and columns (B), then C is computed by all cores, 4 columns at a time.
//
// reference_gemm_gpu: the same sum on the device (upstream's -v=2), one thread per element of C,
// for checking a kernel against another device computation; on the emulator it runs through the
// emulator like any kernel.
//
//   ck_tile::reference_gemm_gpu<A, B, Acc, C, ALayout, BLayout, CLayout>(a_dev, b_dev, c_dev, M, N, K,
//                                                                    stride_a, stride_b, stride_c);
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/kernel_launch.hpp"

namespace ck_tile {

template <typename ADataType, typename BDataType, typename AccDataType, typename CDataType,
          typename AElementOp = identity, typename BElementOp = identity, typename ACCElementOp = identity>
void reference_gemm(const HostTensor<ADataType>& a_m_k, const HostTensor<BDataType>& b_k_n,
                    HostTensor<CDataType>& c_m_n, const AElementOp& a_element_op = {},
                    const BElementOp& b_element_op = {}, const ACCElementOp& acc_element_op = {})
{
    if(a_m_k.get_num_of_dimension() != 2 || b_k_n.get_num_of_dimension() != 2 || c_m_n.get_num_of_dimension() != 2)
        throw std::invalid_argument("reference_gemm: A, B and C must be 2-D");
    const std::size_t M = a_m_k.get_length(0);
    const std::size_t K = a_m_k.get_length(1);
    const std::size_t N = b_k_n.get_length(1);
    if(b_k_n.get_length(0) != K || c_m_n.get_length(0) != M || c_m_n.get_length(1) != N)
        throw std::invalid_argument("reference_gemm: A must be M x K, B K x N and C M x N");

    // A as M rows of K, B as N rows of K (transposed), both in AccDataType
    std::vector<AccDataType> a(M * K), b(N * K);
    for(std::size_t m = 0; m < M; ++m)
        for(std::size_t k = 0; k < K; ++k)
            a[m * K + k] = type_convert<AccDataType>(a_element_op(a_m_k(m, k)));
    for(std::size_t k = 0; k < K; ++k)
        for(std::size_t n = 0; n < N; ++n)
            b[n * K + k] = type_convert<AccDataType>(b_element_op(b_k_n(k, n)));

    // work item: 4 columns of one row
    const std::size_t n_groups = (N + 3) / 4;
    const std::size_t items    = M * n_groups;
    auto work                  = [&](std::size_t begin, std::size_t end) {
        for(std::size_t it = begin; it < end; ++it)
        {
            const std::size_t m   = it / n_groups;
            const std::size_t n0  = (it % n_groups) * 4;
            const std::size_t nn  = std::min<std::size_t>(4, N - n0);
            const AccDataType* pa = a.data() + m * K;
            AccDataType acc[4]    = {};
            const AccDataType* pb[4];
            for(std::size_t j = 0; j < 4; ++j)
                pb[j] = b.data() + (n0 + (j < nn ? j : 0)) * K;
            for(std::size_t k = 0; k < K; ++k)
            {
                const AccDataType x = pa[k];
                acc[0] += x * pb[0][k];
                acc[1] += x * pb[1][k];
                acc[2] += x * pb[2][k];
                acc[3] += x * pb[3][k];
            }
            for(std::size_t j = 0; j < nn; ++j)
                c_m_n(m, n0 + j) = type_convert<CDataType>(acc_element_op(acc[j]));
        }
    };

    const std::size_t hw      = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(hw, std::max<std::size_t>(1, M * N * K / (1u << 16)));
    if(workers <= 1 || items < 2)
    {
        work(0, items);
        return;
    }
    std::vector<std::thread> pool;
    for(std::size_t w = 0; w < workers; ++w)
        pool.emplace_back(work, items * w / workers, items * (w + 1) / workers);
    for(auto& t : pool)
        t.join();
}

// C[m][n] = sum_k A[m][k] * B[k][n] in AccDataType, in order of k, for element m * N + n of the
// grid; the layouts say which index of A and B is contiguous.
template <typename ADataType, typename BDataType, typename AccDataType, typename CDataType, typename ALayout,
          typename BLayout, typename CLayout>
struct ReferenceGemmKernel
{
    static_assert(is_row_major_v<CLayout>, "reference_gemm_gpu: C is row-major");

    CK_TILE_DEVICE void operator()(const ADataType* a, const BDataType* b, CDataType* c, index_t M, index_t N,
                                   index_t K, index_t stride_a, index_t stride_b, index_t stride_c) const
    {
        const long_index_t i = static_cast<long_index_t>(get_block_id()) * get_block_size() + get_thread_id();
        if(i >= static_cast<long_index_t>(M) * N)
            return;
        const index_t m = static_cast<index_t>(i / N);
        const index_t n = static_cast<index_t>(i % N);
        AccDataType acc = 0;
        for(index_t k = 0; k < K; ++k)
        {
            const ADataType x = is_row_major_v<ALayout> ? a[static_cast<long_index_t>(m) * stride_a + k]
                                                        : a[static_cast<long_index_t>(k) * stride_a + m];
            const BDataType y = is_row_major_v<BLayout> ? b[static_cast<long_index_t>(k) * stride_b + n]
                                                        : b[static_cast<long_index_t>(n) * stride_b + k];
            acc += type_convert<AccDataType>(x) * type_convert<AccDataType>(y);
        }
        c[static_cast<long_index_t>(m) * stride_c + n] = type_convert<CDataType>(acc);
    }
};

template <typename ADataType, typename BDataType, typename AccDataType, typename CDataType, typename ALayout,
          typename BLayout, typename CLayout>
void reference_gemm_gpu(const ADataType* a, const BDataType* b, CDataType* c, index_t M, index_t N, index_t K,
                        index_t stride_a, index_t stride_b, index_t stride_c)
{
    constexpr index_t kBlock = 256;
    const long_index_t grid  = (static_cast<long_index_t>(M) * N + kBlock - 1) / kBlock;
    launch_kernel(stream_config{},
                  make_kernel<kBlock>(
                      ReferenceGemmKernel<ADataType, BDataType, AccDataType, CDataType, ALayout, BLayout, CLayout>{},
                      dim3(static_cast<unsigned>(grid)), dim3(kBlock), 0, a, b, c, M, N, K, stride_a, stride_b,
                      stride_c));
}

} // namespace ck_tile
