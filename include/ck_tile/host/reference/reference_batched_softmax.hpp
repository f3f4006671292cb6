// SPDX-License-Identifier: MIT
// reference_batched_softmax: the row softmax of a batch of score matrices, and optionally each
// row's log-sum-exp, on the host, for checking FMHA kernels.
//
//   ck_tile::reference_batched_softmax<SDataType, CompDataType, PDataType>(s_b_m_n, p_b_m_n);
//   ck_tile::reference_batched_softmax<SDataType, CompDataType, PDataType>(s_b_m_n, p_b_m_n, op, lse_b_m);
//
// For each row of S [batch, M, N]: P = comp_element_op(exp(s - max) / sum(exp(s - max))), computed
// in CompDataType (float or double) and converted to BDataType; LSE [batch, M] = max + ln(sum), the
// natural log, whatever base the kernel computes in. A row with no finite score (every element
// masked to -inf, or N = 0) is a row the mask removed entirely: P is comp_element_op(0) = 0 and LSE
// is -inf, which is what the kernel writes for it (check LSE with allow_infinity_ref). Rows are
// spread over the cores.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename ADataType, typename CompDataType, typename BDataType, typename CompElementOp = identity>
void reference_batched_softmax(const HostTensor<ADataType>& a_b_m_n, HostTensor<BDataType>& b_b_m_n,
                               const CompElementOp& comp_element_op                                    = {},
                               std::optional<std::reference_wrapper<HostTensor<CompDataType>>> lse_b_m = std::nullopt)
{
    if(a_b_m_n.get_num_of_dimension() != 3 || a_b_m_n.get_lengths() != b_b_m_n.get_lengths())
        throw std::invalid_argument("reference_batched_softmax: input and output must both be batch x M x N");
    const std::size_t batches = a_b_m_n.get_length(0);
    const std::size_t M       = a_b_m_n.get_length(1);
    const std::size_t N       = a_b_m_n.get_length(2);
    if(lse_b_m)
    {
        const auto& lse = lse_b_m->get();
        if(lse.get_num_of_dimension() != 2 || lse.get_length(0) != batches || lse.get_length(1) != M)
            throw std::invalid_argument("reference_batched_softmax: the LSE must be batch x M");
    }
    const std::size_t rows = batches * M;
    if(rows == 0)
        return;

    const CompDataType neg_inf = -std::numeric_limits<CompDataType>::infinity();
    auto work                  = [&](std::size_t begin, std::size_t end) {
        std::vector<CompDataType> v(N);
        for(std::size_t r = begin; r < end; ++r)
        {
            const std::size_t g = r / M, m = r % M;
            CompDataType vmax = neg_inf;
            for(std::size_t n = 0; n < N; ++n)
            {
                v[n] = type_convert<CompDataType>(a_b_m_n(g, m, n));
                vmax = std::max(vmax, v[n]);
            }
            // all -inf: exp(-inf - -inf) would be NaN; every weight is 0 instead
            const bool empty = vmax == neg_inf;
            CompDataType sum = 0;
            if(!empty)
                for(std::size_t n = 0; n < N; ++n)
                {
                    v[n] = std::exp(v[n] - vmax);
                    sum += v[n];
                }
            for(std::size_t n = 0; n < N; ++n)
            {
                const CompDataType p = empty ? CompDataType{0} : v[n] / sum;
                b_b_m_n(g, m, n)     = type_convert<BDataType>(comp_element_op(p));
            }
            if(lse_b_m)
                lse_b_m->get()(g, m) = empty ? neg_inf : vmax + std::log(sum);
        }
    };

    const std::size_t hw      = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>({hw, rows, std::max<std::size_t>(1, rows * N / (1u << 16))});
    if(workers <= 1)
    {
        work(0, rows);
        return;
    }
    std::vector<std::thread> pool;
    for(std::size_t w = 0; w < workers; ++w)
        pool.emplace_back(work, rows * w / workers, rows * (w + 1) / workers);
    for(auto& t : pool)
        t.join();
}

} // namespace ck_tile
