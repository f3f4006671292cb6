// SPDX-License-Identifier: MIT
// reference_permute: y = x.permute(perm) on the host, for checking permute kernels.
//
//   ck_tile::reference_permute(x, y, {2, 1, 0});
//
// y's dimension i is x's dimension perm[i] (torch.permute); y must already have those lengths.
// Elements are copied, not converted, so a bit-exact comparison with a kernel's output is fair.
// It walks y in order and steps x's offset with an odometer, one addition per element.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename DataType>
void reference_permute(const HostTensor<DataType>& x, HostTensor<DataType>& y, std::vector<index_t> perm)
{
    const std::size_t rank = x.get_num_of_dimension();
    if(perm.size() != rank || y.get_num_of_dimension() != rank)
        throw std::invalid_argument("reference_permute: x, y and perm must have the same rank");
    std::vector<bool> seen(rank, false);
    for(std::size_t i = 0; i < rank; ++i)
    {
        const auto p = static_cast<std::size_t>(perm[i]);
        if(perm[i] < 0 || p >= rank || seen[p] || y.get_length(i) != x.get_length(p))
            throw std::invalid_argument("reference_permute: perm is not a permutation matching x and y");
        seen[p] = true;
    }
    if(rank == 0 || y.get_element_size() == 0)
        return;

    // y's coordinate idx, with x's and y's offsets kept in step
    std::vector<std::size_t> idx(rank, 0);
    std::size_t xo = 0, yo = 0;
    for(std::size_t n = 0, total = y.get_element_size(); n < total; ++n)
    {
        y.mData[yo] = x.mData[xo];
        for(std::size_t d = rank; d-- > 0;)
        {
            const std::size_t xs = x.get_stride(static_cast<std::size_t>(perm[d]));
            if(++idx[d] < y.get_length(d))
            {
                xo += xs;
                yo += y.get_stride(d);
                break;
            }
            xo -= xs * (idx[d] - 1);
            yo -= y.get_stride(d) * (idx[d] - 1);
            idx[d] = 0;
        }
    }
}

} // namespace ck_tile
