// SPDX-License-Identifier: MIT
// CPU reference: C[m][n] = sum_k A[m][k] * B[n][k], accumulated in float, then converted to C's
// type. A is M x K and B is N x K, both row-major ("A times B transposed", as the kernel reads them).
#pragma once
#include <algorithm>
#include <thread>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

namespace ck_tile {

template <typename ADataType, typename BDataType, typename AccDataType, typename CDataType>
void reference_gemm(const HostTensor<ADataType>& a_m_k, const HostTensor<BDataType>& b_n_k,
                    HostTensor<CDataType>& c_m_n)
{
    const int M = static_cast<int>(a_m_k.get_lengths()[0]);
    const int K = static_cast<int>(a_m_k.get_lengths()[1]);
    const int N = static_cast<int>(b_n_k.get_lengths()[0]);

    // convert once to the accumulation type, then rows are independent: split them over the cores
    std::vector<AccDataType> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(N) * K);
    for(int m = 0; m < M; ++m)
        for(int k = 0; k < K; ++k)
            a[size_t(m) * K + k] = type_convert<AccDataType>(a_m_k(m, k));
    for(int n = 0; n < N; ++n)
        for(int k = 0; k < K; ++k)
            b[size_t(n) * K + k] = type_convert<AccDataType>(b_n_k(n, k));
    auto rows = [&](int m_begin, int m_end) {
        for(int m = m_begin; m < m_end; ++m)
            for(int n = 0; n < N; ++n)
            {
                AccDataType acc = 0;
                for(int k = 0; k < K; ++k)
                    acc += a[size_t(m) * K + k] * b[size_t(n) * K + k];
                c_m_n(m, n) = type_convert<CDataType>(acc);
            }
    };
    const int workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for(int w = 0; w < workers; ++w)
        pool.emplace_back(rows, M * w / workers, M * (w + 1) / workers);
    for(auto& t : pool)
        t.join();
}

} // namespace ck_tile
