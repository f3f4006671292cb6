// SPDX-License-Identifier: MIT
// shuffle_b / unshuffle_b: the pre-shuffled ("flat") B of the flatmm kernels and the weight
// pre-shuffle GEMM, made on the host.
//
//   auto b_flat = ck_tile::shuffle_b(b_k_n, n_warp_tile, k_warp_tile, k_lane_groups);
//
// B is K x N (any layout, read through its strides). Each n_warp_tile x k_warp_tile warp tile of
// B^T (rows n, K contiguous) becomes one contiguous run of n_warp_tile * k_warp_tile elements laid
// out exactly as the MFMA's B registers of one wave: lane l = kd * n_warp_tile + n1 holds the
// k_warp_tile / k_lane_groups consecutive K values kd * (k_warp_tile / k_lane_groups) + [0, ...) of
// row n1, and lanes follow each other. So a wave reads its B warp tile as one contiguous block,
// each lane one vector, straight into the MFMA operand registers. In upstream's words: B^T viewed as
// [N / NW, NW, K / KW, d, KW / d] and permuted to [N / NW, K / KW, d, NW, KW / d] (d = the lane
// groups along K: 2 for the 32x32 MFMAs, 4 for the 16x16 ones).
//
// The result is ceil(N / NW) rows (one per N warp tile), each of ceil(K / KW) runs: N and K need not
// be multiples of the warp tile (upstream requires it); the padding is zero. unshuffle_b inverts it.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

struct flat_b_layout
{
    std::size_t N, K, n_warp_tile, k_warp_tile, k_lane_groups;

    std::size_t n_tiles() const { return (N + n_warp_tile - 1) / n_warp_tile; }
    std::size_t k_tiles() const { return (K + k_warp_tile - 1) / k_warp_tile; }
    std::size_t k_padded() const { return k_tiles() * k_warp_tile; }
    std::size_t row_length() const { return k_padded() * n_warp_tile; } // elements per N warp tile
    std::size_t size() const { return n_tiles() * row_length(); }

    // where element (k, n) of B lives in the flat buffer
    std::size_t offset(std::size_t k, std::size_t n) const
    {
        const std::size_t per_lane = k_warp_tile / k_lane_groups;
        const std::size_t n0 = n / n_warp_tile, n1 = n % n_warp_tile;
        const std::size_t k0 = k / k_warp_tile, kr = k % k_warp_tile;
        const std::size_t kd = kr / per_lane, kk = kr % per_lane;
        return n0 * row_length() + k0 * n_warp_tile * k_warp_tile + (kd * n_warp_tile + n1) * per_lane + kk;
    }

    void validate() const
    {
        if(n_warp_tile == 0 || k_warp_tile == 0 || k_lane_groups == 0 || k_warp_tile % k_lane_groups != 0)
            throw std::invalid_argument("shuffle_b: the warp tile's K must split evenly over its lane groups");
    }
};

template <typename T>
std::vector<T> shuffle_b(const HostTensor<T>& b_k_n, std::size_t n_warp_tile, std::size_t k_warp_tile,
                         std::size_t k_lane_groups)
{
    if(b_k_n.get_num_of_dimension() != 2)
        throw std::invalid_argument("shuffle_b: B must be 2-D (K x N)");
    const flat_b_layout l{b_k_n.get_length(1), b_k_n.get_length(0), n_warp_tile, k_warp_tile, k_lane_groups};
    l.validate();
    std::vector<T> flat(l.size(), T{});
    for(std::size_t k = 0; k < l.K; ++k)
        for(std::size_t n = 0; n < l.N; ++n)
            flat[l.offset(k, n)] = b_k_n(k, n);
    return flat;
}

// the inverse: flat (as shuffle_b made it for b_k_n's K x N) back into b_k_n
template <typename T>
void unshuffle_b(const std::vector<T>& flat, HostTensor<T>& b_k_n, std::size_t n_warp_tile, std::size_t k_warp_tile,
                 std::size_t k_lane_groups)
{
    const flat_b_layout l{b_k_n.get_length(1), b_k_n.get_length(0), n_warp_tile, k_warp_tile, k_lane_groups};
    l.validate();
    if(flat.size() != l.size())
        throw std::invalid_argument("unshuffle_b: the flat buffer is not the size shuffle_b makes for this B");
    for(std::size_t k = 0; k < l.K; ++k)
        for(std::size_t n = 0; n < l.N; ++n)
            b_k_n(k, n) = flat[l.offset(k, n)];
}

} // namespace ck_tile
