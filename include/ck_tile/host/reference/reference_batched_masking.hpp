// SPDX-License-Identifier: MIT
// reference_batched_masking: set every score the attention mask drops to -infinity, on the host,
// for checking FMHA kernels.
//
//   ck_tile::reference_batched_masking(s_b_m_n, mask);
//
// S is a 3-D HostTensor [batch, M, N] (batch = heads of one sequence, M query rows, N key
// columns); element (b, m, n) becomes -inf where mask.IsOutOfBound(m, n), the same test the kernel
// makes, so the softmax that follows gives it weight 0. Every batch sees the same mask.
#pragma once
#include <cstddef>
#include <stdexcept>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename CDataType, typename MaskingType>
void reference_batched_masking(HostTensor<CDataType>& c_b_m_n, const MaskingType& mask)
{
    if(c_b_m_n.get_num_of_dimension() != 3)
        throw std::invalid_argument("reference_batched_masking: the scores must be 3-D (batch, M, N)");
    const std::size_t batches = c_b_m_n.get_length(0);
    const std::size_t M       = c_b_m_n.get_length(1);
    const std::size_t N       = c_b_m_n.get_length(2);
    const CDataType neg_inf   = -numeric<CDataType>::infinity();
    for(std::size_t g = 0; g < batches; ++g)
        for(std::size_t m = 0; m < M; ++m)
            for(std::size_t n = 0; n < N; ++n)
                if(mask.IsOutOfBound(static_cast<index_t>(m), static_cast<index_t>(n)))
                    c_b_m_n(g, m, n) = neg_inf;
}

} // namespace ck_tile
