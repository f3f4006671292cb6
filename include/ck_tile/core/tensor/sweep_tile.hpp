// SPDX-License-Identifier: MIT
// sweep_tile<DistributedTensor>(f): visits the calling thread's elements of a distributed tile in
// register order. f receives the element's tile_y_index, a compile-time index that the tensor
// accepts in operator() and that tells where the element lies in the tile (get_x_offset).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"

namespace ck_tile {

template <typename Dstr, index_t D>
struct tile_y_index
{
    static constexpr index_t d = D;
    CK_TILE_HOST_DEVICE static constexpr auto get_y_index() { return Dstr::d_to_y(D); }
    // offset of the element from the thread's first element, in tile (X) coordinates
    CK_TILE_HOST_DEVICE static constexpr auto get_x_offset() { return Dstr::d_to_x_offset(D); }
    CK_TILE_HOST_DEVICE constexpr operator multi_index<Dstr::NDimY>() const { return get_y_index(); }
};

template <typename DistributedTensor, typename F>
CK_TILE_HOST_DEVICE constexpr void sweep_tile(const F& f)
{
    using Dstr = typename DistributedTensor::StaticTileDistribution;
    static_for<0, Dstr::thread_buffer_size>{}([&](auto d) { f(tile_y_index<Dstr, d.value>{}); });
}

template <typename DistributedTensor, typename F>
CK_TILE_HOST_DEVICE constexpr void sweep_tile(const DistributedTensor&, const F& f)
{
    sweep_tile<DistributedTensor>(f);
}

} // namespace ck_tile
