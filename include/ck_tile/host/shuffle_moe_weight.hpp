// SPDX-License-Identifier: MIT
// shuffle_moe_weight / unshuffle_moe_weight: host conversions of fused-MoE weights to and from the
// layout FusedMoeGemmKernel reads (ck_tile/ops/fused_moe/utility/moe_weight_layout.hpp says what it is).
#pragma once
#include <cstddef>
#include <stdexcept>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/ops/fused_moe/utility/moe_weight_layout.hpp"

namespace ck_tile {

// w: [batch, N, K] (packed); returns the shuffled weights, [batch, Np, Kp] elements in the layout
// above (a 1-D tensor), padding zero.
template <typename T>
CK_TILE_HOST HostTensor<T> shuffle_moe_weight(const HostTensor<T>& w)
{
    if(w.get_num_of_dimension() != 3)
        throw std::invalid_argument("shuffle_moe_weight: the weight must be [batch, N, K]");
    const index_t b        = static_cast<index_t>(w.get_length(0));
    const index_t n        = static_cast<index_t>(w.get_length(1));
    const index_t k        = static_cast<index_t>(w.get_length(2));
    const long_index_t per = moe_weight_layout::matrix_size(n, k);
    HostTensor<T> out({static_cast<std::size_t>(b * per)});
    for(auto& x : out.mData)
        x = type_convert<T>(0.f);
    for(index_t e = 0; e < b; ++e)
        for(index_t r = 0; r < n; ++r)
            for(index_t c = 0; c < k; ++c)
                out.mData[e * per + moe_weight_layout::offset(r, c, k)] = w(e, r, c);
    return out;
}

// The inverse: shuffled weights of [batch, n, k] matrices back to the [batch, n, k] tensor.
template <typename T>
CK_TILE_HOST HostTensor<T> unshuffle_moe_weight(const HostTensor<T>& s, index_t b, index_t n, index_t k)
{
    const long_index_t per = moe_weight_layout::matrix_size(n, k);
    if(static_cast<long_index_t>(s.mData.size()) != b * per)
        throw std::invalid_argument("unshuffle_moe_weight: the size does not match [batch, n, k]");
    HostTensor<T> w({static_cast<std::size_t>(b), static_cast<std::size_t>(n), static_cast<std::size_t>(k)});
    for(index_t e = 0; e < b; ++e)
        for(index_t r = 0; r < n; ++r)
            for(index_t c = 0; c < k; ++c)
                w(e, r, c) = s.mData[e * per + moe_weight_layout::offset(r, c, k)];
    return w;
}

} // namespace ck_tile
