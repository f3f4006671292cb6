// SPDX-License-Identifier: MIT
// reference_batched_dropout: apply the kernel's dropout decisions to a host tensor, for checking
// FMHA kernels with dropout.
//
//   ck_tile::reference_batched_dropout(p_b_m_n, randval_b_m_n, p_undrop_in_uint8_t, 1 / p_undrop);
//
// The random values are the ones the kernel produced and stored (s_randval), not generated again
// here: the check is of what the kernel did with them. As upstream, an element is kept iff its
// random value is <= p_undrop_in_uint8_t (the keep probability scaled to 0..255 and floored) and
// is then multiplied by scale; a dropped element becomes 0. Both tensors are 3-D [batch, M, N].
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename DataType, typename RandValOutputDataType>
void reference_batched_dropout(HostTensor<DataType>& in_out_b_m_n,
                               const HostTensor<RandValOutputDataType>& randval_b_m_n, uint8_t p_undrop_in_uint8_t,
                               float scale)
{
    if(in_out_b_m_n.get_num_of_dimension() != 3 || in_out_b_m_n.get_lengths() != randval_b_m_n.get_lengths())
        throw std::invalid_argument("reference_batched_dropout: the tensor and the random values must both be "
                                    "batch x M x N");
    const std::size_t batches = in_out_b_m_n.get_length(0);
    const std::size_t M       = in_out_b_m_n.get_length(1);
    const std::size_t N       = in_out_b_m_n.get_length(2);
    for(std::size_t g = 0; g < batches; ++g)
        for(std::size_t m = 0; m < M; ++m)
            for(std::size_t n = 0; n < N; ++n)
            {
                const bool keep       = randval_b_m_n(g, m, n) <= p_undrop_in_uint8_t;
                in_out_b_m_n(g, m, n) = keep
                                            ? type_convert<DataType>(type_convert<float>(in_out_b_m_n(g, m, n)) * scale)
                                            : type_convert<DataType>(0.f);
            }
}

} // namespace ck_tile
